package dual

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Settings control Solve. A nil *Settings means all defaults.
type Settings struct {
	// Mu0 is the starting point μ(0) ≥ 0 (a warm start); nil means 0.
	Mu0 []float64

	// Step is the constant step α of (17). Zero means the Theorem III.3
	// step α = Eps/G² (spec §4.6).
	Step float64
	// Eps is the accuracy the Theorem III.3 step is chosen for. Zero
	// means 10⁻³ times the a-priori gap P(0, Ŝ) − D(μ(0)) at the Slater
	// point x = 0, Ŝ_i = min(S̄_i, T_i).
	Eps float64

	// MaxIter is the number of dual steps at most; zero means 100000.
	MaxIter int
	// Tol stops the iteration once the certified gap Upper − Best is at
	// most Tol·max(|Upper|, |Best|). Zero means 10⁻⁶; a negative value
	// never stops early.
	Tol float64

	// RecordDual stores D(μ(k)) for every k in Result.Dual.
	RecordDual bool
	// Record, when positive, stores a Snapshot every Record iterations
	// (and at iteration MaxIter−1) in Result.Trace.
	Record int

	// FastControl, when non-nil, makes the nodes learn β only through
	// FastControl receptions (spec §4.7–4.8, Algorithm 1). Nil means β is
	// computed exactly as C μ.
	FastControl *FastControl
}

// Snapshot is the state of Algorithm 1 at one iteration.
type Snapshot struct {
	Iter int
	D    float64   // D(μ(k))
	Mu   []float64 // μ(k)
	X    []float64 // x*(k), the DNS answer probabilities used
	S    []float64 // S*(k), the provisioned loads
	SObs []float64 // S^obs(k), the loads the proxies see
}

// Result is what Solve returns.
type Result struct {
	// Mu is the last iterate: μ(Iter) after the last step, or μ(Iter−1)
	// when the certified gap stopped the run before stepping again. It is
	// the natural warm start for the next Solve on drifted data.
	Mu       []float64
	Best     float64   // max_{k<K} D(μ(k)), a lower bound on P*
	BestMu   []float64 // μ(k) attaining Best
	BestIter int

	// X and S are the running averages of x*(k) and S*(k), the primal
	// estimate; Violation is max_i (S_i^obs(X) − S_i)₊, its violation of (9).
	// Because S^obs is linear, Violation is the largest mean super-gradient
	// and is at most (max_i (μ_i(last) − μ_i(0)) + Step·G)/(Step·Iter)
	// (DERIVED from (17)); it vanishes like 1/K while μ stays bounded.
	// The estimate's objective obeys the bounds for averaged primal
	// iterates of a dual subgradient method (Nedić and Ozdaglar 2009;
	// DERIVED for P1 from convexity of P and the projected step (17)):
	//
	//	P* − μ*ᵀ(S^obs(X) − S)₊ ≤ P(X, S) ≤ P* + ‖μ(0)‖²/(2·Step·Iter) + Step·G²/2.
	X, S      []float64
	Violation float64

	// Upper is the smallest feasible P1 value met, min over k of
	// P(x*(k), S^obs(x*(k))) and P(X, S^obs(X)): an upper bound on P*.
	// UpperX is the x where it was met.
	Upper  float64
	UpperX []float64

	Iter      int  // number of dual steps K
	Converged bool // Upper − Best ≤ Tol·max(|Upper|, |Best|) was reached

	// The Theorem III.3 guarantee (spec §4.6): with step Step, bound G on
	// the super-gradients (18) and R ≥ ‖μ(0) − μ*‖₂ (‖μ(0)‖₂ + MuBound),
	// D* − Best ≤ Bound = R²/(2·Step·Iter) + Step·G²/2. Eps and K are the
	// target and the step count that guarantees it when the theorem step
	// was used (K = 0 otherwise). The guarantee assumes exact β: with
	// FastControl noise, loss or delay, Bound is a reference only.
	Step, G, R, Bound float64
	Eps               float64
	K                 int

	// Dual holds D(μ(k)) for k < Iter if Settings.RecordDual.
	Dual []float64
	// Trace holds snapshots if Settings.Record > 0.
	Trace []Snapshot

	// With FastControl: Packets is the mean number of FastControl packets
	// sent per iteration (W Σ r_ij, or the rate Σ r_ij when W = 0),
	// Direct the mean number of direct reports per iteration, and BetaErr
	// the root mean square of ‖β̂ − β‖₂/‖β‖₂ over the iterations with β ≠ 0.
	Packets, Direct, BetaErr float64
}

// Solve maximises the dual (15) of P1 by the projected constant-step
// super-gradient method (spec §4.4 eqs. (16)–(17)), Algorithm 1 of spec
// §4.8:
//
//	β(k) = C μ(k)                         (14), or measured by FastControl (20)
//	x*(k), S*(k) from the sub-problems    (13)
//	g(k) = S^obs(x*(k)) − S*(k)           (16)
//	μ(k+1) = [μ(k) + α g(k)]⁺              (17)
//
// It returns the best dual value, the primal running average and its
// violation, the best feasible primal value met, and the Theorem III.3
// guarantee for the run. The iteration allocates nothing unless
// Settings.Record asks for snapshots (RecordDual's storage is made up
// front), also when FastControl draws packet counts.
//
// It returns an error for a negative or NaN entry of Mu0, Step or Eps, a
// negative MaxIter, a NaN Tol, or an invalid FastControl. It panics if
// len(Mu0) differs from N.
func Solve(p *Problem, s *Settings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var set Settings
	if s != nil {
		set = *s
	}
	n := p.N()
	mu := make([]float64, n)
	if set.Mu0 != nil {
		p.check("Mu0", set.Mu0)
		for i, v := range set.Mu0 {
			if !(v >= 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("dual: Mu0[%d] = %v: want a finite value ≥ 0", i, v)
			}
		}
		copy(mu, set.Mu0)
	}
	if set.Step < 0 || math.IsNaN(set.Step) || math.IsInf(set.Step, 1) {
		return nil, fmt.Errorf("dual: Step = %v: want a finite value ≥ 0", set.Step)
	}
	if set.Eps < 0 || math.IsNaN(set.Eps) {
		return nil, fmt.Errorf("dual: Eps = %v: want ≥ 0", set.Eps)
	}
	if set.MaxIter < 0 {
		return nil, fmt.Errorf("dual: MaxIter = %d: want ≥ 0", set.MaxIter)
	}
	if math.IsNaN(set.Tol) {
		return nil, fmt.Errorf("dual: Tol = NaN: want a number (negative never stops early)")
	}
	if set.MaxIter == 0 {
		set.MaxIter = 100000
	}
	if set.Tol == 0 {
		set.Tol = 1e-6
	}
	var fc *fcState
	if set.FastControl != nil {
		var err error
		if fc, err = newFCState(p, set.FastControl, mu); err != nil {
			return nil, err
		}
	}

	res := &Result{G: p.GBound(), Best: math.Inf(-1), Upper: math.Inf(1)}
	// A-priori radius R ≥ ‖μ(0) − μ*‖₂ from the Slater bound.
	d0, err := p.Eval(mu)
	if err != nil {
		return nil, err
	}
	res.R = floats.Norm(mu, 2) + p.MuBound(d0.D)
	res.Step = set.Step
	if res.Step == 0 {
		res.Eps = set.Eps
		if res.Eps == 0 {
			pv, _ := p.slater(0)
			res.Eps = 1e-3 * math.Max(pv-d0.D, math.SmallestNonzeroFloat64)
		}
		res.Step = Step(res.Eps, res.G)
		res.K = Iterations(res.Eps, res.G, res.R)
	}
	alpha := res.Step

	// Work space: everything the loop touches is allocated here.
	kern := newKernel(p.Net)
	beta := make([]float64, n)
	x := make([]float64, n)
	st := make([]float64, n)
	obs := make([]float64, n)
	res.X = make([]float64, n)
	res.S = make([]float64, n)
	res.BestMu = make([]float64, n)
	res.UpperX = make([]float64, n)
	var xe, se, be []float64 // exact evaluation when β is measured
	if fc != nil {
		xe, se, be = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	if set.RecordDual {
		res.Dual = make([]float64, 0, set.MaxIter)
	}
	var betaErr2 float64
	var betaErrN int

	k := 0
	for k < set.MaxIter {
		// β(k): exactly (14), or as node i measures it (20).
		var d float64
		if fc == nil {
			kern.coupling(beta, mu)
			d = p.relax(x, st, beta, mu)
		} else {
			fc.measure(beta, mu, k)
			p.relax(x, st, beta, mu)
			kern.coupling(be, mu)
			d = p.relax(xe, se, be, mu)
			if nb := floats.Norm(be, 2); nb > 0 {
				e := floats.Distance(beta, be, 2) / nb
				betaErr2 += e * e
				betaErrN++
			}
		}
		kern.loads(obs, x) // S^obs(k) (16)

		if d > res.Best {
			res.Best, res.BestIter = d, k
			copy(res.BestMu, mu)
		}
		if up := p.reduced(x, obs); up < res.Upper {
			res.Upper = up
			copy(res.UpperX, x)
		}
		if set.RecordDual {
			res.Dual = append(res.Dual, d)
		}
		if set.Record > 0 && (k%set.Record == 0 || k == set.MaxIter-1) {
			res.Trace = append(res.Trace, snapshot(k, d, mu, x, st, obs))
		}
		inv := 1 / float64(k+1)
		for i := range x {
			res.X[i] += (x[i] - res.X[i]) * inv
			res.S[i] += (st[i] - res.S[i]) * inv
		}
		k++
		if certified(res.Upper, res.Best, set.Tol) {
			res.Converged = true
			break
		}
		// Projected super-gradient step (17).
		for i := range mu {
			mu[i] = math.Max(0, mu[i]+alpha*(obs[i]-st[i]))
		}
	}
	res.Iter = k
	res.Mu = mu

	// Primal estimate from the running averages.
	p.Net.Loads(obs, res.X)
	for i := range obs {
		res.Violation = math.Max(res.Violation, obs[i]-res.S[i])
	}
	if up := p.reduced(res.X, obs); up < res.Upper {
		res.Upper = up
		copy(res.UpperX, res.X)
	}
	if !res.Converged && certified(res.Upper, res.Best, set.Tol) {
		res.Converged = true
	}
	res.Bound = Bound(res.R, alpha, res.G, res.Iter)
	if fc != nil {
		res.Packets = fc.packets / float64(k)
		res.Direct = fc.direct / float64(k)
		if betaErrN > 0 {
			res.BetaErr = math.Sqrt(betaErr2 / float64(betaErrN))
		}
	}
	return res, nil
}

func certified(upper, best, tol float64) bool {
	if tol < 0 || math.IsInf(upper, 1) || math.IsInf(best, -1) {
		return false
	}
	return upper-best <= tol*math.Max(math.Abs(upper), math.Abs(best))
}

func snapshot(k int, d float64, mu, x, s, obs []float64) Snapshot {
	cp := func(v []float64) []float64 { return append([]float64(nil), v...) }
	return Snapshot{Iter: k, D: d, Mu: cp(mu), X: cp(x), S: cp(s), SObs: cp(obs)}
}
