package consensus

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/mat"
)

// bruteLinks returns the least K_f over all k-subsets of cands added to g
// with weight w (each K_f by the dense reference).
func bruteLinks(t *testing.T, g *wgraph.Graph, cands []wgraph.Edge, k int, w float64) float64 {
	t.Helper()
	best := math.Inf(1)
	var rec func(start int, pick []int)
	rec = func(start int, pick []int) {
		if len(pick) == k {
			b := g.Builder()
			for _, i := range pick {
				mustSet(b, cands[i].U, cands[i].V, w)
			}
			best = min(best, mustKf(t, b.Build()))
			return
		}
		for i := start; i < len(cands); i++ {
			rec(i+1, append(pick, i))
		}
	}
	rec(0, nil)
	return best
}

func mustKf(t *testing.T, g *wgraph.Graph) float64 {
	t.Helper()
	kf, err := spectral.KirchhoffIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	return kf
}

// exactGap is n(Σ of the k largest w‖L†b_e‖² − Σ over chosen) on g (the
// graph with the chosen links) by the dense L†: spec §13.13.
func exactGap(t *testing.T, g *wgraph.Graph, cands []wgraph.Edge, chosen map[[2]int]bool, k int, w float64) float64 {
	t.Helper()
	lp, err := spectral.PseudoInverse(g)
	if err != nil {
		t.Fatal(err)
	}
	n := g.Order()
	grad := make([]float64, len(cands))
	ch := 0.0
	for i, c := range cands {
		s := 0.0
		for j := range n {
			d := lp.At(j, c.U) - lp.At(j, c.V)
			s += d * d
		}
		grad[i] = w * s
		if chosen[[2]int{c.U, c.V}] {
			ch += grad[i]
		}
	}
	return float64(n) * (topSum(grad, k) - ch)
}

// exactLower is the better of the relaxation's bounds at no links (on g)
// and at the chosen links (on gk), spec §13.13, by the dense L†.
func exactLower(t *testing.T, g, gk *wgraph.Graph, cands []wgraph.Edge, chosen map[[2]int]bool, k int, w float64) float64 {
	t.Helper()
	lb0 := mustKf(t, g) - exactGap(t, g, cands, nil, k, w)
	return max(lb0, mustKf(t, gk)-exactGap(t, gk, cands, chosen, k, w))
}

// smallLinkCase returns the brute-force tests' case for seed: a random
// connected graph of 10 + seed nodes (stream picks the sample), its first
// 9 candidates within 3 hops, k = 1 + seed mod 3 links of weight
// 0.5 + seed/4.
func smallLinkCase(t *testing.T, seed, stream uint64) (*wgraph.Graph, []wgraph.Edge, int, float64) {
	t.Helper()
	g, err := gen.RandomConnected(10+int(seed), 0.25, 0.5, 2, rand.NewPCG(seed, stream))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	return g, cands[:min(9, len(cands))], 1 + int(seed%3), 0.5 + float64(seed)/4
}

// TestAddLinksBruteForce checks, on small random graphs and all k-subsets
// of 9 candidates, Lower ≤ optimum ≤ After for both methods (the
// relaxation bounds of spec §13.13), After exact in LinkExact, and the
// sketched Lower at most the exact bounds.
func TestAddLinksBruteForce(t *testing.T) {
	for seed := range uint64(6) {
		g, cands, k, w := smallLinkCase(t, seed, 7)
		opt := bruteLinks(t, g, cands, k, w)
		ex, err := AddLinks(g, cands, k, &LinkSettings{Method: LinkExact, Weight: w}, nil)
		if err != nil {
			t.Fatal(err)
		}
		kf := mustKf(t, ex.Graph)
		// Tolerances: rank-one updates of a dense L† of ≤ 16 nodes keep
		// ~1e-13 relative; 1e-9 leaves room.
		if math.Abs(ex.After.Mean-kf) > 1e-9*kf {
			t.Errorf("seed %d: exact After = %v, want %v", seed, ex.After.Mean, kf)
		}
		if ex.Lower > opt*(1+1e-9) || opt > ex.After.Mean*(1+1e-9) {
			t.Errorf("seed %d: want Lower %v ≤ optimum %v ≤ greedy %v", seed, ex.Lower, opt, ex.After.Mean)
		}
		sk, err := AddLinks(g, cands, k, &LinkSettings{Method: LinkSketch, Weight: w, Confirm: 1}, rand.NewPCG(seed, 9))
		if err != nil {
			t.Fatal(err)
		}
		chosen := map[[2]int]bool{}
		for _, s := range sk.Steps {
			chosen[[2]int{s.Link.U, s.Link.V}] = true
		}
		skf := mustKf(t, sk.Graph)
		// The sketched bounds are upper confidence bounds of the exact
		// ones (probability 0.95 each; these seeds pass).
		if lb := exactLower(t, g, sk.Graph, cands, chosen, k, w); sk.Lower > lb*(1+1e-9) {
			t.Errorf("seed %d: sketched Lower %v above the exact bounds %v", seed, sk.Lower, lb)
		}
		if sk.Lower > opt*(1+1e-9) {
			t.Errorf("seed %d: sketch: Lower = %v above the optimum %v", seed, sk.Lower, opt)
		}
		if skf < opt*(1-1e-9) {
			t.Errorf("seed %d: sketch: K_f %v below the brute-force optimum %v", seed, skf, opt)
		}
	}
}

// TestAddLinksAgreesWithGreedyLinks compares the exact path with the
// dense GreedyLinks at a small γ, where ρ₂ = tr L†/(2γ) + n/4 + γ tr L/8
// + O(γ²) (spec §4.4) ranks links as tr L† does (tr L grows by 2w for
// every link), so both choose the same links and 2γ n ΔRho = gain to
// O(γ) relative.
func TestAddLinksAgreesWithGreedyLinks(t *testing.T) {
	g, err := gen.RandomRegular(40, 3, rand.NewPCG(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := AddLinks(g, cands, 4, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	wc := make([]wgraph.Edge, len(cands))
	for i, c := range cands {
		wc[i] = wgraph.Edge{U: c.U, V: c.V, W: 1}
	}
	gamma := 1e-4
	gr, err := GreedyLinks(&Throttler{Graph: g, Gamma: gamma}, wc, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range res.Steps {
		a := gr.Added[i]
		if a.U != s.Link.U || a.V != s.Link.V {
			t.Fatalf("step %d: AddLinks chose %v, GreedyLinks %v", i, s.Link, a)
		}
		d := 2 * gamma * 40 * (gr.Rho[i] - gr.Rho[i+1])
		// Relative tolerance 1e-3: the O(γ²) terms of ρ₂ and the rounding
		// of ρ₂ ≈ tr L†/(2γ) (about 1e-12 · 1e5 relative to the gain).
		if math.Abs(d-s.Gain.Mean) > 1e-3*s.Gain.Mean {
			t.Errorf("step %d: 2γnΔρ₂ = %v, gain %v", i, d, s.Gain.Mean)
		}
	}
}

// TestAddLinksSketchGains checks each sketched step against the dense
// reference on a 300-node graph: the gain interval contains the exact
// gain of the chosen link on the graph before it (Sherman–Morrison from
// the dense L†), and the sketched Lower is at most the exact bounds.
func TestAddLinksSketchGains(t *testing.T) {
	g, err := gen.RandomRegular(300, 4, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	const k = 5
	res, err := AddLinks(g, cands, k, &LinkSettings{Method: LinkSketch, CertSketch: 128}, rand.NewPCG(7, 8))
	if err != nil {
		t.Fatal(err)
	}
	cur := g
	chosen := map[[2]int]bool{}
	for i, s := range res.Steps {
		lp, err := spectral.PseudoInverse(cur)
		if err != nil {
			t.Fatal(err)
		}
		x := mat.NewVecDense(300, nil)
		for j := range 300 {
			x.SetVec(j, lp.At(j, s.Link.U)-lp.At(j, s.Link.V))
		}
		r := x.AtVec(s.Link.U) - x.AtVec(s.Link.V)
		want := 300 * s.Link.W * mat.Dot(x, x) / (1 + s.Link.W*r)
		// Dense L† is accurate to ~1e-13 relative; the interval's width
		// is the solve error bound, so allow 1e-10 relative beyond it.
		if want < s.Gain.Lo*(1-1e-10) || want > s.Gain.Hi*(1+1e-10) {
			t.Errorf("step %d: exact gain %v outside [%v, %v]", i, want, s.Gain.Lo, s.Gain.Hi)
		}
		b := cur.Builder()
		mustSet(b, s.Link.U, s.Link.V, s.Link.W)
		cur = b.Build()
		chosen[[2]int{s.Link.U, s.Link.V}] = true
	}
	if lb := exactLower(t, g, cur, cands, chosen, k, 1); res.Lower > lb*(1+1e-9) {
		t.Errorf("sketched Lower %v above the exact bounds %v", res.Lower, lb)
	}
	ex, err := AddLinks(g, cands, k, &LinkSettings{Method: LinkExact}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Screening with 64 rows has about 18 % relative error per score
	// (√(2/64)) while the best gains differ by a few per cent, so the
	// sketched greedy may pick other links than the exact one (measured:
	// 3–4 % less improvement); it must stay within 10 % of it.
	kfS, kfE := mustKf(t, cur), ex.After.Mean
	if imp := ex.Before.Mean - kfE; kfS-kfE > 0.1*imp {
		t.Errorf("sketched greedy K_f %v, exact greedy %v (improvement %v)", kfS, kfE, imp)
	}
	t.Logf("gap %v (exact method %v), improvement %v, solves %d", res.Gap, ex.Gap, ex.Before.Mean-kfE, res.Solves)
}

// TestAddLinksCoverage checks that the 95 % interval of the final K_f
// covers the exact value over 40 seeds (expected 38; ≥ 34 fails with
// probability below 1 % at true coverage 95 %).
func TestAddLinksCoverage(t *testing.T) {
	g, err := gen.RandomRegular(120, 4, rand.NewPCG(11, 12))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	hit := 0
	var kf float64
	for seed := range uint64(40) {
		res, err := AddLinks(g, cands, 3, &LinkSettings{Method: LinkSketch, CertSketch: 16, Confirm: 1}, rand.NewPCG(seed, 13))
		if err != nil {
			t.Fatal(err)
		}
		if seed == 0 {
			kf = mustKf(t, res.Graph)
		}
		// The chosen links may differ between seeds; compare each run
		// with its own graph.
		if res.After.Contains(mustKf(t, res.Graph)) {
			hit++
		}
	}
	if hit < 34 {
		t.Errorf("final K_f interval covered %d of 40 (K_f ≈ %v)", hit, kf)
	}
}

// TestCandidates compares Candidates with hop distances from
// Floyd–Warshall.
func TestCandidates(t *testing.T) {
	g, err := gen.RandomConnected(25, 0.12, 1, 1, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	n := g.Order()
	d := make([][]int, n)
	for i := range d {
		d[i] = make([]int, n)
		for j := range d[i] {
			d[i][j] = 1 << 20
			if i == j {
				d[i][j] = 0
			} else if g.HasEdge(i, j) {
				d[i][j] = 1
			}
		}
	}
	for m := range n {
		for i := range n {
			for j := range n {
				d[i][j] = min(d[i][j], d[i][m]+d[m][j])
			}
		}
	}
	for h := 1; h <= 4; h++ {
		got, err := Candidates(g, h)
		if err != nil {
			t.Fatal(err)
		}
		var want []wgraph.Edge
		for i := range n {
			for j := i + 1; j < n; j++ {
				if d[i][j] >= 2 && d[i][j] <= h {
					want = append(want, wgraph.Edge{U: i, V: j})
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("h = %d: %d candidates, want %d", h, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("h = %d: candidate %d = %v, want %v", h, i, got[i], want[i])
			}
		}
	}
}

// TestLinkStability compares LinkStability (exact path) with λ_n of the
// graph with the link, and checks that the cheap bounds used above the
// dense limit never contradict it.
func TestLinkStability(t *testing.T) {
	g, err := gen.RandomConnected(20, 0.2, 0.5, 1.5, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := spectral.Spectrum(g)
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: 1.9 / spec[len(spec)-1]}
	for _, w := range []float64{0.5, 2, 6} {
		eff, err := LinkStability(th, cands, w)
		if err != nil {
			t.Fatal(err)
		}
		bnd := make([]LinkEffect, len(cands))
		stabilityBounds(th, cands, w, bnd)
		unstable := 0
		for i, c := range cands {
			b := g.Builder()
			mustSet(b, c.U, c.V, w)
			sp, err := spectral.Spectrum(b.Build())
			if err != nil {
				t.Fatal(err)
			}
			want := LinkStable
			if th.Gamma*sp[len(sp)-1] >= 2 {
				want, unstable = LinkUnstable, unstable+1
			}
			if eff[i] != want {
				t.Errorf("w = %v, %v: %v, want %v (γλ_n = %v)", w, c, eff[i], want, th.Gamma*sp[len(sp)-1])
			}
			if bnd[i] != LinkUndecided && bnd[i] != want {
				t.Errorf("w = %v, %v: bounds say %v, exact %v", w, c, bnd[i], want)
			}
		}
		t.Logf("w = %v: %d of %d links destabilise", w, unstable, len(cands))
	}
}

// TestAddLinksSketchGOMAXPROCS checks that the sketch path (lazy
// screening, blocked product form, batched confirmation) gives the same
// links and bounds with one core as with several.
func TestAddLinksSketchGOMAXPROCS(t *testing.T) {
	g, err := gen.RandomRegular(300, 4, rand.NewPCG(8, 1))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []LinkSettings{{Method: LinkSketch, CertSketch: 48},
		{Method: LinkSketch, CertSketch: 48, Objective: LinkRho2, Gamma: 0.2}} {
		run := func(procs int) *LinkResult {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			res, err := AddLinks(g, cands, 5, &set, rand.NewPCG(3, 4))
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		a, b := run(1), run(4)
		for i := range a.Steps {
			if a.Steps[i] != b.Steps[i] {
				t.Fatalf("%v step %d: %+v with 1 core, %+v with 4", set.Objective, i, a.Steps[i], b.Steps[i])
			}
		}
		if a.Lower != b.Lower || a.After != b.After || a.Rescored != b.Rescored {
			t.Errorf("%v: 1 core: lower %v after %v rescored %d; 4: %v %v %d", set.Objective, a.Lower, a.After, a.Rescored, b.Lower, b.After, b.Rescored)
		}
	}
}
