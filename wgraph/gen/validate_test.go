package gen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// familyCases probes the deterministic families: sizes below each
// family's smallest simple graph, and sizes beyond the memory budget.
func familyCases() []badarg.Case {
	var cs []badarg.Case
	for name, c := range map[string]struct {
		f   func(n int) error
		min int
	}{
		"Path":     {func(n int) error { _, err := gen.Path(n); return err }, 1},
		"Cycle":    {func(n int) error { _, err := gen.Cycle(n); return err }, 3},
		"Complete": {func(n int) error { _, err := gen.Complete(n); return err }, 1},
		"Star":     {func(n int) error { _, err := gen.Star(n); return err }, 1},
	} {
		p := badarg.Probe{Func: name, Err: inv, Text: "n = %v"}
		cs = append(cs, p.Int("n", badarg.Positive, c.f)...)
		if c.min > 1 {
			cs = append(cs, p.Fails(fmt.Sprintf("n = %d", c.min-1), fmt.Sprintf("n = %d", c.min-1), func() error { return c.f(c.min - 1) }))
		}
		cs = append(cs, badarg.Probe{Func: name, Err: tooLarge}.Fails("n = 2^40", "", func() error { return c.f(1 << 40) }))
	}
	for name, c := range map[string]struct {
		f   func(r, c int) error
		min int
	}{
		"Grid":  {func(r, c int) error { _, err := gen.Grid(r, c); return err }, 1},
		"Torus": {func(r, c int) error { _, err := gen.Torus(r, c); return err }, 3},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Int("rows", badarg.Positive, func(r int) error { return c.f(r, 4) })...)
		cs = append(cs, p.Int("cols", badarg.Positive, func(k int) error { return c.f(4, k) })...)
		if c.min > 1 {
			cs = append(cs, p.Fails("cols = 2", "cols = 2", func() error { return c.f(4, 2) }))
		}
		cs = append(cs, badarg.Probe{Func: name, Err: tooLarge}.Fails("2^20×2^20", "rows×cols = 1048576×1048576", func() error { return c.f(1<<20, 1<<20) }))
	}
	hyper := func(d int) error { _, err := gen.Hypercube(d); return err }
	p := badarg.Probe{Func: "Hypercube", Err: inv}
	cs = append(cs, p.Int("d", badarg.NonNegative, hyper)...)
	cs = append(cs,
		p.Fails("d = 31", "d = 31", func() error { return hyper(gen.MaxHypercubeDim + 1) }),
		// Q_30 has 15·2^30 edges, beyond MaxEdges: the error names that count.
		badarg.Probe{Func: "Hypercube", Err: tooLarge}.Fails("d = 30", "Hypercube: 16106127360 edges", func() error { return hyper(30) }),
	)
	return cs
}

// randomCases probes the random generators: sizes, probabilities, radii,
// degrees and weight ranges outside their domains, sizes beyond the
// memory budget, and a nil rand.Source (a documented panic).
func randomCases() []badarg.Case {
	src := graphtest.PCG(1)
	var cs []badarg.Case

	er := func(n int, p float64, conn bool) error { _, err := gen.ErdosRenyi(n, p, conn, src); return err }
	p := badarg.Probe{Func: "ErdosRenyi", Err: inv}
	cs = append(cs, p.Int("n", badarg.NonNegative, func(n int) error { return er(n, 0.5, false) })...)
	cs = append(cs, p.Scalar("p", badarg.Unit, func(x float64) error { return er(10, x, false) })...)
	cs = append(cs,
		// About 90 isolated nodes expected: no connected sample to find.
		p.Fails("p below the connectivity threshold", "p = 0.001 too small", func() error { return er(100, 0.001, true) }),
		badarg.Probe{Func: "ErdosRenyi", Err: tooLarge}.Fails("n = 2^20, p = 1", "expected number of edges", func() error { return er(1<<20, 1, false) }),
		badarg.Probe{Func: "ErdosRenyi"}.Panics("src = nil", "gen: ErdosRenyi: nil rand.Source src", func() { _, _ = gen.ErdosRenyi(5, 0.5, false, nil) }),
	)

	rr := func(n, d int) error { _, err := gen.RandomRegular(n, d, src); return err }
	p = badarg.Probe{Func: "RandomRegular", Err: inv}
	cs = append(cs, p.Int("n", badarg.Positive, func(n int) error { return rr(n, 2) })...)
	cs = append(cs, p.Int("d", badarg.NonNegative, func(d int) error { return rr(6, d) })...)
	cs = append(cs,
		p.Fails("d = n", "d = 6, want < n = 6", func() error { return rr(6, 6) }),
		p.Fails("n·d odd", "n·d = 5·3 is odd", func() error { return rr(5, 3) }),
		badarg.Probe{Func: "RandomRegular", Err: tooLarge}.Fails("n = 2^30, d = 20", "half-edges", func() error { return rr(1<<30, 20) }),
		badarg.Probe{Func: "RandomRegular"}.Panics("src = nil", "gen: RandomRegular: nil rand.Source src", func() { _, _ = gen.RandomRegular(6, 3, nil) }),
	)

	for name, f := range map[string]func(n int, r float64, s rand.Source) error{
		"RandomGeometric": func(n int, r float64, s rand.Source) error { _, err := gen.RandomGeometric(n, r, true, s); return err },
		"RandomGeometricPoints": func(n int, r float64, s rand.Source) error {
			_, _, err := gen.RandomGeometricPoints(n, r, false, s)
			return err
		},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Int("n", badarg.NonNegative, func(n int) error { return f(n, 0.1, src) })...)
		cs = append(cs, p.Scalar("r", badarg.NonNegative, func(r float64) error { return f(10, r, src) })...)
		cs = append(cs,
			// r = 10 joins every pair: about 5e11 edges.
			badarg.Probe{Func: name, Err: tooLarge}.Fails("n = 2^20, r = 10", "expected number of edges", func() error { return f(1<<20, 10, src) }),
			badarg.Probe{Func: name}.Panics("src = nil", "gen: RandomGeometric: nil rand.Source src", func() { _ = f(5, 0.1, nil) }),
		)
	}
	return append(cs, connectedCases()...)
}

// connectedCases probes RandomConnected and RandomConnectedSparse.
func connectedCases() []badarg.Case {
	src := graphtest.PCG(2)
	var cs []badarg.Case
	for name, f := range map[string]func(n int, x, lo, hi float64, s rand.Source) error{
		"RandomConnected": func(n int, p, lo, hi float64, s rand.Source) error {
			_, err := gen.RandomConnected(n, p, lo, hi, s)
			return err
		},
		"RandomConnectedSparse": func(n int, deg, lo, hi float64, s rand.Source) error {
			_, err := gen.RandomConnectedSparse(n, deg, lo, hi, s)
			return err
		},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Int("n", badarg.Positive, func(n int) error { return f(n, 0.5, 1, 2, src) })...)
		if name == "RandomConnected" {
			cs = append(cs, p.Scalar("p", badarg.Unit, func(x float64) error { return f(5, x, 1, 2, src) })...)
		} else {
			cs = append(cs, p.Scalar("deg", badarg.NonNegative, func(x float64) error { return f(5, x, 1, 2, src) })...)
			cs = append(cs, p.Fails("deg = n", "deg = 5, want in [0, n − 1 = 4]", func() error { return f(5, 5, 1, 2, src) }))
		}
		// The range [wmin, wmax) must lie in [MinWeight, MaxWeight].
		for _, w := range [][2]float64{
			{nan, 1}, {inf, inf}, {-inf, 1}, {-1, 1}, {0, 1}, {1, nan}, {1, inf}, {1, -inf}, {2, 1},
			{wgraph.MinWeight / 2, 1}, {1, wgraph.MaxWeight * 2},
		} {
			text := fmt.Sprintf("weights [%v, %v)", w[0], w[1])
			cs = append(cs, p.Fails(text, text, func() error { return f(5, 0.5, w[0], w[1], src) }))
		}
		cs = append(cs,
			badarg.Probe{Func: name, Err: tooLarge}.Fails("n = 2^40", "n = 1099511627776", func() error { return f(1<<40, 0, 1, 1, src) }),
			badarg.Probe{Func: name}.Panics("src = nil", "gen: "+name+": nil rand.Source src", func() { _ = f(5, 0.5, 1, 2, nil) }),
		)
	}
	return cs
}

// TestValidate drives every generator with bad sizes, probabilities,
// radii, degrees, weight ranges and a nil source: each gives the
// documented error, naming the input, or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(familyCases(), randomCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}
