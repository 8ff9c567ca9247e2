package dual

import (
	"math"

	"github.com/loadlab/loadlab"
)

// accel is the work space of the accelerated rule.
type accel struct {
	prev, y, gy, trial []float64
	floor              float64 // smallest L tried: lFloor·LBound, or lFloor·L(0) without a bound
}

// Constants of the accelerated rule. Each step first tries L·lShrink, so
// L follows the local curvature down as well as up (Nesterov's adaptive
// rule); lFloor·LBound (lFloor times the first estimate when there is no
// finite bound) and lCeil bound the search.
const (
	lShrink  = 0.8
	lFloor   = 1e-8
	lCeil    = 1e30
	stagnate = 20 // steps without any change of μ before Stagnated
)

// runAccelerated is the projected accelerated gradient method of rule
// Accelerated: FISTA (Beck and Teboulle 2009) with the extrapolated point
// projected onto μ ≥ 0, backtracking on L and a function-value restart
// (O'Donoghue and Candès 2015).
func (sv *solver) runAccelerated() {
	n := len(sv.mu)
	w := accel{prev: make([]float64, n), y: make([]float64, n), gy: make([]float64, n), trial: make([]float64, n)}
	res, mu := sv.res, sv.mu
	copy(w.prev, mu)
	d := sv.eval(mu, 0)
	sv.record(0, d, mu)
	L := sv.initialL(mu, d, &w)
	w.floor = lFloor * L
	if lb := res.LBound; !math.IsInf(lb, 1) {
		w.floor = lFloor * lb
	}
	t, still := 1.0, 0
	k := 1
	for ; k < sv.set.MaxIter && !sv.done(); k++ {
		tn := (1 + math.Sqrt(1+4*t*t)) / 2
		mom := (t - 1) / tn
		for i := range mu {
			w.y[i] = math.Max(0, mu[i]+mom*(mu[i]-w.prev[i]))
		}
		dy := sv.eval(w.y, k)
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
		if dn < d { // the dual fell: drop the momentum
			t = 1
			copy(w.prev, mu)
			res.Restarts++
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
}

// initialL returns the first Lipschitz estimate: the a-priori bound
// LBound when finite (scaled down: it is a worst case, and the steps
// adapt upwards), else a secant estimate from a unit gradient step.
func (sv *solver) initialL(mu []float64, d float64, w *accel) float64 {
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
	sv.eval(w.trial, 0)
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

// backtrack finds the step from y: trial = [y + ∇D(y)/L]⁺ with L the
// smallest tried value (from L·lShrink upwards by doubling) for which the
// quadratic model bounds D from below,
//
//	D(trial) ≥ D(y) + ∇D(y)·(trial − y) − (L/2)‖trial − y‖²,
//
// which holds for every L ≥ LBound on a smooth dual (so LBound is always
// accepted). It returns L, D(trial) and false when L passed lCeil (a
// non-smooth dual with no finite LBound).
func (sv *solver) backtrack(L, dy float64, k int, w *accel) (float64, float64, bool) {
	lb := sv.res.LBound
	L = math.Max(L*lShrink, w.floor)
	for {
		var lin, sq float64
		for i := range w.y {
			w.trial[i] = math.Max(0, w.y[i]+w.gy[i]/L)
			dm := w.trial[i] - w.y[i]
			lin += w.gy[i] * dm
			sq += dm * dm
		}
		dn := sv.eval(w.trial, k)
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
