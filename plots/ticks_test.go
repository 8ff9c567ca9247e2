package plots_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/plots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
)

// TestTickerLabelsAreValues draws random axis ranges for every kind and
// checks that each label parses to its tick's value exactly, that ticks
// lie in the range in increasing order and that there are at least two
// labels (a reader needs two to read a scale).
func TestTickerLabelsAreValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kinds := []plots.TickKind{plots.Linear, plots.Log, plots.Decades, plots.OneTwoFive, plots.PowersOfTwo}
	for trial := 0; trial < 2000; trial++ {
		k := kinds[trial%len(kinds)]
		// Ranges over 14 decades of scale and 0.05–12 decades of span.
		lo := math.Pow(10, -7+14*rng.Float64())
		hi := lo * math.Pow(10, 0.05+12*rng.Float64())
		if k == plots.Linear && trial%2 == 0 {
			lo = -lo // linear axes through zero
		}
		if k == plots.PowersOfTwo {
			lo, hi = 1+rng.Float64()*10, 4+rng.Float64()*1e6
			if hi < 4*lo {
				hi = 4 * lo
			}
		}
		ts := (plots.Ticker{Kind: k}).Ticks(lo, hi)
		labels := 0
		for i, tk := range ts {
			assert.GreaterOrEqual(t, tk.Value, lo-1e-9*math.Abs(lo), "kind %d [%g, %g]", k, lo, hi)
			assert.LessOrEqual(t, tk.Value, hi+1e-9*math.Abs(hi), "kind %d [%g, %g]", k, lo, hi)
			if i > 0 {
				assert.Greater(t, tk.Value, ts[i-1].Value)
			}
			if tk.Label == "" {
				continue
			}
			labels++
			v, err := plots.ParseTickLabel(tk.Label)
			require.NoError(t, err)
			// Exact: a label is the shortest decimal of its value.
			assert.Equal(t, tk.Value, v, "kind %d [%g, %g]: label %q", k, lo, hi, tk.Label)
		}
		if k == plots.Linear || k == plots.Log {
			assert.GreaterOrEqual(t, labels, 2, "kind %d [%g, %g]: %v", k, lo, hi, ts)
		}
	}
}

func TestParseTickLabel(t *testing.T) {
	for label, want := range map[string]float64{
		"0.25": 0.25, "−3": -3, "10^{6}": 1e6, "10^{−6}": 1e-6, "−10^{2}": -100, "2.5×10^{−3}": 2.5e-3,
	} {
		v, err := plots.ParseTickLabel(label)
		require.NoError(t, err, label)
		assert.Equal(t, want, v, label)
	}
	for _, bad := range []string{"1.1e", "10^{3", "2·10^{3}", "a"} {
		_, err := plots.ParseTickLabel(bad)
		assert.Error(t, err, bad)
	}
}

// TestCheckTickLabels catches gonum's default ticker, which labels a
// tick at 1.08 "1.1" (guards: a label that is not its value).
func TestCheckTickLabels(t *testing.T) {
	p := plots.New("t", "x", "y")
	plots.AddLine(p, 0, "a", []float64{0, 1}, []float64{1.02, 1.19})
	assert.NoError(t, plots.CheckTickLabels(p))
	p.Y.Tick.Marker = plot.DefaultTicks{}
	assert.Error(t, plots.CheckTickLabels(plots.NewPanels(1, 2, nil, plots.LegendOutside(p))))
	q := plots.New("bars", "", "y")
	plots.NominalX(q, "a", "b")
	assert.NoError(t, plots.CheckTickLabels(plots.NewStack(q)))
}

func TestPlainText(t *testing.T) {
	assert.Equal(t, "C_ba = 0.3, 10^−6, raw_x, a^b", plots.PlainText("C_{ba} = 0.3, 10^{−6}, raw_x, a^b"))
	assert.Equal(t, "x_{open", plots.PlainText("x_{open"))
}
