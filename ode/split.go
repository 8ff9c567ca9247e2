package ode

import (
	"math"
	"sync/atomic"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
)

// Split is a right-hand side f(t, y) = R(t, Φ(y)) evaluated in two passes
// over ranges of components, for a large system coupled through one
// product, such as the greedy law of package stability (Φ the sigmoids of
// the logits, R the loads through the load matrix): first Map computes
// the component-wise part u_i = Φ_i(y_i) into a workspace, then Rows the
// components of f from all of u. A DormandPrince stepper built with
// NewDormandPrinceSplit cuts [0, n) into pieces of Grain components and
// runs each pass over the pieces on Workers goroutines (package
// internal/par: runs of pieces claimed at run time, helpers
// busy-waiting between passes), fusing each piece's Rows with the stage arithmetic of
// that piece and the next Map, so that a stage costs one pass over the
// pieces and the work between the products is split too.
//
// The stepper calls Map(buf, y, lo, hi) and Rows(buf, dy, t, lo, hi) with
// the workspace buf ∈ {0, 1} (2..6 as well in a lagging step, see
// Lagger): Map for every piece of a workspace before
// any Rows of it, and Rows for every piece of a workspace before Map
// writes that workspace again. Map may read y[lo:hi] only and write only
// the parts of workspace buf that belong to components lo..hi−1; Rows
// must write dy[lo:hi] = f(t, y)[lo:hi] for the y last given to Map with
// the same buf, reading any part of that workspace, and writing nothing
// shared with other pieces. After each successful Step, the last
// evaluation was Map(1, State(), ·) on every piece followed by Rows(1, ·)
// on every piece (the first stage of the next step, FSAL), so workspace 1
// holds the state of State() until the next Step.
//
// Every component is computed by the same operations as by
// NewDormandPrince with the Func that evaluates Map and Rows over all of
// [0, n), and the error norm is summed in the same fixed blocks, so the
// two steppers take the same steps and give the same bits, on any number
// of goroutines.
type Split struct {
	// Map and Rows are the two passes (required).
	Map  func(buf int, y []float64, lo, hi int)
	Rows func(buf int, dy []float64, t float64, lo, hi int)
	// Grain is the number of components of a piece: a multiple of 16
	// (default 32). Map and Rows see runs of whole pieces: lo is a
	// multiple of Grain, hi one too or n.
	Grain int
	// Workers is the number of goroutines of a pass (default GOMAXPROCS;
	// 1 runs every piece on the caller).
	Workers int
	// Lag, if not nil, lets the right-hand side hold rows back to the end
	// of a step (see Lagger).
	Lag Lagger
}

// Lagger is the optional part of a Split for a system some of whose
// components, for a while, influence nothing: their own part of the
// workspace stays fixed (in package stability, nodes settled at exactly
// x = 1), so their rows depend on the others only, like the quadrature
// variables of CVODES. Their rows can then wait until the other
// components' stages are known, and be computed at once for all six
// stages of a step, reading what they need once instead of six times.
//
// Before the stages of each trial step the stepper calls Hold(true). If
// it returns true the step lags: the argument of stage j (2..7) is mapped
// into workspace LagBuf(j) instead of j mod 2, and Rows may leave the rows
// it holds back unwritten (their stage arguments, computed from stale
// rows, are then meaningless, and Map must keep the held components' part
// of the workspace fixed). In the pass of the last stage, on each piece,
// after Rows, the stepper calls Late(dy, t, lo, hi), which must set the
// held rows of [lo, hi) for the six stages, dy[j−2][i] = f_i(t[j−2], Y_j),
// from workspace LagBuf(j) (all of them complete by then); then Held(j,
// arg, lo, hi) for j = 2..7 with the true stage arguments of [lo, hi),
// which must report whether they leave the held components' part of the
// workspace what Map kept there. If Held fails on any piece, the step is
// computed again with every row at its stage (six more evaluations),
// after Hold(false), which must return false; every evaluation outside a
// step follows Hold(false) too. A Split whose rows have the same bits
// however they are grouped thus gives a lagging step the bits of a step
// without Lag.
type Lagger interface {
	Hold(allowed bool) bool
	Late(dy *[6][]float64, t *[6]float64, lo, hi int)
	Held(j int, arg []float64, lo, hi int) bool
}

// LagBuf returns the workspace of stage j (2..7) in a lagging step: j,
// and 1 for the last stage (which is the first stage of the next step,
// as in a step without Lag).
func LagBuf(j int) int {
	if j == 7 {
		return 1
	}
	return j
}

// splitCopies is the number of vectors of len(y0) a Split stepper holds:
// workCopies and the dense output coefficients of the trial step.
const splitCopies = workCopies + 5

// NewDormandPrinceSplit returns a stepper for dy/dt = f(t, y) with the
// right-hand side in the passes of f, starting at (t0, y0); it copies y0.
// It returns errors as NewDormandPrince, and one wrapping
// loadlab.ErrInvalid naming the field for a Grain that is negative or not
// a multiple of 16, or a negative Workers.
//
// NewDormandPrinceSplit panics if f, f.Map or f.Rows is nil.
func NewDormandPrinceSplit(f *Split, t0 float64, y0 []float64, s *Settings) (*DormandPrince, error) {
	if f == nil || f.Map == nil || f.Rows == nil {
		panic("ode: NewDormandPrinceSplit: f, f.Map or f.Rows is nil")
	}
	if f.Grain < 0 || f.Grain%normBlock != 0 {
		return nil, loadlab.Invalid("ode", "Split.Grain = %d, want a multiple of %d ≥ 0 (0 for the default)", f.Grain, normBlock)
	}
	if f.Workers < 0 {
		return nil, loadlab.Invalid("ode", "Split.Workers = %d, want ≥ 0 (0 for the default)", f.Workers)
	}
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkStart(t0, y0); err != nil {
		return nil, err
	}
	if err := size.Check("ode", "len(y0)", len(y0), splitCopies*8); err != nil {
		return nil, err
	}
	split := *f
	if split.Grain == 0 {
		split.Grain = 2 * normBlock
	}
	return newStepper(nil, &split, t0, y0, &set), nil
}

// SolveStepsSplit is SolveStepsFunc for a right-hand side in passes
// (NewDormandPrinceSplit): emit sees the state after every accepted step,
// and workspace 1 of f holds its Map (see Split). Errors are those of
// SolveStepsFunc and NewDormandPrinceSplit.
//
// SolveStepsSplit panics if f, f.Map, f.Rows or emit is nil.
func SolveStepsSplit(f *Split, t0 float64, y0 []float64, t1 float64, s *Settings, emit func(t float64, y []float64) error) (*Result, error) {
	if emit == nil {
		panic("ode: SolveStepsSplit: emit is nil")
	}
	d, err := NewDormandPrinceSplit(f, t0, y0, s)
	if err != nil {
		return nil, err
	}
	return d.solveSteps(t1, emit)
}

// pieces runs fn over the pieces of the split on its goroutines.
func (d *DormandPrince) pieces(fn func(lo, hi int)) {
	par.Loop(d.n, d.split.Workers, d.split.Grain, fn) // Workers 0: GOMAXPROCS (par.Workers)
}

// eval sets dy = f(t, y), through workspace buf for a Split.
func (d *DormandPrince) eval(dy []float64, t float64, y []float64, buf int) {
	if d.split == nil {
		d.f(dy, t, y)
		return
	}
	sp := d.split
	if sp.Lag != nil {
		sp.Lag.Hold(false)
	}
	d.pieces(func(lo, hi int) { sp.Map(buf, y, lo, hi) })
	d.pieces(func(lo, hi int) { sp.Rows(buf, dy, t, lo, hi) })
}

// splitStages is stages for a Split: one pass for the argument of the
// second stage, then per stage j = 2..7 one pass in which each piece
// evaluates stage j (Rows of workspace j mod 2) and at once combines and
// maps the argument of stage j + 1 into the other workspace, or, after
// the last stage, sums its error blocks and computes its dense output
// coefficients (into rs, taken by accept).
func (d *DormandPrince) splitStages(h, tNew float64) {
	if lag := d.split.Lag; lag != nil && lag.Hold(true) {
		if d.lagStages(h, tNew) {
			return
		}
		d.stats.Evaluations += 6 // the step again, every row at its stage
		lag.Hold(false)
	}
	sp := d.split
	d.pieces(func(lo, hi int) {
		d.combine(2, h, lo, hi)
		sp.Map(0, d.tmp, lo, hi)
	})
	for j := 2; j <= 7; j++ {
		buf, t := j%2, d.stageTime(j, h, tNew)
		d.pieces(func(lo, hi int) {
			sp.Rows(buf, d.k[j-1], t, lo, hi)
			if j < 7 {
				d.combine(j+1, h, lo, hi)
				sp.Map(1-buf, d.stageArg(j+1), lo, hi)
				return
			}
			d.endPiece(h, lo, hi)
		})
	}
}

// lagStages is splitStages for a lagging step (Lagger): the stage passes
// with the workspaces LagBuf(j), the last of which, on each piece, after
// the rows of stage 7, has Late set the held rows (every stage's
// workspace is complete by then: the last was mapped in the pass
// before), recomputes the piece's stage arguments from the now complete
// rows (the fifth-order solution y1 among them: the same bits for the
// rows that were not held), checks them with Held, and sums its error
// blocks and dense output coefficients. It reports false if Held failed
// on a piece.
func (d *DormandPrince) lagStages(h, tNew float64) bool {
	sp := d.split
	d.pieces(func(lo, hi int) {
		d.combine(2, h, lo, hi)
		sp.Map(LagBuf(2), d.tmp, lo, hi)
	})
	var times [6]float64
	for j := 2; j <= 7; j++ {
		times[j-2] = d.stageTime(j, h, tNew)
	}
	var failed atomic.Bool
	for j := 2; j <= 7; j++ {
		buf, t := LagBuf(j), times[j-2]
		d.pieces(func(lo, hi int) {
			sp.Rows(buf, d.k[j-1], t, lo, hi)
			if j < 7 {
				d.combine(j+1, h, lo, hi)
				sp.Map(LagBuf(j+1), d.stageArg(j+1), lo, hi)
				return
			}
			if !d.lateRows(h, &times, lo, hi) {
				failed.Store(true)
			}
		})
	}
	return !failed.Load()
}

// lateRows is the end of a lagging step on the piece [lo, hi): Late, the
// stage arguments again, Held, and the error sums and dense output
// coefficients. It reports false if Held failed.
func (d *DormandPrince) lateRows(h float64, times *[6]float64, lo, hi int) bool {
	lag := d.split.Lag
	lag.Late((*[6][]float64)(d.k[1:]), times, lo, hi)
	for j := 2; j <= 7; j++ {
		d.combine(j, h, lo, hi)
		if !lag.Held(j, d.stageArg(j), lo, hi) {
			return false
		}
	}
	d.endPiece(h, lo, hi)
	return true
}

// endPiece is the end of a trial step of a Split on the piece [lo, hi),
// once its last stage is known: the error sums of its blocks and, unless
// no Interpolate will follow, its dense output coefficients (into rs,
// taken by accept).
func (d *DormandPrince) endPiece(h float64, lo, hi int) {
	d.blockErrors(h, lo, hi)
	if !d.noDense {
		d.denseCoefficients(&d.rs, h, lo, hi)
	}
}

// solveSteps is the output loop of SolveStepsFunc and SolveStepsSplit.
func (d *DormandPrince) solveSteps(t1 float64, emit func(t float64, y []float64) error) (*Result, error) {
	if math.IsNaN(t1) || math.IsInf(t1, 0) || t1 == d.t {
		return nil, loadlab.Invalid("ode", "t1 = %v, want a finite value ≠ t0 = %v", t1, d.t)
	}
	// The stepper is this function's own and emit sees every accepted
	// state: nothing interpolates, so the dense output is not formed.
	d.noDense = true
	err := d.run(t1, func() (bool, error) {
		return d.Time() == t1, emit(d.Time(), d.State())
	})
	return (&Result{}).finish(d.Stats(), err)
}
