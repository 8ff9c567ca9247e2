package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompareText: text and integers must match exactly, other numbers
// to relTol; a difference at the percent level (a changed model or seed)
// is always reported.
func TestCompareText(t *testing.T) {
	for _, c := range []struct {
		want, got string
		same      bool
	}{
		{"3.375", "3.375", true},
		{"3.3750000000001", "3.375", true}, // 3e-14 relative: rounding
		{"4.3752", "4.3751", false},        // 2e-5 relative: a change
		{"20", "21", false},                // integers exactly
		{"NaN", "NaN", true},               // no interval on both sides
		{"NaN", "1", false},                // an interval appeared
		{"1e-17", "0", true},               // a rounding residue near zero
		{"two choices (b)", "two choices (c)", false},
		{"coded ℓ=10 / NR cost, n = 1000000  0.7785  [0.74, 0.85]", "coded ℓ=10 / NR cost, n = 1000000  0.7785000000001  [0.74, 0.85]", true},
		{"−3.5", "-3.5", true}, // the typographic minus is a minus
	} {
		d := compareText(c.want, c.got)
		assert.Equal(t, c.same, d == "", "%q against %q: %s", c.got, c.want, d)
	}
}

// TestCompareFiles: a changed cell, a missing row and a missing file are
// reported; equal files are not.
func TestCompareFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	a := write("a.csv", "x,y\n1,0.5\n2,0.25\n")
	b := write("b.csv", "x,y\n1,0.5\n2,0.26\n")
	c := write("c.csv", "x,y\n1,0.5\n")
	diffs, err := compareFiles(a, a)
	require.NoError(t, err)
	assert.Empty(t, diffs)
	diffs, err = compareFiles(a, b)
	require.NoError(t, err)
	assert.Len(t, diffs, 1)
	diffs, err = compareFiles(a, c)
	require.NoError(t, err)
	assert.NotEmpty(t, diffs)
	other := filepath.Join(dir, "other")
	require.NoError(t, os.Mkdir(other, 0o755))
	out, err := compareDirs(dir, other, []string{"a.csv"})
	require.NoError(t, err)
	assert.Len(t, out, 1, "a file missing from the fresh run")
}
