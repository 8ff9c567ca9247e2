package main

import (
	"fmt"

	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/coding"
	"github.com/loadlab/loadlab/plots"
)

func init() {
	register(plots.Figure{
		Name:    "codedload-real-decoding",
		Caption: "Coded delivery with real codes beside the ideal model, on the torus (K = 100, M = 2, γ = 0, ℓ = ⌈ln n⌉): the ideal code (any ℓ chunks decode, as the paper assumes and a Reed–Solomon code gives), and random linear chunks over GF(2⁸) and over GF(2), where a request takes chunks nearest first until they decode (spec coded-load.md §11.6). Over GF(2⁸) about one request in 255 needs one chunk more and the curves coincide; over GF(2) a request needs about 1.6 extra chunks (spec §11.3), fetched from farther away, which raises the cost by 20–45% (the most at n = 400, where ℓ = 6) and the maximum load by 0.2–0.4 files. Top: maximum load; bottom: cost; means with 95% confidence bands: each point runs until its mean is within ±5% (95%) with at least 10 runs off its most frequent value (the precision mode, docs/specs/monte-carlo.md §2), from 20 runs (at most 200) up to n = 6400 and 10 (at most 40) beyond, the title giving the runs taken; a ring: runs too alike for an interval.",
		Make:    threeSteps(realPreset, realCompute, realDraw),
		Seconds: 40,
	})
}

// ---- codedload-real-decoding ----

type realParams struct {
	ns   []int
	runs clRuns
}

func realPreset(quick bool) realParams {
	if quick {
		return realParams{ns: []int{100, 400, 1600}, runs: clRuns{pilot: []int{6}, caps: []int{40}}}
	}
	return realParams{ns: []int{100, 400, 1600, 6400, 25600, 102400},
		runs: clRuns{upTo: []int{6400}, pilot: []int{20, 10}, caps: []int{200, 40}}}
}

type realData struct {
	curves []codedload.Curve
}

// realVariants are coded delivery with ℓ = ⌈ln n⌉ under the ideal model
// and with real decoding over GF(2⁸) and GF(2).
func realVariants() []codedload.Variant {
	coded := func(q int) codedload.Config { return clBase(codedload.Coded{Field: q}) }
	return []codedload.Variant{
		{Name: "ideal: any ℓ chunks decode", Config: coded(0), Ell: codedload.LogEll},
		{Name: "random linear over GF(2⁸)", Config: coded(256), Ell: codedload.LogEll},
		{Name: "random linear over GF(2)", Config: coded(2), Ell: codedload.LogEll},
	}
}

func realCompute(cfg plots.Config, p realParams) (*realData, error) {
	cfg.Logf("codedload: real decoding against the ideal model, n up to %d", p.ns[len(p.ns)-1])
	curves, err := clCompare(cfg, p.ns, codedload.TorusFamily, realVariants(), p.runs, cfg.Seed)
	if err != nil {
		return nil, err
	}
	return &realData{curves: curves}, nil
}

func realDraw(p realParams, d *realData) *plots.Result {
	tab := clNewTable()
	clTable(tab, "torus", d.curves)
	top := plots.New("Coded delivery with real and ideal codes on the torus (K = 100, M = 2, ℓ = ceil(ln n))\n"+clRunsLine(d.curves...), "servers n (log scale)", "maximum load (files)", plots.LogX())
	clBands(top, d.curves, clMax, true)
	clNoIntervalKey(top, clMax, d.curves...)
	bot := plots.New("Communication cost", "servers n (log scale)", "cost (hops per request)", plots.LogX())
	clBands(bot, d.curves, clCost, false)
	ideal, gf256, gf2 := clLast(d.curves[0]), clLast(d.curves[1]), clLast(d.curves[2])
	n := int(ideal.X)
	ell := codedload.LogEll(n)
	extra, _, _ := coding.ExpectedExtra(2, ell)
	tol := ideal.MaxLoad.RelHalfWidth() + gf256.MaxLoad.RelHalfWidth()
	return &plots.Result{
		Plot: plots.NewStack(top, bot), Width: 20 * cm, Height: 20 * cm, Data: tab,
		Headlines: []plots.Headline{
			plots.Near(fmt.Sprintf("GF(2^8) / ideal max load, n = %d", n), gf256.MaxLoad.Mean/ideal.MaxLoad.Mean, 1, tol,
				fmt.Sprintf("1 ± %.3f, the two means' relative 95%% half-widths added: one request in 255 takes one chunk more (spec §11.3, §11.6)", tol)),
			plots.Within(fmt.Sprintf("GF(2) / ideal cost, n = %d", n), gf2.Cost.Mean/ideal.Cost.Mean, 1+extra/float64(ell), 2,
				fmt.Sprintf("≥ 1 + E[extra]/ℓ = %.3f: %.3f extra chunks (spec §11.3), none nearer than the ℓ-th", 1+extra/float64(ell), extra)),
		},
	}
}
