package cputime

import (
	"runtime"
	"testing"
	"time"
)

// Busy work must show up as CPU time: 5·10⁷ dependent additions take
// about 50 ms of CPU on any current core, whatever the load (the load
// stretches the wall time, not the CPU time), so at least 1 ms must be
// counted; and the clock never runs backwards.
func TestProcessCounts(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("not measured on this system")
	}
	c0 := Process()
	var x float64
	for range 50_000_000 {
		x += 1e-9
	}
	c1 := Process()
	if c1 < c0 || c1-c0 < time.Millisecond {
		t.Fatalf("CPU time %v → %v over 5·10⁷ additions (x = %v)", c0, c1, x)
	}
}
