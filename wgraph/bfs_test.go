package wgraph_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floyd returns all hop distances by Floyd–Warshall, −1 for unreachable.
func floyd(g *wgraph.Graph) [][]int {
	n := g.Order()
	const inf = 1 << 30
	d := make([][]int, n)
	for u := range d {
		d[u] = make([]int, n)
		for v := range d[u] {
			if u != v {
				d[u][v] = inf
			}
		}
		for _, v := range g.Neighbors(u) {
			d[u][v] = 1
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				d[i][j] = min(d[i][j], d[i][k]+d[k][j])
			}
		}
	}
	for i := range d {
		for j := range d[i] {
			if d[i][j] == inf {
				d[i][j] = -1
			}
		}
	}
	return d
}

func TestBFSAgainstFloyd(t *testing.T) {
	for seed := range uint64(20) {
		n := 2 + int(seed)*3
		// Sparse enough that some graphs are disconnected.
		g, err := gen.ErdosRenyi(n, 1.5/float64(n), false, graphtest.PCG(seed))
		require.NoError(t, err)
		ref := floyd(g)
		s := wgraph.NewBFS(g)
		dist := make([]int32, n)
		for u := range n {
			s.Distances(u, dist)
			for v := range n {
				require.Equal(t, ref[u][v], int(dist[v]), "n=%d u=%d v=%d", n, u, v)
			}
			// Levels are the distance shells, in order.
			s.Start(u)
			for d, level, ok := s.Next(); ok; d, level, ok = s.Next() {
				for _, v := range level {
					require.Equal(t, d, ref[u][v])
				}
			}
			// Bidirectional distances, after a partial search or none.
			for v := range n {
				s.Start(u)
				if v%2 == 0 {
					s.Next()
					s.Next()
				}
				require.Equal(t, ref[u][v], s.Dist(v), "Dist n=%d u=%d v=%d", n, u, v)
			}
		}
		count, comp := wgraph.Components(g)
		for u := range n {
			for v := range n {
				require.Equal(t, ref[u][v] >= 0, comp[u] == comp[v])
			}
		}
		require.Equal(t, count == 1, wgraph.IsConnected(g))
		err = wgraph.CheckConnected(g)
		require.Equal(t, count == 1, err == nil)
		if err != nil {
			require.True(t, errors.Is(err, loadlab.ErrDisconnected))
		}
		require.Equal(t, int(slices.Max(comp))+1, count)
	}
}

func TestBFSPanics(t *testing.T) {
	assert.PanicsWithValue(t, "wgraph: NewBFS: nil graph g", func() { wgraph.NewBFS(nil) })
	s := wgraph.NewBFS(graphtest.Must(gen.Path(3)))
	assert.Panics(t, func() { s.Next() })
	assert.Panics(t, func() { s.Start(3) })
	assert.Panics(t, func() { s.Distances(0, make([]int32, 2)) })
	assert.PanicsWithValue(t, "wgraph: IsConnected: nil graph g", func() { wgraph.IsConnected(nil) })
}
