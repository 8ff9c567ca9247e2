package competitive

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStepValidates: every online algorithm's Step refuses a bad row
// with an error naming the index and value and leaves its state as it
// was, so that the rest of the run equals a run without the bad row.
func TestStepValidates(t *testing.T) {
	in := fixtureByName(t, "H")
	algs := map[string]func() Online{
		"DTrack-RR": func() Online { return NewDTrack(RoundRobin) },
		"DTrack-B":  func() Online { return NewDTrack(Backward) },
		"WFA":       func() Online { return &WFA{} },
		"Marking":   func() Online { return &Marking{Src: newRand(9)} },
		"Lookahead": func() Online { return &Lookahead{Window: 2, Forecaster: Oracle{in}} },
	}
	bad := [][]float64{{math.NaN(), 1, 1}, {1, -1, 1}, {1, 1, math.Inf(1)}, {1, 1}}
	for name, mk := range algs {
		want, err := Run(mk(), in)
		require.NoError(t, err, name)
		alg := mk()
		require.NoError(t, alg.Reset(in.Servers(), in.Setup()))
		for s := range in.Slots() {
			for _, b := range bad {
				_, err := alg.Step(b)
				require.ErrorIs(t, err, loadlab.ErrInvalid, "%s slot %d row %v", name, s, b)
			}
			assert.Equal(t, want[s], mustStep(t, alg, in.Row(s)), "%s slot %d", name, s)
		}
		assert.Panics(t, func() { _, _ = mk().Step(bad[0][:0]) }, "%s: Step before Reset", name)
		assert.Panics(t, func() { _, _ = mk().Step(bad[0]) }, "%s: Step before Reset", name)
		assert.Panics(t, func() { _, _ = NewCTrack().Step(nil) }, "CTrack.Step before Reset")
	}
	// CTrack reads, and so validates, only the values it needs: the
	// current server's in a stay slot, the scanned ones in a move.
	c := NewCTrack()
	require.NoError(t, c.Reset(3, 10))
	_, err := c.Step([]float64{1, math.NaN(), 2})
	assert.ErrorContains(t, err, "hold[1] = NaN", "first slot: the whole row")
	assert.Equal(t, 0, mustStep(t, c, []float64{1, 2, 3}))
	assert.Equal(t, 0, mustStep(t, c, []float64{1, -1, math.Inf(1)}), "stay slot: only hold[0] is read")
	_, err = c.Step([]float64{math.NaN(), 1, 1})
	assert.ErrorContains(t, err, "hold[0] = NaN")
	_, err = c.Step([]float64{20, math.Inf(1), 1})
	assert.ErrorContains(t, err, "hold[1] = +Inf", "the move scans server 1")
	_, err = c.Step([]float64{1, 2})
	assert.ErrorContains(t, err, "len(hold) = 2")
	assert.Equal(t, 2, mustStep(t, c, []float64{20, 11, 1}), "state unchanged by the refused rows: H = 2, scan skips 1")
	d := NewDTrack(RoundRobin)
	require.NoError(t, d.Reset(3, 1))
	_, err = d.Step([]float64{1, math.NaN(), 2})
	assert.EqualError(t, err, "competitive: DTrack.Step: hold[1] = NaN, want finite and ≥ 0: invalid argument")
}

// TestFieldsChangedAfterReset: the exported parameters are read at
// Reset; changing them mid-run takes effect at the next Reset instead of
// corrupting the run (guards: a larger Lookahead.Window slicing past the
// forecast buffer, a NaN DTrack.Alpha silently disabling the trigger).
func TestFieldsChangedAfterReset(t *testing.T) {
	in := fixtureByName(t, "C")
	la := &Lookahead{Window: 1, Forecaster: Oracle{in}}
	want, err := Run(&Lookahead{Window: 1, Forecaster: Oracle{in}}, in)
	require.NoError(t, err)
	require.NoError(t, la.Reset(in.Servers(), in.Setup()))
	la.Window = 1000
	for s := range in.Slots() {
		assert.Equal(t, want[s], mustStep(t, la, in.Row(s)))
	}
	d := NewDTrack(RoundRobin)
	want, err = Run(NewDTrack(RoundRobin), in)
	require.NoError(t, err)
	require.NoError(t, d.Reset(in.Servers(), in.Setup()))
	d.Alpha, d.Policy, d.Beta = math.NaN(), Policy(9), math.NaN()
	for s := range in.Slots() {
		assert.Equal(t, want[s], mustStep(t, d, in.Row(s)))
	}
	assert.Error(t, d.Reset(in.Servers(), in.Setup()), "the next Reset sees the change")
	c := NewCTrack()
	want, err = Run(NewCTrack(), in)
	require.NoError(t, err)
	require.NoError(t, c.Reset(in.Servers(), in.Setup()))
	c.Alpha, c.Cyclic = -1, true
	for s := range in.Slots() {
		assert.Equal(t, want[s], mustStep(t, c, in.Row(s)))
	}
}

// TestPerformanceRatio: the conventions of Ratio, and bad costs refused.
func TestPerformanceRatio(t *testing.T) {
	for _, c := range [][3]float64{{6, 3, 2}, {0, 0, 1}, {1, 0, math.Inf(1)}} {
		r, err := PerformanceRatio(c[0], c[1])
		require.NoError(t, err)
		assert.Equal(t, c[2], r, "%v/%v", c[0], c[1])
	}
	for _, c := range [][2]float64{{math.NaN(), 1}, {1, -1}, {math.Inf(1), 1}, {1, math.NaN()}} {
		_, err := PerformanceRatio(c[0], c[1])
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "%v/%v", c[0], c[1])
	}
}
