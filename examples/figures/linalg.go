package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/linalg"
	"github.com/loadlab/loadlab/plots"
	"gonum.org/v1/plot"
)

func init() {
	register(
		plots.Figure{
			Name:    "linalg-kirchhoff",
			Caption: "Kirchhoff index K_f = Σ_{u<v} R_uv against the number of nodes for seven unit-weight families: closed forms (lines, up to 10⁶ nodes) and the dense Cholesky computation (markers) where it is cheap.",
			Make:    linalgKirchhoff,
		},
		plots.Figure{
			Name:    "linalg-spectra",
			Caption: "Laplacian spectra of the seven families on 64 nodes: closed forms (lines) and a dense symmetric eigensolver (markers), and all non-zero eigenvalues together on a log scale.",
			Make:    linalgSpectra,
		},
	)
}

// laSizes returns the size parameters k of family f whose order lies in
// [2, nmax], about perDecade per decade of n, always including the ends.
func laSizes(f linalg.Family, nmax int, perDecade float64) []int {
	var ks []int
	last := -1.0
	for k := f.MinSize(); ; k++ {
		n := f.Order(k)
		if n > nmax {
			break
		}
		if n < 2 {
			continue
		}
		x := math.Log10(float64(n))
		switch {
		case last < 0 || x-last >= 1/perDecade:
			ks = append(ks, k)
			last = x
		case f.Order(k+1) > nmax: // the last size, replacing a close one
			if x-last < 0.5/perDecade {
				ks = ks[:len(ks)-1]
			}
			ks = append(ks, k)
		}
	}
	return ks
}

func linalgKirchhoff(cfg plots.Config) (*plots.Result, error) {
	// Dense Cholesky markers up to nnum nodes: O(n³), about 0.7 s each at
	// n = 2048 on two cores, 0.01 s at 256.
	nnum := 2048
	if cfg.Quick {
		nnum = 256
	}
	const nmax = 1 << 20 // Q_20, the 1024×1024 torus
	tab := plots.NewTable("family", "k", "n", "method", "K_f")
	p := plots.New("Kirchhoff index: closed forms (lines), dense Cholesky (markers)", "nodes n",
		"K_f = Σ R_uv (Ω, unit resistors)", plots.LogX(), plots.LogY())
	p.Y.Tick.Marker = laDecades{}
	worst, worstName, worstBound := 0.0, "", 0.0
	for i, f := range linalg.AllFamilies() {
		var xs, ys []float64
		for _, k := range laSizes(f, nmax, 12) {
			kf := f.Kirchhoff(k)
			xs, ys = append(xs, float64(f.Order(k))), append(ys, kf)
			tab.Add(f.String(), k, f.Order(k), "closed form", kf)
		}
		plots.AddCurve(p, i, f.String(), xs, ys)
		xs, ys = nil, nil
		for _, k := range laSizes(f, nnum, 3) {
			g := f.Graph(k)
			kf, err := linalg.KirchhoffIndex(g)
			if err != nil {
				return nil, fmt.Errorf("%v(%d): %w", f, k, err)
			}
			xs, ys = append(xs, float64(g.Order())), append(ys, kf)
			tab.Add(f.String(), k, g.Order(), "Cholesky", kf)
			if d := math.Abs(kf/f.Kirchhoff(k) - 1); d > worst {
				worst, worstName = d, fmt.Sprintf("%v(%d)", f, k)
				worstBound = laBound(g, f.Spectrum(k))
			}
		}
		plots.AddPoints(p, i, "", xs, ys)
		cfg.Logf("linalg-kirchhoff: %v done", f)
	}
	// The headline torus: the O(rows) closed form against the direct sum
	// of 10⁶ terms over the product of two cycle spectra (spec §2).
	torus := linalg.TorusKirchhoff(1000, 1000)
	direct := linalg.KirchhoffFromSpectrum(linalg.TorusSpectrum(1000, 1000))
	return &plots.Result{
		Plot: plots.LegendOutside(p),
		Data: tab,
		Headlines: []plots.Headline{
			{Name: "K_f(torus 1000x1000), closed form", Value: torus, Reference: fmt.Sprintf("sum over 10^6 eigenvalues %.12g", direct)},
			{Name: "K_f(hypercube Q_20), closed form", Value: linalg.HypercubeKirchhoff(20), Reference: "2^20 Σ C(20,j)/(2j)"},
			{Name: fmt.Sprintf("max |Cholesky/closed − 1|, n ≤ %d", nnum), Value: worst, Reference: fmt.Sprintf("at %s; bound κ(A)·n·ε = %.2g", worstName, worstBound)},
		},
	}, nil
}

func linalgSpectra(cfg plots.Config) (*plots.Result, error) {
	// Every family on exactly 64 nodes.
	size := map[linalg.Family]int{
		linalg.GridFamily: 8, linalg.TorusFamily: 8, linalg.HypercubeFamily: 6,
	}
	tab := plots.NewTable("family", "i", "closed_form", "numerical")
	all := plots.New("all families, λ_i > 0", "index i", "eigenvalue λ_i", plots.LogY())
	var cells []plots.Drawer
	worst := 0.0
	for i, f := range linalg.AllFamilies() {
		k := 64
		if s, ok := size[f]; ok {
			k = s
		}
		closed := f.Spectrum(k)
		num, err := linalg.Spectrum(f.Graph(k))
		if err != nil {
			return nil, err
		}
		idx := make([]float64, len(closed))
		for j := range idx {
			idx[j] = float64(j + 1)
			tab.Add(f.String(), j+1, closed[j], num[j])
			worst = math.Max(worst, math.Abs(closed[j]-num[j]))
		}
		p := plots.New(laTitle(f, k), "index i", "eigenvalue λ_i")
		plots.AddCurve(p, i, "", idx, closed)
		plots.AddPoints(p, i, "", idx, num)
		cells = append(cells, p)
		plots.AddCurve(all, i, f.String(), idx[1:], closed[1:])
	}
	cells = append(cells, plots.LegendOutside(all))
	w, h := plots.PanelSize(2, 4)
	cfg.Logf("linalg-spectra: max |closed − numerical| = %.3g", worst)
	return &plots.Result{
		Plot:   plots.NewPanels(2, 4, cells...),
		Width:  w,
		Height: h,
		Data:   tab,
		Headlines: []plots.Headline{
			{Name: "max |closed-form − numerical| eigenvalue, n = 64", Value: worst, Reference: "≤ 4·n·ε·‖L‖ ≈ 7e-12 (‖L‖ ≤ 128)"},
		},
	}, nil
}

// laBound returns κ(A)·n·ε, the relative accuracy to expect of the
// Cholesky computation of K_f, for A = L + αJ/n with α the mean degree
// (see the linalg package documentation); ev is the spectrum of g.
func laBound(g *linalg.Graph, ev []float64) float64 {
	n := len(ev)
	alpha := 2 * float64(g.Size()) / float64(n)
	kappa := math.Max(ev[n-1], alpha) / math.Min(ev[1], alpha)
	return kappa * float64(n) * 0x1p-52
}

// laDecades puts a tick at every power of ten and a label at every third.
type laDecades struct{}

func (laDecades) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		v := math.Pow(10, e)
		if v < min*(1-1e-9) || v > max*(1+1e-9) {
			continue
		}
		t := plot.Tick{Value: v}
		if int(e)%3 == 0 {
			t.Label = fmt.Sprintf("1e%d", int(e))
		}
		ts = append(ts, t)
	}
	return ts
}

func laTitle(f linalg.Family, k int) string {
	switch f {
	case linalg.GridFamily, linalg.TorusFamily:
		return fmt.Sprintf("%v %d×%d", f, k, k)
	case linalg.HypercubeFamily:
		return fmt.Sprintf("hypercube Q%d", k)
	}
	return fmt.Sprintf("%v, n = %d", f, k)
}
