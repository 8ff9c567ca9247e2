package graphtest

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// graphOf returns the graph on n nodes with the given edges, failing the
// test on an invalid edge.
func GraphOf(t testing.TB, n int, edges ...wgraph.Edge) *wgraph.Graph {
	t.Helper()
	g, err := wgraph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// reweight returns g with every weight w replaced by f(e) for its edge e.
func Reweight(t testing.TB, g *wgraph.Graph, f func(e wgraph.Edge) float64) *wgraph.Graph {
	t.Helper()
	es := g.Edges()
	for i := range es {
		es[i].W = f(es[i])
	}
	return GraphOf(t, g.Order(), es...)
}

// must returns v, panicking on a non-nil error: for graphs and closed
// forms whose arguments the test knows to be valid.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// spreadWeights returns g with independent weights 10^U(−spread/2, spread/2).
func SpreadWeights(t testing.TB, g *wgraph.Graph, spread float64, rng *rand.Rand) *wgraph.Graph {
	t.Helper()
	return Reweight(t, g, func(wgraph.Edge) float64 { return math.Pow(10, spread*(rng.Float64()-0.5)) })
}

// sparseWeighted returns a connected G(n, p) graph with weights spanning
// spread decades.
func SparseWeighted(t testing.TB, n int, p, spread float64, seed uint64) *wgraph.Graph {
	t.Helper()
	g, err := gen.ErdosRenyi(n, p, true, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	return SpreadWeights(t, g, spread, rand.New(rand.NewPCG(seed, 2)))
}

// denseWeighted returns K_n with independent weights uniform on [0.5, 1.5):
// the dense worst case for the Cholesky-based functions.
func DenseWeighted(n int, seed uint64) *wgraph.Graph {
	rnd := rand.New(rand.NewPCG(seed, 1))
	edges := make([]wgraph.Edge, 0, n*(n-1)/2)
	for u := range n {
		for v := u + 1; v < n; v++ {
			edges = append(edges, wgraph.Edge{U: u, V: v, W: 0.5 + rnd.Float64()})
		}
	}
	g, err := wgraph.FromEdges(n, edges)
	if err != nil {
		panic(err)
	}
	return g
}

func PCG(seed uint64) rand.Source { return rand.NewPCG(seed, 0x5eed) }

// randomWeighted returns a connected G(n, p) sample whose weights are
// log-uniform on [1/spread, spread], so they span two orders of magnitude
// for spread = 10.
func RandomWeighted(t testing.TB, n int, p, spread float64, src rand.Source) *wgraph.Graph {
	g, err := gen.ErdosRenyi(n, p, true, src)
	require.NoError(t, err)
	rnd := rand.New(src)
	return Reweight(t, g, func(wgraph.Edge) float64 { return math.Exp((2*rnd.Float64() - 1) * math.Log(spread)) })
}

// coverageAcrossSeeds checks a per-node coverage experiment: frac[s] is
// the fraction of nodes whose interval held the exact value in seed s.
// The nodes of one run share probes, so their hits are correlated and a
// binomial count over nodes would overstate the precision; the seeds are
// independent, so the mean coverage is compared with 95 % using the
// standard error across seeds: it must not fall 3 standard errors (plus
// 1 % for the sequential stopping rule, which looks at every node) below.
func CoverageAcrossSeeds(t *testing.T, name string, frac []float64) {
	t.Helper()
	var m, v float64
	for _, f := range frac {
		m += f / float64(len(frac))
	}
	for _, f := range frac {
		v += (f - m) * (f - m) / float64(len(frac)-1)
	}
	se := math.Sqrt(v / float64(len(frac)))
	if m < 0.94-3*se {
		t.Errorf("%s: mean per-node coverage %.3f (se %.3f), want ≈ 0.95", name, m, se)
	} else {
		t.Logf("%s: mean per-node coverage %.3f (se %.3f)", name, m, se)
	}
}

// checkRates checks coverage counts out of seeds runs against 95 %: each
// must be ≥ 0.95 − 3 binomial standard errors.
func CheckRates(t *testing.T, seeds int, hits map[string]int) {
	t.Helper()
	low := 0.95 - 3*math.Sqrt(0.95*0.05/float64(seeds))
	for name, h := range hits {
		if f := float64(h) / float64(seeds); f < low {
			t.Errorf("coverage %s %.3f, want ≥ %.3f", name, f, low)
		} else {
			t.Logf("coverage %s %.3f", name, f)
		}
	}
}

// writeForSciPy writes name.edges (int32 u, int32 v, float64 w per edge,
// little-endian, u < v) and name.rhs (float64 per node) into the
// directory named by LOADLAB_SCIPY_DIR, once per graph.
func WriteForSciPy(b *testing.B, name string, g *wgraph.Graph, rhs []float64) {
	dir := os.Getenv(scipyDirEnv)
	if dir == "" {
		return
	}
	path := filepath.Join(dir, name+".edges")
	if _, err := os.Stat(path); err == nil {
		return
	}
	type rec struct {
		U, V int32
		W    float64
	}
	es := g.Edges()
	recs := make([]rec, len(es))
	for i, e := range es {
		recs[i] = rec{int32(e.U), int32(e.V), e.W}
	}
	write := func(p string, data any) {
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := binary.Write(f, binary.LittleEndian, data); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
	write(filepath.Join(dir, name+".rhs"), rhs)
	write(path, recs)
}

func BenchRegular6(b *testing.B) *wgraph.Graph {
	benchRegOnce.Do(func() {
		g, err := gen.RandomRegular(1_000_000, 6, rand.NewPCG(2026, 12))
		if err != nil {
			b.Fatal(err)
		}
		benchReg = g
	})
	return benchReg
}

func BenchTorus1000(b *testing.B) *wgraph.Graph {
	benchTorusOnce.Do(func() { benchTorus = Must(gen.Torus(1000, 1000)) })
	return benchTorus
}

// benchRHS returns a fixed right-hand side e_0 − e_{n/2} plus noise.
func BenchRHS(n int) []float64 {
	rng := rand.New(rand.NewPCG(7, 7))
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	return b
}

// scipyDirEnv names the environment variable that makes the solve
// benchmarks write their graph and right-hand side for the SciPy
// comparison (laplacian/testdata/scipy_cg.py; docs/bench/run.sh runs both).
const scipyDirEnv = "LOADLAB_SCIPY_DIR"

// Benchmark graphs are built once per process.
var (
	benchRegOnce, benchTorusOnce sync.Once
	benchReg, benchTorus         *wgraph.Graph
)
