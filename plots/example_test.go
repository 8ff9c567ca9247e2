package plots_test

import (
	"fmt"
	"log"
	"math"
	"os"

	"github.com/loadlab/loadlab/plots"
	"gonum.org/v1/plot"
)

// ExampleAddBand draws a mean with its 95% confidence band against a
// closed form, on a log x axis, with the legend beside the axes.
func ExampleAddBand() {
	var ns, lo, mean, hi, exact []float64
	for k := 1; k <= 6; k++ {
		n := math.Pow(10, float64(k))
		m := math.Log(n)
		ns = append(ns, n)
		mean = append(mean, m+0.2)
		lo = append(lo, m+0.2-0.3)
		hi = append(hi, m+0.2+0.3)
		exact = append(exact, m)
	}
	p := plots.New("Maximum load", "servers n", "max load (requests)", plots.LogX())
	plots.AddBand(p, 0, "simulated (95% CI)", ns, lo, mean, hi)
	plots.AddCurve(p, 1, "ln n", ns, exact)
	plots.AddHLine(p, -1, "capacity", 10)
	fig := plots.LegendOutside(p)
	if err := plots.Save(fig, plots.DefaultWidth, plots.DefaultHeight, "testdata/band.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("x ticks:", labels(p.X))
	fmt.Println("labels equal values:", plots.CheckTickLabels(fig) == nil)
	// Output:
	// x ticks: [10^{1} 10^{2} 10^{3} 10^{4} 10^{5} 10^{6}]
	// labels equal values: true
}

// labels returns the labels of an axis's labelled ticks.
func labels(a plot.Axis) []string {
	var out []string
	for _, t := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

// ExampleNewPanels lays out two plots side by side: grouped bars with a
// dashed reference level, and a heat map with its colour bar.
func ExampleNewPanels() {
	bars := plots.New("Per-client allocation", "client", "rate (req/s)")
	plots.AddBars(bars, 0, 2, "requested", []float64{1, 2, 3, 6})
	plots.AddBars(bars, 1, 2, "allowed", []float64{1, 2, 2.5, 2.5})
	plots.AddHLine(bars, -1, "water level", 2.5)
	plots.NominalX(bars, "a", "b", "c", "d")

	g := plots.Grid{Xs: []float64{0, 1, 2, 3}, Ys: []float64{0, 1, 2}}
	for r := range g.Ys {
		row := make([]float64, len(g.Xs))
		for c := range row {
			row[c] = float64(r*len(g.Xs) + c)
		}
		g.Values = append(g.Values, row)
	}
	hm := plots.New("Heat map", "x (m)", "y (m)")
	cm := plots.AddHeatMap(hm, g, nil)

	fig := plots.NewPanels(1, 3, plots.LegendOutside(bars), hm, plots.ColorBar(cm, "value"))
	fig.ColWeights = []float64{1, 1, 0.22}
	w, h := plots.PanelSize(1, 2)
	if err := plots.Save(fig, w, h, "testdata/panels.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(plots.PlotsOf(fig)), "plots; bar x axis:", labels(bars.X))
	// Output:
	// 3 plots; bar x axis: [a b c d]
}

// ExampleTable writes the data behind a figure as CSV.
func ExampleTable() {
	t := plots.NewTable("n", "strategy", "max_load")
	t.Add(100, "coded", 2.5)
	t.Add(1000, "nearest, replica", 4.0)
	if err := t.WriteCSV(os.Stdout); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(t.Rows), "rows")
	// Output:
	// n,strategy,max_load
	// 100,coded,2.5
	// 1000,"nearest, replica",4
	// 2 rows
}

// ExampleLogY draws data spanning six decades on log–log axes; the y
// label stays centred on the data area (see drawPlot).
func ExampleLogY() {
	ns := []float64{4, 16, 64, 256, 1024, 4096}
	var path, complete []float64
	for _, n := range ns {
		path = append(path, (n*n*n-n)/6) // Kirchhoff index of P_n
		complete = append(complete, n-1) // of K_n
	}
	p := plots.New("Kirchhoff index", "nodes n", "K_{f} (Ω)", plots.LogX(), plots.LogY())
	plots.AddLine(p, 0, "path", ns, path)
	plots.AddLine(p, 1, "complete", ns, complete)
	if err := plots.Save(p, plots.DefaultWidth, plots.DefaultHeight, "testdata/logy.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("y ticks:", labels(p.Y))
	// Output:
	// y ticks: [10^{0} 10^{2} 10^{4} 10^{6} 10^{8} 10^{10} 10^{12}]
}

// ExampleAddErrorBars shows measured points with 95% error bars against
// markers of a second series, a dashed vertical reference, fixed axis
// ranges and the legend placed in the empty bottom-right corner.
func ExampleAddErrorBars() {
	gammas := []float64{0.1, 0.2, 0.3, 0.4, 0.5}
	mean := []float64{8.1, 4.4, 3.1, 2.7, 2.9}
	lo := []float64{7.6, 4.1, 2.9, 2.5, 2.6}
	hi := []float64{8.6, 4.7, 3.3, 2.9, 3.2}
	exact := []float64{8.0, 4.5, 3.0, 2.6, 3.0}
	p := plots.New("Monte Carlo against closed form", "update cycle γ (s)", "ρ₂ (requests²)",
		plots.XRange(0, 0.6), plots.YRange(0, 10), plots.LegendAt(false, false))
	plots.AddErrorBars(p, 0, "simulated (95% CI)", gammas, mean, lo, hi)
	plots.AddPoints(p, 1, "closed form", gammas, exact)
	plots.AddVLine(p, 2, "γ* = 0.44", 0.44)
	if err := plots.Save(p, plots.DefaultWidth, plots.DefaultHeight, "testdata/errbars.png"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("x ticks:", labels(p.X))
	// Output:
	// x ticks: [0 0.1 0.2 0.3 0.4 0.5 0.6]
}

// ExampleTicker shows tick labels that equal their values, in one format
// per axis: plain decimals, or powers of ten in the rich-text form that
// Text draws as superscripts.
func ExampleTicker() {
	show := func(k plots.TickKind, lo, hi float64) {
		var out []string
		for _, t := range (plots.Ticker{Kind: k}).Ticks(lo, hi) {
			if t.Label != "" {
				out = append(out, t.Label)
			}
		}
		fmt.Println(out)
	}
	show(plots.Linear, 1.02, 1.19) // gonum's default labels 1.08 as "1.1"
	show(plots.Linear, 0, 2.5e6)
	show(plots.Log, 1e-9, 1)
	show(plots.Log, 3, 40)
	show(plots.PowersOfTwo, 2, 32)
	v, _ := plots.ParseTickLabel("2.5×10^{−3}")
	fmt.Println(v)
	// Output:
	// [1.05 1.1 1.15]
	// [0 5×10^{5} 10^{6} 1.5×10^{6} 2×10^{6} 2.5×10^{6}]
	// [10^{−9} 10^{−7} 10^{−5} 10^{−3} 10^{−1}]
	// [5 10 20]
	// [2 4 8 16 32]
	// 0.0025
}
