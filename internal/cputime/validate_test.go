package cputime

import (
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
)

// TestValidate: Process takes no input; the coverage check keeps it so.
func TestValidate(t *testing.T) {
	badarg.Coverage(t, ".", nil, nil)
}
