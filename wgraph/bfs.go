package wgraph

import (
	"fmt"

	"github.com/loadlab/loadlab"
)

// BFS is a reusable breadth-first search workspace on one graph: hop
// distances, ignoring weights. Start begins a search from a node; Next
// returns its levels one at a time; Dist answers a distance query by a
// search grown from both ends. A search is marked by a stamp per node, so
// starting one costs O(1) rather than clearing n entries, and a BFS
// allocates nothing after NewBFS. A BFS is owned by one goroutine.
type BFS struct {
	g      *Graph
	stamp  []uint32
	depth  []int32
	cur    uint32
	queue  []int32
	lo, hi int // current level is queue[lo:hi]
	d      int // its distance, −1 before the first Next
	back   *BFS
}

// NewBFS returns a search workspace for g, of 12 bytes per node. It
// panics if g is nil.
func NewBFS(g *Graph) *BFS {
	if g == nil {
		panic("wgraph: NewBFS: nil graph g")
	}
	n := g.Order()
	return &BFS{g: g, stamp: make([]uint32, n), depth: make([]int32, n), queue: make([]int32, 0, n), d: -1}
}

// Start begins a new search from u. It panics if u is out of range.
func (s *BFS) Start(u int) {
	if u < 0 || u >= s.g.Order() {
		panic(fmt.Sprintf("wgraph: BFS.Start(%d): node out of range [0, %d)", u, s.g.Order()))
	}
	s.cur++
	if s.cur == 0 { // wrapped after 2^32 searches: clear once
		clear(s.stamp)
		s.cur = 1
	}
	s.queue = s.queue[:0]
	s.lo, s.hi, s.d = 0, 0, -1
	s.stamp[u] = s.cur
	s.depth[u] = 0
	s.queue = append(s.queue, int32(u))
}

// Next returns the next level of the search, the nodes at hop distance d
// from the origin (d = 0 first, the origin alone). The slice is valid
// until the next Start. ok is false once the origin's component is
// exhausted. It panics if no search was started.
func (s *BFS) Next() (d int, level []int32, ok bool) {
	if len(s.queue) == 0 {
		panic("wgraph: BFS.Next before Start")
	}
	if s.d < 0 {
		s.d, s.lo, s.hi = 0, 0, 1
		return 0, s.queue[:1], true
	}
	end := len(s.queue)
	off, adj := s.g.off, s.g.adj
	for _, u := range s.queue[s.lo:s.hi] {
		for _, v := range adj[off[u]:off[u+1]] {
			if s.stamp[v] != s.cur {
				s.stamp[v] = s.cur
				s.depth[v] = int32(s.d + 1)
				s.queue = append(s.queue, v)
			}
		}
	}
	if len(s.queue) == end {
		s.lo = end
		return 0, nil, false
	}
	s.d++
	s.lo, s.hi = end, len(s.queue)
	return s.d, s.queue[s.lo:s.hi], true
}

// Reached returns the nodes the current search has visited so far, in
// order of distance. The slice is valid until the next Start.
func (s *BFS) Reached() []int32 { return s.queue }

// Distances runs a full search from src and writes the hop distance of
// every node to dst, −1 for nodes in another component. It panics if
// len(dst) ≠ Order() or src is out of range.
func (s *BFS) Distances(src int, dst []int32) {
	if len(dst) != s.g.Order() {
		panic(fmt.Sprintf("wgraph: BFS.Distances: len(dst) = %d, want %d", len(dst), s.g.Order()))
	}
	s.Start(src)
	for _, _, ok := s.Next(); ok; _, _, ok = s.Next() {
	}
	for i := range dst {
		dst[i] = -1
	}
	for _, v := range s.queue {
		dst[v] = s.depth[v]
	}
}

// Dist returns the hop distance from the current search's origin to v, or
// −1 if v is in another component. If the levels found so far hold v it
// is read off; otherwise a second search grows from v and the two
// alternately add a level, the one with the smaller current level first,
// until a new level meets a node the other has visited. With a complete
// levels from the origin, b from v and no node in common, the distance
// exceeds a + b, so the first meeting, on adding level a+1 (or b+1),
// gives a + b + 1. On graphs whose balls grow fast (random regular
// graphs, expanders) two balls of half the radius are far smaller than
// one of the full radius. Dist advances the origin's search: call Next
// for this origin only before Dist. It panics if no search was started or
// v is out of range.
func (s *BFS) Dist(v int) int {
	if s.d < 0 {
		s.Next() // level 0: the origin
	}
	if v < 0 || v >= s.g.Order() {
		panic(fmt.Sprintf("wgraph: BFS.Dist(%d): node out of range [0, %d)", v, s.g.Order()))
	}
	if s.stamp[v] == s.cur {
		return int(s.depth[v])
	}
	if s.back == nil {
		s.back = NewBFS(s.g)
	}
	b := s.back
	b.Start(v)
	b.Next()
	for {
		fwd, other := s, b
		if b.hi-b.lo < s.hi-s.lo {
			fwd, other = b, s
		}
		_, nodes, ok := fwd.Next()
		if !ok {
			return -1
		}
		for _, x := range nodes {
			if other.stamp[x] == other.cur {
				return s.d + b.d
			}
		}
	}
}

// IsConnected reports whether g is connected. The graph with no nodes
// and the graph with one node are connected. It panics if g is nil.
func IsConnected(g *Graph) bool {
	if g == nil {
		panic("wgraph: IsConnected: nil graph g")
	}
	if g.Order() <= 1 {
		return true
	}
	return len(reach(g, 0)) == g.Order()
}

// reach returns the nodes reachable from u.
func reach(g *Graph, u int) []int32 {
	s := NewBFS(g)
	s.Start(u)
	for _, _, ok := s.Next(); ok; _, _, ok = s.Next() {
	}
	return s.Reached()
}

// Components returns the number of connected components of g and, for
// each node, the index of its component, components being numbered in
// order of their smallest node. It panics if g is nil.
func Components(g *Graph) (count int, comp []int32) {
	if g == nil {
		panic("wgraph: Components: nil graph g")
	}
	n := g.Order()
	comp = make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	s := NewBFS(g)
	for u := range n {
		if comp[u] >= 0 {
			continue
		}
		s.Start(u)
		for _, _, ok := s.Next(); ok; _, _, ok = s.Next() {
		}
		for _, v := range s.Reached() {
			comp[v] = int32(count)
		}
		count++
	}
	return count, comp
}

// CheckConnected returns nil if g has at least one node and is connected,
// and otherwise an error wrapping loadlab.ErrInvalid (no nodes) or
// loadlab.ErrDisconnected, naming a node that node 0 does not reach. It
// panics if g is nil.
func CheckConnected(g *Graph) error {
	if g == nil {
		panic("wgraph: CheckConnected: nil graph g")
	}
	n := g.Order()
	if n == 0 {
		return loadlab.Invalid("wgraph", "graph has no nodes")
	}
	c := reach(g, 0)
	if len(c) == n {
		return nil
	}
	seen := make([]bool, n)
	for _, u := range c {
		seen[u] = true
	}
	u := 0
	for seen[u] {
		u++
	}
	return loadlab.Wrap(loadlab.ErrDisconnected, "wgraph", "node %d is not reachable from node 0 (component of node 0 has %d of %d nodes)", u, len(c), n)
}
