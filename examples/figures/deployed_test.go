package main

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/plots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGaussPlus checks G(μ, s) = E(μ + sZ)₊ against the trapezoidal rule
// on [−12, 12] with step 10⁻³ (an error far below 1e-9 for this smooth,
// rapidly decaying integrand with a kink resolved to h²), and G(μ, 0) = μ₊.
func TestGaussPlus(t *testing.T) {
	for _, c := range [][2]float64{{0, 1}, {1, 2}, {-3, 1.5}, {5, 0.5}, {-0.2, 10}} {
		mu, s := c[0], c[1]
		const h = 1e-3
		var sum float64
		for k := -12000; k <= 12000; k++ {
			z := float64(k) * h
			w := h
			if k == -12000 || k == 12000 {
				w = h / 2
			}
			sum += w * math.Max(mu+s*z, 0) * math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
		}
		assert.InDelta(t, sum, gaussPlus(mu, s), 1e-6*s, "μ = %v, s = %v", mu, s)
	}
	assert.Equal(t, 2.5, gaussPlus(2.5, 0))
	assert.Equal(t, 0.0, gaussPlus(-1, 0))
}

func TestRound125(t *testing.T) {
	for _, c := range []struct{ x, down, up float64 }{{37, 20, 50}, {552, 500, 1000}, {1, 1, 1}, {0.0031, 0.002, 0.005}, {200, 200, 200}, {7.5, 5, 10}} {
		assert.InDelta(t, c.down, round125(c.x, false), 1e-12*c.down, "down %v", c.x)
		assert.InDelta(t, c.up, round125(c.x, true), 1e-12*c.up, "up %v", c.x)
	}
}

// TestDeployedHeadlines makes the quick versions of the deployed figures
// whose headlines do not rest on a few random intervals and checks that
// every headline agrees with its reference.
func TestDeployedHeadlines(t *testing.T) {
	for _, name := range []string{"deployed-conservation", "deployed-client-fairness", "deployed-dst-vs-cst"} {
		res, err := registry[name].Make(plots.Config{Quick: true, Seed: 1})
		require.NoError(t, err, name)
		for _, h := range res.Headlines {
			assert.True(t, h.Agrees(), "%s: %s = %v, want %s", name, h.Name, h.Value, h.Range())
		}
	}
}
