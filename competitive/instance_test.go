package competitive

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCostOverflow: hold costs and C whose schedule costs overflow
// float64 are refused (guards: no OPT = +Inf, no NaN ratio).
func TestCostOverflow(t *testing.T) {
	big := math.MaxFloat64 / 1.5 // 2·big overflows
	_, err := NewInstance([][]float64{{big / 2, 1}, {big / 2, 1}}, 1)
	assert.NoError(t, err, "C·T + Σ max h = 2 + big is finite")
	// The rule is conservative: OPT = 3 + C is finite here, but a
	// schedule on server 0 costs +Inf, and so could an online one.
	_, err = NewInstance([][]float64{{big, 1}, {big, 1}}, 1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "overflows float64")
	in, err := NewInstance([][]float64{{1}, {1}}, 1)
	require.NoError(t, err)
	_, err = in.WithSetup(big)
	assert.ErrorContains(t, err, "overflows float64")
	_, _, err = Cruel(NewDTrack(RoundRobin), 2, 10, 1, big)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	var o Optimal
	require.NoError(t, o.Reset(1, 1, NoServer, false))
	require.NoError(t, o.Push([]float64{big}))
	assert.ErrorContains(t, o.Push([]float64{big}), "overflows float64")
	assert.Equal(t, big+1, o.Cost(), "the refused row changed nothing")
}
