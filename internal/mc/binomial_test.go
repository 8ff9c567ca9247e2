package mc

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// By hand: with k = 0 the upper end solves (1 − p)^n = 0.025, with k = n
// the lower end solves p^n = 0.025; the interval of k = 5 of 10 is
// symmetric about ½ and equals the published [0.1871, 0.8129].
func TestClopperPearsonByHand(t *testing.T) {
	_, hi := ClopperPearson(0, 20, 0.05)
	if want := 1 - math.Pow(0.025, 1.0/20); math.Abs(hi-want) > 1e-12 {
		t.Errorf("k = 0: hi = %v, want %v", hi, want)
	}
	lo, _ := ClopperPearson(20, 20, 0.05)
	if want := math.Pow(0.025, 1.0/20); math.Abs(lo-want) > 1e-12 {
		t.Errorf("k = n: lo = %v, want %v", lo, want)
	}
	lo, hi = ClopperPearson(5, 10, 0.05)
	if math.Abs(lo+hi-1) > 1e-12 || math.Abs(lo-0.187086) > 1e-6 {
		t.Errorf("5 of 10: [%v, %v], want [0.187086, 0.812914]", lo, hi)
	}
}

// The coverage is at least 95 % for every p: computed exactly by summing
// the binomial probabilities of the k whose interval holds p.
func TestClopperPearsonCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(60)
		p := rng.Float64()
		b := distuv.Binomial{N: float64(n), P: p}
		var cover float64
		for k := 0; k <= n; k++ {
			if lo, hi := ClopperPearson(int64(k), int64(n), 0.05); lo <= p && p <= hi {
				cover += b.Prob(float64(k))
			}
		}
		// Exact sums: the only slack is the quantiles' rounding (≪ 1e-9).
		if cover < 0.95-1e-9 {
			t.Errorf("n = %d, p = %v: coverage %v < 0.95", n, p, cover)
		}
	}
	e := Binomial(3, 12)
	if e.Mean != 0.25 || e.N != 12 || !(e.Lo < 0.25 && e.Hi > 0.25) {
		t.Errorf("Binomial(3, 12) = %+v", e)
	}
}
