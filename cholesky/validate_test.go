package cholesky

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
)

var (
	inv = loadlab.ErrInvalid
	ill = loadlab.ErrIllConditioned
)

// path3 returns the 3×3 matrix of the path 0–1–2's Laplacian plus I.
func path3() *Matrix {
	return &Matrix{N: 3, Ptr: []int{0, 2, 5, 7}, Ind: []int{0, 1, 0, 1, 2, 1, 2}, Val: []float64{2, -1, -1, 3, -1, -1, 2}}
}

// edit returns a copy of path3 changed by f.
func edit(f func(a *Matrix)) *Matrix {
	a := path3()
	a.Ptr, a.Ind, a.Val = append([]int(nil), a.Ptr...), append([]int(nil), a.Ind...), append([]float64(nil), a.Val...)
	f(a)
	return a
}

func analyzeCases() []badarg.Case {
	an := func(a *Matrix, s *Settings) error { _, err := Analyze(a, s); return err }
	p := badarg.Probe{Func: "Analyze", Err: inv}
	cs := []badarg.Case{
		badarg.Probe{Func: "Analyze"}.Panics("a = nil", "cholesky: Analyze: nil matrix a", func() { _ = an(nil, nil) }),
		p.Fails("N = -1", "N = -1", func() error { return an(&Matrix{N: -1}, nil) }),
		p.Fails("len(Ptr) = 3", "len(Ptr) = 3", func() error { return an(edit(func(a *Matrix) { a.Ptr = a.Ptr[:3] }), nil) }),
		p.Fails("Ptr[0] = 1", "Ptr[0] = 1", func() error { return an(edit(func(a *Matrix) { a.Ptr[0] = 1 }), nil) }),
		p.Fails("len(Val) = 6", "len(Val) = 6", func() error { return an(edit(func(a *Matrix) { a.Val = a.Val[:6] }), nil) }),
		p.Fails("Ptr decreasing", "Ptr[2] = 1 < Ptr[1] = 2", func() error {
			return an(edit(func(a *Matrix) { a.Ptr[2] = 1 }), nil)
		}),
		p.Fails("Ind out of range", "Ind[6] = 3 (row 2) out of range [0, 3)", func() error { return an(edit(func(a *Matrix) { a.Ind[6] = 3 }), nil) }),
		p.Fails("Ind not ascending", "row 1: column indices not strictly ascending", func() error {
			return an(edit(func(a *Matrix) { a.Ind[2], a.Ind[3] = 1, 0 }), nil)
		}),
		p.Fails("asymmetric pattern", "entry (0, 1) is stored but (1, 0) is not", func() error {
			// Row 1 stores (1, 2) twice instead of (1, 0).
			return an(&Matrix{N: 3, Ptr: []int{0, 2, 4, 6}, Ind: []int{0, 1, 1, 2, 1, 2}, Val: make([]float64, 6)}, nil)
		}),
		p.Fails("Ordering = 7", "Settings.Ordering = 7", func() error { return an(path3(), &Settings{Ordering: 7}) }),
		p.Fails("Ordering = -1", "Settings.Ordering = -1", func() error { return an(path3(), &Settings{Ordering: -1}) }),
		p.Fails("Relax = -2", "Settings.Relax = -2, want ≥ 0 (1: no merging)", func() error { return an(path3(), &Settings{Relax: -2}) }),
		badarg.Probe{Func: "Analyze", Err: loadlab.ErrTooLarge}.Fails("MaxFlops = 2", "Settings.MaxFlops = 2", func() error { return an(path3(), &Settings{MaxFlops: 2}) }),
		badarg.Probe{Func: "Analyze", Err: loadlab.ErrTooLarge}.Fails("MaxBytes = 24", "Settings.MaxBytes = 24", func() error { return an(path3(), &Settings{MaxBytes: 24}) }),
	}
	v := badarg.Probe{Func: "Settings.Validate", Err: loadlab.ErrInvalid}
	cs = append(cs, v.Fails("Ordering = 7", "Settings.Ordering = 7", func() error { return (&Settings{Ordering: 7}).Validate() }))
	cs = append(cs, badarg.Fields(v, Settings{}, badarg.NonNegative, func(s *Settings) error { return s.Validate() }, "MaxFlops", "MaxBytes", "Relax")...)
	return append(cs, badarg.Fields(p, Settings{}, badarg.NonNegative, func(s *Settings) error { return an(path3(), s) }, "MaxFlops", "MaxBytes", "Relax")...)
}

func factorCases() []badarg.Case {
	sym, err := Analyze(path3(), nil)
	if err != nil {
		panic(err)
	}
	fa := func(a *Matrix) error { _, err := sym.Factor(a); return err }
	p := badarg.Probe{Func: "Symbolic.Factor", Err: inv}
	cs := []badarg.Case{
		badarg.Probe{Func: "Symbolic.Factor"}.Panics("a = nil", "cholesky: Factor: nil matrix a", func() { _ = fa(nil) }),
		p.Fails("other pattern", "pattern differs", func() error { return fa(&Matrix{N: 1, Ptr: []int{0, 1}, Ind: []int{0}, Val: []float64{1}}) }),
		p.Fails("asymmetric values", "A[0][1] = -1 but A[1][0] = -2", func() error { return fa(edit(func(a *Matrix) { a.Val[2] = -2 })) }),
		badarg.Probe{Func: "Symbolic.Factor", Err: ill}.Fails("indefinite", "not numerically positive definite", func() error { return fa(edit(func(a *Matrix) { a.Val[3] = -3 })) }),
		badarg.Probe{Func: "Symbolic.Factor", Err: ill}.Fails("singular: the path's Laplacian", "not numerically positive definite", func() error {
			return fa(edit(func(a *Matrix) { a.Val[0], a.Val[3], a.Val[6] = 1, 2, 1 }))
		}),
		badarg.Probe{Func: "Symbolic.Factor", Err: ill}.Fails("condition 1e16", "condition number", func() error {
			return fa(edit(func(a *Matrix) { a.Val[0], a.Val[3], a.Val[6] = 1+1e-15, 2, 1 }))
		}),
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		cs = append(cs, p.Fails("A[1][1] = "+ftoa(x), "A[1][1] = "+ftoa(x), func() error { return fa(edit(func(a *Matrix) { a.Val[3] = x })) }))
	}
	return cs
}

func ftoa(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case x > 0:
		return "+Inf"
	}
	return "-Inf"
}

func methodCases() []badarg.Case {
	sym, _ := Analyze(path3(), nil)
	f, _ := sym.Factor(path3())
	z := f.Inverse()
	return []badarg.Case{
		badarg.Probe{Func: "Factor.Solve"}.Panics("len(b) = 2", "cholesky: Solve: len(b) or len(dst)", func() { f.Solve(nil, make([]float64, 2)) }),
		badarg.Probe{Func: "Factor.Solve"}.Panics("len(dst) = 4", "cholesky: Solve: len(b) or len(dst)", func() { f.Solve(make([]float64, 4), make([]float64, 3)) }),
		badarg.Probe{Func: "Factor.SolveTo"}.Panics("len(b) = 2", "cholesky: SolveTo: len(b) or len(dst)", func() { f.SolveTo(make([]float64, 3), make([]float64, 2), make([]float64, 3)) }),
		badarg.Probe{Func: "Factor.SolveTo"}.Panics("len(dst) = 4", "cholesky: SolveTo: len(b) or len(dst)", func() { f.SolveTo(make([]float64, 4), make([]float64, 3), make([]float64, 3)) }),
		badarg.Probe{Func: "Factor.SolveTo"}.Panics("dst = nil", "cholesky: SolveTo: len(b) or len(dst)", func() { f.SolveTo(nil, make([]float64, 3), make([]float64, 3)) }),
		badarg.Probe{Func: "Factor.SolveTo"}.Panics("len(work) = 2", "len(work) is below it", func() { f.SolveTo(make([]float64, 3), make([]float64, 3), make([]float64, 2)) }),
		badarg.Probe{Func: "Inverse.Diag"}.Panics("len(dst) = 2", "cholesky: Inverse.Diag: len(dst)", func() { z.Diag(make([]float64, 2)) }),
		badarg.Probe{Func: "Inverse.At"}.Panics("i = 3", "cholesky: Inverse.At: index out of range", func() { z.At(3, 0) }),
		badarg.Probe{Func: "Inverse.At"}.Panics("j = -1", "cholesky: Inverse.At: index out of range", func() { z.At(0, -1) }),
	}
}

// TestValidate drives every exported entry point of cholesky with
// malformed matrices, bad settings, indefinite and ill-conditioned
// values, and wrong lengths and indices.
func TestValidate(t *testing.T) {
	cs := append(append(analyzeCases(), factorCases()...), methodCases()...)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}
