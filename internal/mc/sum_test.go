package mc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// One part: SumIndependent is Summarize's interval of that mean.
func TestSumIndependentOnePart(t *testing.T) {
	xs := []float64{1.5, 2.25, 0.75, 3, 2}
	s := Summarize(xs)
	got := SumIndependent(Part{Mean: s.Mean, StdErr: s.StdErr, DF: float64(len(xs) - 1)}, Part{Mean: 10})
	if math.Abs(got.Mean-(s.Mean+10)) > 1e-14 || math.Abs(got.Lo-(s.Lo+10)) > 1e-12 || math.Abs(got.Hi-(s.Hi+10)) > 1e-12 || got.N != len(xs) {
		t.Errorf("got %+v, want Summarize %+v shifted by 10", got, s)
	}
	if p := SumIndependent(Part{Mean: 1}, Part{Mean: 2}); p.Lo != 3 || p.Hi != 3 || p.StdErr != 0 {
		t.Errorf("exact parts: %+v, want the point 3", p)
	}
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
	if math.Abs(rate-0.95) > 3*se {
		t.Errorf("coverage %.4f, want 0.95 ± %.4f", rate, 3*se)
	}
}
