package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/loadlab/loadlab/plots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFlags(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, 2, run([]string{"-only", "no-such-figure"}, &out, &errb))
	assert.Contains(t, errb.String(), `unknown figure "no-such-figure"`)
	errb.Reset()
	assert.Equal(t, 2, run([]string{"-seed", "minus-one"}, &out, &errb))
	assert.Contains(t, errb.String(), "invalid value")
	assert.Equal(t, 2, run([]string{"stray"}, &out, &errb))
	out.Reset()
	assert.Equal(t, 0, run([]string{"-list"}, &out, &errb))
	for _, f := range sortedFigures() {
		assert.Contains(t, out.String(), f.Name)
	}
}

func TestRegistryNames(t *testing.T) {
	for _, f := range sortedFigures() {
		assert.Regexp(t, `^[a-z0-9]+(-[a-z0-9]+)+$`, f.Name)
		assert.NotEmpty(t, f.Caption, f.Name)
	}
}

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	p := plots.New("t", "x (s)", "y (m)")
	plots.AddLine(p, 0, "a", []float64{0, 1}, []float64{1, 2})
	tb := plots.NewTable("x", "y")
	tb.Add(0.0, 1.0)
	require.NoError(t, write(dir, "demo-fig", &plots.Result{Plot: p, Data: tb}))
	for _, ext := range []string{".png", ".svg", ".csv"} {
		st, err := os.Stat(filepath.Join(dir, "demo-fig"+ext))
		require.NoError(t, err)
		assert.Positive(t, st.Size())
	}
	assert.Error(t, write(dir, "no-data", &plots.Result{Plot: p}))
}

// TestQuickRun makes every registered figure in quick mode, as
// `go run ./examples/figures -quick` does, so that no generator rots.
// It takes about ten seconds; -short skips it.
func TestQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("quick figure run skipped with -short")
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run([]string{"-quick", "-out", dir}, &out, &errb)
	require.Equal(t, 0, code, "stderr:\n%s", errb.String())
	figs := sortedFigures()
	require.NotEmpty(t, figs)
	for _, f := range figs {
		for _, ext := range []string{".png", ".svg", ".csv"} {
			st, err := os.Stat(filepath.Join(dir, f.Name+ext))
			if assert.NoError(t, err, f.Name+ext) {
				assert.Positive(t, st.Size(), f.Name+ext)
			}
		}
	}
	assert.Contains(t, out.String(), "figure")
}
