package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/plots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSummaryRoundTrip reads the committed figures/summary.txt and
// writes it again: the same bytes, so the parser and the writer agree on
// the layout and a partial run leaves the other figures' rows as a
// complete run wrote them.
func TestSummaryRoundTrip(t *testing.T) {
	path := filepath.Join("..", "..", "figures", "summary.txt")
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	rows, err := readSummary(path)
	require.NoError(t, err)
	require.NotEmpty(t, rows)
	var b bytes.Buffer
	writeSummary(&b, rows)
	assert.Equal(t, string(want), b.String())
}

// fakeFigure returns a figure named name whose headlines are heads, or
// that fails when heads is nil.
func fakeFigure(name string, heads ...plots.Headline) plots.Figure {
	return plots.Figure{Name: name, Caption: "test", Seconds: 1, Make: func(plots.Config) (*plots.Result, error) {
		if heads == nil {
			return nil, errors.New("fails on purpose")
		}
		p := plots.New(name, "x", "y")
		plots.AddLine(p, 0, "a", []float64{0, 1}, []float64{1, 2})
		tb := plots.NewTable("x", "y")
		tb.Add(0.0, 1.0)
		return &plots.Result{Plot: p, Data: tb, Headlines: heads}, nil
	}}
}

// TestSummaryUpdate runs generate in full mode on some figures (as -only
// does) over a summary.txt holding figures a-x and c-z: c-z's rows are
// replaced, b-y's inserted in name order, a-x's kept (its figure failed,
// so its files are the old ones), and the columns widen for a longer
// quantity. Without a summary.txt the made figures' rows start one; in
// quick mode none is written.
func TestSummaryUpdate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.txt")
	old := []row{
		{"a-x", plots.Near("old a", 1, 1, 0.1, "kept")},
		{"c-z", plots.Near("old c", 2, 2, 0.1, "replaced")},
		{"c-z", plots.Near("old c, second row", 3, 3, 0.1, "replaced")},
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	printSummary(f, old)
	require.NoError(t, f.Close())
	long := "a quantity named at length, longer than any the old table held, to widen the column"
	figs := []plots.Figure{
		fakeFigure("a-x"),
		fakeFigure("b-y", plots.Near("new b", 5, 5, 0.1, "inserted")),
		fakeFigure("c-z", plots.Near(long, 7, 7, 0.1, "new reference")),
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, generate(figs, plots.Config{Seed: 1}, dir, &stdout, &stderr), "a-x fails")
	got, err := readSummary(path)
	require.NoError(t, err)
	var names []string
	for _, r := range got {
		names = append(names, r.figure+": "+r.name)
	}
	assert.Equal(t, []string{"a-x: old a", "b-y: new b", "c-z: " + long}, names)
	// The file is what a complete run of those rows would write.
	var want bytes.Buffer
	printSummary(&want, []row{old[0], {"b-y", plots.Near("new b", 5, 5, 0.1, "inserted")}, {"c-z", plots.Near(long, 7, 7, 0.1, "new reference")}})
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, want.String(), string(b))

	fresh := t.TempDir()
	require.Equal(t, 0, generate(figs[1:2], plots.Config{Seed: 1}, fresh, io.Discard, io.Discard))
	got, err = readSummary(filepath.Join(fresh, "summary.txt"))
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "b-y", got[0].figure)

	quick := t.TempDir()
	require.Equal(t, 0, generate(figs[1:2], plots.Config{Seed: 1, Quick: true}, quick, io.Discard, io.Discard))
	_, err = os.Stat(filepath.Join(quick, "summary.txt"))
	assert.True(t, os.IsNotExist(err), "quick mode writes no summary.txt")
}

// TestCheckPartialSummary runs -check's comparison on some figures: the
// committed summary's rows of those figures must be what the code
// makes, a missing or different row is a difference, and the committed
// folder is not touched.
func TestCheckPartialSummary(t *testing.T) {
	want := t.TempDir()
	fig := fakeFigure("b-y", plots.Near("new b", 5, 5, 0.1, "inserted"))
	require.Equal(t, 0, generate([]plots.Figure{fig}, plots.Config{Seed: 1}, want, io.Discard, io.Discard))
	before, err := os.ReadFile(filepath.Join(want, "summary.txt"))
	require.NoError(t, err)
	var stderr bytes.Buffer
	assert.Equal(t, 0, checkFigures([]plots.Figure{fig}, plots.Config{Seed: 1}, want, io.Discard, &stderr), stderr.String())

	changed := fakeFigure("b-y", plots.Near("new b", 5.5, 5, 1, "inserted"))
	stderr.Reset()
	assert.Equal(t, 1, checkFigures([]plots.Figure{changed}, plots.Config{Seed: 1}, want, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "summary.txt: b-y, row 1, field 2: 5.5, want 5")

	other := fakeFigure("d-w", plots.Near("d", 1, 1, 0.1, "absent from the committed summary"))
	require.NoError(t, write(want, "d-w", mustMake(t, other)))
	stderr.Reset()
	assert.Equal(t, 1, checkFigures([]plots.Figure{other}, plots.Config{Seed: 1}, want, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "summary.txt: d-w: 1 rows, want 0")

	after, err := os.ReadFile(filepath.Join(want, "summary.txt"))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "-check must not touch the committed summary")
}

func mustMake(t *testing.T, f plots.Figure) *plots.Result {
	t.Helper()
	res, err := f.Make(plots.Config{Seed: 1})
	require.NoError(t, err)
	return res
}

// TestReadSummaryErrors checks that a summary.txt not in the writer's
// layout is an error naming the file and line, not silently rewritten.
func TestReadSummaryErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, msg string }{
		{"quantity value\n", ":1: header"},
		{"  quantity  value  reference range  status\n\n  a row before any figure  1  = 1  agrees\n", ":3: "},
	} {
		path := filepath.Join(dir, "summary.txt")
		require.NoError(t, os.WriteFile(path, []byte(c.text), 0o644))
		_, err := readSummary(path)
		require.Error(t, err)
		assert.True(t, strings.Contains(err.Error(), path+c.msg), "%v", err)
	}
}
