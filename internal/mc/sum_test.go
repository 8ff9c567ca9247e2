package mc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// One part: SumIndependent is Summarize's interval of that mean.
func TestSumIndependentOnePart(t *testing.T) {
	xs := []float64{1.5, 2.25, 0.75, 3, 2}
	s := Summarize(xs)
	got := SumIndependent(Part{Mean: s.Mean, StdErr: s.StdErr, DF: float64(len(xs) - 1)}, Part{Mean: 10})
	// One rounding of a sum near 12 (1e-14), and the Student-t quantile
	// computed along another path (1e-12).
	assert.InDelta(t, s.Mean+10, got.Mean, 1e-14)
	assert.InDelta(t, s.Lo+10, got.Lo, 1e-12)
	assert.InDelta(t, s.Hi+10, got.Hi, 1e-12)
	assert.Equal(t, len(xs), got.N)
	p := SumIndependent(Part{Mean: 1}, Part{Mean: 2})
	assert.Equal(t, 3.0, p.Lo, "exact parts give the point 3")
	assert.Equal(t, 3.0, p.Hi)
	assert.Equal(t, 0.0, p.StdErr)
}

// The Welch–Satterthwaite interval of a sum of two independent means
// (a small noisy sample and a larger quiet one, the shape of EstimateH2's
// decoupled resistance term) covers the true sum at 95 % ± 3 binomial
// standard errors over 4000 repetitions.
func TestSumIndependentCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const reps = 4000
	hit := 0
	draw := func(k int, mu, sd float64) Part {
		xs := make([]float64, k)
		for i := range xs {
			xs[i] = mu + sd*rng.NormFloat64()
		}
		s := Summarize(xs)
		return Part{Mean: s.Mean, StdErr: s.StdErr, DF: float64(k - 1)}
	}
	for range reps {
		s := SumIndependent(draw(6, 1, 3), draw(40, 2, 1))
		if s.Lo <= 3 && 3 <= s.Hi {
			hit++
		}
	}
	rate, se := float64(hit)/reps, math.Sqrt(0.95*0.05/reps)
	assert.InDelta(t, 0.95, rate, 3*se, "coverage")
}
