package laplacian

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	nan, inf = math.NaN(), math.Inf(1)
)

// settingsCases probes every field of Settings through call: Tol outside
// {0} ∪ [1e-15, 1), a negative MaxIter, an unknown Preconditioner.
func settingsCases(fn string, call func(s *Settings) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	cs := badarg.Fields(p, Settings{}, badarg.NonNegative, call, "Tol", "MaxIter")
	for _, s := range []Settings{{Tol: 1}, {Tol: 1e-16}, {Preconditioner: Jacobi + 1}, {Preconditioner: -1}} {
		text := fmt.Sprintf("Settings.Tol = %v", s.Tol)
		if s.Tol == 0 {
			text = fmt.Sprintf("Settings.Preconditioner = %d", int(s.Preconditioner))
		}
		cs = append(cs, p.Fails(text, text, func() error { return call(&s) }))
	}
	return cs
}

// constructorCases probes NewSolver and NewOperator: bad settings, a
// graph with no nodes or disconnected, and nil arguments.
func constructorCases() []badarg.Case {
	path := graphtest.Must(gen.Path(3))
	newSolver := func(g *wgraph.Graph, s *Settings) error { _, err := NewSolver(g, s, graphtest.PCG(1)); return err }
	cs := settingsCases("NewSolver", func(s *Settings) error { return newSolver(path, s) })
	cs = append(cs, settingsCases("Settings.Validate", func(s *Settings) error { return s.Validate() })...)
	p := badarg.Probe{Func: "NewSolver", Err: inv}
	cs = append(cs,
		p.Fails("no nodes", "graph has no nodes", func() error { return newSolver(&wgraph.Graph{}, nil) }),
		badarg.Probe{Func: "NewSolver", Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error {
			return newSolver(graphtest.Must(wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}})), nil)
		}),
		p.Panics("g = nil", "laplacian: NewSolver: nil graph g", func() { _ = newSolver(nil, nil) }),
		p.Panics("src = nil", "laplacian: NewSolver: nil rand.Source src", func() { _, _ = NewSolver(path, nil, nil) }),
		p.Panics("src = nil, ApproxCholesky", "nil rand.Source src", func() { _, _ = NewSolver(path, &Settings{Preconditioner: ApproxCholesky}, nil) }),
		badarg.Probe{Func: "NewOperator"}.Panics("g = nil", "laplacian: NewOperator: nil graph g", func() { NewOperator(nil) }),
	)
	return cs
}

// operatorCases probes Apply and ApplyShifted: vectors of the wrong
// length and dst aliasing x are documented panics.
func operatorCases() []badarg.Case {
	op := NewOperator(graphtest.Must(gen.Path(3)))
	good := []float64{1, 2, 3}
	var cs []badarg.Case
	for name, f := range map[string]func(dst, x []float64){
		"Operator.Apply":        op.Apply,
		"Operator.ApplyShifted": func(dst, x []float64) { op.ApplyShifted(dst, x, 0.5) },
	} {
		p := badarg.Probe{Func: name, Panic: true, Text: "laplacian: Operator.ApplyShifted: len(dst)"}
		cs = append(cs, p.Lengths("dst", good, func(dst []float64) error { f(dst, good); return nil })...)
		cs = append(cs, p.Lengths("x", good, func(x []float64) error { f(make([]float64, 3), x); return nil })...)
		cs = append(cs, p.Panics("dst = x", "dst and x are the same slice", func() { x := slices.Clone(good); f(x, x) }))
	}
	return cs
}

// solverCases probes the methods of a Solver: right-hand sides with a
// NaN or infinite entry are errors, vectors of the wrong length, nodes
// out of range and nil or misshapen blocks are documented panics, and a
// tolerance or block width outside its domain is an error.
func solverCases() []badarg.Case {
	var cs []badarg.Case
	for _, pc := range []Preconditioner{Auto, ApproxCholesky, Jacobi} {
		s, err := NewSolver(graphtest.Must(gen.Path(3)), &Settings{Preconditioner: pc}, graphtest.PCG(1))
		if err != nil {
			panic(err)
		}
		good := []float64{1, 0, -1}
		for name, f := range map[string]func(dst, b []float64) error{
			"Solver.Solve":               func(dst, b []float64) error { _, err := s.Solve(dst, b); return err },
			"Solver.SolveOrdered":        func(dst, b []float64) error { _, err := s.SolveOrdered(dst, b); return err },
			"Solver.ApplyPreconditioner": s.ApplyPreconditioner,
		} {
			fn, arg := name[len("Solver."):], "b"
			if fn == "ApplyPreconditioner" {
				arg = "src"
			}
			// The NaN, Inf or −Inf is named, whatever the preconditioner
			// (guards: NaN returned without an error by the factor).
			p := badarg.Probe{Func: name, Err: inv}
			cs = append(cs, p.Entries(arg, good, 1, badarg.Finite, func(b []float64) error { return f(make([]float64, 3), b) })...)
			pp := badarg.Probe{Func: name, Panic: true, Text: "laplacian: Solver." + fn + ": len(dst)"}
			cs = append(cs, pp.Lengths("dst", good, func(dst []float64) error { return f(dst, good) })...)
			cs = append(cs, pp.Lengths(arg, good, func(b []float64) error { return f(make([]float64, 3), b) })...)
		}
		p := badarg.Probe{Func: "Solver.Resistance"}
		for _, uv := range [][2]int{{-1, 0}, {0, 3}, {3, 3}} {
			cs = append(cs, p.Panics(fmt.Sprintf("(u, v) = %v", uv), fmt.Sprintf("Solver.Resistance: nodes (%d, %d) out of range [0, 3)", uv[0], uv[1]), func() {
				_, _, _ = s.Resistance(uv[0], uv[1])
			}))
		}
		p = badarg.Probe{Func: "Solver.SetTol", Err: inv, Text: "Solver.SetTol: tol = %v"}
		cs = append(cs, p.Scalar("tol", badarg.Positive, s.SetTol)...)
		cs = append(cs, p.Fails("tol = 1", "tol = 1", func() error { return s.SetTol(1) }))
		p = badarg.Probe{Func: "Solver.ReserveBlock", Err: inv, Text: "Solver.ReserveBlock: k = %v"}
		cs = append(cs, p.Int("k", badarg.Positive, s.ReserveBlock)...)
		cs = append(cs, p.Fails("k > MaxBlockCols", fmt.Sprintf("k = %d", MaxBlockCols+1), func() error { return s.ReserveBlock(MaxBlockCols + 1) }))
		cs = append(cs, blockCases(s)...)
	}
	return cs
}

// blockCases probes SolveBlock: a NaN or infinite entry is an error; nil,
// empty and misshapen matrices are documented panics.
func blockCases(s *Solver) []badarg.Case {
	block := func(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) }
	solve := func(dst, b *mat.Dense) error { _, err := s.SolveBlock(dst, b); return err }
	p := badarg.Probe{Func: "Solver.SolveBlock", Err: inv}
	var cs []badarg.Case
	for _, v := range []float64{nan, inf, -inf} {
		text := fmt.Sprintf("b[2, 1] = %v", v)
		cs = append(cs, p.Fails(text, text, func() error {
			b := mat.NewDense(3, 2, []float64{1, 1, 0, 0, -1, v})
			return solve(&mat.Dense{}, b)
		}))
	}
	return append(cs,
		p.Panics("b = nil", "Solver.SolveBlock: nil dst or b", func() { _ = solve(block(3, 1), nil) }),
		p.Panics("dst = nil", "Solver.SolveBlock: nil dst or b", func() { _ = solve(nil, block(3, 1)) }),
		p.Panics("empty b", "Solver.SolveBlock: empty b", func() { _ = solve(block(3, 1), &mat.Dense{}) }),
		p.Panics("b 2×1", "b is 2×1", func() { _ = solve(&mat.Dense{}, block(2, 1)) }),
		p.Panics("dst 3×2, b 3×1", "dst 3×2", func() { _ = solve(block(3, 2), block(3, 1)) }),
	)
}

// TestValidate drives every exported entry point of laplacian with bad
// settings, right-hand sides, lengths, shapes, nodes and nil arguments:
// each gives the documented error, naming the input, or the documented
// panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(constructorCases(), operatorCases(), solverCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}
