package wgraph

import (
	"fmt"
	"slices"

	"github.com/loadlab/loadlab"
)

// FromPairs returns the unit-weight graph on n nodes with the edges
// {us[k], vs[k]}: the constructor of the generators of wgraph/gen, in
// O(n + m + Σ_u d_u log d_u) time with sequential passes and no map. It
// returns an error wrapping loadlab.ErrInvalid for a node out of range, a
// self-loop or a pair given twice, and one wrapping loadlab.ErrTooLarge
// for more than MaxOrder nodes or too many edges. It panics if us and vs
// differ in length.
func FromPairs(n int, us, vs []int32) (*Graph, error) {
	if len(us) != len(vs) {
		panic(fmt.Sprintf("wgraph: FromPairs: len(us) = %d, len(vs) = %d", len(us), len(vs)))
	}
	if err := checkOrder("FromPairs", n); err != nil {
		return nil, err
	}
	if err := checkEdges("FromPairs", n, len(us)); err != nil {
		return nil, err
	}
	for k := range us {
		if u, v := us[k], vs[k]; u < 0 || int(u) >= n || v < 0 || int(v) >= n || u == v {
			return nil, loadlab.Invalid("wgraph", "FromPairs: pair %d = {%d, %d}: want two distinct nodes in [0, %d)", k, u, v, n)
		}
	}
	g := buildCSR(n, us, vs, nil)
	if 2*len(us) != len(g.adj) {
		return nil, loadlab.Invalid("wgraph", "FromPairs: %d of the %d pairs repeat an earlier one", len(us)-len(g.adj)/2, len(us))
	}
	return g, nil
}

// buildCSR returns the CSR graph of the edges {us[k], vs[k]} with weights
// ws[k] (nil: unit weights), which the caller has validated. A pair given
// more than once is kept once, with its last weight, so a caller detects
// duplicates by the size.
//
// One pass counts degrees, a second scatters each edge into both
// endpoints' lists in insertion order; each list is then sorted by
// (neighbour, insertion index) and compacted, keeping the last of equal
// neighbours. That is O(n + m + Σ d log d) time with sequential passes
// over the edge arrays — several times faster than two counting sorts of
// the 2m directed entries, whose scattered writes miss the cache on
// large graphs.
func buildCSR(n int, us, vs []int32, ws []float64) *Graph {
	off := degreeOffsets(n, us, vs)
	m2 := 2 * len(us)
	adj := make([]int32, m2)
	ord := make([]int32, m2)
	pos := slices.Clone(off[:n])
	for k := range us {
		u, v := us[k], vs[k]
		adj[pos[u]], ord[pos[u]] = v, int32(k)
		pos[u]++
		adj[pos[v]], ord[pos[v]] = u, int32(k)
		pos[v]++
	}
	sortLists(off, adj, ord)
	return compact(off, adj, ord, ws)
}

// degreeOffsets returns the CSR offsets of the edge list: off[u] is the
// number of endpoint occurrences of nodes before u.
func degreeOffsets(n int, us, vs []int32) []int {
	off := make([]int, n+1)
	for k := range us {
		off[us[k]+1]++
		off[vs[k]+1]++
	}
	for u := range n {
		off[u+1] += off[u]
	}
	return off
}

// sortLists sorts each node's entries by (neighbour, insertion index):
// insertion sort for the short lists of sparse graphs, a library sort for
// long ones.
func sortLists(off []int, adj, ord []int32) {
	type entry struct{ v, k int32 }
	var buf []entry
	for u := 0; u+1 < len(off); u++ {
		lo, hi := off[u], off[u+1]
		if hi-lo <= 32 {
			insertionSort(adj[lo:hi], ord[lo:hi])
			continue
		}
		buf = buf[:0]
		for i := lo; i < hi; i++ {
			buf = append(buf, entry{adj[i], ord[i]})
		}
		slices.SortFunc(buf, func(a, b entry) int {
			if a.v != b.v {
				return int(a.v - b.v)
			}
			return int(a.k - b.k)
		})
		for i, e := range buf {
			adj[lo+i], ord[lo+i] = e.v, e.k
		}
	}
}

func insertionSort(adj, ord []int32) {
	for i := 1; i < len(adj); i++ {
		v, k := adj[i], ord[i]
		j := i - 1
		for ; j >= 0 && (adj[j] > v || (adj[j] == v && ord[j] > k)); j-- {
			adj[j+1], ord[j+1] = adj[j], ord[j]
		}
		adj[j+1], ord[j+1] = v, k
	}
}

// compact drops all but the last of equal neighbours in each sorted list
// and attaches the weights, rewriting off in place.
func compact(off []int, adj, ord []int32, ws []float64) *Graph {
	w := make([]float64, len(adj))
	out := 0
	start := 0
	for u := 0; u+1 < len(off); u++ {
		lo, hi := start, off[u+1]
		start = hi
		off[u] = out
		for i := lo; i < hi; i++ {
			if i+1 < hi && adj[i+1] == adj[i] {
				continue // a later entry of the same pair wins
			}
			adj[out] = adj[i]
			w[out] = 1
			if ws != nil {
				w[out] = ws[ord[i]]
			}
			out++
		}
	}
	off[len(off)-1] = out
	return &Graph{off: off, adj: adj[:out:out], w: w[:out:out]}
}
