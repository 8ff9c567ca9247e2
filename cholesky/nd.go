package cholesky

// Nested dissection ordering, spec sparse-cholesky.md §6.

const (
	// ndLeaf is the largest part ordered by minimum degree (with its
	// halo) instead of being bisected. On grids and tori, 64 gives 2 % less
	// fill than 128–512 at the same flops; below it separators save less
	// than minimum degree finds inside the part.
	ndLeaf = 64
	// ndBalance bounds the larger side after refinement to this fraction
	// of the part (unless the initial separator was already less
	// balanced): smaller separators are worth some imbalance, but a very
	// lopsided split wastes a recursion level.
	ndBalance = 0.6
	// ndPasses bounds the refinement passes per separator.
	ndPasses = 8
	// A separator is rejected, and the part ordered by minimum degree,
	// when its smaller side holds less than 1/ndMinSide of the part or
	// the separator more than 1/ndMaxSep: such a split (a scale-free
	// graph's hubs, a dense core) removes little fill and would make the
	// recursion deep, each level costing a pass over the part.
	ndMinSide = 10
	ndMaxSep  = 4
	// ndPatience is the number of moves a refinement pass makes past its
	// best state (plus the initial separator's size) before giving up.
	ndPatience = 64
)

// Sides of a bisection.
const (
	ndA = 0
	ndB = 1
	ndS = 2
)

// nd holds the graph and the scratch arrays of the nested dissection.
// Parts are node lists reordered in place as they are split, so the
// recursion allocates nothing per part but the induced subgraph's
// scratch, which every part reuses.
type nd struct {
	ptr, adj []int
	in, loc  []int // membership stamp and local index of a global node
	stamp    int
	// The induced subgraph of the current part, local indices.
	sptr, sadj []int
	// Local scratch.
	part, level, queue, buf []int
	cnt                     [2][]int
	locked                  []int
	lockStamp               int
	h                       ndHeap
	log, logStart           []int
	halo                    []int
	perm                    []int
}

// orderND returns a nested dissection ordering of the symmetric graph
// whose node i has neighbours adj[ptr[i]:ptr[i+1]] (no self-loops,
// symmetric): perm[k] is the node eliminated k-th. Each connected part
// larger than ndLeaf is split by a vertex separator into two halves that
// are ordered recursively before it; smaller parts, and parts without a
// useful separator, are ordered by minimum degree with their neighbours
// in the separators around them as a halo (orderHaloAMD). The ordering
// is deterministic.
func orderND(n int, ptr, adj []int) []int {
	d := newND(n, ptr, adj)
	d.dissect(identity(n))
	return d.perm
}

func newND(n int, ptr, adj []int) *nd {
	return &nd{
		ptr: ptr, adj: adj, in: make([]int, n), loc: make([]int, n),
		part: make([]int, n), level: make([]int, n), queue: make([]int, n), buf: make([]int, n),
		cnt: [2][]int{make([]int, n), make([]int, n)}, locked: make([]int, n),
		perm: make([]int, 0, n), sptr: make([]int, 0, n+1), sadj: make([]int, 0, len(adj)),
	}
}

// identity returns 0, 1, …, n−1.
func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// dissect appends the ordering of the part nodes (global indices) to
// d.perm, reordering nodes in place.
func (d *nd) dissect(nodes []int) {
	m := len(nodes)
	if m <= ndLeaf {
		d.leaf(nodes)
		return
	}
	d.induce(nodes)
	lab := d.part[:m]
	for k := range lab {
		lab[k] = -1
	}
	count, first := d.bfs(0, lab, 0)
	if count < m {
		for _, b := range d.components(nodes) {
			d.dissect(b)
		}
		return
	}
	na, nb, ok := d.separate(nodes, first)
	if !ok {
		d.leaf(nodes)
		return
	}
	d.dissect(nodes[:na])
	d.dissect(nodes[na : na+nb])
	d.perm = append(d.perm, nodes[na+nb:]...)
}

// leaf orders a part by minimum degree on its induced subgraph and its
// halo: the neighbours outside the part, which belong to separators
// ordered later and so count in the degrees without being ordered.
func (d *nd) leaf(nodes []int) {
	m := len(nodes)
	d.induce(nodes)
	halo := d.halo[:0]
	for _, g := range nodes {
		for _, h := range d.adj[d.ptr[g]:d.ptr[g+1]] {
			if d.in[h] != d.stamp {
				d.in[h], d.loc[h] = d.stamp, m+len(halo)
				halo = append(halo, h)
			}
		}
	}
	// The part's edges to the halo, and the halo's edges to the part.
	d.sadj = d.sadj[:0]
	d.sptr = append(d.sptr[:0], 0)
	hptr := make([]int, len(halo)+1)
	for _, g := range nodes {
		for _, h := range d.adj[d.ptr[g]:d.ptr[g+1]] {
			d.sadj = append(d.sadj, d.loc[h])
			if k := d.loc[h]; k >= m {
				hptr[k-m+1]++
			}
		}
		d.sptr = append(d.sptr, len(d.sadj))
	}
	for k := range halo {
		hptr[k+1] += hptr[k]
	}
	base := len(d.sadj)
	d.sadj = append(d.sadj, make([]int, hptr[len(halo)])...)
	pos := append([]int(nil), hptr[:len(halo)]...)
	for k := range m {
		for _, v := range d.sadj[d.sptr[k]:d.sptr[k+1]] {
			if v >= m {
				d.sadj[base+pos[v-m]] = k
				pos[v-m]++
			}
		}
	}
	for k := range halo {
		d.sptr = append(d.sptr, base+hptr[k+1])
	}
	d.halo = halo
	for _, k := range orderHaloAMD(m+len(halo), len(halo), d.sptr, d.sadj) {
		d.perm = append(d.perm, nodes[k])
	}
}

// induce builds the subgraph induced by nodes in d.sptr, d.sadj, node k
// of the subgraph being nodes[k].
func (d *nd) induce(nodes []int) {
	d.stamp++
	for k, g := range nodes {
		d.in[g], d.loc[g] = d.stamp, k
	}
	d.sptr = append(d.sptr[:0], 0)
	d.sadj = d.sadj[:0]
	for _, g := range nodes {
		for _, h := range d.adj[d.ptr[g]:d.ptr[g+1]] {
			if d.in[h] == d.stamp {
				d.sadj = append(d.sadj, d.loc[h])
			}
		}
		d.sptr = append(d.sptr, len(d.sadj))
	}
}

// components labels the connected components of the induced subgraph
// not yet labelled (the first one is) in order of their first node,
// groups nodes by component (stably) and returns the parts to order.
func (d *nd) components(nodes []int) [][]int {
	lab := d.part[:len(nodes)]
	nc := 1
	for s := range lab {
		if lab[s] < 0 {
			d.bfs(s, lab, nc)
			nc++
		}
	}
	bounds := d.group(nodes, lab, nc)
	// Consecutive small components share a part of at most ndLeaf nodes,
	// which minimum degree orders at once: a graph of many tiny
	// components then costs one ordering per ndLeaf nodes, not one per
	// component.
	var parts [][]int
	for lo := 0; lo < nc; {
		hi := lo + 1
		for hi < nc && bounds[hi+1]-bounds[lo] <= ndLeaf {
			hi++
		}
		parts = append(parts, nodes[bounds[lo]:bounds[hi]])
		lo = hi
	}
	return parts
}

// bfs labels with c every unlabelled (negative) node reached from s,
// sets d.level to the distance from s, leaves the nodes in d.queue in
// order of distance and returns their count and the position in d.queue
// of the first node of the last level.
func (d *nd) bfs(s int, lab []int, c int) (count, first int) {
	q := d.queue
	q[0], lab[s], d.level[s] = s, c, 0
	head, tail := 0, 1
	for head < tail {
		u := q[head]
		head++
		if d.level[u] != d.level[q[first]] {
			first = head - 1
		}
		for _, v := range d.sadj[d.sptr[u]:d.sptr[u+1]] {
			if lab[v] >= 0 {
				continue
			}
			lab[v], d.level[v] = c, d.level[u]+1
			q[tail] = v
			tail++
		}
	}
	return tail, first
}

// group reorders nodes stably by label (0..nl−1) and returns the
// boundaries of the groups.
func (d *nd) group(nodes, lab []int, nl int) []int {
	bounds := make([]int, nl+1)
	for _, c := range lab {
		bounds[c+1]++
	}
	for c := range nl {
		bounds[c+1] += bounds[c]
	}
	pos := append([]int(nil), bounds[:nl]...)
	buf := d.buf[:len(nodes)]
	for k, g := range nodes {
		buf[pos[lab[k]]] = g
		pos[lab[k]]++
	}
	copy(nodes, buf)
	return bounds
}

// separate finds a vertex separator of the connected induced subgraph:
// the middle of a level structure rooted at a pseudo-peripheral node,
// then refined. It reorders nodes as A, B, S and returns |A| and |B|;
// ok is false when no separator leaves both sides non-empty.
func (d *nd) separate(nodes []int, first int) (na, nb int, ok bool) {
	m := len(nodes)
	part := d.part[:m]
	depth := d.levels(m, first)
	if depth < 2 {
		return 0, 0, false
	}
	s := d.cutLevel(m, depth)
	for k := range m {
		part[k] = ndA
		if d.level[k] > s {
			part[k] = ndB
		} else if d.level[k] == s {
			part[k] = ndS
		}
	}
	var w [3]int
	for k := range m {
		if part[k] == ndS && !d.touches(k, ndB) {
			part[k] = ndA
		}
		w[part[k]]++
	}
	maxW := max(int(ndBalance*float64(m)), w[ndA], w[ndB])
	for range ndPasses {
		if !d.refine(m, &w, maxW) {
			break
		}
	}
	if ndMinSide*min(w[ndA], w[ndB]) < m || ndMaxSep*w[ndS] > m {
		return 0, 0, false
	}
	d.group(nodes, part, 3)
	return w[ndA], w[ndB], true
}

// touches reports whether local node k has a neighbour on side x.
func (d *nd) touches(k, x int) bool {
	for _, v := range d.sadj[d.sptr[k]:d.sptr[k+1]] {
		if d.part[v] == x {
			return true
		}
	}
	return false
}

// levels builds the level structure (d.level) of the connected induced
// subgraph of m nodes rooted at a pseudo-peripheral node and returns its
// depth. It starts from the breadth-first search from local node 0 whose
// last level begins at d.queue[first], and searches again from a node of
// least degree in the last level while that deepens the structure.
func (d *nd) levels(m, first int) int {
	lab := d.part[:m]
	depth := d.level[d.queue[m-1]]
	for range 8 {
		root := d.queue[first]
		for _, v := range d.queue[first:m] {
			if d.sptr[v+1]-d.sptr[v] < d.sptr[root+1]-d.sptr[root] {
				root = v
			}
		}
		for k := range lab {
			lab[k] = -1
		}
		_, first = d.bfs(root, lab, 0)
		e := d.level[d.queue[m-1]]
		if e <= depth {
			return e
		}
		depth = e
	}
	return depth
}

// cutLevel chooses the separating level: the smallest level whose sides
// both hold at least a third of the nodes, or failing that (a star, a
// lopsided tree) the level of least size per node of the smaller side.
func (d *nd) cutLevel(m, depth int) int {
	size := d.buf[:depth+1]
	clear(size)
	for k := range m {
		size[d.level[k]]++
	}
	best, bestCost := 1, -1.0
	below := size[0]
	for s := 1; s < depth; s++ {
		above := m - below - size[s]
		cost := float64(size[s]) * float64(m) * float64(m) / (4 * float64(max(below, 1)) * float64(max(above, 1)))
		if bestCost < 0 || cost < bestCost {
			best, bestCost = s, cost
		}
		below += size[s]
	}
	return best
}

// ndMove is a candidate move of separator node v to side to with the
// given gain (the decrease of |S|).
type ndMove struct{ gain, v, to int }

// ndHeap is a binary max-heap of moves by gain, then node, then side,
// so that the refinement is deterministic.
type ndHeap []ndMove

func (m ndMove) before(o ndMove) bool {
	if m.gain != o.gain {
		return m.gain > o.gain
	}
	if m.v != o.v {
		return m.v < o.v
	}
	return m.to < o.to
}

func (h *ndHeap) push(m ndMove) {
	*h = append(*h, m)
	q := *h
	for k := len(q) - 1; k > 0; {
		p := (k - 1) / 2
		if !q[k].before(q[p]) {
			break
		}
		q[k], q[p] = q[p], q[k]
		k = p
	}
}

func (h *ndHeap) pop() ndMove {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for k := 0; ; {
		c := 2*k + 1
		if c >= last {
			break
		}
		if c+1 < last && q[c+1].before(q[c]) {
			c++
		}
		if !q[c].before(q[k]) {
			break
		}
		q[k], q[c] = q[c], q[k]
		k = c
	}
	*h = q
	return top
}

// push records the current gain of moving separator node v to side to:
// its neighbours on the other side join the separator.
func (d *nd) push(v, to int) {
	d.h.push(ndMove{1 - d.cnt[1-to][v], v, to})
}

// count sets d.cnt of local node v: its neighbours on sides A and B.
func (d *nd) count(v int) {
	d.cnt[ndA][v], d.cnt[ndB][v] = 0, 0
	for _, u := range d.sadj[d.sptr[v]:d.sptr[v+1]] {
		if p := d.part[u]; p != ndS {
			d.cnt[p][v]++
		}
	}
}

// refine makes one Fiduccia–Mattheyses pass over the separator: it moves
// separator nodes to a side (pulling their neighbours on the other side
// into the separator) by largest gain, each node at most once, keeping
// both sides at most maxW, and rolls back to the smallest separator seen
// (ties to the better balance). It reports whether the separator shrank
// or became better balanced.
func (d *nd) refine(m int, w *[3]int, maxW int) bool {
	d.h = d.h[:0]
	for v := range m {
		if d.part[v] == ndS {
			d.count(v)
			d.push(v, ndA)
			d.push(v, ndB)
		}
	}
	d.lockStamp++
	d.log, d.logStart = d.log[:0], d.logStart[:0]
	bestS, bestImb, bestLen := w[ndS], abs(w[ndA]-w[ndB]), 0
	patience := ndPatience + w[ndS]
	for bad := 0; len(d.h) > 0 && bad < patience; {
		mv := d.h.pop()
		v, to := mv.v, mv.to
		if d.part[v] != ndS || d.locked[v] == d.lockStamp || mv.gain != 1-d.cnt[1-to][v] || w[to]+1 > maxW {
			continue
		}
		d.move(v, to, w)
		if imb := abs(w[ndA] - w[ndB]); w[ndS] < bestS || (w[ndS] == bestS && imb < bestImb) {
			bestS, bestImb, bestLen, bad = w[ndS], imb, len(d.logStart), 0
		} else {
			bad++
		}
	}
	improved := bestLen > 0
	d.undo(bestLen, w)
	return improved
}

// move moves separator node v to side to, pulls its neighbours on the
// other side into the separator and updates the counts and gains.
func (d *nd) move(v, to int, w *[3]int) {
	other := 1 - to
	d.part[v] = to
	d.locked[v] = d.lockStamp
	w[ndS]--
	w[to]++
	d.logStart = append(d.logStart, len(d.log))
	d.log = append(d.log, v, to)
	for _, u := range d.sadj[d.sptr[v]:d.sptr[v+1]] {
		switch d.part[u] {
		case ndS:
			d.cnt[to][u]++
			d.push(u, other)
		case other:
			d.part[u] = ndS
			w[other]--
			w[ndS]++
			d.log = append(d.log, u)
			for _, x := range d.sadj[d.sptr[u]:d.sptr[u+1]] {
				if d.part[x] == ndS && x != u {
					d.cnt[other][x]--
					d.push(x, to)
				}
			}
			d.count(u)
			d.push(u, ndA)
			d.push(u, ndB)
		}
	}
}

// undo takes back the moves after the first keep ones, newest first.
func (d *nd) undo(keep int, w *[3]int) {
	for k := len(d.logStart) - 1; k >= keep; k-- {
		rec := d.log[d.logStart[k]:]
		if k+1 < len(d.logStart) {
			rec = d.log[d.logStart[k]:d.logStart[k+1]]
		}
		v, to := rec[0], rec[1]
		for _, u := range rec[2:] {
			d.part[u] = 1 - to
			w[1-to]++
			w[ndS]--
		}
		d.part[v] = ndS
		w[to]--
		w[ndS]++
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
