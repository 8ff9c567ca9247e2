package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

func init() {
	register(
		plots.Figure{
			Name:    "graphs-kirchhoff",
			Caption: "Kirchhoff index K_f = Σ_{u<v} R_uv against the number of nodes for seven unit-weight families: closed forms (lines, up to 10⁶ nodes) and the dense Cholesky computation (markers) where it is cheap.",
			Make:    threeSteps(kirchhoffPreset, kirchhoffCompute, kirchhoffDraw),
			Seconds: 8,
		},
		plots.Figure{
			Name:    "graphs-spectra",
			Caption: "Laplacian spectra of the seven families on 64 nodes: closed forms (lines) and a dense symmetric eigensolver (markers), and all non-zero eigenvalues together on a log scale.",
			Make:    threeSteps(fixed(spectraParams{nodes: 64}), spectraCompute, spectraDraw),
			Seconds: 1,
		},
	)
}

// laSizes returns the size parameters k of family f whose order lies in
// [2, nmax], about perDecade per decade of n, always including the ends.
func laSizes(f spectral.Family, nmax int, perDecade float64) []int {
	var ks []int
	last := -1.0
	for k := f.MinSize(); ; k++ {
		n, err := f.Order(k)
		if err != nil || n > nmax {
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
		case laOrder(f, k+1) > nmax: // the last size, replacing a close one
			if x-last < 0.5/perDecade {
				ks = ks[:len(ks)-1]
			}
			ks = append(ks, k)
		}
	}
	return ks
}

// laOrder returns the order of f(k), or MaxInt beyond the family's range.
func laOrder(f spectral.Family, k int) int {
	n, err := f.Order(k)
	if err != nil {
		return math.MaxInt
	}
	return n
}

type kirchhoffParams struct {
	nmax int // largest closed-form size: Q_20, the 1024×1024 torus
	nnum int // largest dense Cholesky size: O(n³) (n = 2000 is a target of docs/benchmarks.md)
}

func kirchhoffPreset(quick bool) kirchhoffParams {
	if quick {
		return kirchhoffParams{nmax: 1 << 20, nnum: 256}
	}
	return kirchhoffParams{nmax: 1 << 20, nnum: 2048}
}

// xySeries is one drawn series.
type xySeries struct {
	name   string
	xs, ys []float64
}

type kirchhoffData struct {
	closed, numeric []xySeries // per family
	tab             *plots.Table
	worst           float64 // max |Cholesky/closed − 1|
	worstAt         string
	worstBound      float64 // κ(A)·n·ε there
	torus, direct   float64 // K_f of the 1000×1000 torus: closed form, eigenvalue sum
	hyper           float64 // K_f(Q_20), closed form
}

func kirchhoffCompute(cfg plots.Config, p kirchhoffParams) (*kirchhoffData, error) {
	d := &kirchhoffData{tab: plots.NewTable("family", "k", "n", "method", "K_f")}
	for _, f := range spectral.AllFamilies() {
		c := xySeries{name: f.String()}
		for _, k := range laSizes(f, p.nmax, 12) {
			kf, err := f.Kirchhoff(k)
			if err != nil {
				return nil, err
			}
			c.xs, c.ys = append(c.xs, float64(laOrder(f, k))), append(c.ys, kf)
			d.tab.Add(f.String(), k, laOrder(f, k), "closed form", kf)
		}
		num := xySeries{}
		for _, k := range laSizes(f, p.nnum, 3) {
			g, err := f.Graph(k)
			if err != nil {
				return nil, err
			}
			kf, err := spectral.KirchhoffIndex(g)
			if err != nil {
				return nil, fmt.Errorf("%v(%d): %w", f, k, err)
			}
			closed, err := f.Kirchhoff(k)
			if err != nil {
				return nil, err
			}
			num.xs, num.ys = append(num.xs, float64(g.Order())), append(num.ys, kf)
			d.tab.Add(f.String(), k, g.Order(), "Cholesky", kf)
			if e := math.Abs(kf/closed - 1); e > d.worst {
				ev, err := f.Spectrum(k)
				if err != nil {
					return nil, err
				}
				d.worst, d.worstAt = e, fmt.Sprintf("%v(%d)", f, k)
				d.worstBound = laBound(g, ev)
			}
		}
		d.closed, d.numeric = append(d.closed, c), append(d.numeric, num)
		cfg.Logf("graphs-kirchhoff: %v done", f)
	}
	// The headline torus: the O(rows) closed form against the direct sum
	// of 10⁶ terms over the product of two cycle spectra (spec §2).
	var err error
	if d.torus, err = spectral.TorusKirchhoff(1000, 1000); err != nil {
		return nil, err
	}
	ev, err := spectral.TorusSpectrum(1000, 1000)
	if err != nil {
		return nil, err
	}
	if d.direct, err = spectral.KirchhoffFromSpectrum(ev); err != nil {
		return nil, err
	}
	if d.hyper, err = spectral.HypercubeKirchhoff(20); err != nil {
		return nil, err
	}
	return d, nil
}

func kirchhoffDraw(p kirchhoffParams, d *kirchhoffData) *plots.Result {
	pl := plots.New("Kirchhoff index: closed forms (lines), dense Cholesky (markers)", "nodes n",
		"K_{f} = Σ R_{uv} (Ω, unit resistors)", plots.LogX(), plots.LogY())
	for i := range d.closed {
		plots.AddCurve(pl, i, d.closed[i].name, d.closed[i].xs, d.closed[i].ys)
		plots.AddPoints(pl, i, "", d.numeric[i].xs, d.numeric[i].ys)
	}
	// 2^20 Σ_j C(20, j)/(2j) (spec §2), summed here independently of package spectral.
	q20, binom := 0.0, 1.0
	for j := 1; j <= 20; j++ {
		binom = binom * float64(20-j+1) / float64(j)
		q20 += binom / float64(2*j)
	}
	q20 *= 1 << 20
	return &plots.Result{
		Plot: plots.LegendOutside(pl), Data: d.tab,
		Headlines: []plots.Headline{
			plots.Near("K_f(torus 1000x1000), closed form", d.torus, d.direct, 1e-9*d.direct, "sum over its 10^6 eigenvalues (spec §2), to 1e-9 relative"),
			plots.Near("K_f(hypercube Q_20), closed form", d.hyper, q20, 1e-12*q20, "2^20 Σ_j C(20,j)/(2j), summed in the driver"),
			plots.Within(fmt.Sprintf("max |Cholesky/closed − 1|, n ≤ %d (at %s)", p.nnum, d.worstAt), d.worst, 0, d.worstBound, "forward-error bound κ(A)·n·ε there"),
		},
	}
}

type spectraParams struct{ nodes int }

type spectraData struct {
	titles          []string
	closed, numeric [][]float64
	tab             *plots.Table
	worst           float64
}

func spectraCompute(cfg plots.Config, p spectraParams) (*spectraData, error) {
	// Every family on exactly p.nodes nodes: k is the side or dimension
	// for the grid, torus and hypercube.
	side, dim := int(math.Round(math.Sqrt(float64(p.nodes)))), int(math.Round(math.Log2(float64(p.nodes))))
	size := map[spectral.Family]int{spectral.GridFamily: side, spectral.TorusFamily: side, spectral.HypercubeFamily: dim}
	d := &spectraData{tab: plots.NewTable("family", "i", "closed_form", "numerical")}
	for _, f := range spectral.AllFamilies() {
		k := p.nodes
		if s, ok := size[f]; ok {
			k = s
		}
		closed, err := f.Spectrum(k)
		if err != nil {
			return nil, err
		}
		g, err := f.Graph(k)
		if err != nil {
			return nil, err
		}
		num, err := spectral.Spectrum(g)
		if err != nil {
			return nil, err
		}
		for j := range closed {
			d.tab.Add(f.String(), j+1, closed[j], num[j])
			d.worst = math.Max(d.worst, math.Abs(closed[j]-num[j]))
		}
		d.titles = append(d.titles, laTitle(f, k))
		d.closed, d.numeric = append(d.closed, closed), append(d.numeric, num)
	}
	cfg.Logf("graphs-spectra: max |closed − numerical| = %.3g", d.worst)
	return d, nil
}

func spectraDraw(p spectraParams, d *spectraData) *plots.Result {
	all := plots.New("all families, λ_{i} > 0 (log scale)", "index i", "eigenvalue λ_{i}", plots.LogY())
	var cells []plots.Drawer
	for i := range d.closed {
		idx := make([]float64, len(d.closed[i]))
		for j := range idx {
			idx[j] = float64(j + 1)
		}
		pl := plots.New(d.titles[i], "index i", "eigenvalue λ_{i}")
		plots.AddCurve(pl, i, "", idx, d.closed[i])
		plots.AddPoints(pl, i, "", idx, d.numeric[i])
		cells = append(cells, pl)
		plots.AddCurve(all, i, familyName(d.titles[i]), idx[1:], d.closed[i][1:])
	}
	cells = append(cells, plots.LegendOutside(all))
	// Four rows of two: 18 cm wide, so the README shows it near full size.
	return &plots.Result{
		Plot: plots.NewPanels(4, 2, cells...), Width: 18 * cm, Height: 26 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			// ‖L‖ ≤ 2·d_max ≤ 2n = 128; a backward-stable eigensolver errs
			// by a small multiple of n·ε·‖L‖.
			plots.Within(fmt.Sprintf("max |closed-form − numerical| eigenvalue, n = %d", p.nodes), d.worst, 0, 4*float64(p.nodes)*0x1p-52*2*float64(p.nodes), "4·n·ε·‖L‖ with ‖L‖ ≤ 2n (backward-stable eigensolver)"),
		},
	}
}

// familyName is the family part of a panel title ("grid 8×8" → "grid").
func familyName(title string) string {
	for i, r := range title {
		if r == ' ' || r == ',' {
			return title[:i]
		}
	}
	return title
}

// laBound returns κ(A)·n·ε, the relative accuracy to expect of the
// Cholesky computation of K_f, for A = L + αJ/n with α the mean degree
// (spec throttlers.md §12.7); ev is the spectrum of g.
func laBound(g *wgraph.Graph, ev []float64) float64 {
	n := len(ev)
	alpha := 2 * float64(g.Size()) / float64(n)
	kappa := math.Max(ev[n-1], alpha) / math.Min(ev[1], alpha)
	return kappa * float64(n) * 0x1p-52
}

func laTitle(f spectral.Family, k int) string {
	switch f {
	case spectral.GridFamily, spectral.TorusFamily:
		return fmt.Sprintf("%v %d×%d", f, k, k)
	case spectral.HypercubeFamily:
		return fmt.Sprintf("hypercube Q_{%d}", k)
	}
	return fmt.Sprintf("%v, n = %d", f, k)
}
