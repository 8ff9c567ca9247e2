package spectral

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Pair is a pair of nodes U < V with its effective resistance R.
type Pair struct {
	U, V int
	R    float64
}

// TopResistances returns the k pairs of nodes of g with the largest
// effective resistance R_uv (spec throttlers.md §2 eq. (2)), in
// descending order of R, ties in ascending order of (U, V); all
// n(n − 1)/2 pairs when there are fewer than k. The answer is exact, not
// sampled (spec throttlers.md §12.10):
//
//   - Up to DenseMaxNodes nodes, from the resistance matrix of one dense
//     factorisation (NewResistance), scanned once: O(n³) time, three
//     n×n matrices of memory.
//   - Above, without an all-pairs scan: Laplacian solves give exact
//     columns of L† at pivot nodes; with d_u = L†_uu, the pivots bound
//     every d_u from above by Thomson's principle (d_u ≤ ρ_pu − d_p +
//     2 L†_pu, ρ_pu the least path resistance), R_up ≤ d_u⁺ + d_p −
//     2 L†_up, and the triangle inequality of R bounds the largest
//     resistance of every node; nodes whose bound falls below the k-th
//     largest exact resistance among the pivots cannot be in the answer,
//     and the others become pivots, sixteen per round, until none is
//     left. The pairs returned are recomputed by one solve each to a
//     relative residual of 1e-12, with the second-order form of
//     EffectiveResistance (relative error at most 1e-24 κ(L)).
//
// Above DenseMaxNodes the pruning compares first-order values from the
// pivots' solves, whose relative error is at most about 1e-12 κ(L); it
// keeps a margin of 1e-6, so it is sound for κ(L) up to about 10⁶ (the
// US power grid has κ ≈ 2.6·10⁴), and only pairs whose resistances
// agree to that order can swap places at the k-th rank. The cost there
// is one solve, one shortest-path search and n words of memory per
// pivot, plus O(n) work per pivot and round. For k = 10: 336 pivots on
// the 4941-node power grid (about 3 s on two cores), 488 on the
// 22 963-node Internet AS graph (15 s); on an expander, where every
// resistance is nearly 2/d, every node becomes one (a random 6-regular
// graph of 3000 nodes: 11 s).
//
// It returns an error wrapping loadlab.ErrInvalid for k < 1,
// loadlab.ErrDisconnected for a disconnected graph or one without nodes,
// loadlab.ErrTooLarge when the dense matrices or the pivots' columns
// would exceed the memory budget, loadlab.ErrIllConditioned from the
// dense factorisation, and loadlab.ErrNotConverged when a solve stops
// short. A graph of one node has no pairs: the result is empty. It
// panics if g is nil.
func TopResistances(g *wgraph.Graph, k int) ([]Pair, error) {
	if g == nil {
		panic("spectral: TopResistances: nil graph g")
	}
	if k < 1 {
		return nil, loadlab.Invalid("spectral", "TopResistances: k = %d, want ≥ 1", k)
	}
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, err
	}
	n := g.Order()
	if n < 2 {
		return []Pair{}, nil
	}
	if pairs := n * (n - 1) / 2; n < 1<<31 && k > pairs {
		k = pairs
	}
	if err := size.Check("spectral", "TopResistances: k", k, 24); err != nil {
		return nil, err
	}
	if n <= DenseMaxNodes {
		return topDense(g, k)
	}
	top, _, err := topPivots(g, k)
	return top, err
}

// pairOrder orders pairs by descending R, then ascending (U, V): the
// order of TopResistances.
func pairOrder(a, b Pair) int {
	if c := cmp.Compare(b.R, a.R); c != 0 {
		return c
	}
	if c := cmp.Compare(a.U, b.U); c != 0 {
		return c
	}
	return cmp.Compare(a.V, b.V)
}

// topKeeper keeps the k best pairs in pairOrder seen so far in a heap
// whose root is the worst of them.
type topKeeper struct {
	k int
	h []Pair
}

// worse reports whether heap entry i ranks after entry j.
func (t *topKeeper) worse(i, j int) bool { return pairOrder(t.h[i], t.h[j]) > 0 }

// full reports whether k pairs are kept.
func (t *topKeeper) full() bool { return len(t.h) == t.k }

// floor returns the R of the worst pair kept, or 0 before k are kept:
// a lower bound on the k-th largest resistance.
func (t *topKeeper) floor() float64 {
	if !t.full() {
		return 0
	}
	return t.h[0].R
}

// add offers p.
func (t *topKeeper) add(p Pair) {
	if !t.full() {
		t.h = append(t.h, p)
		for i := len(t.h) - 1; i > 0; {
			up := (i - 1) / 2
			if !t.worse(i, up) {
				break
			}
			t.h[i], t.h[up] = t.h[up], t.h[i]
			i = up
		}
		return
	}
	if pairOrder(p, t.h[0]) >= 0 {
		return
	}
	t.h[0] = p
	for i := 0; ; {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(t.h) && t.worse(l, w) {
			w = l
		}
		if r < len(t.h) && t.worse(r, w) {
			w = r
		}
		if w == i {
			return
		}
		t.h[i], t.h[w] = t.h[w], t.h[i]
		i = w
	}
}

// sorted returns the pairs kept in pairOrder.
func (t *topKeeper) sorted() []Pair {
	out := slices.Clone(t.h)
	slices.SortFunc(out, pairOrder)
	return out
}

// topDense is TopResistances up to DenseMaxNodes: the resistance matrix
// from one factorisation, its upper triangle scanned row by row.
func topDense(g *wgraph.Graph, k int) ([]Pair, error) {
	if err := size.CheckDense("spectral", "TopResistances", g.Order(), 3); err != nil {
		return nil, err
	}
	r, err := NewResistance(g)
	if err != nil {
		return nil, err
	}
	var m mat.SymDense
	r.MatrixTo(&m)
	raw := m.RawSymmetric()
	t := topKeeper{k: k, h: make([]Pair, 0, k)}
	for u := range r.n {
		row := raw.Data[u*raw.Stride : u*raw.Stride+r.n]
		for v := u + 1; v < r.n; v++ {
			// Most entries lose against a full heap's floor: test first.
			if t.full() && row[v] < t.h[0].R {
				continue
			}
			t.add(Pair{U: u, V: v, R: row[v]})
		}
	}
	return t.sorted(), nil
}

// Parameters of the pivot method of TopResistances.
const (
	topSolveTol = 1e-12 // relative residual of every solve
	topMargin   = 1e-6  // relative margin of the pruning test
	topBlock    = laplacian.MaxBlockCols
	topSpread   = 8   // hops around a new pivot kept free of others in its round
	topSpreadN  = 256 // nodes blocked per new pivot at most
)

// topStats reports the work of the pivot method.
type topStats struct {
	Pivots, Rounds, Solves int
}

// pivotSearch is the state of the pivot method of TopResistances (spec
// throttlers.md §12.10).
type pivotSearch struct {
	g     *wgraph.Graph
	n     int
	s     *laplacian.Solver
	piv   []int       // pivots, in order
	col   [][]float64 // col[j] = L† e_{piv[j]}, mean zero
	d     []float64   // d[j] = L†_pp of pivot j
	isPiv []bool
	dUp   []float64 // upper bounds of L†_uu, exact at pivots
	ecc   []float64 // ecc[j]: upper bound of max_u R_{u, piv[j]}
	bound []float64 // bound[u]: upper bound of max_v R_uv
	top   topKeeper // the best exact pairs among pivots
	dist  []float64
	heap  dijkstraHeap
	bfs   *wgraph.BFS
	block []uint32 // round stamp of the nodes kept free of new pivots
	stats topStats
}

// topPivots is TopResistances above DenseMaxNodes.
func topPivots(g *wgraph.Graph, k int) ([]Pair, topStats, error) {
	n := g.Order()
	if err := size.Check("spectral", "TopResistances: nodes", n, 8*8); err != nil {
		return nil, topStats{}, err
	}
	s, err := laplacian.NewSolver(g, &laplacian.Settings{Tol: topSolveTol}, rand.NewPCG(1, 2))
	if err != nil {
		return nil, topStats{}, err
	}
	ps := &pivotSearch{g: g, n: n, s: s, isPiv: make([]bool, n), dUp: make([]float64, n),
		bound: make([]float64, n), dist: make([]float64, n), bfs: wgraph.NewBFS(g),
		block: make([]uint32, n), top: topKeeper{k: k, h: make([]Pair, 0, k)}}
	for u := range ps.dUp {
		ps.dUp[u] = math.Inf(1)
	}
	next := ps.start()
	for len(next) > 0 {
		if err := ps.addPivots(next); err != nil {
			return nil, ps.stats, err
		}
		ps.stats.Rounds++
		next = ps.candidates()
	}
	pairs, err := ps.refine(ps.top.sorted())
	return pairs, ps.stats, err
}

// start returns the first pivots: the ends a, b of a long path found by
// two shortest-path sweeps (a and b far apart give a large first
// resistance) and the node c that minimises the larger of its path
// resistances to them (a centre, which tightens every node's bound
// through the triangle inequality).
func (ps *pivotSearch) start() []int {
	ps.dijkstra(0)
	a := argmaxFloat(ps.dist)
	ps.dijkstra(a)
	da := slices.Clone(ps.dist)
	b := argmaxFloat(da)
	ps.dijkstra(b)
	c, best := a, math.Inf(1)
	for u, x := range ps.dist {
		if m := max(x, da[u]); m < best {
			c, best = u, m
		}
	}
	out := []int{c}
	for _, u := range []int{a, b} {
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// argmaxFloat returns the lowest index of a maximum of x.
func argmaxFloat(x []float64) int {
	j := 0
	for i, v := range x {
		if v > x[j] {
			j = i
		}
	}
	return j
}

// addPivots solves for the columns of L† at the nodes of next, updates
// the upper bounds of the diagonal by their shortest-path searches, and
// offers every new pair of pivots to the top pairs.
func (ps *pivotSearch) addPivots(next []int) error {
	n, m := ps.n, len(next)
	if err := size.Check("spectral", "TopResistances: pivot columns of n entries", len(ps.piv)+m, 8*n); err != nil {
		return err
	}
	b := mat.NewDense(n, m, nil)
	for j, p := range next {
		for u := range n {
			b.Set(u, j, -1/float64(n))
		}
		b.Set(p, j, 1-1/float64(n))
	}
	var x mat.Dense
	_, err := ps.s.SolveBlock(&x, b)
	ps.stats.Solves += m
	if err != nil {
		return err
	}
	for j, p := range next {
		c := mat.Col(nil, j, &x)
		centre(c)
		ps.piv, ps.col, ps.d = append(ps.piv, p), append(ps.col, c), append(ps.d, c[p])
		ps.isPiv[p] = true
		ps.thomson(p, c)
		ps.offer(len(ps.piv) - 1)
	}
	ps.stats.Pivots = len(ps.piv)
	return nil
}

// centre subtracts the mean of x, so that x lies in 1⊥ as L†b does.
func centre(x []float64) {
	var s float64
	for _, v := range x {
		s += v
	}
	s /= float64(len(x))
	for i := range x {
		x[i] -= s
	}
}

// thomson lowers the upper bounds of L†_uu with the pivot p and its
// column c = L† e_p: routing e_u − 1/n as a unit flow along a least
// resistance path from u to p plus the electrical flow of e_p − 1/n
// gives, by Thomson's principle, L†_uu ≤ ρ_pu − L†_pp + 2 L†_pu (spec
// throttlers.md §12.10).
func (ps *pivotSearch) thomson(p int, c []float64) {
	ps.dijkstra(p)
	for u, r := range ps.dist {
		ps.dUp[u] = min(ps.dUp[u], r-c[p]+2*c[u])
	}
	ps.dUp[p] = c[p]
}

// offer adds the exact resistances between pivot j and the earlier
// pivots to the top pairs, each the mean of the two columns' values.
func (ps *pivotSearch) offer(j int) {
	p, cp := ps.piv[j], ps.col[j]
	for i := range j {
		q := ps.piv[i]
		r := ps.d[i] + ps.d[j] - cp[q] - ps.col[i][p]
		ps.top.add(Pair{U: min(p, q), V: max(p, q), R: r})
	}
}

// candidates bounds every node's largest resistance and returns the next
// pivots: up to topBlock nodes, not yet pivots, whose bound reaches the
// k-th largest exact resistance found (less the margin), largest bound
// first, each keeping its topSpread-hop neighbourhood free of the others.
// None means that every pair that can be among the k largest is a pair
// of pivots.
func (ps *pivotSearch) candidates() []int {
	ps.bounds()
	tau := ps.top.floor() * (1 - topMargin)
	var cand []int
	for u, b := range ps.bound {
		if !ps.isPiv[u] && b >= tau {
			cand = append(cand, u)
		}
	}
	slices.SortFunc(cand, func(u, v int) int {
		if c := cmp.Compare(ps.bound[v], ps.bound[u]); c != 0 {
			return c
		}
		return cmp.Compare(u, v)
	})
	stamp := uint32(ps.stats.Rounds + 1)
	var next []int
	for _, u := range cand {
		if len(next) == topBlock {
			break
		}
		if ps.block[u] == stamp {
			continue
		}
		next = append(next, u)
		ps.blockAround(u, stamp)
	}
	return next
}

// bounds sets ecc and bound from the current upper bounds of the
// diagonal: R_up ≤ d_u⁺ + d_p − 2 L†_up, so ecc_p = max_u of that, and
// by the triangle inequality R_uv ≤ R_up + R_pv every node's largest
// resistance is at most min_p (d_u⁺ + d_p − 2 L†_up + ecc_p).
func (ps *pivotSearch) bounds() {
	ps.ecc = ps.ecc[:0]
	for j, c := range ps.col {
		e := math.Inf(-1)
		for u, x := range c {
			e = max(e, ps.dUp[u]-2*x)
		}
		ps.ecc = append(ps.ecc, e+ps.d[j])
	}
	for u := range ps.bound {
		ps.bound[u] = math.Inf(1)
	}
	for j, c := range ps.col {
		shift := ps.d[j] + ps.ecc[j]
		for u, x := range c {
			ps.bound[u] = min(ps.bound[u], shift-2*x)
		}
	}
	for u := range ps.bound {
		ps.bound[u] += ps.dUp[u]
	}
}

// blockAround stamps the nodes within topSpread hops of u (at most
// topSpreadN of them): one new pivot tightens its neighbours' bounds, so
// the round's other pivots go elsewhere.
func (ps *pivotSearch) blockAround(u int, stamp uint32) {
	ps.bfs.Start(u)
	count := 0
	for {
		d, level, ok := ps.bfs.Next()
		if !ok || d > topSpread {
			return
		}
		for _, v := range level {
			ps.block[v] = stamp
			if count++; count >= topSpreadN {
				return
			}
		}
	}
}

// refine recomputes the resistances of pairs by one solve each, to the
// second-order accuracy of EffectiveResistance, and sorts them again.
func (ps *pivotSearch) refine(pairs []Pair) ([]Pair, error) {
	n := ps.n
	for lo := 0; lo < len(pairs); lo += topBlock {
		hi := min(lo+topBlock, len(pairs))
		b := mat.NewDense(n, hi-lo, nil)
		for j, p := range pairs[lo:hi] {
			b.Set(p.U, j, 1)
			b.Set(p.V, j, -1)
		}
		var x mat.Dense
		_, err := ps.s.SolveBlock(&x, b)
		ps.stats.Solves += hi - lo
		if err != nil {
			return nil, err
		}
		xc, lx := make([]float64, n), make([]float64, n)
		for j := range pairs[lo:hi] {
			p := &pairs[lo+j]
			mat.Col(xc, j, &x)
			ps.s.Operator().Apply(lx, xc)
			var quad float64
			for u, v := range xc {
				quad += v * lx[u]
			}
			p.R = 2*(xc[p.U]-xc[p.V]) - quad // spec throttlers.md §12.9
		}
	}
	slices.SortFunc(pairs, pairOrder)
	return pairs, nil
}

// dijkstraHeap is the binary min-heap of (distance, node) entries of the
// shortest-path searches, with lazy deletion.
type dijkstraHeap struct {
	d []float64
	u []int32
}

func (h *dijkstraHeap) push(d float64, u int32) {
	h.d, h.u = append(h.d, d), append(h.u, u)
	for i := len(h.d) - 1; i > 0; {
		up := (i - 1) / 2
		if h.d[up] <= h.d[i] {
			break
		}
		h.d[i], h.d[up] = h.d[up], h.d[i]
		h.u[i], h.u[up] = h.u[up], h.u[i]
		i = up
	}
}

func (h *dijkstraHeap) pop() (float64, int32) {
	d, u := h.d[0], h.u[0]
	last := len(h.d) - 1
	h.d[0], h.u[0] = h.d[last], h.u[last]
	h.d, h.u = h.d[:last], h.u[:last]
	for i := 0; ; {
		s, l, r := i, 2*i+1, 2*i+2
		if l < last && h.d[l] < h.d[s] {
			s = l
		}
		if r < last && h.d[r] < h.d[s] {
			s = r
		}
		if s == i {
			return d, u
		}
		h.d[i], h.d[s] = h.d[s], h.d[i]
		h.u[i], h.u[s] = h.u[s], h.u[i]
		i = s
	}
}

// dijkstra sets dist to the least path resistance Σ 1/w_e from src to
// every node, an upper bound of the effective resistance (Rayleigh
// monotonicity: the path alone is a subgraph).
func (ps *pivotSearch) dijkstra(src int) {
	for u := range ps.dist {
		ps.dist[u] = math.Inf(1)
	}
	h := &ps.heap
	h.d, h.u = h.d[:0], h.u[:0]
	ps.dist[src] = 0
	h.push(0, int32(src))
	for len(h.d) > 0 {
		d, u := h.pop()
		if d > ps.dist[u] {
			continue
		}
		ws := ps.g.Weights(int(u))
		for i, v := range ps.g.Neighbors(int(u)) {
			if nd := d + 1/ws[i]; nd < ps.dist[v] {
				ps.dist[v] = nd
				h.push(nd, v)
			}
		}
	}
}
