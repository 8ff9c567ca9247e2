// Package largetest gates the tests that run at full scale (10⁶ nodes,
// minutes each on two cores) behind one environment variable, so the
// unit suite stays fast. It is not API.
package largetest

import (
	"os"
	"testing"
)

// Env is the environment variable that enables the large tests:
// LOADLAB_LARGE=1 (docs/benchmarks.md; their results: docs/benchmarks-log.md,
// "10⁶-node closed-form tests").
const Env = "LOADLAB_LARGE"

// Enabled reports whether the large tests are enabled: Env is "1".
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips the calling test unless the large tests are enabled.
func Require(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("full-scale test: set " + Env + "=1 to run it (minutes on 2 cores)")
	}
}
