package competitive

import (
	"fmt"
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
	// Window is the look-ahead W ≥ 0 in slots.
	Window int
	// Forecaster predicts future hold costs; nil means none (DTrack-RR).
	Forecaster Forecaster

	k, t, s int
	c       float64
	opt     Optimal
	buf     []float64
	plan    []int
	rr      DTrack
}

// Reset implements Online. It returns an error if Window < 0, k < 1,
// or C is negative, NaN or infinite.
func (a *Lookahead) Reset(k int, C float64) error {
	if a.Window < 0 {
		return fmt.Errorf("competitive: Lookahead Window = %d: want ≥ 0", a.Window)
	}
	a.rr = DTrack{Policy: RoundRobin, Alpha: 1, d: a.rr.d}
	if err := a.rr.Reset(k, C); err != nil {
		return err
	}
	a.k, a.c, a.t, a.s = k, C, 0, NoServer
	if n := a.Window * k; cap(a.buf) < n {
		a.buf = make([]float64, n)
	}
	return nil
}

// Step implements Online. It panics if len(hold) ≠ k or the forecaster
// reports more slots than asked for.
func (a *Lookahead) Step(hold []float64) int {
	if len(hold) != a.k {
		panic(fmt.Sprintf("competitive: Lookahead.Step with %d costs for k = %d", len(hold), a.k))
	}
	L, ok := 0, false
	if a.Window > 0 && a.Forecaster != nil {
		L, ok = a.Forecaster.Forecast(a.buf[:a.Window*a.k], a.t, a.Window)
		if L < 0 || L > a.Window {
			panic(fmt.Sprintf("competitive: forecaster predicted %d slots for a window of %d", L, a.Window))
		}
	}
	a.t++
	if !ok { // spec §7 fallback
		a.s = a.rr.Step(hold)
		return a.s
	}
	a.opt.Reset(a.k, a.c, a.s, true) // spec §3 warm start
	a.opt.Push(hold)
	for i := range L {
		a.opt.Push(a.buf[i*a.k : (i+1)*a.k])
	}
	a.plan = a.opt.Schedule(a.plan)
	a.s = a.plan[0]
	a.rr.track(hold, a.s)
	return a.s
}

// Oracle is a perfect Forecaster that reads the future slots of an
// instance; with it, Lookahead shows what motion awareness can gain at
// most, and with Window ≥ T it attains OPT.
type Oracle struct {
	In *Instance
}

// Forecast implements Forecaster.
func (o Oracle) Forecast(dst []float64, t, w int) (int, bool) {
	L := min(w, o.In.Slots()-1-t)
	copy(dst, o.In.h[(t+1)*o.In.Servers():(t+1+L)*o.In.Servers()])
	return L, true
}
