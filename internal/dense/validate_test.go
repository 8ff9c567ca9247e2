package dense

import (
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"gonum.org/v1/gonum/mat"
)

// spd3 returns a factor of the 3×3 matrix 2I + J, positive definite.
func spd3() *SPDFactor {
	var f SPDFactor
	if err := f.Factorize(mat.NewSymDense(3, []float64{3, 1, 1, 1, 3, 1, 1, 1, 3})); err != nil {
		panic(err)
	}
	return &f
}

// factorCases probes SPDFactor: a matrix that is not numerically
// positive definite (indefinite, NaN) or too ill conditioned is
// ErrIllConditioned; vectors and destinations of the wrong size are
// documented panics.
func factorCases() []badarg.Case {
	ill := badarg.Probe{Func: "SPDFactor.Factorize", Err: loadlab.ErrIllConditioned}
	var cs []badarg.Case
	for name, a := range map[string]*mat.SymDense{
		"indefinite":    mat.NewSymDense(2, []float64{1, 2, 2, 1}),
		"a[1][1] = 0":   mat.NewSymDense(2, []float64{1, 0, 0, 0}),
		"a[0][1] = NaN": mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}),
		"a[1][1] = NaN": mat.NewSymDense(2, []float64{1, 0, 0, math.NaN()}),
	} {
		cs = append(cs,
			ill.Fails(name, "not numerically positive definite", func() error { var f SPDFactor; return f.Factorize(a) }),
			badarg.Probe{Func: "SPDFactor.FactorizeChecked", Err: loadlab.ErrIllConditioned}.Fails(name, "A is not numerically positive definite", func() error {
				var f SPDFactor
				return f.FactorizeChecked(a, "A")
			}),
		)
	}
	// κ = 1e16 > MaxCondition.
	cs = append(cs, badarg.Probe{Func: "SPDFactor.FactorizeChecked", Err: loadlab.ErrIllConditioned}.Fails("κ = 1e16", "A has condition number", func() error {
		var f SPDFactor
		return f.FactorizeChecked(mat.NewSymDense(2, []float64{1, 0, 0, 1e-16}), "A")
	}))
	f := spd3()
	good := []float64{1, 2, 3}
	p := badarg.Probe{Func: "SPDFactor.SolveVec", Panic: true, Text: "dense: SolveVec: len(dst)"}
	cs = append(cs, p.Lengths("dst", good, func(dst []float64) error { f.SolveVec(dst, good); return nil })...)
	cs = append(cs, p.Lengths("b", good, func(b []float64) error { f.SolveVec(make([]float64, 3), b); return nil })...)
	cs = append(cs, badarg.Probe{Func: "SPDFactor.InverseDiag", Panic: true, Text: "dense: InverseDiag: len(dst)"}.Lengths("dst", good, func(dst []float64) error {
		if dst == nil {
			dst = []float64{} // nil dst is allocated: probe an empty one
		}
		f.InverseDiag(dst)
		return nil
	})...)
	for _, n := range []int{2, 4} {
		cs = append(cs, badarg.Probe{Func: "SPDFactor.InverseTo"}.Panics(fmt.Sprintf("dst %d×%d", n, n), fmt.Sprintf("destination is %d×%d, want 3×3", n, n), func() { f.InverseTo(mat.NewSymDense(n, nil)) }))
	}
	return cs
}

// kernelCases probes the vector and matrix kernels whose panics on
// mismatched sizes are documented.
func kernelCases() []badarg.Case {
	good := []float64{1, 2, 3}
	cs := []badarg.Case{
		badarg.Probe{Func: "Axpy"}.Panics("len(x) = 2 < len(dst)", "index out of range", func() { Axpy(make([]float64, 3), 2, good[:2]) }),
		badarg.Probe{Func: "Dot"}.Panics("len(b) = 2 < len(a)", "index out of range", func() { Dot(good, good[:2]) }),
		badarg.Probe{Func: "MulAdd"}.Panics("C 4×8 in 30 entries", "the blocks do not fit", func() {
			MulAdd(4, 8, 1, make([]float64, 4), 1, 1, make([]float64, 8), 8, make([]float64, 30), 8)
		}),
	}
	l3 := mat.NewSymDense(3, []float64{1, -1, 0, -1, 2, -1, 0, -1, 1})
	for _, n := range []int{2, 4} {
		cs = append(cs,
			badarg.Probe{Func: "Lift"}.Panics(fmt.Sprintf("dst %d×%d", n, n), fmt.Sprintf("dense: Lift: destination is %d×%d", n, n), func() { Lift(mat.NewSymDense(n, nil), l3) }),
			badarg.Probe{Func: "Shift"}.Panics(fmt.Sprintf("dst %d×%d", n, n), fmt.Sprintf("dense: Shift: destination is %d×%d", n, n), func() { Shift(mat.NewSymDense(n, nil), l3, 2, 0.1) }),
		)
	}
	return cs
}

// TestValidate drives the entry points of dense that can be misused with
// bad matrices and mismatched sizes: each gives the documented error or
// the documented panic. The arithmetic kernels without a failure mode
// are exempt, with the reason.
func TestValidate(t *testing.T) {
	cs := append(factorCases(), kernelCases()...)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"CompensatedSum.Add": "adds any float64; NaN and infinities propagate as Value documents",
		"Sum":                "sums any float64s; NaN and infinities propagate as CompensatedSum.Value documents",
		"Center":             "subtracts the mean of any vector, the empty one included",
		"Normalize":          "the callers pass a non-zero vector (a Gaussian draw or a Ritz coefficient vector), as documented",
		"Trinv":              "inverts the upper triangle of a Cholesky factor that passed Dpotrf (SPDFactor.Invert), non-singular by construction",
	})
}
