package competitive

import (
	"cmp"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
)

// treeShape is a weighted tree on the servers, for the O(k) min-plus
// step of spec §14.2: order lists the servers parents first (breadth
// first from the root), parent[s] is s's parent (−1 at the root) and
// w[s] the length of the link from s to its parent.
type treeShape struct {
	order  []int32
	parent []int32
	w      []float64
}

// TreeMetric returns the metric of distances along a weighted tree on
// the k = len(parent) servers (spec §14.2): parent[s] is the parent of
// server s (−1 for the one root) and length[s] ≥ 0 the length of the link
// from s to its parent (ignored at the root), so that d(i, j) is the
// length of the tree path from i to j. initial is as for NewMetric. The
// optimum and WFA then cost O(k) per slot instead of O(k²): the best
// predecessor of every server comes from one pass up the tree and one
// down.
//
// It returns an error wrapping loadlab.ErrInvalid, naming the entry, if
// parent is empty, len(length) or len(initial) is not k, a parent is out
// of range, there is not exactly one root or the links form a cycle, or
// a length or initial cost is negative, NaN or infinite; and one
// wrapping loadlab.ErrTooLarge if the k×k distances do not fit in
// memory.
func TreeMetric(parent []int, length, initial []float64) (*Metric, error) {
	k := len(parent)
	if k == 0 {
		return nil, loadlab.Invalid(pkg, "TreeMetric: k = 0 servers, want ≥ 1")
	}
	if len(length) != k {
		return nil, loadlab.Invalid(pkg, "TreeMetric: len(length) = %d, want k = %d", len(length), k)
	}
	if err := checkSquare(k); err != nil {
		return nil, err
	}
	sh, err := newTreeShape(parent, length)
	if err != nil {
		return nil, err
	}
	// Each row of distances is one walk over the tree: O(k²) in all.
	dist := make([][]float64, k)
	adj := sh.neighbours()
	for i := range dist {
		dist[i] = sh.distancesFrom(i, adj)
	}
	m, err := NewMetric(dist, initial)
	if err != nil {
		return nil, err
	}
	m.tree = sh
	return m, nil
}

// LineMetric returns the metric of servers at positions pos on a line,
// d(i, j) = |pos(i) − pos(j)|, as the path of TreeMetric in the order of
// the positions (O(k) per slot for the optimum and WFA). initial is as
// for NewMetric. It returns an error wrapping loadlab.ErrInvalid if pos
// is empty, a position is NaN or infinite, or a distance overflows; and
// the errors of TreeMetric.
func LineMetric(pos, initial []float64) (*Metric, error) {
	k := len(pos)
	if k == 0 {
		return nil, loadlab.Invalid(pkg, "LineMetric: k = 0 servers, want ≥ 1")
	}
	for s, x := range pos {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, loadlab.Invalid(pkg, "LineMetric: pos[%d] = %v, want finite", s, x)
		}
	}
	if err := checkSquare(k); err != nil {
		return nil, err
	}
	idx := make([]int, k)
	for s := range idx {
		idx[s] = s
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(pos[a], pos[b]) })
	parent, length := make([]int, k), make([]float64, k)
	parent[idx[0]] = -1
	for r := 1; r < k; r++ {
		parent[idx[r]] = idx[r-1]
		length[idx[r]] = pos[idx[r]] - pos[idx[r-1]]
		if math.IsInf(length[idx[r]], 1) {
			return nil, loadlab.Invalid(pkg, "LineMetric: pos[%d] − pos[%d] = %v − %v overflows float64", idx[r], idx[r-1], pos[idx[r]], pos[idx[r-1]])
		}
	}
	return TreeMetric(parent, length, initial)
}

// newTreeShape validates a parent array with its link lengths and
// orders the servers breadth first from the root.
func newTreeShape(parent []int, length []float64) (*treeShape, error) {
	k := len(parent)
	sh := &treeShape{parent: make([]int32, k), w: make([]float64, k)}
	root := -1
	children := make([][]int32, k)
	for s, p := range parent {
		switch {
		case p == -1 && root >= 0:
			return nil, loadlab.Invalid(pkg, "TreeMetric: parent[%d] = -1 and parent[%d] = -1, want one root", root, s)
		case p == -1:
			root = s
		case p < 0 || p >= k || p == s:
			return nil, loadlab.Invalid(pkg, "TreeMetric: parent[%d] = %d, want −1 (the root) or another server id in [0, %d)", s, p, k)
		default:
			children[p] = append(children[p], int32(s))
		}
		sh.parent[s] = int32(p)
		if p != -1 {
			if !finiteNonNeg(length[s]) {
				return nil, loadlab.Invalid(pkg, "TreeMetric: length[%d] = %v, want finite and ≥ 0", s, length[s])
			}
			sh.w[s] = length[s]
		}
	}
	if root < 0 {
		return nil, loadlab.Invalid(pkg, "TreeMetric: no parent[s] = -1, want one root (the links form a cycle)")
	}
	sh.order = append(make([]int32, 0, k), int32(root))
	for i := 0; i < len(sh.order); i++ {
		sh.order = append(sh.order, children[sh.order[i]]...)
	}
	if len(sh.order) != k {
		return nil, loadlab.Invalid(pkg, "TreeMetric: %d of %d servers reachable from the root %d, want all (the links form a cycle)", len(sh.order), k, root)
	}
	return sh, nil
}

// neighbours returns the tree's adjacency lists.
func (sh *treeShape) neighbours() [][]int32 {
	adj := make([][]int32, len(sh.parent))
	for s, p := range sh.parent {
		if p >= 0 {
			adj[s] = append(adj[s], p)
			adj[p] = append(adj[p], int32(s))
		}
	}
	return adj
}

// distancesFrom returns the tree distances from server i.
func (sh *treeShape) distancesFrom(i int, adj [][]int32) []float64 {
	d := make([]float64, len(adj))
	seen := make([]bool, len(adj))
	stack := []int32{int32(i)}
	seen[i] = true
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range adj[u] {
			if !seen[v] {
				seen[v] = true
				// the link u–v has the length stored at the child
				l := sh.w[v]
				if sh.parent[u] == v {
					l = sh.w[u]
				}
				d[v] = d[u] + l
				stack = append(stack, v)
			}
		}
	}
	return d
}

// minPlus is the tree form of minPlus (spec §14.2): next(s) = h(s) +
// min_j (v(j) + d(j, s)) in two passes, up (the best over each subtree)
// and down (the best over the rest through the parent), in the
// caller's workspace up and at (k values each: the best value over a
// subtree, then over all servers, and the server that attains it). back,
// if not nil, receives s when staying is optimal, else the lowest id
// among the best predecessors that the passes compare.
func (sh *treeShape) minPlus(next, v, h []float64, back []int32, up []float64, at []int32) {
	for s := range v {
		up[s], at[s] = v[s], int32(s)
	}
	for r := len(sh.order) - 1; r > 0; r-- { // children before parents
		c := sh.order[r]
		p := sh.parent[c]
		if x := up[c] + sh.w[c]; x < up[p] || x == up[p] && at[c] < at[p] && at[p] != p {
			up[p], at[p] = x, at[c]
		}
	}
	for r := 1; r < len(sh.order); r++ { // parents before children
		c := sh.order[r]
		p := sh.parent[c]
		if x := up[p] + sh.w[c]; x < up[c] || x == up[c] && at[p] < at[c] && at[c] != c {
			up[c], at[c] = x, at[p]
		}
	}
	for s := range next {
		next[s] = up[s] + h[s]
		if back != nil {
			back[s] = at[s]
		}
	}
}
