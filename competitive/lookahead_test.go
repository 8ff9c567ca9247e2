package competitive

import (
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLookaheadLimits checks the two ends of the look-ahead range: with
// a perfect forecast covering the whole input, re-planning every slot
// from the current server follows an optimal continuation (principle of
// optimality), so the cost is OPT; with no forecast it is DTrack-RR.
func TestLookaheadLimits(t *testing.T) {
	rng := newRand(6)
	for i := range 800 {
		k, T := 1+rng.IntN(5), 1+rng.IntN(40)
		C := []float64{0, 1, 2, 5, 8}[rng.IntN(5)]
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(10)))
		name := fmt.Sprintf("instance %d", i)
		_, full := run(t, &Lookahead{Window: T, Forecaster: Oracle{in}}, in)
		require.InDelta(t, OptimumCost(in), full, tol*float64(T), name)
		rr, _ := run(t, NewDTrack(RoundRobin), in)
		none, _ := run(t, &Lookahead{Window: 0, Forecaster: Oracle{in}}, in)
		require.Equal(t, rr, none, name)
		nilf, _ := run(t, &Lookahead{Window: 3}, in)
		require.Equal(t, rr, nilf, name)
		// Any window: never below OPT.
		_, some := run(t, &Lookahead{Window: 1 + rng.IntN(4), Forecaster: Oracle{in}}, in)
		require.LessOrEqual(t, OptimumCost(in), some+tol, name)
	}
}

// shortSight predicts only on even slots, to exercise the switch between
// planning and the DTrack-RR fallback.
type shortSight struct{ o Oracle }

func (s shortSight) Forecast(dst []float64, t, w int) (int, bool) {
	if t%2 == 1 {
		return 0, false
	}
	return s.o.Forecast(dst, t, w)
}

// TestLookaheadFallback checks that the fallback keeps DTrack's
// invariant I2 over stays that the fallback itself ends: after planning
// the deficits are tracked, so a fallback trigger is a genuine DTrack-RR
// trigger.
func TestLookaheadFallback(t *testing.T) {
	rng := newRand(7)
	for i := range 300 {
		in := randomInstance(rng, uniform, 4, 30, 3, 6)
		a := &Lookahead{Window: 2, Forecaster: shortSight{Oracle{in}}}
		require.NoError(t, a.Reset(in.Servers(), in.Setup()))
		for s := range in.Slots() {
			got := mustStep(t, a, in.Row(s))
			assert.Equal(t, a.rr.Server(), got)
			for j, d := range a.rr.Deficits() { // I1: deficits ≤ αC after every fallback slot
				if s%2 == 1 {
					require.LessOrEqual(t, d, in.Setup(), "instance %d slot %d server %d", i, s, j)
				}
			}
		}
	}
	assert.Error(t, (&Lookahead{Window: -1}).Reset(2, 1))
}

// badForecast predicts a NaN cost, or more slots than asked for.
type badForecast struct{ tooMany bool }

func (b badForecast) Forecast(dst []float64, t, w int) (int, bool) {
	if b.tooMany {
		return w + 1, true
	}
	dst[0] = math.NaN()
	return 1, true
}

// TestLookaheadBadForecast: a forecaster's bad output is an error of
// Step (guards: no panic for L > Window, no planning with a NaN).
func TestLookaheadBadForecast(t *testing.T) {
	in := fixtureByName(t, "A")
	for _, f := range []badForecast{{false}, {true}} {
		_, err := Run(&Lookahead{Window: 3, Forecaster: f}, in)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "%+v", f)
	}
	// Oracle after the end of its instance predicts nothing.
	dst := make([]float64, 4)
	L, ok := Oracle{in}.Forecast(dst, in.Slots()+3, 2)
	assert.Equal(t, 0, L)
	assert.True(t, ok)
	// An Oracle without an instance is a bad field: Lookahead.Reset
	// names it (guards: not a panic inside Step), and Forecast itself,
	// which has no error result, panics.
	err := (&Lookahead{Window: 2, Forecaster: Oracle{}}).Reset(2, 1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "Oracle.In")
	assert.Panics(t, func() { Oracle{}.Forecast(dst, 0, 2) })
}
