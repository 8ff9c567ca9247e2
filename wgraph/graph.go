package wgraph

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Graph is an immutable weighted undirected simple graph on nodes
// 0..n−1, stored as a compressed sparse row (CSR) adjacency: node u's
// neighbours are adj[off[u]:off[u+1]], sorted ascending, and w holds the
// weight of each of those entries. Every edge appears twice, once from
// each end, with the same weight. Edge weights are conductances in
// [MinWeight, MaxWeight] (spec throttlers.md §12.2).
//
// A Graph is built by a Builder, by FromEdges or by one of the
// generators of wgraph/gen, and never changes afterwards, so it is safe
// for concurrent use and its views (Neighbors, Weights, CSR) stay valid
// for its life.
// The zero value is the graph with no nodes.
type Graph struct {
	off []int
	adj []int32
	w   []float64
}

// Edge is an undirected edge {U, V} with weight W. The functions that
// return edges give U < V.
type Edge struct {
	U, V int
	W    float64
}

// MaxOrder is the largest number of nodes of a Graph: neighbours are
// stored as int32.
const MaxOrder = math.MaxInt32

// MinWeight and MaxWeight bound the edge weights a Graph accepts,
// 2^−500 ≈ 3.1e−151 and 2^500 ≈ 3.3e150. The bounds keep every weighted
// degree, every resistance 1/w and every product of a weight with a
// Laplacian entry finite, so no function of this package can overflow
// silently; weights spanning even a fraction of this range make L too ill
// conditioned to be useful anyway.
const (
	MinWeight = 0x1p-500
	MaxWeight = 0x1p500
)

// Order returns the number of nodes.
func (g *Graph) Order() int { return max(len(g.off)-1, 0) }

// Size returns the number of edges.
func (g *Graph) Size() int { return len(g.adj) / 2 }

// Neighbors returns the neighbours of u, sorted ascending. The slice is a
// view of g's storage: do not modify it. It panics if u is out of range.
func (g *Graph) Neighbors(u int) []int32 {
	lo, hi := g.off[u], g.off[u+1]
	return g.adj[lo:hi:hi]
}

// Weights returns the weights of the edges to Neighbors(u), in the same
// order. The slice is a view of g's storage: do not modify it. It panics
// if u is out of range.
func (g *Graph) Weights(u int) []float64 {
	lo, hi := g.off[u], g.off[u+1]
	return g.w[lo:hi:hi]
}

// Degree returns the number of neighbours of u. It panics if u is out of
// range.
func (g *Graph) Degree(u int) int { return g.off[u+1] - g.off[u] }

// WeightedDegree returns Σ_v w_uv, the diagonal entry L_uu. It panics if
// u is out of range.
func (g *Graph) WeightedDegree(u int) float64 {
	var s float64
	for _, w := range g.Weights(u) {
		s += w
	}
	return s
}

// CSR returns views of g's storage: off has Order()+1 entries, and node
// u's neighbours and weights are adj[off[u]:off[u+1]] and
// w[off[u]:off[u+1]], neighbours sorted ascending. The caller must not
// modify them.
func (g *Graph) CSR() (off []int, adj []int32, w []float64) {
	if len(g.off) == 0 {
		return []int{0}, nil, nil
	}
	return g.off, g.adj, g.w
}

// Weight returns the weight of {u, v}, or 0 if there is no such edge, by
// binary search in the shorter of the two lists: O(log min(deg u, deg v)).
// It panics if u or v is out of range.
func (g *Graph) Weight(u, v int) float64 {
	n := g.Order()
	if u < 0 || u >= n || v < 0 || v >= n {
		panic(fmt.Sprintf("wgraph: Weight(%d, %d) out of range [0, %d)", u, v, n))
	}
	if g.Degree(v) < g.Degree(u) {
		u, v = v, u
	}
	if i, ok := search(g.Neighbors(u), int32(v)); ok {
		return g.w[g.off[u]+i]
	}
	return 0
}

// search returns the position of x in the ascending slice s, and whether
// it is there.
func search(s []int32, x int32) (int, bool) {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(s) && s[lo] == x
}

// HasEdge reports whether {u, v} is an edge. It panics if u or v is out
// of range.
func (g *Graph) HasEdge(u, v int) bool { return g.Weight(u, v) != 0 }

// Edges returns every edge once, with U < V, sorted by (U, V).
func (g *Graph) Edges() []Edge {
	es := make([]Edge, 0, g.Size())
	for u := range g.Order() {
		ws := g.Weights(u)
		for i, v := range g.Neighbors(u) {
			if u < int(v) {
				es = append(es, Edge{U: u, V: int(v), W: ws[i]})
			}
		}
	}
	return es
}

// CheckSize returns an error unless a graph of n nodes and m edges may be
// built: one wrapping loadlab.ErrInvalid, naming fn, for n or m negative,
// and one wrapping loadlab.ErrTooLarge for more than MaxOrder nodes,
// more than MaxEdges edges, or a graph that would not fit in memory. The
// generators of wgraph/gen check their sizes with it before allocating.
func CheckSize(fn string, n, m int) error {
	if m < 0 {
		return loadlab.Invalid("wgraph", "%s: m = %d edges, want ≥ 0", fn, m)
	}
	return checkEdges(fn, n, m)
}

// checkOrder returns an error unless n is a valid number of nodes whose
// offsets fit in memory.
func checkOrder(fn string, n int) error {
	if n < 0 {
		return loadlab.Invalid("wgraph", "%s: n = %d, want ≥ 0", fn, n)
	}
	if n > MaxOrder {
		return loadlab.TooLarge("wgraph", "%s: n = %d, want < 2^31", fn, n)
	}
	return size.Check("wgraph", fn+": n", n+1, 8)
}

// MaxEdges bounds the number of edges (and of SetEdge calls on a
// Builder), so that the 2m directed entries are indexed by int32.
const MaxEdges = math.MaxInt32 / 2

// checkEdges returns an error if m edges of a graph on n nodes would not
// fit in memory (two CSR entries of 12 bytes each per edge).
func checkEdges(fn string, n, m int) error {
	if err := checkOrder(fn, n); err != nil {
		return err
	}
	if m > MaxEdges {
		return loadlab.TooLarge("wgraph", "%s: %d edges, want ≤ %d", fn, m, MaxEdges)
	}
	return size.Check("wgraph", fn+": number of edges", m, 24)
}

// checkWeight returns an error unless w is a valid conductance.
func checkWeight(u, v int, w float64) error {
	if !(w >= MinWeight && w <= MaxWeight) {
		return loadlab.Invalid("wgraph", "weight of edge {%d, %d} = %v: want finite and > 0, within [2^-500, 2^500]", u, v, w)
	}
	return nil
}

// checkEdge returns an error unless {u, v} is a valid edge of a graph on n
// nodes with weight w.
func checkEdge(n, u, v int, w float64) error {
	if u < 0 || u >= n {
		return loadlab.Invalid("wgraph", "node u = %d out of range [0, %d)", u, n)
	}
	if v < 0 || v >= n {
		return loadlab.Invalid("wgraph", "node v = %d out of range [0, %d)", v, n)
	}
	if u == v {
		return loadlab.Invalid("wgraph", "self-loop at node %d", u)
	}
	return checkWeight(u, v, w)
}

// Builder collects the edges of a Graph. Its zero value is not usable;
// use NewBuilder or Graph.Builder.
type Builder struct {
	n      int
	us, vs []int32
	ws     []float64
}

// NewBuilder returns a builder for a graph on n nodes. It returns an
// error wrapping loadlab.ErrInvalid for n < 0 and loadlab.ErrTooLarge for
// n ≥ 2^31 or a node array that would not fit in memory.
func NewBuilder(n int) (*Builder, error) {
	if err := checkOrder("NewBuilder", n); err != nil {
		return nil, err
	}
	return &Builder{n: n}, nil
}

// Builder returns a builder holding g's edges, for algorithms that add or
// reweight links: g itself does not change.
func (g *Graph) Builder() *Builder {
	m := g.Size()
	b := &Builder{n: g.Order(), us: make([]int32, 0, m), vs: make([]int32, 0, m), ws: make([]float64, 0, m)}
	for u := range b.n {
		ws := g.Weights(u)
		for i, v := range g.Neighbors(u) {
			if int32(u) < v {
				b.us, b.vs, b.ws = append(b.us, int32(u)), append(b.vs, v), append(b.ws, ws[i])
			}
		}
	}
	return b
}

// Order returns the number of nodes of the graph being built.
func (b *Builder) Order() int { return b.n }

// SetEdge sets the weight of edge {u, v} to w, adding the edge if it is
// absent; a later SetEdge of the same pair replaces the weight. It
// returns an error wrapping loadlab.ErrInvalid for a node out of range, a
// self-loop, or a weight outside [MinWeight, MaxWeight] (zero, negative,
// NaN and infinite weights included); b is then unchanged. It costs
// amortised O(1); duplicates are resolved by Build.
func (b *Builder) SetEdge(u, v int, w float64) error {
	if err := checkEdge(b.n, u, v, w); err != nil {
		return err
	}
	if len(b.us) >= MaxEdges {
		return loadlab.TooLarge("wgraph", "Builder: more than %d edges", MaxEdges)
	}
	b.us, b.vs, b.ws = append(b.us, int32(u)), append(b.vs, int32(v)), append(b.ws, w)
	return nil
}

// Build returns the graph of the edges set so far, each pair with the
// weight of its last SetEdge. It costs O(n + m) for m calls of SetEdge;
// b stays usable.
func (b *Builder) Build() *Graph {
	return buildCSR(b.n, b.us, b.vs, b.ws)
}

// FromEdges returns the graph on n nodes with the given edges. It returns
// an error wrapping loadlab.ErrInvalid for a node out of range, a
// self-loop, an invalid weight or an edge listed twice (in either
// orientation), naming the edge, and loadlab.ErrTooLarge when the graph
// would not fit in memory.
func FromEdges(n int, edges []Edge) (*Graph, error) {
	if err := checkEdges("FromEdges", n, len(edges)); err != nil {
		return nil, err
	}
	us, vs, ws := make([]int32, len(edges)), make([]int32, len(edges)), make([]float64, len(edges))
	for i, e := range edges {
		if err := checkEdge(n, e.U, e.V, e.W); err != nil {
			return nil, fmt.Errorf("edges[%d]: %w", i, err)
		}
		us[i], vs[i], ws[i] = int32(e.U), int32(e.V), e.W
	}
	g := buildCSR(n, us, vs, ws)
	if 2*len(edges) != len(g.adj) {
		return nil, duplicateEdge(n, edges)
	}
	return g, nil
}

// duplicateEdge returns the error naming the first edge of edges that
// repeats an earlier one.
func duplicateEdge(n int, edges []Edge) error {
	seen := make(map[[2]int]int, len(edges))
	for i, e := range edges {
		k := [2]int{min(e.U, e.V), max(e.U, e.V)}
		if j, ok := seen[k]; ok {
			return loadlab.Invalid("wgraph", "edges[%d] = {%d, %d} repeats edges[%d] = {%d, %d}", i, e.U, e.V, j, edges[j].U, edges[j].V)
		}
		seen[k] = i
	}
	panic(fmt.Sprintf("wgraph: duplicateEdge found no duplicate among %d edges on %d nodes", len(edges), n))
}

// checkNode returns an error wrapping loadlab.ErrInvalid if u is not a
// node of g; name is the argument's name.
func (g *Graph) checkNode(name string, u int) error {
	if u < 0 || u >= g.Order() {
		return loadlab.Invalid("wgraph", "node %s = %d out of range [0, %d)", name, u, g.Order())
	}
	return nil
}
