package linalg

import (
	"fmt"
	"sort"
)

// Graph is a weighted undirected simple graph on nodes 0..n−1. Edge
// weights are conductances: positive and finite. The zero value is an
// empty graph with no nodes; use NewGraph.
//
// Adjacency is kept as one list per node, so Neighbors and Weights are
// O(1) slice views suitable for inner loops.
type Graph struct {
	nbr [][]int
	wt  [][]float64
	m   int
}

// Edge is an undirected edge {U, V} with U < V and weight W.
type Edge struct {
	U, V int
	W    float64
}

// NewGraph returns a graph with n nodes and no edges. It panics if n < 0.
func NewGraph(n int) *Graph {
	if n < 0 {
		panic(fmt.Sprintf("linalg: NewGraph(%d): negative order", n))
	}
	return &Graph{nbr: make([][]int, n), wt: make([][]float64, n)}
}

// Order returns the number of nodes.
func (g *Graph) Order() int { return len(g.nbr) }

// Size returns the number of edges.
func (g *Graph) Size() int { return g.m }

// checkNode returns an error if u is not a node of g.
func (g *Graph) checkNode(name string, u int) error {
	if u < 0 || u >= len(g.nbr) {
		return fmt.Errorf("linalg: node %s = %d out of range [0, %d)", name, u, len(g.nbr))
	}
	return nil
}

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

// checkWeight returns an error unless w is a valid conductance.
func checkWeight(u, v int, w float64) error {
	if !(w >= MinWeight && w <= MaxWeight) {
		return fmt.Errorf("linalg: weight of edge {%d, %d} = %v: want finite and > 0, within [2^-500, 2^500]", u, v, w)
	}
	return nil
}

// SetEdge sets the weight of edge {u, v} to w, adding the edge if it is
// absent. It returns an error for a node out of range, a self-loop, or a
// weight outside [MinWeight, MaxWeight] (zero, negative, NaN and
// infinite weights included); g is then unchanged.
// Adding an edge costs O(min(deg u, deg v)), changing the weight of an
// existing one O(deg u + deg v).
func (g *Graph) SetEdge(u, v int, w float64) error {
	if err := g.checkNode("u", u); err != nil {
		return err
	}
	if err := g.checkNode("v", v); err != nil {
		return err
	}
	if u == v {
		return fmt.Errorf("linalg: self-loop at node %d", u)
	}
	if err := checkWeight(u, v, w); err != nil {
		return err
	}
	a, b := g.shorter(u, v)
	i := g.find(a, b)
	if i < 0 {
		g.addEdge(u, v, w)
		return nil
	}
	g.wt[a][i] = w
	g.wt[b][g.find(b, a)] = w
	return nil
}

// addEdge appends {u, v} without checks; the caller guarantees a valid,
// absent edge. Generators use it to avoid the duplicate search.
func (g *Graph) addEdge(u, v int, w float64) {
	g.nbr[u] = append(g.nbr[u], v)
	g.wt[u] = append(g.wt[u], w)
	g.nbr[v] = append(g.nbr[v], u)
	g.wt[v] = append(g.wt[v], w)
	g.m++
}

// RemoveEdge removes edge {u, v} if present and reports whether it was.
// It panics if u or v is out of range.
func (g *Graph) RemoveEdge(u, v int) bool {
	if err := g.checkNode("u", u); err != nil {
		panic(err)
	}
	if err := g.checkNode("v", v); err != nil {
		panic(err)
	}
	i := g.find(u, v)
	if i < 0 {
		return false
	}
	g.drop(u, i)
	g.drop(v, g.find(v, u))
	g.m--
	return true
}

func (g *Graph) drop(u, i int) {
	last := len(g.nbr[u]) - 1
	g.nbr[u][i], g.wt[u][i] = g.nbr[u][last], g.wt[u][last]
	g.nbr[u], g.wt[u] = g.nbr[u][:last], g.wt[u][:last]
}

// find returns the position of v in u's list, or −1.
func (g *Graph) find(u, v int) int {
	for i, x := range g.nbr[u] {
		if x == v {
			return i
		}
	}
	return -1
}

// shorter returns u and v ordered so that the first has the shorter
// adjacency list.
func (g *Graph) shorter(u, v int) (int, int) {
	if len(g.nbr[v]) < len(g.nbr[u]) {
		return v, u
	}
	return u, v
}

// Weight returns the weight of {u, v}, or 0 if there is no such edge, in
// O(min(deg u, deg v)) time. It panics if u or v is out of range.
func (g *Graph) Weight(u, v int) float64 {
	if u < 0 || u >= len(g.nbr) || v < 0 || v >= len(g.nbr) {
		panic(fmt.Sprintf("linalg: Weight(%d, %d) out of range [0, %d)", u, v, len(g.nbr)))
	}
	a, b := g.shorter(u, v)
	if i := g.find(a, b); i >= 0 {
		return g.wt[a][i]
	}
	return 0
}

// HasEdge reports whether {u, v} is an edge.
func (g *Graph) HasEdge(u, v int) bool { return g.Weight(u, v) != 0 }

// Neighbors returns the neighbours of u. The slice is g's own storage:
// do not modify it; it is valid until the next change to g.
func (g *Graph) Neighbors(u int) []int { return g.nbr[u] }

// Weights returns the weights of the edges to Neighbors(u), in the same
// order. The slice is g's own storage: do not modify it.
func (g *Graph) Weights(u int) []float64 { return g.wt[u] }

// Degree returns the number of neighbours of u.
func (g *Graph) Degree(u int) int { return len(g.nbr[u]) }

// WeightedDegree returns Σ_v w_uv, the diagonal entry L_uu.
func (g *Graph) WeightedDegree(u int) float64 {
	var s float64
	for _, w := range g.wt[u] {
		s += w
	}
	return s
}

// Edges returns every edge once, with U < V, sorted by (U, V).
func (g *Graph) Edges() []Edge {
	es := make([]Edge, 0, g.m)
	for u, ns := range g.nbr {
		for i, v := range ns {
			if u < v {
				es = append(es, Edge{U: u, V: v, W: g.wt[u][i]})
			}
		}
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].U != es[j].U {
			return es[i].U < es[j].U
		}
		return es[i].V < es[j].V
	})
	return es
}

// Clone returns a deep copy of g.
func (g *Graph) Clone() *Graph {
	c := &Graph{nbr: make([][]int, len(g.nbr)), wt: make([][]float64, len(g.wt)), m: g.m}
	for u := range g.nbr {
		c.nbr[u] = append([]int(nil), g.nbr[u]...)
		c.wt[u] = append([]float64(nil), g.wt[u]...)
	}
	return c
}

// IsConnected reports whether g is connected. The graph with no nodes
// and the graph with one node are connected.
func IsConnected(g *Graph) bool {
	n := g.Order()
	if n <= 1 {
		return true
	}
	return len(component(g, 0)) == n
}

// component returns the nodes reachable from s, in BFS order.
func component(g *Graph, s int) []int {
	seen := make([]bool, g.Order())
	queue := []int{s}
	seen[s] = true
	for i := 0; i < len(queue); i++ {
		for _, v := range g.nbr[queue[i]] {
			if !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
	return queue
}

// requireConnected returns the error that every L†-based function gives
// for a disconnected graph.
func requireConnected(g *Graph) error {
	n := g.Order()
	if n == 0 {
		return fmt.Errorf("linalg: graph has no nodes")
	}
	if c := component(g, 0); len(c) != n {
		seen := make([]bool, n)
		for _, u := range c {
			seen[u] = true
		}
		for u := range seen {
			if !seen[u] {
				return fmt.Errorf("linalg: graph is disconnected: node %d is not reachable from node 0 (component of node 0 has %d of %d nodes)", u, len(c), n)
			}
		}
	}
	return nil
}
