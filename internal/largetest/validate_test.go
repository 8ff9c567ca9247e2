package largetest

import (
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
)

// TestValidate: the switch takes no input but the test framework's; the
// coverage check keeps it so.
func TestValidate(t *testing.T) {
	badarg.Coverage(t, ".", nil, map[string]string{
		"Require": "a testing.TB from the test framework",
	})
}
