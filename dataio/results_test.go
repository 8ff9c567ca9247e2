package dataio

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/competitive/mobility"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/ode"
	"github.com/loadlab/loadlab/stability"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

var update = flag.Bool("update", false, "rewrite testdata/json_keys.golden")

// results builds one real value of every public result type, from small
// runs of each package.
func results(t *testing.T) map[string]any {
	t.Helper()
	out := map[string]any{}
	must := func(name string, v any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = v
	}
	cyc, err := gen.Cycle(8)
	if err != nil {
		t.Fatal(err)
	}
	th := &consensus.Throttler{Graph: cyc, Gamma: 0.3}
	tr, err := consensus.Simulate(th, &consensus.RandomWalkDemand{Start: make([]float64, 8), Sigma: 1, Src: rand.NewPCG(1, 1)}, make([]float64, 8), 5, nil)
	must("consensus.Trajectory", tr, err)
	gr, err := consensus.GreedyLinks(th, []wgraph.Edge{{U: 0, V: 4, W: 1}}, 1)
	must("consensus.Greedy", gr, err)
	est, err := consensus.EstimateRho(th, consensus.Case1, 1, consensus.MonteCarlo{Runs: 2, Steps: 10})
	must("loadlab.Estimate", est, err)

	tor, err := codedload.NewTorus(16)
	if err != nil {
		t.Fatal(err)
	}
	cfg := codedload.Config{Topology: tor, Files: 10, Cache: 2, Strategy: codedload.Coded{Ell: 3}}
	cr, err := codedload.Run(cfg, rand.NewPCG(1, 2))
	must("codedload.Result", cr, err)
	pts, err := codedload.Sweep([]codedload.Point{{X: 16, Config: cfg}}, 2, 1, nil)
	must("codedload.PointResult", pts[0], err)

	nw, err := anycast.NewNetwork([]float64{2, 1}, mat.NewDense(2, 2, []float64{0.7, 0.3, 0, 1}), []float64{1.5, 1.2})
	if err != nil {
		t.Fatal(err)
	}
	p, err := dual.Quadratic(nw, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	dr, err := dual.Solve(p, nil)
	must("dual.Result", dr, err)
	pr, err := dual.Primal(p, nil)
	must("dual.PrimalResult", pr, err)

	law, err := stability.NewLaw(nw, 5)
	if err != nil {
		t.Fatal(err)
	}
	st, err := law.Integrate([]float64{0.5, 0.5}, 10, nil)
	must("stability.Trajectory", st, err)
	or, err := ode.Solve(func(dy []float64, _ float64, y []float64) { dy[0] = y[0] * (1 - y[0]) }, 0, []float64{0.1}, []float64{1, 2}, nil)
	must("ode.Result", or, err)

	sol, err := laplacian.NewSolver(cyc, nil, rand.NewPCG(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	b := []float64{1, -1, 0, 0, 0, 0, 0, 0}
	sr, err := sol.Solve(make([]float64, 8), b)
	must("laplacian.SolveResult", sr, err)
	q4, err := gen.Hypercube(4)
	if err != nil {
		t.Fatal(err)
	}
	kr, err := estimate.Kirchhoff(q4, nil, rand.NewPCG(1, 4))
	must("estimate.TraceResult", kr, err)

	mres, err := mobility.Compare(mobility.Mesh{}, mobility.Baselines(), 2, 1, 0)
	must("mobility.Result", mres[0], err)
	return out
}

// keys returns the sorted top-level keys of v's JSON object.
func keys(t *testing.T, v any) []string {
	b, err := MarshalJSON(v)
	if err != nil {
		t.Fatalf("%T: %v", v, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%T: not a JSON object: %v", v, err)
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestResultsJSON checks that every result type marshals and that its
// field names are those recorded in testdata/json_keys.golden: a rename
// of a result field shows here (run with -update after a deliberate one).
func TestResultsJSON(t *testing.T) {
	var b bytes.Buffer
	rs := results(t)
	names := make([]string, 0, len(rs))
	for n := range rs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%s: %s\n", n, strings.Join(keys(t, rs[n]), " "))
	}
	golden := filepath.Join("testdata", "json_keys.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("JSON field names changed; if deliberate, run go test ./dataio -run TestResultsJSON -update\ngot:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestResultsTidy writes the sweep-like results as tidy CSV and the
// trajectories as columns, and reads them back as tables.
func TestResultsTidy(t *testing.T) {
	rs := results(t)
	var b bytes.Buffer
	for _, v := range []any{[]codedload.PointResult{rs["codedload.PointResult"].(codedload.PointResult)}, []mobility.Result{rs["mobility.Result"].(mobility.Result)}} {
		b.Reset()
		if err := WriteTidy(&b, v); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil || len(recs) != 2 {
			t.Errorf("%T: tidy CSV with %d records: %v", v, len(recs), err)
		}
	}
	b.Reset()
	if err := WriteColumns(&b, rs["consensus.Trajectory"], "step"); err != nil {
		t.Fatal(err)
	}
	written := b.String()
	// The step column counts 0, 1, 2, …: an index, refused unless skipped.
	if _, err := ReadTable(strings.NewReader(written), nil); !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), `column "step"`) {
		t.Errorf("step column read as data: %v", err)
	}
	tb, err := ReadTable(strings.NewReader(written), &TableOptions{Skip: []string{"step"}})
	if err != nil || len(tb.Rows) != 5 || tb.Columns[0] == "step" {
		t.Fatalf("trajectory columns: %v", err)
	}
	if c, err := tb.Column("l_total"); err != nil || math.Abs(tb.Rows[4][c]-tb.Rows[0][c]) > 1e-12 {
		t.Errorf("l_total column missing or not conserved: %v", err)
	}
}
