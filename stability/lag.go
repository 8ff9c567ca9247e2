// Lagging steps: the rows of the settled nodes computed once per step.

package stability

import (
	"slices"

	"github.com/loadlab/loadlab/internal/asm"
	"github.com/loadlab/loadlab/ode"
)

// While the reduced operator is in use (reduce.go), its settled nodes K
// influence nothing: x_j = 1 exactly, whatever their logit, and the loads
// S = b + B_F x_F read only the free nodes' states. Their logits still
// move, dz_i/dt = β(T_i − S_i) (spec §5.2 item 1), but like quadrature
// variables: their rows can wait until a step's stages are known. So each
// step of the split right-hand side lags (ode.Lagger): every stage
// computes the loads and rates of the free nodes only, and in the pass of
// the last stage each piece computes its settled nodes' rows for all six
// stages at once (anycast.Reduced.MulSettled), reading that part of the
// matrix once per step instead of six times: on the N = 1000 benchmark,
// where 386 nodes settle, that takes about a sixth off the stage passes
// (docs/benchmarks-log.md). Held then checks,
// on the true stage arguments, that every stage kept the settled nodes at
// exactly 1; if one left, ode computes the step again the ordinary way.
// Each row is summed by the same operations either way, so lagging
// changes no bit of the result.

// Hold lets the next trial step lag when settled nodes are summed once
// (ode.Lagger).
func (sys *system) Hold(allowed bool) bool {
	if !allowed && sys.lagging {
		sys.lagRedos++ // a failed check: the step again
	}
	sys.lagging = allowed && sys.red != nil && sys.red.Free() < len(sys.x)
	if sys.lagging {
		sys.lagSteps++
	}
	return sys.lagging
}

// Late sets the rates of the settled nodes of the pieces in [lo, hi) for
// the six stages of a lagging step from their workspaces (ode.Lagger);
// the loads of the last stage go to sys.s with the free nodes' (the
// loads recorded at the new state).
func (sys *system) Late(dy *[6][]float64, _ *[6]float64, lo, hi int) {
	var s [6][]float64
	for q := range s {
		s[q] = sys.lateS[q][lo:hi]
	}
	sys.red.MulSettled(s[:], sys.lateXf[:], lo, hi)
	for p := lo / sys.grain; p*sys.grain < hi; p++ {
		rows := sys.settledRows[p]
		for q := range dy {
			sys.ratesAt(dy[q], sys.xs[ode.LagBuf(q+2)], sys.lateS[q], rows)
		}
	}
}

// Held reports whether the stage argument arg keeps the settled nodes of
// the pieces in [lo, hi) at exactly x = 1 (ode.Lagger).
func (sys *system) Held(_ int, arg []float64, lo, hi int) bool {
	for p := lo / sys.grain; p*sys.grain < hi; p++ {
		for _, i := range sys.settledRows[p] {
			if sys.direct && !(arg[i] >= 1) || !sys.direct && asm.Sigmoid(arg[i]) != 1 {
				return false
			}
		}
	}
	return true
}

// holdSettled sets x_i = 1 for the settled nodes of the pieces in [lo,
// hi): in a lagging step their stage arguments are computed from rows not
// yet known, and Held checks the true ones after the step.
func (sys *system) holdSettled(x []float64, lo, hi int) {
	for p := lo / sys.grain; p*sys.grain < hi; p++ {
		for _, i := range sys.settledRows[p] {
			x[i] = 1
		}
	}
}

// freeRowsRange is rowsRange in a lagging step: the loads and rates of
// the free nodes of the pieces in [lo, hi) from workspace buf.
func (sys *system) freeRowsRange(buf int, dy []float64, lo, hi int) {
	x, s := sys.xs[buf], sys.s
	sys.red.MulFree(s[lo:hi], sys.xf[buf], lo, hi)
	for p := lo / sys.grain; p*sys.grain < hi; p++ {
		sys.ratesAt(dy, x, s, sys.freeRows[p])
	}
}

// pieceRows sets the settled and free nodes of each piece of the split
// for the reduced operator just built, and the workspaces Late reads.
func (sys *system) pieceRows() {
	n, g := len(sys.x), sys.grain
	np := (n + g - 1) / g
	sys.settledRows = slices.Grow(sys.settledRows[:0], np)[:np]
	sys.freeRows = slices.Grow(sys.freeRows[:0], np)[:np]
	for p := range np {
		sys.settledRows[p], sys.freeRows[p] = sys.settledRows[p][:0], sys.freeRows[p][:0]
		for i := p * g; i < min((p+1)*g, n); i++ {
			if sys.red.Rank(i) < 0 {
				sys.settledRows[p] = append(sys.settledRows[p], i)
			} else {
				sys.freeRows[p] = append(sys.freeRows[p], i)
			}
		}
	}
	for q := range sys.lateS {
		buf := ode.LagBuf(q + 2)
		sys.lateXf[q] = sys.xf[buf]
		if buf == 1 {
			sys.lateS[q] = sys.s
		} else if len(sys.lateS[q]) != n {
			sys.lateS[q] = make([]float64, n)
		}
	}
}
