package plots_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/loadlab/loadlab/plots"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/plot/cmpimg"
)

// The golden images pin the house style: fonts, colours, legend
// placement and panel layout. Regenerate with `go test ./plots -regen`
// after an intended change, and look at the new PNGs.
func TestGoldenBand(t *testing.T)   { cmpimg.CheckPlot(ExampleAddBand, t, "band.png") }
func TestGoldenPanels(t *testing.T) { cmpimg.CheckPlot(ExampleNewPanels, t, "panels.png") }
func TestGoldenLogY(t *testing.T)   { cmpimg.CheckPlot(ExampleLogY, t, "logy.png") }
func TestGoldenErrorBars(t *testing.T) {
	cmpimg.CheckPlot(ExampleAddErrorBars, t, "errbars.png")
}

func TestTableCSV(t *testing.T) {
	tb := plots.NewTable("a", "b")
	tb.Add(math.NaN(), `say "hi"`)
	tb.Add(0.1, 3)
	var buf bytes.Buffer
	assert.NoError(t, tb.WriteCSV(&buf))
	assert.Equal(t, "a,b\nNaN,\"say \"\"hi\"\"\"\n0.1,3\n", buf.String())
	assert.Panics(t, func() { tb.Add(1) })
}

func TestSaveFormats(t *testing.T) {
	p := plots.New("t", "x (s)", "y (m)")
	plots.AddLine(p, 0, "a", []float64{0, 1}, []float64{1, 2})
	dir := t.TempDir()
	for _, ext := range []string{"png", "svg", "pdf"} {
		assert.NoError(t, plots.Save(p, plots.DefaultWidth, plots.DefaultHeight, dir+"/f."+ext))
	}
	assert.Error(t, plots.Save(p, plots.DefaultWidth, plots.DefaultHeight, dir+"/f.xyz"))
	assert.Panics(t, func() { plots.AddLine(p, 0, "", []float64{1}, nil) })
}

func TestHeadlineStatus(t *testing.T) {
	h := plots.Near("x", 1.0000000004, 1, 1e-9, "closed form")
	assert.Equal(t, "agrees", h.Status())
	assert.Equal(t, "1.0000000004", h.FormattedValue())
	assert.Equal(t, "1 ± 1e-09", h.Range())
	h.Value = 1.000000002
	assert.Equal(t, "outside", h.Status())
	w := plots.Within("y", 4.88, 4.54, 5.22, "spec")
	assert.Equal(t, "[4.54, 5.22]", w.Range())
	w.Value = math.NaN()
	assert.False(t, w.Agrees())
	assert.Equal(t, "≤ 3", plots.Within("z", 1, math.Inf(-1), 3, "").Range())
}
