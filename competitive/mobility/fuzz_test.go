package mobility

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/stretchr/testify/require"
)

// FuzzRandomWaypoint feeds unclipped (side, speed, T): invalid values
// must be ErrInvalid, and sizes beyond the memory budget (T positions, or
// the T·speed/side way-points) ErrTooLarge, returned at once. A walk small
// enough to check quickly must stay in the square, move at most speed per
// slot and exactly speed while the leg does not change (to rounding), use
// its way-points in order, and have finite positions; walks in between
// (valid but of millions of slots or way-points) are not run, to keep
// the fuzzer fast.
func FuzzRandomWaypoint(f *testing.F) {
	f.Add(1000.0, 10.0, 50)
	f.Add(1.0, 100.0, 20)
	f.Add(-1.0, 10.0, 5)
	f.Add(math.NaN(), 1.0, 3)
	f.Add(1e155, 1e155, 30)
	f.Add(1000.0, 10.0, 1<<40)
	f.Add(1.0, 1e12, 1<<20)
	f.Add(math.MaxFloat64, 1e300, 7)
	f.Fuzz(func(t *testing.T, side, speed float64, T int) {
		valid := side > 0 && side <= math.MaxFloat64 && speed > 0 && speed <= math.MaxFloat64 && T >= 1
		legs := 2*float64(T)*(speed/side)/meanLeg + 64
		tooLarge := valid && (size.Check(pkg, "", T, 24) != nil || !(legs <= size.MaxBytes/16))
		if valid && !tooLarge && (T > 5000 || legs > 1e5) {
			return // valid but slow to check
		}
		w, err := RandomWaypoint(side, speed, T, mc.Source(1))
		switch {
		case !valid:
			require.ErrorIsf(t, err, loadlab.ErrInvalid, "side %v speed %v T %d: %v, want ErrInvalid", side, speed, T, err)
			return
		case tooLarge:
			require.ErrorIsf(t, err, loadlab.ErrTooLarge, "side %v speed %v T %d: %v, want ErrTooLarge", side, speed, T, err)
			return
		default:
			require.NoErrorf(t, err, "side %v speed %v T %d", side, speed, T)
		}
		checkWalk(t, w, T)
	})
}

// checkWalk checks the invariants of a walk of T slots.
func checkWalk(t *testing.T, w *Walk, T int) {
	side, speed := w.Side, w.Speed
	// Positions are sums of steps rounded to the ulp of the coordinates
	// (≤ 2⁻⁵² side each) and of the step (relative 1e-9 covers the few
	// roundings of speed·Δ/d).
	slack := 1e-15 * side
	inside := func(p Point) bool {
		return p.X >= -slack && p.X <= side+slack && p.Y >= -slack && p.Y <= side+slack
	}
	require.Falsef(t, len(w.Pos) != T || len(w.Leg) != T, "%d positions, %d legs for T = %d", len(w.Pos), len(w.Leg), T)
	for s, p := range w.Pos {
		require.Falsef(t, !inside(p) || w.Leg[s] < 0 || w.Leg[s] >= len(w.Way) || !inside(w.Way[w.Leg[s]]), "slot %d at %v (leg %d of %d) outside [0, %v]²", s, p, w.Leg[s], len(w.Way), side)
		if s == 0 {
			continue
		}
		step := p.Dist(w.Pos[s-1])
		require.Falsef(t, step > speed*(1+1e-9)+4*slack, "slot %d moved %v > speed %v", s, step, speed)
		require.Falsef(t, w.Leg[s] < w.Leg[s-1], "slot %d: leg %d after %d", s, w.Leg[s], w.Leg[s-1])
		require.Falsef(t, w.Leg[s] == w.Leg[s-1] && math.Abs(step-speed) > 1e-9*speed+4*slack, "slot %d moved %v ≠ speed %v within a leg", s, step, speed)
	}
}

// FuzzScenarios: Mesh and ChatRoom, with unclipped fields, either refuse
// their settings with a named error (Validate and Sample agreeing) or
// produce a valid instance of Grid² servers and Slots slots. Accepted
// settings whose instance would take long to build are validated but
// not sampled.
func FuzzScenarios(f *testing.F) {
	f.Add(3, 20, 50.0, 3.0, 10.0, 10.0)
	f.Add(-1, 5, -1.0, 0.0, 0.0, 0.0)
	f.Add(1<<20, 0, 0.0, 1e9, 0.0, math.NaN())
	f.Add(1<<32, 1<<40, 1e-300, 1.0, 1e-9, 1e12)
	f.Fuzz(func(t *testing.T, grid, slots int, setup, users, stay, speed float64) {
		for _, sc := range []interface {
			Scenario
			Validate() error
		}{Mesh{Grid: grid, Slots: slots, Setup: setup, Speed: speed}, ChatRoom{Grid: grid, Slots: slots, Setup: setup, Users: users, Stay: stay}} {
			err := sc.Validate()
			if err != nil {
				require.Falsef(t, !errors.Is(err, loadlab.ErrInvalid) && !errors.Is(err, loadlab.ErrTooLarge), "%+v: unnamed error %v", sc, err)
				_, _, err2 := sc.Sample(mc.Source(2))
				require.Errorf(t, err2, "%+v: Validate says %v, Sample accepts", sc, err)
				require.Equalf(t, err.Error(), err2.Error(), "%+v: Validate and Sample", sc)
				continue
			}
			if slow(sc) {
				continue
			}
			in, _, err := sc.Sample(mc.Source(2))
			require.NoErrorf(t, err, "%+v: Validate accepted, Sample says %v", sc, err)
			g, T := max(grid, 0), max(slots, 0)
			if g == 0 {
				g = 10
			}
			if T == 0 {
				T = 3600
			}
			require.Falsef(t, in.Slots() != T || in.Servers() != g*g || !(in.Setup() > 0), "%+v: instance T=%d k=%d C=%v", sc, in.Slots(), in.Servers(), in.Setup())
		}
	})
}

// slow reports whether sampling sc would take more than a few
// milliseconds.
func slow(sc Scenario) bool {
	switch s := sc.(type) {
	case Mesh:
		s = s.withDefaults()
		side := float64(s.Grid) * Spacing
		return s.Grid*s.Grid*s.Slots > 1e5 || float64(s.Slots)*s.Speed/side > 1e5
	case ChatRoom:
		s = s.withDefaults()
		return s.Grid*s.Grid*s.Slots > 1e5 || s.Users*(1+float64(s.Slots)/s.Stay) > 1e4 || s.Users*float64(s.Grid*s.Grid*s.Slots) > 1e6
	}
	return true
}
