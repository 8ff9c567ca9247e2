package estimate

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// symApply returns A as the apply function of Trace, reporting iters
// iterations per call.
func symApply(a *mat.SymDense, iters int) func(dst, x []float64) (int, error) {
	return func(dst, x []float64) (int, error) {
		mat.NewVecDense(len(dst), dst).MulVec(a, mat.NewVecDense(len(x), x))
		return iters, nil
	}
}

// randomSym returns a random symmetric n × n matrix with entries in
// [−1, 1) and diagonal shifted by shift.
func randomSym(n int, shift float64, seed uint64) *mat.SymDense {
	rng := rand.New(rand.NewPCG(seed, 9))
	a := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			a.SetSym(i, j, 2*rng.Float64()-1)
		}
		a.SetSym(i, i, a.At(i, i)+shift)
	}
	return a
}

// TestTraceDiagonal: for a diagonal A every Rademacher probe gives
// qᵀAq = Σ d_u exactly (q_u² = 1), so the estimate stops at MinProbes
// with a zero-width interval at the trace (up to the rounding of two
// summation orders of 50 terms of size ≤ 2: 1e-13).
func TestTraceDiagonal(t *testing.T) {
	d := make([]float64, 50)
	for i := range d {
		d[i] = 1 + float64(i)/50
	}
	apply := func(dst, x []float64) (int, error) {
		for i := range x {
			dst[i] = d[i] * x[i]
		}
		return 0, nil
	}
	r, err := Trace(len(d), apply, nil, graphtest.PCG(1))
	if err != nil {
		t.Fatal(err)
	}
	e := r.Estimate
	if r.Status != loadlab.Success || r.Probes != DefaultTraceMinProbes || e.HalfWidth() != 0 || math.Abs(e.Mean-floats.Sum(d)) > 1e-13 {
		t.Errorf("%+v, want %d probes, a zero-width interval at %v", r, DefaultTraceMinProbes, floats.Sum(d))
	}
}

// TestTraceVariance: the probes of a random symmetric A have mean tr A
// and variance 2(‖A‖_F² − Σ A_uu²) (spec §12.9). 4000 probes: the mean
// is checked within 5 standard errors, the sample variance within 15 %
// (its relative standard error is about √(2/4000)·√(κ/2) ≈ 3 % for the
// near-Gaussian values of a 40 × 40 matrix, so 15 % is 5 of them).
func TestTraceVariance(t *testing.T) {
	const n, probes = 40, 4000
	a := randomSym(n, 0.5, 3)
	var fro, diag2 float64
	for i := range n {
		for j := range n {
			fro += a.At(i, j) * a.At(i, j)
		}
		diag2 += a.At(i, i) * a.At(i, i)
	}
	want := 2 * (fro - diag2)
	r, err := Trace(n, symApply(a, 2), &TraceSettings{RelAcc: 0.99, MinProbes: probes, MaxProbes: probes}, graphtest.PCG(5))
	if err != nil {
		t.Fatal(err)
	}
	e := r.Estimate
	if got := e.StdErr * e.StdErr * probes; math.Abs(got/want-1) > 0.15 {
		t.Errorf("probe variance %v, want 2(‖A‖_F² − Σ A_uu²) = %v", got, want)
	}
	if tr := mat.Trace(a); math.Abs(e.Mean-tr) > 5*e.StdErr {
		t.Errorf("mean %v, want tr A = %v ± 5 × %v", e.Mean, tr, e.StdErr)
	}
	if r.Probes != probes || r.Iterations != 2*probes {
		t.Errorf("Probes %d, Iterations %d; want %d and 2 per probe", r.Probes, r.Iterations, probes)
	}
}

// TestTraceCoverage: over 400 seeds the 95 % interval holds tr A at
// about its rate. The binomial standard deviation is 1.1 %; the
// sequential stopping rule (after MinProbes = 10) may undercover a
// little, so ≥ 95 % − 3.5 sd ≈ 91 % is required, and every run meets
// RelAcc.
func TestTraceCoverage(t *testing.T) {
	const n, seeds, relAcc = 30, 400, 0.05
	a := randomSym(n, 3, 7)
	tr := mat.Trace(a)
	covered := 0
	for seed := range uint64(seeds) {
		r, err := Trace(n, symApply(a, 0), &TraceSettings{RelAcc: relAcc}, rand.NewPCG(seed, 11))
		if err != nil {
			t.Fatal(err)
		}
		if r.Estimate.RelHalfWidth() > relAcc || r.Probes != r.Estimate.N {
			t.Fatalf("seed %d: %+v", seed, r)
		}
		if r.Estimate.Contains(tr) {
			covered++
		}
	}
	sd := math.Sqrt(0.95 * 0.05 / seeds)
	if c := float64(covered) / seeds; c < 0.95-3.5*sd || c > 0.995 {
		t.Errorf("coverage %.3f, want ≈ 0.95 (in [%.3f, 0.995])", c, 0.95-3.5*sd)
	}
}

// TestTraceNotConverged: A = [[0 1] [1 0]] has trace 0 and qᵀAq = ±2,
// so no relative half-width is ever met: MaxProbes probes, the partial
// estimate and ErrNotConverged naming Trace. The same seed gives the
// same values.
func TestTraceNotConverged(t *testing.T) {
	a := mat.NewSymDense(2, []float64{0, 1, 1, 0})
	set := &TraceSettings{MaxProbes: 50}
	r, err := Trace(2, symApply(a, 0), set, graphtest.PCG(2))
	if !errors.Is(err, loadlab.ErrNotConverged) || r.Status != loadlab.IterationLimit || r.Probes != 50 {
		t.Fatalf("%+v, %v; want 50 probes and ErrNotConverged", r, err)
	}
	if again, _ := Trace(2, symApply(a, 0), set, graphtest.PCG(2)); again.Estimate != r.Estimate {
		t.Errorf("same seed: %+v, then %+v", r.Estimate, again.Estimate)
	}
	if math.Abs(r.Estimate.Mean) > 5*r.Estimate.StdErr {
		t.Errorf("mean %v, want 0 ± 5 × %v", r.Estimate.Mean, r.Estimate.StdErr)
	}
}
