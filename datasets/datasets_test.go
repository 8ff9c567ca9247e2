package datasets

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/wgraph"
)

// facts counts the embedded file by a route independent of graphio: a
// plain split of its lines.
func facts(t *testing.T, src []byte) (n, m, maxDeg int, wsum float64) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")[1:] // drop the header
	deg := map[int]int{}
	for _, l := range lines {
		f := strings.Split(l, ",")
		u, _ := strconv.Atoi(f[0])
		v, _ := strconv.Atoi(f[1])
		deg[u]++
		deg[v]++
		w := 1.0
		if len(f) == 3 {
			w, _ = strconv.ParseFloat(f[2], 64)
		}
		wsum += w
	}
	for _, d := range deg {
		maxDeg = max(maxDeg, d)
	}
	return len(deg), len(lines), maxDeg, wsum
}

func TestDatasets(t *testing.T) {
	for _, c := range []struct {
		name      string
		load      func() *graphio.Data
		src       []byte
		n, m      int // shared/data/networks/README.md
		wantMaxDg int // -1: not stated there
	}{
		{"power", PowerGrid, power, 4941, 6594, -1},
		{"netscience", NetScience, netscience, 379, 914, -1},
		{"karate", Karate, karate, 34, 78, 17},
		{"internet AS", InternetAS, internetAS, 22963, 48436, 2390},
	} {
		d := c.load()
		g := d.Graph
		n, m, maxDeg, wsum := facts(t, c.src)
		if g.Order() != c.n || g.Size() != c.m || n != c.n || m != c.m {
			t.Errorf("%s: graph %d nodes %d edges, file %d/%d, README %d/%d", c.name, g.Order(), g.Size(), n, m, c.n, c.m)
		}
		if !wgraph.IsConnected(g) || len(d.Components) != 1 {
			t.Errorf("%s: not connected (components %v)", c.name, d.Components)
		}
		gmax, gsum := 0, 0.0
		for u := 0; u < g.Order(); u++ {
			gmax = max(gmax, g.Degree(u))
			gsum += g.WeightedDegree(u)
		}
		if gmax != maxDeg || (c.wantMaxDg >= 0 && gmax != c.wantMaxDg) {
			t.Errorf("%s: max degree %d, file says %d", c.name, gmax, maxDeg)
		}
		// The weights are short decimals; summing in two orders differs by rounding only.
		if math.Abs(gsum/2-wsum) > 1e-9*wsum {
			t.Errorf("%s: weight sum %v, file %v", c.name, gsum/2, wsum)
		}
		if d.Labels[7] != "7" {
			t.Errorf("%s: node 7 is labelled %q", c.name, d.Labels[7])
		}
	}
	// README: netscience weights sum to 489.50 (rounded).
	_, _, _, ws := facts(t, netscience)
	if math.Abs(ws-489.50) > 0.005 {
		t.Errorf("netscience weight sum %v, README says 489.50", ws)
	}
}

// TestNodeNumbering checks that node i of the graph is node i of the file.
func TestNodeNumbering(t *testing.T) {
	g := Karate().Graph
	for _, l := range strings.Split(strings.TrimSpace(string(karate)), "\n")[1:] {
		f := strings.Split(l, ",")
		u, _ := strconv.Atoi(f[0])
		v, _ := strconv.Atoi(f[1])
		if !g.HasEdge(u, v) {
			t.Fatalf("file edge %d–%d missing from the graph", u, v)
		}
	}
	var b bytes.Buffer
	if err := graphio.WriteEdgeList(&b, g, nil); err != nil {
		t.Fatal(err)
	}
}
