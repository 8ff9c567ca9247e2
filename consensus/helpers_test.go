package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// randomGraph returns a connected graph on n nodes: a random spanning
// tree plus each other pair with probability p, weights uniform in
// [0.5, 2): gen.RandomConnected, same stream as the local generator
// these tests were written with.
func randomGraph(n int, p float64, src rand.Source) *wgraph.Graph {
	return mustGraph(gen.RandomConnected(n, p, 0.5, 2, src))
}

// newBuilder returns a graph builder on n nodes.
func newBuilder(n int) *wgraph.Builder {
	b, err := wgraph.NewBuilder(n)
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
func weightedTriangle() *wgraph.Graph {
	g := newBuilder(3)
	must(g.SetEdge(0, 1, 1))
	must(g.SetEdge(1, 2, 2))
	must(g.SetEdge(0, 2, 3))
	return g.Build()
}

func spectralOf(t *testing.T, g *wgraph.Graph) *Spectral {
	t.Helper()
	s, err := NewSpectral(g)
	require.NoError(t, err)
	return s
}

// sparseRandom returns a connected graph with n nodes and about
// n·deg/2 edges (a random spanning tree plus uniformly random pairs),
// weights uniform in [0.5, 2), in O(n deg) time.
func sparseRandom(n int, deg float64, src rand.Source) *wgraph.Graph {
	return mustGraph(gen.RandomConnectedSparse(n, deg, 0.5, 2, src))
}

// mustGraph returns g, panicking on a non-nil error: for the graph
// families with sizes the test knows to be valid.
func mustGraph(g *wgraph.Graph, err error) *wgraph.Graph {
	must(err)
	return g
}
