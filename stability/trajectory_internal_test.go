package stability

import (
	"math"
	"testing"
)

// The shortcut of sigmoid at z ≥ 37 returns what the formula returns:
// e^{−37} < 2⁻⁵³, so 1 + e^{−z} rounds to 1 from there on. Checked on a
// grid through the threshold and against the two-branch formula.
func TestSigmoidShortcutExact(t *testing.T) {
	ref := func(z float64) float64 {
		if z >= 0 {
			return 1 / (1 + math.Exp(-z))
		}
		e := math.Exp(z)
		return e / (1 + e)
	}
	for z := -800.0; z <= 800; z += 0.015625 {
		if got, want := sigmoid(z), ref(z); got != want {
			t.Fatalf("sigmoid(%v) = %v, want %v", z, got, want)
		}
	}
	for _, z := range []float64{36.7, 36.8, 37, math.Nextafter(37, 0), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64} {
		if got, want := sigmoid(z), ref(z); got != want {
			t.Fatalf("sigmoid(%v) = %v, want %v", z, got, want)
		}
	}
}
