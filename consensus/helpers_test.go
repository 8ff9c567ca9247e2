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
	g := linalg.NewGraph(n)
	perm := rnd.Perm(n)
	for i := 1; i < n; i++ {
		u, v := perm[i], perm[rnd.IntN(i)]
		must(g.SetEdge(u, v, 0.5+1.5*rnd.Float64()))
	}
	for u := range n {
		for v := u + 1; v < n; v++ {
			if !g.HasEdge(u, v) && rnd.Float64() < p {
				must(g.SetEdge(u, v, 0.5+1.5*rnd.Float64()))
			}
		}
	}
	return g
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// weightedTriangle is spec §9's triangle w12 = 1, w23 = 2, w13 = 3
// (nodes 0, 1, 2).
func weightedTriangle() *linalg.Graph {
	g := linalg.NewGraph(3)
	must(g.SetEdge(0, 1, 1))
	must(g.SetEdge(1, 2, 2))
	must(g.SetEdge(0, 2, 3))
	return g
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
	g := linalg.NewGraph(n)
	for v := 1; v < n; v++ {
		must(g.SetEdge(v, rnd.IntN(v), 0.5+1.5*rnd.Float64()))
	}
	for g.Size() < int(float64(n)*deg/2) {
		u, v := rnd.IntN(n), rnd.IntN(n)
		if u != v && !g.HasEdge(u, v) {
			must(g.SetEdge(u, v, 0.5+1.5*rnd.Float64()))
		}
	}
	return g
}
