package codedload

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Any wgraph graph enters through FromGraph; its BFS distances must match
// the closed forms of the same topology.
func TestFromLinalgGraph(t *testing.T) {
	for _, c := range []struct {
		g   *wgraph.Graph
		top Topology
	}{
		{mustGraph(gen.Torus(7, 7)), &Torus{Side: 7}},
		{mustGraph(gen.Torus(8, 8)), &Torus{Side: 8}},
		{mustGraph(gen.Hypercube(6)), &Hypercube{Dim: 6}},
		{mustGraph(gen.Grid(5, 9)), &Grid{Rows: 5, Cols: 9}},
	} {
		w, err := FromGraph(c.g)
		require.NoError(t, err)
		require.Equal(t, c.top.Order(), w.Order())
		for u := 0; u < w.Order(); u++ {
			assert.Equal(t, shells(t, c.top, u), shells(t, w, u), "from %d", u)
		}
	}
	rr, err := gen.RandomRegular(300, 4, rand.NewPCG(1, 2))
	require.NoError(t, err)
	w, err := FromGraph(rr)
	require.NoError(t, err)
	r, err := Run(Config{Topology: w, Files: 20, Cache: 2, Strategy: Coded{Ell: 6}}, mc.Source(3))
	require.NoError(t, err)
	// 3600 chunks of 20 files: Bin(3600, 1/20) < 6 has probability < 1e-60.
	assert.Equal(t, 300, r.Served)
}

func TestDuplicatedEdgeNeverReachesFromGraph(t *testing.T) {
	// Guards: a graph listing an edge twice, a multigraph the simulator
	// would search. FromGraph takes a *wgraph.Graph, and wgraph refuses a
	// repeated edge when the graph is built, so no such graph exists to
	// be passed.
	_, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 1, V: 0, W: 1}})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	g, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}})
	require.NoError(t, err)
	w, err := FromGraph(g)
	require.NoError(t, err)
	assert.Equal(t, 2, w.Size())
}

// mustGraph returns g, failing on a non-nil error: for the wgraph
// families with sizes the test knows to be valid.
func mustGraph(g *wgraph.Graph, err error) *wgraph.Graph {
	if err != nil {
		panic(err)
	}
	return g
}
