package codedload

import (
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
)

// GraphTopology is a connected graph as a topology: hop distances (edge
// weights ignored, spec §2), searched outward from each request's origin
// by wgraph's breadth-first search. It reads the graph's compact (CSR)
// storage directly; nothing is copied. Make one with FromGraph: the zero
// value holds no graph, and its methods panic (a programmer error).
type GraphTopology struct {
	g *wgraph.Graph
}

// FromGraph returns g as a topology. It returns an error wrapping
// loadlab.ErrInvalid if g has fewer than 2 nodes and
// loadlab.ErrDisconnected if g is not connected (a request could then be
// unable to reach a holder, which the model excludes). It panics if g is
// nil.
func FromGraph(g *wgraph.Graph) (*GraphTopology, error) {
	if g == nil {
		panic("codedload: FromGraph: nil graph g")
	}
	if n := g.Order(); n < 2 {
		return nil, loadlab.Invalid("codedload", "graph Order = %d, want ≥ 2", n)
	}
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, fmt.Errorf("codedload: graph with %d nodes: %w", g.Order(), err)
	}
	return &GraphTopology{g: g}, nil
}

// Graph returns the underlying graph.
func (t *GraphTopology) Graph() *wgraph.Graph { return t.g }

// Order returns the number of nodes.
func (t *GraphTopology) Order() int { return t.g.Order() }

// Size returns the number of edges.
func (t *GraphTopology) Size() int { return t.g.Size() }

// Dist returns the hop distance between u and v by a breadth-first search
// grown from both ends (wgraph.BFS.Dist). Each call allocates O(n)
// scratch memory; the simulator keeps its own searches instead. It
// panics if u or v is out of range.
func (t *GraphTopology) Dist(u, v int) int {
	s := wgraph.NewBFS(t.g)
	s.Start(u)
	return s.Dist(v)
}

func (t *GraphTopology) newSearch() searcher { return bfsSearch{wgraph.NewBFS(t.g)} }

// bfsSearch adapts wgraph.BFS to the searcher interface.
type bfsSearch struct{ s *wgraph.BFS }

func (b bfsSearch) start(u int)                { b.s.Start(u) }
func (b bfsSearch) next() (int, []int32, bool) { return b.s.Next() }
func (b bfsSearch) dist(v int) int             { return b.s.Dist(v) }
