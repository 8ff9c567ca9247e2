package linalg

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/loadlab/loadlab/internal/size"
)

// lapMatrix is a LaplacianSolver's private copy of the Laplacian, with
// the nodes renumbered in breadth-first order and the storage trimmed to
// what the graph needs. Its product is the solver's inner loop, and on a
// 10⁶-node graph the loop's cost is the latency of reading x at the
// neighbours, not arithmetic:
//
//   - breadth-first order puts the children of consecutive nodes at
//     consecutive positions, so most neighbour reads of a row continue
//     where the previous row's left off, even on an expander where no
//     order gives a small bandwidth (measured on RandomRegular(10⁶, 6):
//     the product 1.7× faster than in the generator's order);
//   - a regular graph keeps no row offsets (row u is adj[u·deg:(u+1)·deg])
//     and a graph whose weights are all equal keeps one weight, not one
//     per entry: 56 of the 80 bytes per entry of the graph's CSR arrays
//     are not read (a further 2.5× on the same graph).
//
// Internal node i is original node perm[i]; the solver gathers its
// right-hand side into this order and scatters the solution back.
type lapMatrix struct {
	n    int
	deg  int       // the common degree of a regular graph, else 0
	off  []int     // row offsets (nil when deg > 0)
	adj  []int32   // neighbours in the internal numbering, ascending per row
	w    []float64 // entry weights (nil when every weight is wc)
	wc   float64
	perm []int32
}

// newLapMatrix renumbers the connected graph g by a breadth-first search
// from node 0 (neighbours in ascending order). It returns nil, nil when
// g has no nodes or the search does not reach every node (g is
// disconnected; CheckConnected names which), and an error
// wrapping loadlab.ErrTooLarge when the copy would not fit.
func newLapMatrix(g *Graph) (*lapMatrix, error) {
	n := g.Order()
	if n == 0 {
		return nil, nil
	}
	if err := size.Check("linalg", "LaplacianSolver: matrix entries", len(g.adj)+n, 4+8); err != nil {
		return nil, err
	}
	bfs := NewBFS(g)
	bfs.Start(0)
	for {
		if _, _, ok := bfs.Next(); !ok {
			break
		}
	}
	perm := bfs.Reached()
	if len(perm) < n {
		return nil, nil
	}
	m := &lapMatrix{n: n, perm: perm, deg: g.Degree(0)}
	if len(g.w) > 0 { // a single node has no edges
		m.wc = g.w[0]
	}
	for u := range n {
		if g.off[u+1]-g.off[u] != m.deg {
			m.deg = 0
		}
	}
	uniform := !slices.ContainsFunc(g.w, func(x float64) bool { return x != m.wc })
	m.fill(g, bfs.depth[:0], uniform)
	return m, nil
}

// fill writes the renumbered rows; pos is scratch of capacity n.
func (m *lapMatrix) fill(g *Graph, pos []int32, uniform bool) {
	n := m.n
	pos = pos[:n]
	for i, u := range m.perm {
		pos[u] = int32(i)
	}
	m.adj = make([]int32, len(g.adj))
	if len(m.adj) > 0 {
		adviseHuge(unsafe.Pointer(&m.adj[0]), 4*len(m.adj))
	}
	if !uniform {
		m.w = make([]float64, len(g.adj))
	}
	if m.deg == 0 {
		m.off = make([]int, n+1)
	}
	type entry struct {
		v int32
		w float64
	}
	var row []entry
	p := 0
	for i, u := range m.perm {
		if m.off != nil {
			m.off[i] = p
		}
		row = row[:0]
		for k := g.off[u]; k < g.off[u+1]; k++ {
			row = append(row, entry{pos[g.adj[k]], g.w[k]})
		}
		slices.SortFunc(row, func(a, b entry) int { return cmp.Compare(a.v, b.v) })
		for _, e := range row {
			m.adj[p] = e.v
			if m.w != nil {
				m.w[p] = e.w
			}
			p++
		}
	}
	if m.off != nil {
		m.off[n] = p
	}
}

// span returns the entries [lo, hi) of row i.
func (m *lapMatrix) span(i int) (lo, hi int) {
	if m.deg > 0 {
		return i * m.deg, (i + 1) * m.deg
	}
	return m.off[i], m.off[i+1]
}

// gather sets dst[i] = src[perm[i]] (original order into internal).
func (m *lapMatrix) gather(dst, src []float64) {
	for i, u := range m.perm {
		dst[i] = src[u]
	}
}

// scatter sets dst[perm[i]] = src[i] (internal order back to original).
func (m *lapMatrix) scatter(dst, src []float64) {
	for i, u := range m.perm {
		dst[u] = src[i]
	}
}

// degrees returns the weighted degrees in the internal order.
func (m *lapMatrix) degrees() []float64 {
	d := make([]float64, m.n)
	for i := range d {
		lo, hi := m.span(i)
		if m.w == nil {
			d[i] = float64(hi-lo) * m.wc
			continue
		}
		for _, x := range m.w[lo:hi] {
			d[i] += x
		}
	}
	return d
}

// csr returns the matrix as offsets, neighbours and weights (building the
// offsets and weights a regular or uniform matrix does not keep), for the
// factorisation.
func (m *lapMatrix) csr() (off []int, adj []int32, w []float64) {
	off, w = m.off, m.w
	if off == nil {
		off = make([]int, m.n+1)
		for i := range off {
			off[i] = i * m.deg
		}
	}
	if w == nil {
		w = make([]float64, len(m.adj))
		for i := range w {
			w[i] = m.wc
		}
	}
	return off, m.adj, w
}

// rows sets dst[i] = (L x)_i for the rows [lo, hi) and returns
// Σ p_i dst_i over them when p is non-nil (the fused dot product of
// conjugate gradients), else 0. Each row is summed in its entries' order,
// so the result does not depend on how rows are split.
func (m *lapMatrix) rows(dst, x, p []float64, lo, hi int) float64 {
	switch {
	case m.w == nil && m.deg > 0:
		return m.rowsRegular(dst, x, p, lo, hi)
	case m.w == nil:
		return m.rowsUniform(dst, x, p, lo, hi)
	}
	adj, w := m.adj, m.w
	x = x[:m.n]
	var dot float64
	for u := lo; u < hi; u++ {
		xu := x[u]
		var s float64
		e0, e1 := m.span(u)
		a := adj[e0:e1]
		ws := w[e0:e1]
		ws = ws[:len(a)]
		for i, v := range a {
			s += ws[i] * (xu - x[v])
		}
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}

// rowsUniform is rows for a matrix whose weights all equal wc:
// (L x)_i = wc Σ_{j ~ i} (x_i − x_j).
func (m *lapMatrix) rowsUniform(dst, x, p []float64, lo, hi int) float64 {
	off, adj := m.off, m.adj
	x = x[:m.n]
	var dot float64
	for u := lo; u < hi; u++ {
		xu := x[u]
		var s float64
		for _, v := range adj[off[u]:off[u+1]] {
			s += xu - x[v]
		}
		s *= m.wc
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}

// rowsRegular is rowsUniform for a regular graph, whose row u is
// adj[u·deg:(u+1)·deg].
func (m *lapMatrix) rowsRegular(dst, x, p []float64, lo, hi int) float64 {
	d, adj := m.deg, m.adj
	if d == 6 {
		return m.rowsRegular6(dst, x, p, lo, hi)
	}
	x = x[:m.n]
	var dot float64
	for u := lo; u < hi; u++ {
		xu := x[u]
		var s float64
		for _, v := range adj[u*d : u*d+d] {
			s += xu - x[v]
		}
		s *= m.wc
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}

// rowsBlock is rows for a block of k vectors stored row-major (entry
// (i, j) at i·k + j, k ≤ MaxBlockCols): dst = L x, and when p is
// non-nil, Σ_i p_ij dst_ij is added to sums[4j]. Each column is computed
// with the arithmetic of rows, in the same order.
//
// A row first collects the offsets of its neighbours' rows (up to
// gatherLen at a time) and then sums column by column over them: the
// first column's reads go to every neighbour's row at once (one cache
// miss each, all outstanding together), the other columns find those
// rows in cache, and a column's sum stays in a register.
func (m *lapMatrix) rowsBlock(dst, x, p []float64, k, lo, hi int, sums []float64) {
	var nb [gatherLen]int
	var acc [MaxBlockCols]float64
	x = x[:m.n*k]
	for u := lo; u < hi; u++ {
		e0, e1 := m.span(u)
		xu, d, s := x[u*k:u*k+k], dst[u*k:u*k+k], acc[:k]
		clear(s)
		for c0 := e0; c0 < e1; c0 += gatherLen {
			c1 := min(c0+gatherLen, e1)
			at := nb[:c1-c0]
			for i, v := range m.adj[c0:c1] {
				at[i] = int(v) * k
			}
			if m.w == nil {
				for j, xj := range xu {
					t := s[j]
					for _, o := range at {
						t += xj - x[o+j]
					}
					s[j] = t
				}
				continue
			}
			ws := m.w[c0:c1]
			for j, xj := range xu {
				t := s[j]
				for i, o := range at {
					t += ws[i] * (xj - x[o+j])
				}
				s[j] = t
			}
		}
		for j, t := range s {
			if m.w == nil {
				t *= m.wc
			}
			d[j] = t
		}
		if p != nil {
			pu := p[u*k : u*k+k]
			for j, v := range d {
				sums[4*j] += pu[j] * v
			}
		}
	}
}

// gatherLen is the number of neighbour rows rowsBlock reads together.
const gatherLen = 32

// rowsRegular6 is rowsRegular for degree 6, unrolled: fewer instructions
// per neighbour read, so that more rows' reads are in flight at once. The
// sum is the loop's, in the same order (s = 0 + t₀ is t₀).
func (m *lapMatrix) rowsRegular6(dst, x, p []float64, lo, hi int) float64 {
	adj := m.adj
	x = x[:m.n]
	var dot float64
	for u := lo; u < hi; u++ {
		a := adj[u*6 : u*6+6 : u*6+6]
		xu := x[u]
		s := xu - x[a[0]]
		s += xu - x[a[1]]
		s += xu - x[a[2]]
		s += xu - x[a[3]]
		s += xu - x[a[4]]
		s += xu - x[a[5]]
		s *= m.wc
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}
