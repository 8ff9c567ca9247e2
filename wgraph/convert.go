package wgraph

import (
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/mat"
)

// FromAdjacency returns the graph whose weighted adjacency matrix is a:
// an edge {u, v} with weight a_uv for every non-zero entry above the
// diagonal. It returns an error naming the entry for a non-zero diagonal
// entry (self-loop), a negative, NaN or infinite entry or one outside
// [MinWeight, MaxWeight], or a_uv ≠ a_vu (possible for a user
// implementation of mat.Symmetric). Errors wrap loadlab.ErrInvalid. It
// panics if a is nil.
func FromAdjacency(a mat.Symmetric) (*Graph, error) {
	if a == nil {
		panic("wgraph: FromAdjacency: nil matrix a")
	}
	return fromSquare(a, a.SymmetricDim())
}

// FromMatrix is FromAdjacency for a general matrix, such as a *mat.Dense
// read from a file. It also returns an error if a is not square or not
// exactly symmetric. It panics if a is nil.
func FromMatrix(a mat.Matrix) (*Graph, error) {
	if a == nil {
		panic("wgraph: FromMatrix: nil matrix a")
	}
	r, c := a.Dims()
	if r != c {
		return nil, loadlab.Invalid("wgraph", "adjacency matrix is %d×%d, not square", r, c)
	}
	return fromSquare(a, r)
}

func fromSquare(a mat.Matrix, n int) (*Graph, error) {
	if err := checkOrder("FromMatrix", n); err != nil {
		return nil, err
	}
	var us, vs []int32
	var ws []float64
	for u := range n {
		if d := a.At(u, u); d != 0 {
			return nil, loadlab.Invalid("wgraph", "adjacency[%d][%d] = %v: self-loops are not allowed", u, u, d)
		}
		for v := u + 1; v < n; v++ {
			w, wt := a.At(u, v), a.At(v, u)
			if w != wt && !(math.IsNaN(w) && math.IsNaN(wt)) {
				return nil, loadlab.Invalid("wgraph", "adjacency not symmetric: [%d][%d] = %v but [%d][%d] = %v", u, v, w, v, u, wt)
			}
			if w == 0 {
				continue
			}
			if !(w >= MinWeight && w <= MaxWeight) {
				return nil, loadlab.Invalid("wgraph", "adjacency[%d][%d] = %v: want 0 (no edge) or a positive weight in [2^-500, 2^500]", u, v, w)
			}
			us, vs, ws = append(us, int32(u)), append(vs, int32(v)), append(ws, w)
		}
	}
	return buildCSR(n, us, vs, ws), nil
}

// FromUndirected converts a gonum graph. Nodes are numbered by
// increasing ID; the returned slice maps each node index to its gonum ID.
// If gr implements graph.Weighted, its edge weights are used, otherwise
// every edge has weight 1. It returns an error wrapping
// loadlab.ErrInvalid for a self-loop, a neighbour that is not a node or
// an invalid weight, and loadlab.ErrTooLarge for 2^31 nodes or more. It
// panics if gr is nil.
func FromUndirected(gr graph.Undirected) (*Graph, []int64, error) {
	if gr == nil {
		panic("wgraph: FromUndirected: nil graph gr")
	}
	// Len is −1 for an iterator of unknown length.
	if l := gr.Nodes().Len(); l > MaxOrder {
		return nil, nil, checkOrder("FromUndirected", l)
	}
	ids := make([]int64, 0, max(gr.Nodes().Len(), 0))
	for it := gr.Nodes(); it.Next(); {
		if len(ids) == MaxOrder {
			return nil, nil, checkOrder("FromUndirected", MaxOrder+1)
		}
		ids = append(ids, it.Node().ID())
	}
	slices.Sort(ids)
	index := make(map[int64]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	wg, weighted := gr.(graph.Weighted)
	var us, vs []int32
	var ws []float64
	for u, uid := range ids {
		for it := gr.From(uid); it.Next(); {
			vid := it.Node().ID()
			v, ok := index[vid]
			if !ok {
				return nil, nil, loadlab.Invalid("wgraph", "node ID %d, a neighbour of %d, is not among the graph's nodes", vid, uid)
			}
			if v == u {
				return nil, nil, loadlab.Invalid("wgraph", "self-loop at node ID %d", uid)
			}
			if v < u {
				continue
			}
			w := 1.0
			if weighted {
				w = wg.WeightedEdge(uid, vid).Weight()
			}
			if err := checkWeight(u, v, w); err != nil {
				return nil, nil, fmt.Errorf("%w (node IDs %d, %d)", err, uid, vid)
			}
			us, vs, ws = append(us, int32(u)), append(vs, int32(v)), append(ws, w)
		}
	}
	return buildCSR(len(ids), us, vs, ws), ids, nil
}
