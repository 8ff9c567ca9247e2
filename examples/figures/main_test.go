package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/plots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
)

func TestFlags(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, 2, run([]string{"-only", "no-such-figure"}, &out, &errb))
	assert.Contains(t, errb.String(), `unknown figure "no-such-figure"`)
	errb.Reset()
	assert.Equal(t, 2, run([]string{"-seed", "minus-one"}, &out, &errb))
	assert.Contains(t, errb.String(), "invalid value")
	assert.Equal(t, 2, run([]string{"stray"}, &out, &errb))
	errb.Reset()
	assert.Equal(t, 0, run([]string{"-h"}, &out, &errb), "-h is a request, not an error")
	assert.Contains(t, errb.String(), "usage:")
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
		assert.Positive(t, f.Seconds, f.Name)
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

// TestQuickDefaults runs one cheap figure through the command line in
// quick mode: the output goes to figures-quick/, not the tracked figures/,
// no summary.txt is written, and the table carries a status per row.
func TestQuickDefaults(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"-quick", "-only", "graphs-spectra"}, &out, &errb), errb.String())
	_, err = os.Stat(filepath.Join(dir, "figures-quick", "graphs-spectra.png"))
	assert.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, "figures"))
	assert.True(t, os.IsNotExist(err), "quick mode must not touch figures/")
	assert.Contains(t, out.String(), "status")
	assert.Contains(t, out.String(), "agrees")
}

// maxPNGWidth is the widest PNG allowed: the README shows figures about
// 900 px wide, and text must stay legible at that scale.
const maxPNGWidth = 1600

// update rewrites the quick references: go test ./examples/figures -update.
var update = flag.Bool("update", false, "rewrite the quick-mode references in testdata/quick")

// quickRefs holds the CSVs a quick run makes, committed as references.
const quickRefs = "testdata/quick"

// TestQuickRun makes every registered figure in quick mode, as
// `go run ./examples/figures -quick` does, so that no generator rots, and
// checks what a reader relies on: every tick label is its tick's value,
// every axis has a label at or beyond each end, no interval has zero
// width from few runs, every PNG is at most maxPNGWidth pixels wide,
// every headline has a range to agree with; and that each figure's data
// are the committed quick references (compareFiles: text and integers
// exactly, other numbers to relTol; -update rewrites them).
// FIGURES=name,name limits it to some figures. It takes about a minute;
// -short skips it.
func TestQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("quick figure run skipped with -short")
	}
	dir := t.TempDir()
	figs, err := selectFigures(os.Getenv("FIGURES"))
	require.NoError(t, err)
	cfg := plots.Config{Quick: true, Seed: 1}
	for _, f := range figs {
		t.Run(f.Name, func(t *testing.T) {
			res, err := f.Make(cfg)
			require.NoError(t, err)
			require.NoError(t, write(dir, f.Name, res))
			assert.NoError(t, plots.CheckTickLabels(res.Plot))
			assert.NoError(t, checkAxisEnds(res.Plot))
			checkPNG(t, filepath.Join(dir, f.Name+".png"))
			assert.NotEmpty(t, res.Headlines)
			for _, h := range res.Headlines {
				assert.LessOrEqual(t, h.Lo, h.Hi, "%s: empty range", h.Name)
				assert.False(t, h.Lo == 0 && h.Hi == 0 && !strings.Contains(h.Reference, "0"), "%s: no range given", h.Name)
			}
			csvPath := filepath.Join(dir, f.Name+".csv")
			bad, err := zeroWidthIntervals(csvPath)
			require.NoError(t, err)
			assert.Empty(t, bad, "zero-width intervals")
			checkQuickReference(t, csvPath)
		})
	}
}

// checkPNG checks that the PNG at path is at most maxPNGWidth wide.
func checkPNG(t *testing.T, path string) {
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	img, err := png.DecodeConfig(fh)
	require.NoError(t, err)
	assert.LessOrEqual(t, img.Width, maxPNGWidth, "PNG width")
}

// checkQuickReference compares the CSV at path with its reference in
// quickRefs, or with -update writes it there.
func checkQuickReference(t *testing.T, path string) {
	ref := filepath.Join(quickRefs, filepath.Base(path))
	if *update {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(quickRefs, 0o755))
		require.NoError(t, os.WriteFile(ref, b, 0o644))
		return
	}
	diffs, err := compareFiles(ref, path)
	require.NoError(t, err, "no quick reference: go test ./examples/figures -run TestQuickRun -update")
	assert.Empty(t, diffs, "%s differs from the code's (go test ./examples/figures -run TestQuickRun -update after an intended change)", ref)
}

// checkAxisEnds reports the first axis drawn by d whose range reaches
// past its lowest or highest tick label: a reader could not tell where
// the data end.
func checkAxisEnds(d plots.Drawer) error {
	for i, p := range plots.PlotsOf(d) {
		for _, ax := range []struct {
			name string
			a    *plot.Axis
		}{{"x", &p.X}, {"y", &p.Y}} {
			if _, cat := ax.a.Tick.Marker.(plots.Categories); cat || ax.a.Tick.Marker == nil {
				continue
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, tk := range ax.a.Tick.Marker.Ticks(ax.a.Min, ax.a.Max) {
				if tk.Label != "" {
					lo, hi = min(lo, tk.Value), max(hi, tk.Value)
				}
			}
			if math.IsInf(lo, 1) {
				continue // a hidden axis (a graph drawing) has no labels
			}
			// 1e-9 of the span forgives a label that misses an end by rounding.
			eps := 1e-9 * (ax.a.Max - ax.a.Min)
			if lo > ax.a.Min+eps || hi < ax.a.Max-eps {
				return fmt.Errorf("plot %d (%q), %s axis: range [%g, %g], labels from %g to %g", i, p.Title.Text, ax.name, ax.a.Min, ax.a.Max, lo, hi)
			}
		}
	}
	return nil
}

// TestReadmeGallery checks that the README shows every figure with its
// current caption, as `-gallery` prints them.
func TestReadmeGallery(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	var b bytes.Buffer
	gallery(&b, sortedFigures())
	assert.True(t, strings.Contains(string(readme), strings.TrimSpace(b.String())), "README gallery is stale: go run ./examples/figures -gallery")
	for _, f := range sortedFigures() {
		found := false
		for _, a := range areas {
			found = found || strings.HasPrefix(f.Name, a.prefix+"-")
		}
		assert.True(t, found, "%s: no gallery section", f.Name)
	}
}

// TestTradeoffLabelsApart measures the boxes of the point labels of
// codedload-tradeoff, the one figure whose code places text beside data
// points, after drawing: no two overlap (gonum's fixed offsets stacked
// r=1, r=2, ℓ=1 and α=0 on one another where the curves meet).
func TestTradeoffLabelsApart(t *testing.T) {
	if testing.Short() {
		t.Skip("a quick figure run, skipped with -short")
	}
	p := tradeoffPreset(true)
	d, err := tradeoffCompute(plots.Config{Quick: true, Seed: 1}, p)
	require.NoError(t, err)
	res := tradeoffDraw(p, d)
	require.NoError(t, write(t.TempDir(), "codedload-tradeoff", res))
	boxes := d.labels.Boxes()
	require.NotEmpty(t, boxes)
	i, j := plots.Overlaps(boxes)
	assert.Equal(t, -1, i, "labels %d and %d overlap", i, j)
}
