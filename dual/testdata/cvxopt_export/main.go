// Command cvxopt_export writes the sparse benchmark instances for the
// cvxopt comparison (dual/testdata/cvxopt_compare.sh) and solves them
// with package dual in the same run: for each N it writes
// OUT/net_N.json (dataio's network JSON, sparse C as C_triplets) and
// OUT/dual_N.json (dual.Solve's certified interval [Best, Upper] with
// default settings, dual.Primal's [Lower, Value], and the wall and CPU
// seconds of each).
//
//	go run ./dual/testdata/cvxopt_export -out DIR -n 1000,10000
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/cputime"
)

// timed runs f and returns its wall and CPU seconds.
func timed(f func() error) (wall, cpus float64, err error) {
	c0, t0 := cputime.Process().Seconds(), time.Now()
	err = f()
	return time.Since(t0).Seconds(), cputime.Process().Seconds() - c0, err
}

func main() {
	out := flag.String("out", ".", "output directory")
	sizes := flag.String("n", "1000,10000", "comma-separated network sizes")
	flag.Parse()
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			log.Fatalf("-n: %v", err)
		}
		if err := export(*out, n); err != nil {
			log.Fatalf("N = %d: %v", n, err)
		}
	}
}

// export writes and solves the instance of BenchmarkSolveSparse_N*: the
// synthetic CDN of GenerateCDN (seed 13, 2; K = 10) with dual.Quadratic's
// costs w = 1, c = 4.
func export(dir string, n int) error {
	nw, err := anycast.GenerateCDN(rand.NewPCG(13, 2), &anycast.CDNSettings{N: n, K: 10})
	if err != nil {
		return err
	}
	p, err := dual.Quadratic(nw, 1, 4)
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("net_%d.json", n)))
	if err != nil {
		return err
	}
	if err := dataio.WriteNetworkJSON(f, nw); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	var res *dual.Result
	sw, sc, err := timed(func() (err error) { res, err = dual.Solve(p, nil); return err })
	if err != nil {
		return err
	}
	var ref *dual.PrimalResult
	pw, pc, err := timed(func() (err error) { ref, err = dual.Primal(p, nil); return err })
	if err != nil {
		return err
	}
	b, err := json.Marshal(map[string]any{
		"dual_status": res.Status.String(), "dual_steps": res.Iter,
		"dual_best": res.Best, "dual_upper": res.Upper, "dual_wall_s": sw, "dual_cpu_s": sc,
		"primal_lower": ref.Lower, "primal_value": ref.Value, "primal_wall_s": pw, "primal_cpu_s": pc,
	})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, fmt.Sprintf("dual_%d.json", n)), b, 0o644)
}
