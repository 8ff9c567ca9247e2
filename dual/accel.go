package dual

import (
	"math"

	"github.com/loadlab/loadlab"
	"gonum.org/v1/gonum/floats"
)

// accel is the work space and the epoch state of the accelerated rule.
type accel struct {
	prev, y, gy, trial []float64
	floor              float64 // smallest L tried: lFloor·LBound, or lFloor·L(0) without a bound
	start              int     // step at which the current epoch (since the last restart) began
	r0                 float64 // ‖μ(start)‖₂
}

// Constants of the accelerated rule. Within an epoch L only grows (as
// the FISTA theorem with backtracking requires); a restart lets it shrink
// by lRestart, down to lFloor·LBound. lCeil stops a search on a
// non-smooth dual.
const (
	lRestart = 0.5
	lFloor   = 1e-8
	lCeil    = 1e30
	stagnate = 20 // steps without any change of μ before Stagnated
)

// runAccelerated is rule Accelerated: FISTA (Beck and Teboulle 2009) on
// the concave dual with the constraint μ ≥ 0 as its proximal term, the
// gradient at the extrapolated point y from the continuation of relax,
// backtracking on L, and a function-value restart (O'Donoghue and Candès
// 2015), after which a new epoch starts from the current iterate.
func (sv *solver) runAccelerated() {
	n := len(sv.mu)
	w := accel{prev: make([]float64, n), y: make([]float64, n), gy: make([]float64, n), trial: make([]float64, n)}
	res, mu := sv.res, sv.mu
	res.Bound = math.Inf(1) // μ(0) alone carries no a-priori bound
	copy(w.prev, mu)
	d := sv.eval(mu, 0, true)
	sv.record(0, d, mu)
	L := sv.initialL(mu, &w)
	w.floor = lFloor * L
	if lb := res.LBound; !math.IsInf(lb, 1) {
		w.floor = lFloor * lb
	}
	w.r0 = floats.Norm(mu, 2)
	t, still := 1.0, 0
	k := 1
	for ; k < sv.set.MaxIter && !sv.done(); k++ {
		tn := (1 + math.Sqrt(1+4*t*t)) / 2
		mom := (t - 1) / tn
		feasible := true
		for i := range mu {
			w.y[i] = mu[i] + mom*(mu[i]-w.prev[i])
			feasible = feasible && w.y[i] >= 0
		}
		dy := sv.eval(w.y, k, feasible)
		for i := range w.gy {
			w.gy[i] = sv.obs[i] - sv.st[i] // ∇D(y) (16)
		}
		var dn float64
		var ok bool
		if L, dn, ok = sv.backtrack(L, dy, k, &w); !ok {
			res.Status = loadlab.StepLimit
			break
		}
		moved := false
		for i := range mu {
			moved = moved || w.trial[i] != mu[i]
			w.prev[i], mu[i] = mu[i], w.trial[i]
		}
		// eval(trial) was the last evaluation: x, st, obs are those of μ(k).
		sv.record(k, dn, mu)
		t = tn
		if dn < d { // the dual fell: drop the momentum, start a new epoch
			sv.epochBound(L, k, &w)
			t = 1
			copy(w.prev, mu)
			res.Restarts++
			w.start, w.r0 = k, floats.Norm(mu, 2)
			L = math.Max(L*lRestart, w.floor)
		}
		d = dn
		if still = still + 1; moved {
			still = 0
		}
		if still >= stagnate && !sv.set.Fixed {
			res.Status = loadlab.Stagnated
			k++
			break
		}
	}
	res.Iter = k
	res.L = L
	if k-1 > w.start { // the last epoch took at least one step
		sv.epochBound(L, k-1, &w)
	}
}

// epochBound updates Result.Bound with the FISTA guarantee of the current
// epoch after step k (called at the end of each epoch and of the run) (Beck and Teboulle 2009, Theorem 4.4, with the
// backtracking constant L of the epoch, which only grows within it):
//
//	D* − D(μ(k)) ≤ 2 L ‖μ(r) − μ*‖₂² / (k − r + 1)²,  ‖μ(r) − μ*‖₂ ≤ ‖μ(r)‖₂ + MuBound(Best),
//
// for a smooth dual (finite LBound); on a non-smooth one it is +Inf. The
// smallest bound met is kept: each holds for the Best it was met with.
func (sv *solver) epochBound(L float64, k int, w *accel) {
	res := sv.res
	b := math.Inf(1)
	if !math.IsInf(res.LBound, 1) {
		r := w.r0 + sv.p.muBound(res.Best)
		m := float64(k - w.start + 1)
		b = 2 * L * r * r / (m * m)
	}
	res.Bound = math.Min(res.Bound, b)
}

// initialL returns the first Lipschitz estimate: the a-priori bound
// LBound when finite (scaled down: it is a worst case, and the steps
// adapt upwards), else a secant estimate from a unit gradient step.
func (sv *solver) initialL(mu []float64, w *accel) float64 {
	if lb := sv.res.LBound; !math.IsInf(lb, 1) && lb > 0 {
		return lb / 8
	}
	var g2 float64
	for i := range mu {
		g := sv.obs[i] - sv.st[i]
		w.gy[i] = g
		g2 += g * g
	}
	if g2 == 0 {
		return 1
	}
	for i := range mu {
		w.trial[i] = math.Max(0, mu[i]+w.gy[i])
	}
	sv.eval(w.trial, 0, true)
	var dg2, dm2 float64
	for i := range mu {
		dg := (sv.obs[i] - sv.st[i]) - w.gy[i]
		dm := w.trial[i] - mu[i]
		dg2 += dg * dg
		dm2 += dm * dm
	}
	if dm2 == 0 || dg2 == 0 {
		return 1
	}
	return math.Sqrt(dg2 / dm2)
}

// backtrack finds the step from y: trial = [y + ∇D(y)/L]⁺ with the
// smallest L ≥ the current one (doubling) for which the quadratic model
// bounds D from below,
//
//	D(trial) ≥ D(y) + ∇D(y)·(trial − y) − (L/2)‖trial − y‖²,
//
// which holds for every L ≥ LBound on a smooth dual (so LBound is always
// accepted). It returns L, D(trial) and false when L passed lCeil (a
// non-smooth dual with no finite LBound).
func (sv *solver) backtrack(L, dy float64, k int, w *accel) (float64, float64, bool) {
	lb := sv.res.LBound
	for {
		var lin, sq float64
		for i := range w.y {
			w.trial[i] = math.Max(0, w.y[i]+w.gy[i]/L)
			dm := w.trial[i] - w.y[i]
			lin += w.gy[i] * dm
			sq += dm * dm
		}
		dn := sv.eval(w.trial, k, true)
		// The slack is the rounding of a sum of N order-|D| terms.
		slack := 1e-13 * (1 + math.Abs(dy))
		if dn >= dy+lin-L/2*sq-slack || L >= lb {
			return L, dn, true
		}
		if L *= 2; L > lCeil {
			return L, dn, false
		}
	}
}
