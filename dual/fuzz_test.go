package dual

import (
	"math"
	"testing"
)

// FuzzEval feeds arbitrary multipliers to Eval: it must either reject
// them with an error or return a finite D obeying weak duality against
// the feasible point x = 0, S = S^obs(0) = 0.
func FuzzEval(f *testing.F) {
	f.Add(0.5, 0.2, 0.4)
	f.Add(-1.0, 0.0, 0.0)
	f.Add(math.NaN(), 1.0, 1e300)
	p, err := Quadratic(item13(), 1, 4)
	if err != nil {
		f.Fatal(err)
	}
	zero := make([]float64, 3)
	pz, _ := p.Objective(zero, zero)
	f.Fuzz(func(t *testing.T, a, b, c float64) {
		pt, err := p.Eval([]float64{a, b, c})
		if err != nil {
			return
		}
		if math.IsNaN(pt.D) || math.IsInf(pt.D, 1) {
			t.Fatalf("D(%v) = %v", pt.Mu, pt.D)
		}
		if pt.D > pz+1e-9*(1+math.Abs(pz)) {
			t.Fatalf("weak duality: D = %v > P(0, 0) = %v", pt.D, pz)
		}
	})
}

// FuzzSolveSettings feeds arbitrary settings to Solve: bad values must
// come back as errors, good ones as a result with Best ≤ Upper.
func FuzzSolveSettings(f *testing.F) {
	f.Add(0.05, 1e-3, 10, 0.0, 0.0, 10.0, 0.0)
	f.Add(-1.0, 0.0, 0, 1e-6, 1.0, -1.0, 2.0)
	p, err := Quadratic(item13(), 1, 4)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, step, eps float64, iters int, tol, mu0, gamma, loss float64) {
		if iters > 200 {
			iters = 200
		}
		s := &Settings{Step: step, Eps: eps, MaxIter: iters, Tol: tol, Mu0: []float64{mu0, 0, mu0}}
		if gamma != 0 {
			s.FastControl = &FastControl{Gamma: gamma, Loss: loss}
		}
		res, err := Solve(p, s)
		if err != nil {
			return
		}
		if res.Best > res.Upper+1e-9*(1+math.Abs(res.Upper)) {
			t.Fatalf("Best %v > Upper %v", res.Best, res.Upper)
		}
	})
}

// FuzzNewProblem feeds arbitrary cost parameters and caps: NewProblem and
// Quadratic must reject bad ones with an error, never panic, and accepted
// problems must evaluate D(0) without NaN.
func FuzzNewProblem(f *testing.F) {
	f.Add(1.0, 4.0, 1.0, 2.0)
	f.Add(0.0, -1.0, math.NaN(), -3.0)
	nw := item13()
	f.Fuzz(func(t *testing.T, w, c, s0, s1 float64) {
		if p, err := Quadratic(nw, w, c); err == nil {
			pt, err := p.Eval(make([]float64, 3))
			if err != nil || math.IsNaN(pt.D) {
				t.Fatalf("Quadratic(w=%v, c=%v): D(0) = %v, %v", w, c, pt, err)
			}
		}
		fs := []Cost{QuadraticX{1, 2}, QuadraticX{1, 1.5}, QuadraticX{1, 1}}
		hs := []Cost{Hinge{4, 0.8}, Hinge{4, 0.9}, Hinge{4, 0.7}}
		p, err := NewProblem(nw, fs, hs, []float64{s0, s1, 1})
		if err != nil {
			return
		}
		if !(s0 >= 0 && s1 >= 0) {
			t.Fatalf("accepted SMax (%v, %v)", s0, s1)
		}
		if _, err := p.Eval([]float64{0.1, 0.2, 0.3}); err != nil {
			t.Fatal(err)
		}
	})
}
