package codedload

import (
	"strings"
	"testing"
)

// TestRadiusArgumentPanics: RGGRadius(n < 2) (was NaN for n = 0) and
// BallRadius(t, size < 1) (was 1) are documented panics naming the
// argument and its value.
func TestRadiusArgumentPanics(t *testing.T) {
	for _, c := range []struct {
		name, want string
		f          func()
	}{
		{"RGGRadius(0)", "n = 0", func() { RGGRadius(0) }},
		{"RGGRadius(1)", "n = 1", func() { RGGRadius(1) }},
		{"RGGRadius(-3)", "n = -3", func() { RGGRadius(-3) }},
		{"BallRadius(t, -1)", "size = -1", func() { BallRadius(&Hypercube{Dim: 4}, -1) }},
		{"BallRadius(t, 0)", "size = 0", func() { BallRadius(&Torus{Side: 5}, 0) }},
	} {
		func() {
			defer func() {
				if msg, ok := recover().(string); !ok || !strings.Contains(msg, c.want) {
					t.Errorf("%s: recovered %q, want a panic naming %q", c.name, msg, c.want)
				}
			}()
			c.f()
		}()
	}
}
