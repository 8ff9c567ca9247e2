// Command recipedata writes the sample files of docs/recipes.md into
// examples/data: a 200-server rate-limiter graph with its demand trace, a
// measured anycast CDN whose correlation rows sum to 1 only within
// measurement error with a beacon campaign on it, a mobile user's hold costs with a timestamp
// column, and the migration costs between those edge servers, and a
// mobility trace of two users in a 1 km² mesh with its routers. Every file is a pure function of the seeds below.
//
//	go run ./examples/recipedata            # rewrites examples/data
//	go run ./examples/recipedata -out DIR
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/competitive/mobility"
	"github.com/loadlab/loadlab/wgraph/gen"
)

func main() {
	out := flag.String("out", filepath.Join("examples", "data"), "folder of the files")
	flag.Parse()
	for name, write := range map[string]func(io.Writer) error{
		"servers200.csv":      servers,
		"demand200.csv":       demand,
		"cdn-nodes.csv":       func(w io.Writer) error { return cdn(w, nil) },
		"cdn-corr.csv":        func(w io.Writer) error { return cdn(nil, w) },
		"cdn-beacons.csv":     cdnBeacons,
		"hold-costs.csv":      holdCosts,
		"migration-costs.csv": migrationCosts,
		"mobility-trace.csv":  mobilityTrace,
		"mesh-routers.csv":    meshRouters,
	} {
		if err := writeFile(filepath.Join(*out, name), write); err != nil {
			fmt.Fprintln(os.Stderr, "recipedata:", err)
			os.Exit(1)
		}
	}
}

// writeFile writes path with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// label is the name of server i.
func label(i int) string { return fmt.Sprintf("srv-%03d", i) }

// servers is a 200-server graph: a random connected sparse graph of
// mean degree 4 with link weights (exchange rates) between 0.5 and 2.
func servers(w io.Writer) error {
	g, err := gen.RandomConnectedSparse(200, 4, 0.5, 2, rand.NewPCG(200, 1))
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"source", "target", "weight"})
	for _, e := range g.Edges() {
		cw.Write([]string{label(e.U), label(e.V), strconv.FormatFloat(math.Round(e.W*100)/100, 'f', -1, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// demand is 500 steps of requests per second at the 200 servers: a
// daily swing shared by all, a level of its own per server, and noise.
func demand(w io.Writer) error {
	rng := rand.New(rand.NewPCG(200, 2))
	level := make([]float64, 200)
	head := make([]string, 200)
	for i := range level {
		level[i] = 50 + 100*rng.Float64()
		head[i] = label(i)
	}
	cw := csv.NewWriter(w)
	cw.Write(head)
	row := make([]string, 200)
	for k := range 500 {
		day := 1 + 0.4*math.Sin(2*math.Pi*float64(k)/500)
		for i := range row {
			r := level[i]*day + 5*rng.NormFloat64()
			row[i] = strconv.FormatFloat(math.Round(max(r, 0)*10)/10, 'f', -1, 64)
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// cdn writes a 60-node CDN as measured: the generator's network with
// every correlation perturbed by measurement noise of relative size
// 1e-4 and rounded to 6 decimals, so the rows sum to 1 only within about
// 1e-4. nodes gets columns A and T, corr the dense matrix.
func cdn(nodes, corr io.Writer) error {
	nw, err := anycast.GenerateCDN(rand.NewPCG(60, 1), &anycast.CDNSettings{N: 60, K: 5})
	if err != nil {
		return err
	}
	if nodes != nil {
		cw := csv.NewWriter(nodes)
		cw.Write([]string{"A", "T"})
		for i := range nw.A {
			cw.Write([]string{fmt.Sprintf("%.4f", nw.A[i]), fmt.Sprintf("%.4f", nw.T[i])})
		}
		cw.Flush()
		return cw.Error()
	}
	rng := rand.New(rand.NewPCG(60, 2))
	cw := csv.NewWriter(corr)
	row := make([]string, 60)
	for j := range 60 {
		for i := range 60 {
			c := nw.At(j, i)
			if c != 0 {
				c *= 1 + 1e-4*rng.NormFloat64()
			}
			row[i] = strconv.FormatFloat(math.Round(c*1e6)/1e6, 'f', -1, 64)
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// cdnBeacons writes a beacon campaign on the same CDN's true C: 2000
// beacons per region (beacon.Draw), as the table region,proxy,count.
func cdnBeacons(w io.Writer) error {
	nw, err := anycast.GenerateCDN(rand.NewPCG(60, 1), &anycast.CDNSettings{N: 60, K: 5})
	if err != nil {
		return err
	}
	b := make([]int64, nw.N())
	for j := range b {
		b[j] = 2000
	}
	cnt, err := beacon.Draw(nw.Sparse, b, rand.NewPCG(60, 3))
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"region", "proxy", "count"})
	for j := range b {
		proxies, counts := cnt.Row(j)
		for k, i := range proxies {
			cw.Write([]string{strconv.Itoa(j), strconv.Itoa(i), strconv.FormatInt(counts[k], 10)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// holdCosts is a mobile user's hold costs at 8 edge servers: the user
// walks at 1.5 m/s (one slot a minute) through a 2 km square, and
// holding the service at a server costs the user's distance to it in
// km. The first column is the slot's time stamp.
func holdCosts(w io.Writer) error {
	src := rand.NewPCG(8, 1)
	walk, err := mobility.RandomWaypoint(2000, 90, 720, src)
	if err != nil {
		return err
	}
	sites := edgeSites()
	head := []string{"time"}
	for i := range sites {
		head = append(head, fmt.Sprintf("edge-%d", i+1))
	}
	cw := csv.NewWriter(w)
	cw.Write(head)
	t0 := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	for t, p := range walk.Pos {
		row := []string{t0.Add(time.Duration(t) * time.Minute).Format(time.RFC3339)}
		for _, s := range sites {
			row = append(row, fmt.Sprintf("%.3f", math.Hypot(p.X-s.X, p.Y-s.Y)/1000))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// edgeSites are the places of the 8 edge servers of hold-costs.csv, in
// metres in a 2 km square.
func edgeSites() []mobility.Point {
	rng := rand.New(rand.NewPCG(8, 2))
	sites := make([]mobility.Point, 8)
	for i := range sites {
		sites[i] = mobility.Point{X: 2000 * rng.Float64(), Y: 2000 * rng.Float64()}
	}
	return sites
}

// migrationCosts is the cost of moving the session's state between the
// 8 edge servers of hold-costs.csv: a fixed hand-over cost of 1 plus the
// distance between the two servers in km (a metric), 0 on the diagonal.
func migrationCosts(w io.Writer) error {
	sites := edgeSites()
	cw := csv.NewWriter(w)
	var head []string
	for i := range sites {
		head = append(head, fmt.Sprintf("edge-%d", i+1))
	}
	cw.Write(head)
	for _, p := range sites {
		var row []string
		for _, q := range sites {
			d := 0.0
			if p != q {
				d = (1000 + math.Round(math.Hypot(p.X-q.X, p.Y-q.Y))) / 1000
			}
			row = append(row, strconv.FormatFloat(d, 'f', -1, 64))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// mobilityTrace is two users walking by random way-point at 10 m/s in a
// 1 km square for an hour, each position sampled every 10 s and rounded
// to the metre: columns time (s), user, x, y (m).
func mobilityTrace(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"time", "user", "x", "y"})
	walks := make([]*mobility.Walk, 2)
	for u := range walks {
		wk, err := mobility.RandomWaypoint(1000, 10, 3601, rand.NewPCG(11, uint64(u)))
		if err != nil {
			return err
		}
		walks[u] = wk
	}
	for t := 0; t <= 3600; t += 10 {
		for u, wk := range walks {
			p := wk.Pos[t]
			cw.Write([]string{strconv.Itoa(t), strconv.Itoa(u + 1), strconv.Itoa(int(math.Round(p.X))), strconv.Itoa(int(math.Round(p.Y)))})
		}
	}
	cw.Flush()
	return cw.Error()
}

// meshRouters is the 100 routers of that mesh, 100 m apart at the cell
// centres of a 10 × 10 grid: columns x, y (m); router i is row i.
func meshRouters(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"x", "y"})
	for i := range 10 {
		for j := range 10 {
			cw.Write([]string{strconv.Itoa(100*j + 50), strconv.Itoa(100*i + 50)})
		}
	}
	cw.Flush()
	return cw.Error()
}
