package laplacian

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/size"
)

// approxChol is a randomized approximate Cholesky factorisation of a
// graph Laplacian, L ≈ 𝓛 D 𝓛ᵀ, after Kyng and Sachdeva ("Approximate
// Gaussian elimination for Laplacians: fast, sparse, and simple", FOCS
// 2016) in the form of Laplacians.jl's approxchol (spec throttlers.md
// §12.9, "Preconditioners").
//
// Vertices are eliminated in approximate minimum-degree order. Eliminating
// vertex i with neighbour weights w_1 ≤ … ≤ w_d (total W) would add the
// clique Σ_{a<b} w_a w_b/W (e_a − e_b)(e_a − e_b)ᵀ (the Schur complement).
// Instead, each neighbour a < d in turn is joined to one later neighbour b,
// drawn with probability ∝ w_b, by a single edge carrying the whole
// weight w_a(W_a − w_a)/W_a of a's clique edges towards later neighbours
// (W_a the weight of the star still to be eliminated, rescaled as below).
// The sampled edge is unbiased for the clique, and the number of edges
// never grows: eliminating d edges adds d − 1. The factor therefore has at
// most m + n entries and costs O(m log n) expected time to compute.
//
// Column i of the factor is stored as the sequence (j_a, f_a) with
// f_a = w_a/W_a; after step a the remaining star is the original one
// scaled by 1 − f_a in its weights (W by (1 − f_a)²), which is the
// Schur complement's restriction to the later neighbours exactly.
//
// After the factorisation every vertex is renamed by its elimination step
// (row holds steps, d is indexed by step), so that the substitutions walk
// their vector in order; solve gathers into and scatters out of that
// order.
//
// Two halves in parallel: on graphs of at least acSplitMin nodes the
// vertices are cut into two halves by their index (the solver's
// breadth-first order, so
// each half is a connected-ish ball), and the vertices of each half with
// no neighbour in the other (its interior) are eliminated first, the two
// halves in parallel, each in minimum-degree order with its own random
// stream; the remaining boundary vertices are eliminated last. Eliminating
// an interior vertex joins only vertices of its own half, so the two
// eliminations touch disjoint lists and the result does not depend on
// their timing or on the number of goroutines. The substitutions run the
// two halves' steps in parallel too (forward: halves, then boundary;
// backward: boundary, then halves). On a 2-D torus the boundary is
// O(√n) vertices; on an expander nearly every vertex is boundary, and
// the factorisation is in effect one sequential elimination.
type approxChol struct {
	n      int
	order  []int32 // vertex eliminated at step t
	colptr []int   // entries of step t: row/f[colptr[t]:colptr[t+1]]
	row    []int32 // elimination step of the entry's vertex
	f      []float64
	d      []float64        // pivot of step t (0 for the last)
	y      []float64        // the vector in elimination order (solve's scratch)
	v      []float64        // the vector solve works on, in vertex order
	kb     int              // the width of solveBlock's current group of columns (0 in solve)
	kv, c0 int              // the width of solveBlock's block and the group's first column
	yb     []float64        // solveBlock's scratch, n × kb row-major in elimination order
	split  [3]int           // steps of half 0: [0, split[1]); half 1: [split[1], split[2]); boundary: the rest
	fwd    lapmat.RangeFunc // forward substitution of halves [lo, hi)
	bwd    lapmat.RangeFunc // backward substitution of halves [lo, hi)
}

// acSplitMin is the order from which the factorisation is split in two
// halves eliminated in parallel.
const acSplitMin = 1 << 14

// acEntry is one live entry of the column being eliminated.
type acEntry struct {
	row int32
	e   int32
	val float64
}

// acGraph is the multigraph being eliminated, as linked lists of
// half-edges: half-edge e lies in the list of one endpoint and points at
// the other endpoint row[e]; its twin is e^1. A half-edge whose val is 0
// is dead and skipped.
type acGraph struct {
	head, next, row []int32
	val             []float64
	deg             []int32 // live half-edges per vertex
	d               []float64
}

// acState eliminates one set of vertices of the shared acGraph: its
// degree queue holds only those vertices, and it writes its own factor
// columns, in its own elimination order.
type acState struct {
	*acGraph
	pq     degreeQueue
	rng    *rand.Rand
	col    []acEntry
	cum    []float64
	count  int     // vertices in the queue
	order  []int32 // vertices eliminated, in order
	colptr []int   // their columns' starts in frow/ff
	frow   []int32
	ff     []float64
}

// maxACEdges bounds the edges of the factorisation's int32 half-edge ids.
const maxACEdges = math.MaxInt32 / 2

// newApproxChol factors the Laplacian of the graph given by its
// compressed adjacency. The graph must be connected.
func newApproxChol(off []int, adj []int32, w []float64, src rand.Source) (*approxChol, error) {
	n := len(off) - 1
	m := len(adj) / 2
	if m > maxACEdges {
		return nil, loadlab.TooLarge("laplacian", "approximate Cholesky: %d edges, at most %d", m, maxACEdges)
	}
	if err := size.Check("laplacian", "approximate Cholesky: half-edges", 2*m+n, 4*6+8*2); err != nil {
		return nil, err
	}
	g := newACGraph(off, adj, w)
	rng := rand.New(src)
	label := acLabels(off, adj)
	var seeds [3]uint64
	for p := range seeds {
		seeds[p] = rng.Uint64()
	}
	// The halves' interiors in parallel, then the boundary (whose queue is
	// keyed by the degrees the halves leave).
	var st [3]*acState
	lapmat.ParallelBlocks(2, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			st[p] = g.newState(label, int8(p), rand.NewPCG(seeds[p], uint64(p)))
			st[p].run()
		}
	})
	st[2] = g.newState(label, 2, rand.NewPCG(seeds[2], 2))
	st[2].run()
	fa := &approxChol{n: n, d: g.d}
	fa.concat(st)
	fa.renumber()
	return fa, nil
}

// acLabels returns each vertex's set: 0 or 1 for the interior of the
// first or second half of the indices, 2 for a vertex with a neighbour in
// the other half (and for every vertex of a graph below acSplitMin).
func acLabels(off []int, adj []int32) []int8 {
	n := len(off) - 1
	label := make([]int8, n)
	half := int32(n / 2)
	for u := range n {
		side := int8(0)
		if int32(u) >= half {
			side = 1
		}
		label[u] = side
		if n < acSplitMin {
			label[u] = 2
			continue
		}
		for _, v := range adj[off[u]:off[u+1]] {
			if (v >= half) != (side == 1) {
				label[u] = 2
				break
			}
		}
	}
	return label
}

// run eliminates every vertex of the state's queue.
func (st *acState) run() {
	for range st.count {
		i := st.pq.popMin()
		st.order = append(st.order, i)
		st.colptr = append(st.colptr, len(st.frow))
		st.eliminate(i)
	}
}

// concat joins the states' orders and columns, in state order, into fa.
func (fa *approxChol) concat(st [3]*acState) {
	entries := 0
	for _, s := range st {
		entries += len(s.frow)
	}
	fa.order = make([]int32, 0, fa.n)
	fa.colptr = make([]int, 0, fa.n+1)
	fa.row = make([]int32, 0, entries)
	fa.f = make([]float64, 0, entries)
	for p, s := range st {
		if p > 0 {
			fa.split[p] = len(fa.order)
		}
		for _, c := range s.colptr {
			fa.colptr = append(fa.colptr, len(fa.row)+c)
		}
		fa.order = append(fa.order, s.order...)
		fa.row = append(fa.row, s.frow...)
		fa.f = append(fa.f, s.ff...)
	}
	fa.colptr = append(fa.colptr, len(fa.row))
	// A half's steps touch only its own and boundary entries of y, so
	// the halves gather, substitute, divide and scatter in parallel once
	// the boundary is gathered (forward) or solved (backward).
	fa.fwd = func(lo, hi int) {
		for p := lo; p < hi; p++ {
			t0, t1 := fa.split[p], fa.stepEnd(p)
			if fa.kb > 0 {
				fa.gatherBlock(t0, t1)
				fa.forwardBlock(t0, t1)
				continue
			}
			fa.gather(t0, t1)
			fa.forward(fa.y, t0, t1)
		}
	}
	fa.bwd = func(lo, hi int) {
		for p := lo; p < hi; p++ {
			t0, t1 := fa.split[p], fa.stepEnd(p)
			if fa.kb > 0 {
				fa.pivotsBlock(t0, t1)
				fa.backwardBlock(t0, t1)
				fa.scatterBlock(t0, t1)
				continue
			}
			fa.pivots(t0, t1)
			fa.backward(fa.y, t0, t1)
			fa.scatter(t0, t1)
		}
	}
}

// stepEnd returns the end of the steps of part p (0, 1: halves; 2:
// boundary).
func (fa *approxChol) stepEnd(p int) int {
	if p < 2 {
		return fa.split[p+1]
	}
	return fa.n
}

// renumber renames vertices by elimination step in row and d.
func (fa *approxChol) renumber() {
	pos := make([]int32, fa.n)
	for t, v := range fa.order {
		pos[v] = int32(t)
	}
	for p, v := range fa.row {
		fa.row[p] = pos[v]
	}
	d := make([]float64, fa.n)
	for t, v := range fa.order {
		d[t] = fa.d[v]
	}
	fa.d = d
	fa.y = make([]float64, fa.n)
}

// newACGraph builds the half-edge lists of the graph.
func newACGraph(off []int, adj []int32, w []float64) *acGraph {
	n := len(off) - 1
	m2 := len(adj)
	g := &acGraph{
		head: make([]int32, n), next: make([]int32, m2), row: make([]int32, m2),
		val: make([]float64, m2), deg: make([]int32, n), d: make([]float64, n),
	}
	for u := range g.head {
		g.head[u] = -1
	}
	e := int32(0)
	for u := range n {
		for i := off[u]; i < off[u+1]; i++ {
			v := adj[i]
			if int(v) <= u {
				continue
			}
			g.push(int32(u), v, e, w[i])
			g.push(v, int32(u), e+1, w[i])
			e += 2
		}
	}
	return g
}

// newState returns the state eliminating the vertices labelled p, drawing
// from src.
func (g *acGraph) newState(label []int8, p int8, src rand.Source) *acState {
	st := &acState{acGraph: g, rng: rand.New(src)}
	for _, l := range label {
		if l == p {
			st.count++
		}
	}
	st.pq.init(g.deg, func(v int) bool { return label[v] == p })
	st.order = make([]int32, 0, st.count)
	st.colptr = make([]int, 0, st.count)
	return st
}

// push inserts half-edge e, from u towards v with weight x, into u's list.
func (g *acGraph) push(u, v, e int32, x float64) {
	g.row[e], g.val[e] = v, x
	g.next[e] = g.head[u]
	g.head[u] = e
	g.deg[u]++
}

// kill marks half-edge e dead and lowers its owner's degree.
func (st *acState) kill(e int32) {
	st.val[e] = 0
	owner := st.row[e^1]
	st.deg[owner]--
	st.pq.update(owner, st.deg[owner])
}

// gather collects the live entries of vertex i, merges parallel edges
// (killing the twins of the merged half-edges) and sorts the result by
// weight.
func (st *acState) gather(i int32) []acEntry {
	col := st.col[:0]
	for e := st.head[i]; e >= 0; e = st.next[e] {
		if st.val[e] != 0 {
			col = append(col, acEntry{row: st.row[e], e: e, val: st.val[e]})
		}
	}
	st.head[i] = -1
	slices.SortFunc(col, func(a, b acEntry) int { return cmp.Compare(a.row, b.row) })
	out := col[:0]
	for _, c := range col {
		if k := len(out) - 1; k >= 0 && out[k].row == c.row {
			out[k].val += c.val
			st.kill(c.e ^ 1)
			continue
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b acEntry) int {
		if c := cmp.Compare(a.val, b.val); c != 0 {
			return c
		}
		return cmp.Compare(a.row, b.row)
	})
	st.col = col
	return out
}

// eliminate removes vertex i, appends its factor column and adds the
// sampled clique edges to the remaining graph.
func (st *acState) eliminate(i int32) {
	col := st.gather(i)
	d := len(col)
	if d == 0 {
		return
	}
	st.cum = slices.Grow(st.cum[:0], d)[:d]
	var csum float64
	for a, c := range col {
		csum += c.val
		st.cum[a] = csum
	}
	wdeg, scale := csum, 1.0
	for a := range d - 1 {
		c := col[a]
		f := c.val * scale / wdeg
		// A later neighbour with probability ∝ its weight.
		r := st.cum[a] + st.rng.Float64()*(csum-st.cum[a])
		b := min(a+1+sort.SearchFloat64s(st.cum[a+1:d], r), d-1)
		k := col[b].row
		x := f * (1 - f) * wdeg
		// Reuse the pair {e, e^1} for the new edge {j, k}: the twin stays
		// in j's list and then points at k; e moves to k's list.
		t := c.e ^ 1
		st.row[t], st.val[t] = k, x
		st.push(k, c.row, c.e, x)
		st.pq.update(k, st.deg[k])
		st.frow = append(st.frow, c.row)
		st.ff = append(st.ff, f)
		scale *= 1 - f
		wdeg *= (1 - f) * (1 - f)
	}
	last := col[d-1]
	st.kill(last.e ^ 1)
	st.frow = append(st.frow, last.row)
	st.ff = append(st.ff, 1)
	st.d[i] = last.val * scale
}

// solve overwrites v with an approximation of L† v for v ⊥ 1: forward
// substitution, the pivots, back substitution (the transpose), in
// elimination order, the two halves in parallel (see approxChol). It is
// not safe for concurrent use.
// The caller projects the result onto 1⊥ (the last vertex has no pivot).
func (fa *approxChol) solve(v []float64) {
	fa.v = v
	b0 := fa.split[2]
	fa.gather(b0, fa.n)
	lapmat.ParallelBlocks(2, fa.fwd)
	fa.forward(fa.y, b0, fa.n)
	fa.pivots(b0, fa.n)
	fa.backward(fa.y, b0, fa.n)
	lapmat.ParallelBlocks(2, fa.bwd)
	fa.scatter(b0, fa.n)
	fa.v = nil
}

// gather copies v into y for steps [t0, t1).
func (fa *approxChol) gather(t0, t1 int) {
	for t, i := range fa.order[t0:t1] {
		fa.y[t0+t] = fa.v[i]
	}
}

// scatter copies y back into v for steps [t0, t1).
func (fa *approxChol) scatter(t0, t1 int) {
	for t, i := range fa.order[t0:t1] {
		fa.v[i] = fa.y[t0+t]
	}
}

// pivots divides y by the pivots for steps [t0, t1) (0 for the last).
func (fa *approxChol) pivots(t0, t1 int) {
	for t := t0; t < t1; t++ {
		if d := fa.d[t]; d != 0 {
			fa.y[t] /= d
		} else {
			fa.y[t] = 0
		}
	}
}

// forward runs the forward substitution of steps [t0, t1).
func (fa *approxChol) forward(y []float64, t0, t1 int) {
	for t := t0; t < t1; t++ {
		lo, hi := fa.colptr[t], fa.colptr[t+1]
		if lo == hi {
			continue
		}
		yt := y[t]
		for p := lo; p < hi-1; p++ {
			y[fa.row[p]] += fa.f[p] * yt
			yt *= 1 - fa.f[p]
		}
		y[fa.row[hi-1]] += yt
		y[t] = yt
	}
}

// backward runs the backward substitution of steps [t0, t1), last first.
func (fa *approxChol) backward(y []float64, t0, t1 int) {
	for t := t1 - 1; t >= t0; t-- {
		lo, hi := fa.colptr[t], fa.colptr[t+1]
		if lo == hi {
			continue
		}
		yt := y[t] + y[fa.row[hi-1]]
		for p := hi - 2; p >= lo; p-- {
			yt = (1-fa.f[p])*yt + fa.f[p]*y[fa.row[p]]
		}
		y[t] = yt
	}
}

// degreeQueue is a bucket queue of vertices keyed by degree, for the
// approximate minimum-degree order. Keys above n share the top bucket.
type degreeQueue struct {
	key, prev, next, head []int32
	min                   int32
}

// init queues the vertices v with in(v), keyed by deg[v].
func (q *degreeQueue) init(deg []int32, in func(v int) bool) {
	n := len(deg)
	q.key, q.prev, q.next = make([]int32, n), make([]int32, n), make([]int32, n)
	q.head = make([]int32, n+1)
	for k := range q.head {
		q.head[k] = -1
	}
	for v := n - 1; v >= 0; v-- {
		q.key[v] = -1
		if in(v) {
			q.insert(int32(v), deg[v])
		}
	}
	q.min = 0
}

func (q *degreeQueue) clamp(k int32) int32 { return min(max(k, 0), int32(len(q.head)-1)) }

func (q *degreeQueue) insert(v, k int32) {
	k = q.clamp(k)
	q.key[v] = k
	q.prev[v] = -1
	q.next[v] = q.head[k]
	if h := q.head[k]; h >= 0 {
		q.prev[h] = v
	}
	q.head[k] = v
	q.min = min(q.min, k)
}

func (q *degreeQueue) remove(v int32) {
	k := q.key[v]
	if p := q.prev[v]; p >= 0 {
		q.next[p] = q.next[v]
	} else {
		q.head[k] = q.next[v]
	}
	if nx := q.next[v]; nx >= 0 {
		q.prev[nx] = q.prev[v]
	}
	q.key[v] = -1
}

// update moves v to the bucket of degree k if v is still queued.
func (q *degreeQueue) update(v, k int32) {
	if q.key[v] < 0 || q.key[v] == q.clamp(k) {
		return
	}
	q.remove(v)
	q.insert(v, k)
}

// popMin removes and returns a vertex of least key. The queue must not
// be empty.
func (q *degreeQueue) popMin() int32 {
	for q.head[q.min] < 0 {
		q.min++
	}
	v := q.head[q.min]
	q.remove(v)
	return v
}
