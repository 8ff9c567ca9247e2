package competitive

import (
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Forecaster predicts the hold costs of the slots that follow the
// current one, for the motion-aware algorithms of spec §7.
type Forecaster interface {
	// Forecast writes the predicted hold vectors of up to w slots after
	// slot t (0-based, the slot just given to Step) into dst, row-major
	// (len(dst) ≥ w·k), and returns the number L ≤ w of slots written.
	// ok is false when nothing can be predicted; L = 0 with ok true
	// means the forecaster knows no later slot matters (the end of the
	// input), so planning the current slot alone is right.
	Forecast(dst []float64, t, w int) (L int, ok bool)
}

// Lookahead is the motion-aware scheme of spec §7: in every slot it asks
// its Forecaster for up to Window future slots, solves the warm-start
// offline problem (spec §3, Optimal started on the current server) over
// the current slot and the L predicted ones, and follows the plan for the
// current slot, re-planning every slot. When nothing can be predicted
// (ok false, or Window = 0) it behaves like DTrack-RR (α = 1) for that
// slot; its
// deficits are tracked in every slot, so the fallback starts from the
// right state.
//
// Target-Aware and Direction-Aware are this algorithm with the
// forecasters of package competitive/mobility (the node's way-point and
// speed, or its heading and speed). A slot costs O(k·(L+1)) and, after
// the first slot, allocates nothing.
type Lookahead struct {
	// Window is the look-ahead W ≥ 0 in slots. Changes to the fields
	// take effect at the next Reset.
	Window int
	// Forecaster predicts future hold costs; nil means none (DTrack-RR).
	Forecaster Forecaster

	k, t, s int
	w       int // Window as validated by the last Reset
	c       float64
	opt     Optimal
	buf     []float64
	plan    []int
	rr      DTrack
}

// Reset implements Online. It returns an error wrapping
// loadlab.ErrInvalid if Window < 0, k < 1, or C is negative, NaN or
// infinite, and one wrapping loadlab.ErrTooLarge if the forecast buffer
// of Window·k costs and the plan's back-pointers do not fit in memory.
func (a *Lookahead) Reset(k int, C float64) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if err := validateReset(k, C); err != nil {
		return err
	}
	// Window·k forecast costs, and the plan's back-pointers of
	// Window + 1 slots (at most 8 bytes per server and 4 per slot).
	n, ok := size.Product(a.Window+1, k)
	if err := size.Check(pkg, "Lookahead: (Window+1)·k forecast costs and back-pointers", n, 16+4); !ok || err != nil {
		return loadlab.TooLarge(pkg, "Lookahead: Window = %d slots of k = %d servers need more than %d GiB", a.Window, k, size.MaxBytes>>30)
	}
	a.rr = DTrack{Policy: RoundRobin, Alpha: 1, d: a.rr.d, next: a.rr.next}
	if err := a.rr.Reset(k, C); err != nil {
		return err
	}
	a.k, a.c, a.t, a.s = k, C, 0, NoServer
	a.w = a.Window
	if n := a.Window * k; cap(a.buf) < n {
		a.buf = make([]float64, n)
	}
	return nil
}

// Validate returns an error wrapping loadlab.ErrInvalid if Window < 0,
// and the error of the Forecaster's own Validate method if it has one
// (Oracle does). (Whether Window·k costs fit in memory depends on k;
// Reset checks it.)
func (a *Lookahead) Validate() error {
	if a.Window < 0 {
		return loadlab.Invalid(pkg, "Lookahead.Window = %d, want ≥ 0", a.Window)
	}
	if v, ok := a.Forecaster.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("Lookahead.Forecaster: %w", err)
		}
	}
	return nil
}

// Step implements Online. Besides the errors of every Step, it returns
// an error wrapping loadlab.ErrInvalid, and leaves the state unchanged,
// if the forecaster reports more slots than asked for or a negative
// number, or predicts a hold cost that is negative, NaN or infinite.
func (a *Lookahead) Step(hold []float64) (int, error) {
	if err := validateStep("Lookahead.Step", hold, a.k); err != nil {
		return NoServer, err
	}
	L, ok := 0, false
	if a.w > 0 && a.Forecaster != nil {
		L, ok = a.Forecaster.Forecast(a.buf[:a.w*a.k], a.t, a.w)
		if ok && (L < 0 || L > a.w) {
			return NoServer, loadlab.Invalid(pkg, "Lookahead.Step: forecaster predicted %d slots for a window of %d at slot %d", L, a.w, a.t)
		}
	}
	if !ok { // spec §7 fallback
		a.t++
		a.s = a.rr.step(hold)
		return a.s, nil
	}
	if err := a.plan1(hold, L); err != nil {
		return NoServer, err
	}
	a.t++
	a.rr.track(hold, a.s)
	return a.s, nil
}

// plan1 solves the warm-start problem over the current slot and L
// predicted ones (spec §3, §7) and sets a.s to the plan's first server.
func (a *Lookahead) plan1(hold []float64, L int) error {
	a.opt.reset(a.k, a.c, a.s, true) // spec §3 warm start
	a.opt.push(hold)
	for i := range L {
		row := a.buf[i*a.k : (i+1)*a.k]
		if err := validateRow(row, func(s int, x float64) error {
			return loadlab.Invalid(pkg, "Lookahead.Step: forecast of slot %d + %d: hold[%d] = %v, want finite and ≥ 0", a.t, i+1, s, x)
		}); err != nil {
			return err
		}
		a.opt.push(row)
	}
	a.plan = a.opt.Schedule(a.plan)
	a.s = a.plan[0]
	return nil
}

// Oracle is a perfect Forecaster that reads the future slots of an
// instance; with it, Lookahead shows what motion awareness can gain at
// most, and with Window ≥ T it attains OPT.
type Oracle struct {
	In *Instance
}

// Validate returns an error wrapping loadlab.ErrInvalid if In is nil.
// Lookahead.Reset calls it.
func (o Oracle) Validate() error {
	if o.In == nil {
		return loadlab.Invalid(pkg, "Oracle.In is nil, want an instance")
	}
	return nil
}

// Forecast implements Forecaster. After the last slot of In it predicts
// nothing more (L = 0). It panics if In is nil (Forecast has no error
// result; Lookahead.Reset reports it first through Validate), if t < 0,
// or if dst is shorter than the L·k costs it predicts.
func (o Oracle) Forecast(dst []float64, t, w int) (int, bool) {
	if o.In == nil {
		panic("competitive: Oracle.Forecast: Oracle.In is nil")
	}
	if t < 0 {
		panic(fmt.Sprintf("competitive: Oracle.Forecast: t = %d, want a slot ≥ 0", t))
	}
	L := max(0, min(w, o.In.Slots()-1-t))
	if L == 0 {
		return 0, true
	}
	k := o.In.Servers()
	if len(dst) < L*k {
		panic(fmt.Sprintf("competitive: Oracle.Forecast: len(dst) = %d, want ≥ L·k = %d·%d", len(dst), L, k))
	}
	copy(dst, o.In.h[(t+1)*k:(t+1+L)*k])
	return L, true
}
