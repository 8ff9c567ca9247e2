package competitive

import (
	"strings"
	"testing"
)

// panicsNaming reports whether f panics with a message containing want.
func panicsNaming(t *testing.T, name, want string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if msg, ok := r.(string); !ok || !strings.Contains(msg, want) {
			t.Errorf("%s: recovered %v, want a panic naming %q", name, r, want)
		}
	}()
	f()
}

// TestNilArgumentPanics: nil required arguments are documented panics
// naming the argument (docs/conventions.md §2), not nil dereferences.
func TestNilArgumentPanics(t *testing.T) {
	in, err := NewInstance([][]float64{{1, 2}, {2, 1}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	panicsNaming(t, "OptimumCost(nil)", "nil instance", func() { OptimumCost(nil) })
	panicsNaming(t, "Optimum(nil)", "nil instance", func() { _, _, _ = Optimum(nil) })
	panicsNaming(t, "CountOptimal(nil)", "nil instance", func() { _, _ = CountOptimal(nil) })
	panicsNaming(t, "Run(nil, in)", "nil Online", func() { _, _ = Run(nil, in) })
	panicsNaming(t, "Run(alg, nil)", "nil instance", func() { _, _ = Run(&WFA{}, nil) })
	panicsNaming(t, "RunCost(nil, in)", "nil Online", func() { _, _ = RunCost(nil, in) })
	panicsNaming(t, "Setups([-1 2])", "server -1", func() { Setups([]int{-1, 2}) })
	panicsNaming(t, "Setups([0 -3])", "server -3", func() { Setups([]int{0, -3}) })
}
