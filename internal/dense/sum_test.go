package dense

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSumOverflowingIntermediate: a running sum that overflows on the
// way must not turn a representable total into NaN or Inf.
func TestSumOverflowingIntermediate(t *testing.T) {
	const big = 1e308
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{big, big, -big}, big}, {[]float64{big, -big, big}, big},
		{[]float64{-big, -big, big}, -big}, {[]float64{big, big, 1, -big, -big}, 1},
	} {
		assert.Equal(t, c.want, Sum(c.xs), "Sum(%v)", c.xs)
	}
	assert.True(t, math.IsInf(Sum([]float64{math.MaxFloat64, math.MaxFloat64}), 1), "overflowing total: want +Inf")
	assert.True(t, math.IsInf(Sum([]float64{math.Inf(1), 1, 2}), 1), "+Inf term: want +Inf")
	assert.True(t, math.IsNaN(Sum([]float64{math.Inf(1), math.Inf(-1)})), "+Inf − Inf: want NaN")
	var k CompensatedSum
	for _, x := range []float64{math.Inf(1), 1, math.Inf(1)} {
		k.Add(x)
	}
	assert.True(t, math.IsInf(k.Value(), 1), "CompensatedSum of +Inf terms: %v, want +Inf", k.Value())
}

// TestSum checks the compensated sum on a series whose plain sum loses
// every digit: 1, then 1e6 terms 1e-16 (each below half an ulp of 1),
// whose exact total is 1 + 1e-10.
func TestSum(t *testing.T) {
	xs := []float64{1}
	for range 1000000 {
		xs = append(xs, 1e-16)
	}
	var plain float64
	for _, x := range xs {
		plain += x
	}
	assert.Equal(t, 1.0, plain) // the plain loop drops every small term
	// Compensated: error ~1 ulp of the total plus n ε² Σ|x| ≈ 2e-16.
	assert.InDelta(t, 1+1e-10, Sum(xs), 4e-16)
	var k CompensatedSum
	for _, x := range []float64{1e100, 1, -1e100} {
		k.Add(x)
	}
	assert.Equal(t, 1.0, k.Value())
}
