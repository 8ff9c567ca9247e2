package largetest

import "testing"

// TestEnabled checks that only Env = "1" enables the large tests.
func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{{"", false}, {"0", false}, {"yes", false}, {"1", true}} {
		t.Setenv(Env, c.v)
		if got := Enabled(); got != c.want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", Env, c.v, got, c.want)
		}
	}
}
