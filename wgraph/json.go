package wgraph

import (
	"encoding/json"
	"math"

	"github.com/loadlab/loadlab"
)

// graphJSON is the JSON form of a Graph: its order and its edges as
// [u, v, w] triples with u < v, in Edges order.
type graphJSON struct {
	Order int          `json:"order"`
	Edges [][3]float64 `json:"edges"`
}

// MarshalJSON writes g as {"order": n, "edges": [[u, v, w], …]}, so a
// result that holds a graph (consensus.Greedy, say) keeps it in JSON.
func (g *Graph) MarshalJSON() ([]byte, error) {
	es := g.Edges()
	gj := graphJSON{Order: g.Order(), Edges: make([][3]float64, len(es))}
	for i, e := range es {
		gj.Edges[i] = [3]float64{float64(e.U), float64(e.V), e.W}
	}
	return json.Marshal(gj)
}

// UnmarshalJSON reads the form MarshalJSON writes, with the checks of
// FromEdges; a node index that is not an integer is an error wrapping
// loadlab.ErrInvalid.
func (g *Graph) UnmarshalJSON(b []byte) error {
	var gj graphJSON
	if err := json.Unmarshal(b, &gj); err != nil {
		return loadlab.Invalid("wgraph", "Graph JSON: %v", err)
	}
	es := make([]Edge, len(gj.Edges))
	for i, e := range gj.Edges {
		u, v := e[0], e[1]
		if u != math.Trunc(u) || v != math.Trunc(v) || math.Abs(u) > math.MaxInt32 || math.Abs(v) > math.MaxInt32 {
			return loadlab.Invalid("wgraph", "Graph JSON: edges[%d] = %v: node indices must be integers", i, e)
		}
		es[i] = Edge{U: int(u), V: int(v), W: e[2]}
	}
	h, err := FromEdges(gj.Order, es)
	if err != nil {
		return err
	}
	*g = *h
	return nil
}
