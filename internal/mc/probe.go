package mc

import (
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// Estimate returns the sample mean of xs with its two-sided 95 %
// Student-t interval and standard error, as a loadlab.Estimate (see
// Summarize for samples of fewer than two values).
func Estimate(xs []float64) loadlab.Estimate {
	s := Summarize(xs)
	return loadlab.Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: s.N}
}

// Rademacher fills q with independent ±1, 64 of them from each 64-bit
// word of rng (the probe vectors of the stochastic trace and diagonal
// estimators). It panics if rng is nil and q is not empty.
func Rademacher(q []float64, rng *rand.Rand) {
	for i := 0; i < len(q); i += 64 {
		bits := rng.Uint64()
		for j := i; j < min(i+64, len(q)); j++ {
			q[j] = float64(int64(bits&1)*2 - 1)
			bits >>= 1
		}
	}
}
