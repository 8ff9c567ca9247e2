package lapmat

import (
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// The block product computes each column with the arithmetic of the
// single product, bit for bit, for the three storage kinds (regular with
// one weight — degree 6 takes the unrolled kernel —, uniform weights with
// row offsets, weights per entry) and for a row longer than gatherLen
// (the hub of a star); and the unrolled degree-6 kernel is the loop.
func TestRowsBlockMatchesRows(t *testing.T) {
	reg := graphtest.Must(gen.RandomRegular(3000, 6, rand.NewPCG(4, 4)))
	star := graphtest.Must(gen.Star(100))
	graphs := map[string]*wgraph.Graph{
		"regular6": reg, "regular3": graphtest.Must(gen.RandomRegular(3000, 3, rand.NewPCG(4, 5))),
		"uniform": star, "weighted": graphtest.SpreadWeights(t, star, 6, rand.New(rand.NewPCG(4, 6))),
	}
	for name, g := range graphs {
		m, err := New(g)
		if err != nil || m == nil {
			t.Fatal(name, err)
		}
		n, k := m.N, 5
		rng := rand.New(rand.NewPCG(5, 5))
		xb := make([]float64, n*k)
		for i := range xb {
			xb[i] = rng.NormFloat64()
		}
		yb, sums := make([]float64, n*k), make([]float64, 4*k)
		m.RowsBlock(yb, xb, xb, k, 0, n, sums)
		x, y := make([]float64, n), make([]float64, n)
		for j := range k {
			for u := range n {
				x[u] = xb[u*k+j]
			}
			dot := m.Rows(y, x, x, 0, n)
			for u := range n {
				if y[u] != yb[u*k+j] {
					t.Fatalf("%s: column %d row %d: block %v, single %v", name, j, u, yb[u*k+j], y[u])
				}
			}
			if dot != sums[4*j] {
				t.Errorf("%s: column %d: p·q block %v, single %v", name, j, sums[4*j], dot)
			}
			if name == "regular6" {
				for u := range n {
					var s float64
					for _, v := range m.Adj[6*u : 6*u+6] {
						s += x[u] - x[v]
					}
					if s *= m.Wc; s != y[u] {
						t.Fatalf("regular6: row %d: unrolled %v, loop %v", u, y[u], s)
					}
				}
			}
		}
	}
}

// New stores g's Laplacian: in the internal numbering each row's
// neighbours ascend and the product equals g's (LaplacianMulVec) up to
// the order of summation (1e-12 relative: a few roundings per entry),
// for the four storage kinds and a hub row longer than the insertion
// sort's 32; and the copy is the same with one goroutine or several.
func TestNewMatchesGraph(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	star := graphtest.Must(gen.Star(100))
	graphs := map[string]*wgraph.Graph{
		"regular6":  graphtest.Must(gen.RandomRegular(3000, 6, rand.NewPCG(4, 4))),
		"uniform":   star,
		"weighted":  graphtest.SpreadWeights(t, star, 6, rng),
		"irregular": graphtest.Must(gen.RandomConnectedSparse(2000, 5, 0.5, 2, rand.NewPCG(7, 8))),
	}
	for name, g := range graphs {
		m := mustNew(t, g)
		n := m.N
		x, xi, y, yi := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for u := range x {
			x[u] = rng.NormFloat64()
		}
		for i, u := range m.Perm {
			xi[i] = x[u]
		}
		g.LaplacianMulVec(y, x)
		m.Rows(yi, xi, xi, 0, n)
		for i, u := range m.Perm {
			if d := yi[i] - y[u]; d*d > 1e-24*(1+y[u]*y[u]) {
				t.Fatalf("%s: row %d: stored %v, graph %v", name, i, yi[i], y[u])
			}
			lo, hi := m.Span(i)
			for k := lo + 1; k < hi; k++ {
				if m.Adj[k] <= m.Adj[k-1] {
					t.Fatalf("%s: row %d not ascending", name, i)
				}
			}
		}
		prev := runtime.GOMAXPROCS(1)
		one := mustNew(t, g)
		runtime.GOMAXPROCS(max(prev, 2))
		two := mustNew(t, g)
		runtime.GOMAXPROCS(prev)
		if !slices.Equal(one.Adj, two.Adj) || !slices.Equal(one.W, two.W) || !slices.Equal(one.off, two.off) {
			t.Errorf("%s: the copy depends on the number of goroutines", name)
		}
	}
}

func mustNew(t *testing.T, g *wgraph.Graph) *Matrix {
	t.Helper()
	m, err := New(g)
	if err != nil || m == nil {
		t.Fatal(err)
	}
	return m
}
