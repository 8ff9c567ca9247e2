package lapmat

import (
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"math/rand/v2"
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
