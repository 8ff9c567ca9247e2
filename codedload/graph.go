package codedload

import (
	"fmt"
)

// Graph is any undirected graph on nodes 0..n−1 given by adjacency lists,
// such as a *linalg.Graph. Edge weights, if any, are ignored: distances are
// hop counts (spec §2).
type Graph interface {
	Order() int
	Neighbors(u int) []int32
}

// Network is a connected undirected graph stored compactly (CSR adjacency
// with int32 node indices: 4 bytes per directed edge), searched by
// breadth-first search from each request's origin.
type Network struct {
	off []int64
	adj []int32
}

// FromGraph copies g into a Network. It returns an error if g has fewer than
// 2 nodes, a neighbour out of range, a self-loop, an edge listed in one
// direction only, or more than one connected component (a request could then
// be unable to reach a holder, which the model excludes).
func FromGraph(g Graph) (*Network, error) {
	n := g.Order()
	if n < 2 || n > 1<<31-1 {
		return nil, fmt.Errorf("codedload: graph Order = %d: want 2 ≤ n < 2^31", n)
	}
	off := make([]int64, n+1)
	for u := 0; u < n; u++ {
		off[u+1] = off[u] + int64(len(g.Neighbors(u)))
	}
	adj := make([]int32, off[n])
	for u := 0; u < n; u++ {
		for i, v := range g.Neighbors(u) {
			if v < 0 || int(v) >= n {
				return nil, fmt.Errorf("codedload: graph neighbour %d of node %d out of range [0, %d)", v, u, n)
			}
			if int(v) == u {
				return nil, fmt.Errorf("codedload: graph has a self-loop at node %d", u)
			}
			adj[off[u]+int64(i)] = v
		}
	}
	w := &Network{off: off, adj: adj}
	if err := w.check(); err != nil {
		return nil, err
	}
	return w, nil
}

// check verifies symmetry and connectivity.
func (w *Network) check() error {
	n := w.Order()
	// Symmetry: count arcs u→v and v→u through a degree-sized scan of v.
	for u := 0; u < n; u++ {
		for _, v := range w.Neighbors(u) {
			if !w.hasArc(int(v), int32(u)) {
				return fmt.Errorf("codedload: graph edge {%d, %d} listed at %d only", u, v, u)
			}
		}
	}
	if !w.connected() {
		return fmt.Errorf("codedload: graph with %d nodes is not connected", n)
	}
	return nil
}

func (w *Network) hasArc(u int, v int32) bool {
	for _, x := range w.Neighbors(u) {
		if x == v {
			return true
		}
	}
	return false
}

// Order returns the number of nodes.
func (w *Network) Order() int { return len(w.off) - 1 }

// Neighbors returns the neighbours of u as a view into the adjacency array;
// the caller must not modify it.
func (w *Network) Neighbors(u int) []int32 { return w.adj[w.off[u]:w.off[u+1]] }

// Size returns the number of edges.
func (w *Network) Size() int { return len(w.adj) / 2 }

// Dist returns the hop distance between u and v by a breadth-first search
// grown from both ends, the smaller level first, until the two meet. Each
// call allocates O(n) scratch memory; the simulator keeps its own searches
// instead.
func (w *Network) Dist(u, v int) int {
	q := w.newSearch()
	q.start(u)
	return q.dist(v)
}

// connected reports whether one breadth-first search reaches every node.
func (w *Network) connected() bool {
	q := w.newSearch().(*bfs)
	q.start(0)
	for {
		if _, _, ok := q.next(); !ok {
			break
		}
	}
	return len(q.queue) == w.Order()
}

func (w *Network) newSearch() searcher {
	n := w.Order()
	return &bfs{w: w, stamp: make([]uint32, n), depth: make([]int32, n), queue: make([]int32, 0, n)}
}

// bfs is a level-by-level breadth-first search. A node is visited in the
// current search when its stamp equals cur, so starting a search costs O(1)
// instead of clearing an n-array.
type bfs struct {
	w      *Network
	stamp  []uint32
	depth  []int32
	cur    uint32
	queue  []int32
	lo, hi int // current level is queue[lo:hi]
	d      int
	back   *bfs // search from the target in dist, made on first use
}

func (q *bfs) start(u int) {
	q.cur++
	if q.cur == 0 { // wrapped after 2^32 searches: clear once
		clear(q.stamp)
		q.cur = 1
	}
	q.queue = q.queue[:0]
	q.lo, q.hi, q.d = 0, 0, -1
	q.stamp[u] = q.cur
	q.depth[u] = 0
	q.queue = append(q.queue, int32(u))
}

func (q *bfs) next() (int, []int32, bool) {
	if q.d < 0 {
		q.d, q.lo, q.hi = 0, 0, 1
		return 0, q.queue[:1], true
	}
	end := len(q.queue)
	for _, u := range q.queue[q.lo:q.hi] {
		for _, v := range q.w.adj[q.w.off[u]:q.w.off[u+1]] {
			if q.stamp[v] != q.cur {
				q.stamp[v] = q.cur
				q.depth[v] = int32(q.d + 1)
				q.queue = append(q.queue, v)
			}
		}
	}
	if len(q.queue) == end {
		q.lo = end
		return 0, nil, false
	}
	q.d++
	q.lo, q.hi = end, len(q.queue)
	return q.d, q.queue[q.lo:q.hi], true
}

// dist returns the distance from the origin to v, or −1 if v cannot be
// reached. If the levels discovered so far hold v it is read off;
// otherwise a second search grows from v and the two alternately add a
// level, the one with the smaller current level first, until a level meets
// a node the other search has visited. With a complete levels from the
// origin and b from v and no node in common, dist > a+b (the node of a
// shortest path at distance a from the origin would be common); so the
// first meeting, on adding level a+1 (or b+1), gives dist = a+b+1. On
// graphs whose balls grow fast (random regular graphs, expanders) two
// balls of half the radius are far smaller than one of the full radius;
// on geometric graphs the saving is about a factor 2. The levels the
// origin's search passes are not returned by next afterwards: callers use
// dist only once they are done with next for this origin.
func (q *bfs) dist(v int) int {
	if q.d < 0 {
		q.next() // level 0: the origin
	}
	if q.stamp[v] == q.cur {
		return int(q.depth[v])
	}
	if q.back == nil {
		q.back = q.w.newSearch().(*bfs)
	}
	b := q.back
	b.start(v)
	b.next()
	for {
		fwd, back := q, b
		if b.hi-b.lo < q.hi-q.lo {
			fwd, back = b, q
		}
		_, nodes, ok := fwd.next()
		if !ok {
			return -1 // v is in another component
		}
		for _, x := range nodes {
			if back.stamp[x] == back.cur {
				return q.d + b.d
			}
		}
	}
}
