package estimate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// missRate returns the fraction of the pairs whose estimate est(i) is off
// the exact value exact(i) by more than eps relative.
func missRate(cnt int, eps float64, est, exact func(i int) float64) float64 {
	miss := 0
	for i := range cnt {
		if math.Abs(est(i)/exact(i)-1) > eps {
			miss++
		}
	}
	return float64(miss) / float64(cnt)
}

// checkMissRate tests the per-seed miss fractions fs of cnt pairs each
// against the stated per-pair rate p = SketchMiss(k, ε): the seeds are
// independent, so their mean f̄ has standard deviation σ/√S with σ the
// spread of one seed's fraction; the pairs of one seed share the
// projections, so σ exceeds the binomial √(p(1−p)/cnt), and it is
// estimated from the seeds (floored at the binomial value). With S = 8
// seeds the estimate of σ is itself uncertain by about 25 %, so the test
// allows 4 estimated standard deviations: a solver bias that moved the
// rate by a quarter of p or more would fail it.
func checkMissRate(t *testing.T, what string, fs []float64, cnt int, p float64) {
	t.Helper()
	var mean, ss float64
	for _, f := range fs {
		mean += f / float64(len(fs))
	}
	for _, f := range fs {
		ss += (f - mean) * (f - mean)
	}
	sd := max(math.Sqrt(ss/float64(len(fs)-1)), math.Sqrt(p*(1-p)/float64(cnt)))
	if math.Abs(mean-p) > 4*sd/math.Sqrt(float64(len(fs))) {
		t.Errorf("%s: mean miss fraction %.4f over %d seeds (sd %.4f), stated rate %.4f", what, mean, len(fs), sd, p)
	}
	t.Logf("%s: mean miss fraction %.4f (per-seed sd %.4f), stated %.4f", what, mean, sd, p)
}

// Against exact resistances on a random weighted graph (n = 1000, weights
// over 4 decades), at ε = 0.3 and 0.5 with the default δ = 5 %: the
// fraction of edges off by more than ε matches the stated per-edge rate
// (checkMissRate), and Foster's sum is n − 1 within ε and within 5 of its
// standard deviations √(2/(k(n−1))) plus the solve error's share (the
// mean squared energy-norm error, ≤ (Tol·√κ)² — a few 10⁻³ here).
func TestApproxEdgeResistancesAgainstExact(t *testing.T) {
	g := graphtest.SparseWeighted(t, 1000, 0.006, 4, 21)
	exact, err := spectral.NewResistance(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, eps := range []float64{0.3, 0.5} {
		var fs []float64
		var k int
		for seed := range uint64(8) {
			er, err := EdgeResistances(g, &SketchSettings{Eps: eps}, rand.NewPCG(3+seed, uint64(eps*10)))
			if err != nil {
				t.Fatal(err)
			}
			if k = er.K; k != graphtest.Must(SketchProjections(1000, &SketchSettings{Eps: eps})) || len(er.R) != g.Size() {
				t.Fatalf("ε %v: K = %d, %d estimates", eps, er.K, len(er.R))
			}
			fs = append(fs, missRate(len(er.R), eps, func(e int) float64 { return er.R[e] },
				func(e int) float64 { return exact.Between(er.Edges[e].U, er.Edges[e].V) }))
			if sd := math.Sqrt(2 / (float64(er.K) * 999)); er.FosterRelErr > min(eps, 5*sd+5e-3) {
				t.Errorf("ε %v: Foster Σ w R̃ = %g, want 999 (rel. err %.2g, sd %.2g)", eps, er.Foster, er.FosterRelErr, sd)
			}
		}
		checkMissRate(t, fmt.Sprintf("ε %v, k %d", eps, k), fs, g.Size(), graphtest.Must(SketchMiss(k, eps)))
	}
}

func TestResistanceSketchPairs(t *testing.T) {
	g := graphtest.SparseWeighted(t, 600, 0.01, 3, 22)
	exact, err := spectral.NewResistance(g)
	if err != nil {
		t.Fatal(err)
	}
	const eps, pairs = 0.3, 2000
	rng := rand.New(rand.NewPCG(6, 6))
	us, vs := make([]int, pairs), make([]int, pairs)
	for i := range us {
		us[i] = rng.IntN(600)
		vs[i] = (us[i] + 1 + rng.IntN(599)) % 600
	}
	var fs []float64
	var k int
	for seed := range uint64(8) {
		rs, err := NewResistanceSketch(g, &SketchSettings{Eps: eps}, rand.NewPCG(5, seed))
		if err != nil {
			t.Fatal(err)
		}
		k = rs.K
		fs = append(fs, missRate(pairs, eps, func(i int) float64 { return rs.Between(us[i], vs[i]) },
			func(i int) float64 { return exact.Between(us[i], vs[i]) }))
		if rs.FosterRelErr > eps {
			t.Errorf("Foster rel. err %g > ε", rs.FosterRelErr)
		}
	}
	checkMissRate(t, "pairs", fs, pairs, graphtest.Must(SketchMiss(k, eps)))
}

// With AllPairs every one of the n(n − 1)/2 pairs is within 1 ± ε with
// probability ≥ 1 − δ (union bound); on a 60-node graph (1770 pairs, 770
// projections) no pair may miss for the seed tested, and the all-pairs
// miss probability 1770·SketchMiss(k, ε) is at most δ.
func TestResistanceSketchAllPairs(t *testing.T) {
	g := graphtest.SparseWeighted(t, 60, 0.1, 2, 23)
	exact, err := spectral.NewResistance(g)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := NewResistanceSketch(g, &SketchSettings{AllPairs: true}, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	if p := graphtest.Must(SketchMiss(rs.K, 0.3)); 1770*p > DefaultSketchMiss {
		t.Errorf("k = %d: all-pairs miss bound %g > δ", rs.K, 1770*p)
	}
	for u := range 60 {
		for v := u + 1; v < 60; v++ {
			if r := rs.Between(u, v) / exact.Between(u, v); math.Abs(r-1) > 0.3 {
				t.Errorf("R̃/R(%d, %d) = %.3f, outside 1 ± 0.3", u, v, r)
			}
		}
	}
}

// On the hypercube Q_d every edge has R = (2^d − 1)/(d 2^{d−1}) (Foster
// with edge transitivity: m R = n − 1, m = d 2^{d−1}).
func TestApproxEdgeResistancesHypercube(t *testing.T) {
	const d, eps = 9, 0.3
	g := graphtest.Must(gen.Hypercube(d))
	want := float64(g.Order()-1) / float64(g.Size())
	var fs []float64
	var k int
	for seed := range uint64(8) {
		er, err := EdgeResistances(g, &SketchSettings{Eps: eps}, rand.NewPCG(8, seed))
		if err != nil {
			t.Fatal(err)
		}
		k = er.K
		fs = append(fs, missRate(len(er.R), eps, func(e int) float64 { return er.R[e] }, func(int) float64 { return want }))
	}
	checkMissRate(t, "hypercube", fs, g.Size(), graphtest.Must(SketchMiss(k, eps)))
}

func TestSketchSettingsErrors(t *testing.T) {
	for _, s := range []SketchSettings{{Eps: -0.1}, {Eps: 1}, {Eps: math.NaN()}, {Miss: -1}, {Miss: math.Inf(1)}, {Miss: 1}, {Solver: &laplacian.Settings{Tol: -1}}} {
		if _, err := EdgeResistances(graphtest.Must(gen.Path(4)), &s, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", s, err)
		}
	}
	if _, err := EdgeResistances(graphtest.GraphOf(t, 4, wgraph.Edge{U: 0, V: 1, W: 1}, wgraph.Edge{U: 2, V: 3, W: 1}), nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrDisconnected) {
		t.Errorf("disconnected: err = %v", err)
	}
}

// The projections are drawn in parallel from per-column streams and the
// accumulation runs over fixed row blocks: the estimates are bitwise the
// same for one goroutine and for two.
func TestApproxEdgeResistancesDeterministic(t *testing.T) {
	g := graphtest.SparseWeighted(t, 9000, 0.0015, 2, 24) // 3 row blocks
	run := func(procs int) []float64 {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		er, err := EdgeResistances(g, &SketchSettings{Eps: 0.5}, rand.NewPCG(9, 9))
		if err != nil {
			t.Fatal(err)
		}
		return er.R
	}
	r1, r2 := run(1), run(2)
	for e := range r1 {
		if r1[e] != r2[e] {
			t.Fatalf("R[%d] = %v with 1 goroutine, %v with 2", e, r1[e], r2[e])
		}
	}
}

func TestSketchProjectionsErrors(t *testing.T) {
	for _, c := range []struct {
		n    int
		set  SketchSettings
		want error
	}{
		{-5, SketchSettings{}, loadlab.ErrInvalid}, {0, SketchSettings{}, loadlab.ErrInvalid},
		{100, SketchSettings{Eps: -0.1}, loadlab.ErrInvalid}, {100, SketchSettings{Eps: 1}, loadlab.ErrInvalid}, {100, SketchSettings{Eps: math.NaN()}, loadlab.ErrInvalid},
		{100, SketchSettings{Miss: math.NaN()}, loadlab.ErrInvalid}, {100, SketchSettings{Miss: 1}, loadlab.ErrInvalid}, {100, SketchSettings{Miss: math.Inf(-1)}, loadlab.ErrInvalid},
		{100, SketchSettings{Eps: 1e-200}, loadlab.ErrTooLarge}, {1000000, SketchSettings{Eps: 1e-5, AllPairs: true}, loadlab.ErrTooLarge},
	} {
		if k, err := SketchProjections(c.n, &c.set); !errors.Is(err, c.want) {
			t.Errorf("SketchProjections(%d, %+v) = %d, %v, want %v", c.n, c.set, k, err, c.want)
		}
	}
	// The least k with P(|χ²_k/k − 1| > ε) ≤ δ, from SciPy 1.10
	// (chi2.cdf(k(1−ε), k) + chi2.sf(k(1+ε), k) searched over k):
	// ε = 0.3, δ = 0.05 → 85 (tail 0.0491; k = 84 gives > 0.05);
	// δ = 0.1 → 59; ε = 0.5 → 30; all pairs at n = 2000 (δ/1999000) → 785
	// and at n = 10⁶ → 1431. n does not matter without AllPairs.
	for _, c := range []struct {
		n    int
		set  SketchSettings
		want int
	}{
		{100, SketchSettings{}, 85}, {1, SketchSettings{Eps: 0.3}, 85}, {100, SketchSettings{Miss: 0.1}, 59},
		{100, SketchSettings{Eps: 0.5}, 30}, {2000, SketchSettings{AllPairs: true}, 785}, {1000000, SketchSettings{AllPairs: true}, 1431},
	} {
		if k, err := SketchProjections(c.n, &c.set); k != c.want || err != nil {
			t.Errorf("SketchProjections(%d, %+v) = %d, %v, want %d", c.n, c.set, k, err, c.want)
		}
	}
	for _, c := range []struct {
		k   int
		eps float64
	}{{-1, 0.1}, {0, 0.1}, {10, 0}, {10, 1}, {10, math.NaN()}, {10, -0.5}} {
		if p, err := SketchMiss(c.k, c.eps); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("SketchMiss(%d, %v) = %v, %v, want ErrInvalid", c.k, c.eps, p, err)
		}
	}
	// A settings ε whose square underflows is an error, not an endless run.
	if _, err := EdgeResistances(graphtest.Must(gen.Path(4)), &SketchSettings{Eps: 1e-200}, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("Eps = 1e-200: err = %v, want ErrTooLarge", err)
	}
}
