package spectral_test

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/largetest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// BenchmarkExactResistance times the exact sparse path on three real-size
// graphs: NewResistance (ordering, factorisation and selected inversion),
// the Kirchhoff index and the resistance of every edge. Targets
// (docs/benchmarks.md, table "exact"): power grid ≤ 0.5 s, Internet AS
// graph ≤ 10 s and 316 × 316 grid ≤ 30 s, both within 4 GiB. Each case
// exports its graph through graphtest.WriteForSciPy as exact_<name> for
// the peers (CHOLMOD's factorisation, SciPy's dense route), and checks
// Foster's theorem, Σ_e w_e R_e = n − 1 on a connected graph, so that the
// timed work is known to have produced the resistances.
func BenchmarkExactResistance(b *testing.B) {
	cases := []struct {
		name  string
		graph func() *wgraph.Graph
	}{
		{"power", func() *wgraph.Graph { return datasets.PowerGrid().Graph }},
		{"as", func() *wgraph.Graph { return datasets.InternetAS().Graph }},
		{"grid316", func() *wgraph.Graph { return graphtest.Must(gen.Grid(316, 316)) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			g := c.graph()
			graphtest.WriteForSciPy(b, "exact_"+c.name, g, graphtest.BenchRHS(g.Order()))
			var (
				kf  float64
				r   []float64
				rep cholesky.Report
			)
			c0 := cputime.Process()
			for b.Loop() {
				res, err := spectral.NewResistance(g)
				if err != nil {
					b.Fatal(err)
				}
				if p := res.Path(); p != spectral.Sparse {
					b.Fatalf("NewResistance took path %v, want the sparse path", p)
				}
				kf = res.Kirchhoff()
				r = res.EdgeResistances(r)
				rep = res.Report()
			}
			b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(kf, "kirchhoff")
			b.ReportMetric(float64(rep.Factor), "nnzL")
			b.ReportMetric(float64(rep.Bytes)/(1<<20), "factor-MiB")
			checkFoster(b, g, r)
		})
	}
}

// checkFoster fails the benchmark unless Σ_e w_e R_e = n − 1 (Foster's
// theorem) to 1e-9 relative: each term is in (0, 1], so the sum carries
// at most m rounding errors of its terms.
func checkFoster(b *testing.B, g *wgraph.Graph, r []float64) {
	b.Helper()
	es := g.Edges()
	if len(r) != len(es) {
		b.Fatalf("EdgeResistances returned %d values for %d edges", len(r), len(es))
	}
	var s float64
	for i, e := range es {
		s += e.W * r[i]
	}
	if want := float64(g.Order() - 1); math.Abs(s-want) > 1e-9*want {
		b.Fatalf("Σ w_e R_e = %.15g, want n − 1 = %g (Foster)", s, want)
	}
}

// BenchmarkExactKirchhoff_Torus1000 times spectral.KirchhoffIndex on the
// 1000 × 1000 torus — the ordering, the supernodal factorisation of the
// grounded Laplacian and its selected inversion (spec
// sparse-cholesky.md §3.1, §4) — and reports its relative error against
// the closed form (spec throttlers.md §9). Target (docs/benchmarks.md,
// issue 31): the Kirchhoff index of this torus to 1 % in ≤ 20 s; the
// exact value meets it with every digit.
func BenchmarkExactKirchhoff_Torus1000(b *testing.B) {
	g := graphtest.BenchTorus1000(b)
	want := graphtest.Must(spectral.TorusKirchhoff(1000, 1000))
	var kf float64
	c0 := cputime.Process()
	for b.Loop() {
		var err error
		if kf, err = spectral.KirchhoffIndex(g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	relerr := math.Abs(kf/want - 1)
	b.ReportMetric(relerr, "relerr")
	// K_f sums positive terms, each within κ(L_r)·ε of its value; λ_min
	// of the grounded Laplacian is at least 1/tr L_r⁻¹ ≥ 1/(n max_u R_ur),
	// and R ≤ 1.2 on this torus, so κ ≤ 8 · 1.2·10⁶ and κε < 3·10⁻⁹.
	if relerr > 1e-8 {
		b.Fatalf("K_f = %.15g, closed form %.15g", kf, want)
	}
}

// BenchmarkExactKirchhoff_Torus3163 is BenchmarkExactKirchhoff_Torus1000
// on the 3163 × 3163 torus (10⁷ nodes; minutes and about 15 GB, so only
// with LOADLAB_LARGE=1), through NewResistanceWith with nested
// dissection (on a mesh it is the ordering Auto keeps, and computing AMD
// besides costs a minute) and the flops limit raised to the factor's
// 9.7·10¹¹. Target (docs/benchmarks.md, issue 31): the Kirchhoff index
// to 1 % in ≤ 10 min and ≤ 16 GiB.
func BenchmarkExactKirchhoff_Torus3163(b *testing.B) {
	largetest.Require(b)
	g := graphtest.Must(gen.Torus(3163, 3163))
	want := graphtest.Must(spectral.TorusKirchhoff(3163, 3163))
	set := &cholesky.Settings{Ordering: cholesky.NestedDissection, MaxFlops: 2e12}
	// The factor, its selected inverse and the row indices hold about
	// 11 GB; the limit makes the collector return the analysis's
	// garbage before the two panels are allocated, as GOMEMLIMIT would.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(15 << 30))
	var kf float64
	var ms runtime.MemStats
	c0 := cputime.Process()
	for b.Loop() {
		r, err := spectral.NewResistanceWith(g, set)
		if err != nil {
			b.Fatal(err)
		}
		kf = r.Kirchhoff()
		runtime.ReadMemStats(&ms)
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<30), "heap-GiB")
	relerr := math.Abs(kf/want - 1)
	b.ReportMetric(relerr, "relerr")
	if relerr > 1e-7 { // as for the 1000 × 1000 torus, with n and R ≤ 1.4 ten times larger: κε < 4·10⁻⁸
		b.Fatalf("K_f = %.15g, closed form %.15g", kf, want)
	}
}
