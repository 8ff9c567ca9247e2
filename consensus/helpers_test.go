package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/linalg"
)

// randomGraph returns a connected graph on n nodes: a random spanning
// tree plus each other pair with probability p, weights uniform in
// [0.5, 2). (A local generator until linalg's random graphs land.)
func randomGraph(n int, p float64, src rand.Source) *linalg.Graph {
	rnd := rand.New(src)
	g := newBuilder(n)
	has := map[[2]int]bool{}
	perm := rnd.Perm(n)
	for i := 1; i < n; i++ {
		u, v := perm[i], perm[rnd.IntN(i)]
		must(g.SetEdge(u, v, 0.5+1.5*rnd.Float64()))
		has[[2]int{min(u, v), max(u, v)}] = true
	}
	for u := range n {
		for v := u + 1; v < n; v++ {
			if !has[[2]int{u, v}] && rnd.Float64() < p {
				must(g.SetEdge(u, v, 0.5+1.5*rnd.Float64()))
			}
		}
	}
	return g.Build()
}

// newBuilder returns a graph builder on n nodes.
func newBuilder(n int) *linalg.Builder {
	b, err := linalg.NewBuilder(n)
	must(err)
	return b
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// weightedTriangle is spec §9's triangle w12 = 1, w23 = 2, w13 = 3
// (nodes 0, 1, 2).
func weightedTriangle() *linalg.Graph {
	g := newBuilder(3)
	must(g.SetEdge(0, 1, 1))
	must(g.SetEdge(1, 2, 2))
	must(g.SetEdge(0, 2, 3))
	return g.Build()
}

func spectral(t *testing.T, g *linalg.Graph) *Spectral {
	t.Helper()
	s, err := NewSpectral(g)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sparseRandom returns a connected graph with n nodes and about
// n·deg/2 edges (a random spanning tree plus uniformly random pairs),
// weights uniform in [0.5, 2), in O(n deg) time.
func sparseRandom(n int, deg float64, src rand.Source) *linalg.Graph {
	rnd := rand.New(src)
	g := newBuilder(n)
	has := map[[2]int]bool{}
	for v := 1; v < n; v++ {
		u := rnd.IntN(v)
		must(g.SetEdge(v, u, 0.5+1.5*rnd.Float64()))
		has[[2]int{u, v}] = true
	}
	for len(has) < int(float64(n)*deg/2) {
		u, v := rnd.IntN(n), rnd.IntN(n)
		if k := [2]int{min(u, v), max(u, v)}; u != v && !has[k] {
			must(g.SetEdge(u, v, 0.5+1.5*rnd.Float64()))
			has[k] = true
		}
	}
	return g.Build()
}

// mustGraph returns g, panicking on a non-nil error: for the linalg
// families with sizes the test knows to be valid.
func mustGraph(g *linalg.Graph, err error) *linalg.Graph {
	must(err)
	return g
}
