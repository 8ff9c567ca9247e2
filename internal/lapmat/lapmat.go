package lapmat

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// Matrix is the Laplacian of a connected graph, with the nodes renumbered
// in breadth-first order and the storage trimmed to what the graph needs:
// the private copy behind laplacian.Solver and the Lanczos recurrences of
// estimate and consensus. Its product is their inner loop, and on a
// 10⁶-node graph the loop's cost is the latency of reading x at the
// neighbours, not arithmetic:
//
//   - breadth-first order puts the children of consecutive nodes at
//     consecutive positions, so most neighbour reads of a row continue
//     where the previous row's left off, even on an expander where no
//     order gives a small bandwidth (on RandomRegular(10⁶, 6) the product
//     is 1.7× faster than in the generator's order);
//   - a regular graph keeps no row offsets (row u is adj[u·deg:(u+1)·deg])
//     and a graph whose weights are all equal keeps one weight, not one
//     per entry: 56 of the 80 bytes per entry of the graph's CSR arrays
//     are not read (a further 2.5× on the same graph).
//
// Internal node i is original node Perm[i]; the solver gathers its
// right-hand side into this order (Gather) and scatters the solution back
// (Scatter).
type Matrix struct {
	N    int       // order
	deg  int       // the common degree of a regular graph, else 0
	off  []int     // row offsets (nil when deg > 0)
	Adj  []int32   // neighbours in the internal numbering, ascending per row
	W    []float64 // entry weights (nil when every weight is Wc)
	Wc   float64   // the common weight when W is nil
	Perm []int32   // internal node i is original node Perm[i]
}

// New renumbers the connected graph g by a breadth-first search
// from node 0 (neighbours in ascending order). It returns nil, nil when
// g has no nodes or the search does not reach every node (g is
// disconnected; wgraph.CheckConnected names which), and an error
// wrapping loadlab.ErrTooLarge when the copy would not fit. It panics if
// g is nil.
func New(g *wgraph.Graph) (*Matrix, error) {
	if g == nil {
		panic("lapmat: New: nil graph g")
	}
	n := g.Order()
	if n == 0 {
		return nil, nil
	}
	goff, gadj, gw := g.CSR()
	if err := size.Check("lapmat", "New: matrix entries", len(gadj)+n, 4+8); err != nil {
		return nil, err
	}
	bfs := wgraph.NewBFS(g)
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
	m := &Matrix{N: n, Perm: perm, deg: g.Degree(0)}
	if len(gw) > 0 { // a single node has no edges
		m.Wc = gw[0]
	}
	for u := range n {
		if goff[u+1]-goff[u] != m.deg {
			m.deg = 0
		}
	}
	uniform := !slices.ContainsFunc(gw, func(x float64) bool { return x != m.Wc })
	m.fill(g, make([]int32, n), uniform)
	return m, nil
}

// fillGrain is the rows per piece of fill's parallel loop.
const fillGrain = 1 << 14

// fill writes the renumbered rows; pos is scratch of capacity n. The
// rows are independent once their offsets are known, so they are filled
// in parallel (each entry is written by one row's piece whatever the
// number of goroutines): on a 10⁶-node expander fill is bound by the
// latency of its random reads, which two cores overlap.
func (m *Matrix) fill(g *wgraph.Graph, pos []int32, uniform bool) {
	n := m.N
	pos = pos[:n]
	for i, u := range m.Perm {
		pos[u] = int32(i)
	}
	goff, gadj, gw := g.CSR()
	m.Adj = make([]int32, len(gadj))
	if len(m.Adj) > 0 {
		AdviseHuge(unsafe.Pointer(&m.Adj[0]), 4*len(m.Adj))
	}
	if !uniform {
		m.W = make([]float64, len(gadj))
	}
	if m.deg == 0 {
		m.off = make([]int, n+1)
		p := 0
		for i, u := range m.Perm {
			m.off[i] = p
			p += goff[u+1] - goff[u]
		}
		m.off[n] = p
	}
	par.Loop(n, 0, fillGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			u := m.Perm[i]
			p, _ := m.Span(i)
			k0, k1 := goff[u], goff[u+1]
			adj := m.Adj[p : p+k1-k0]
			for k := k0; k < k1; k++ {
				adj[k-k0] = pos[gadj[k]]
			}
			var w []float64
			if m.W != nil {
				w = m.W[p : p+k1-k0]
				copy(w, gw[k0:k1])
			}
			sortRow(adj, w)
		}
	})
}

// sortRow sorts a row's neighbours ascending, permuting its weights (w
// nil: none) alike: by insertion, since rows are short (a degree-d row
// costs at most d²/2 comparisons and no allocation), and by an index
// sort above 32 entries.
func sortRow(adj []int32, w []float64) {
	if len(adj) > 32 {
		sortLongRow(adj, w)
		return
	}
	for i := 1; i < len(adj); i++ {
		for j := i; j > 0 && adj[j] < adj[j-1]; j-- {
			adj[j], adj[j-1] = adj[j-1], adj[j]
			if w != nil {
				w[j], w[j-1] = w[j-1], w[j]
			}
		}
	}
}

// sortLongRow is sortRow for a long row.
func sortLongRow(adj []int32, w []float64) {
	if w == nil {
		slices.Sort(adj)
		return
	}
	idx := make([]int, len(adj))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(adj[a], adj[b]) })
	a2, w2 := slices.Clone(adj), slices.Clone(w)
	for i, j := range idx {
		adj[i], w[i] = a2[j], w2[j]
	}
}

// Span returns the entries [lo, hi) of row i.
func (m *Matrix) Span(i int) (lo, hi int) {
	if m.deg > 0 {
		return i * m.deg, (i + 1) * m.deg
	}
	return m.off[i], m.off[i+1]
}

// Gather sets dst[i] = src[Perm[i]] (original order into internal).
func (m *Matrix) Gather(dst, src []float64) {
	for i, u := range m.Perm {
		dst[i] = src[u]
	}
}

// Scatter sets dst[Perm[i]] = src[i] (internal order back to original).
func (m *Matrix) Scatter(dst, src []float64) {
	for i, u := range m.Perm {
		dst[u] = src[i]
	}
}

// Degrees returns the weighted degrees in the internal order.
func (m *Matrix) Degrees() []float64 {
	d := make([]float64, m.N)
	for i := range d {
		lo, hi := m.Span(i)
		if m.W == nil {
			d[i] = float64(hi-lo) * m.Wc
			continue
		}
		for _, x := range m.W[lo:hi] {
			d[i] += x
		}
	}
	return d
}

// Csr returns the matrix as offsets, neighbours and weights (building the
// offsets and weights a regular or uniform matrix does not keep), for the
// factorisation.
func (m *Matrix) Csr() (off []int, adj []int32, w []float64) {
	off, w = m.off, m.W
	if off == nil {
		off = make([]int, m.N+1)
		for i := range off {
			off[i] = i * m.deg
		}
	}
	if w == nil {
		w = make([]float64, len(m.Adj))
		for i := range w {
			w[i] = m.Wc
		}
	}
	return off, m.Adj, w
}

// Rows sets dst[i] = (L x)_i for the rows [lo, hi) and returns
// Σ p_i dst_i over them when p is non-nil (the fused dot product of
// conjugate gradients), else 0. Each row is summed in its entries' order,
// so the result does not depend on how rows are split.
func (m *Matrix) Rows(dst, x, p []float64, lo, hi int) float64 {
	switch {
	case m.W == nil && m.deg > 0:
		return m.rowsRegular(dst, x, p, lo, hi)
	case m.W == nil:
		return m.rowsUniform(dst, x, p, lo, hi)
	}
	adj, w := m.Adj, m.W
	x = x[:m.N]
	var dot float64
	for u := lo; u < hi; u++ {
		xu := x[u]
		var s float64
		e0, e1 := m.Span(u)
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

// rowsUniform is Rows for a matrix whose weights all equal Wc:
// (L x)_i = Wc Σ_{j ~ i} (x_i − x_j).
func (m *Matrix) rowsUniform(dst, x, p []float64, lo, hi int) float64 {
	off, adj := m.off, m.Adj
	x = x[:m.N]
	var dot float64
	for u := lo; u < hi; u++ {
		xu := x[u]
		var s float64
		for _, v := range adj[off[u]:off[u+1]] {
			s += xu - x[v]
		}
		s *= m.Wc
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}

// rowsRegular is rowsUniform for a regular graph, whose row u is
// adj[u·deg:(u+1)·deg].
func (m *Matrix) rowsRegular(dst, x, p []float64, lo, hi int) float64 {
	d, adj := m.deg, m.Adj
	if d == 6 {
		return m.rowsRegular6(dst, x, p, lo, hi)
	}
	x = x[:m.N]
	var dot float64
	for u := lo; u < hi; u++ {
		xu := x[u]
		var s float64
		for _, v := range adj[u*d : u*d+d] {
			s += xu - x[v]
		}
		s *= m.Wc
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}

// RowsBlock is Rows for a block of k vectors stored row-major (entry
// (i, j) at i·k + j, k ≤ BlockColsMax): dst = L x, and when p is
// non-nil, Σ_i p_ij dst_ij is added to sums[4j]. Each column is computed
// with the arithmetic of Rows, in the same order.
//
// A row first collects the offsets of its neighbours' rows (up to
// gatherLen at a time) and then sums column by column over them: the
// first column's reads go to every neighbour's row at once (one cache
// miss each, all outstanding together), the other columns find those
// rows in cache, and a column's sum stays in a register.
func (m *Matrix) RowsBlock(dst, x, p []float64, k, lo, hi int, sums []float64) {
	var nb [gatherLen]int
	var acc [BlockColsMax]float64
	x = x[:m.N*k]
	for u := lo; u < hi; u++ {
		e0, e1 := m.Span(u)
		xu, d, s := x[u*k:u*k+k], dst[u*k:u*k+k], acc[:k]
		clear(s)
		for c0 := e0; c0 < e1; c0 += gatherLen {
			c1 := min(c0+gatherLen, e1)
			at := nb[:c1-c0]
			for i, v := range m.Adj[c0:c1] {
				at[i] = int(v) * k
			}
			if m.W == nil {
				for j, xj := range xu {
					t := s[j]
					for _, o := range at {
						t += xj - x[o+j]
					}
					s[j] = t
				}
				continue
			}
			ws := m.W[c0:c1]
			for j, xj := range xu {
				t := s[j]
				for i, o := range at {
					t += ws[i] * (xj - x[o+j])
				}
				s[j] = t
			}
		}
		for j, t := range s {
			if m.W == nil {
				t *= m.Wc
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

// gatherLen is the number of neighbour rows RowsBlock reads together.
const gatherLen = 32

// rowsRegular6 is rowsRegular for degree 6, unrolled: fewer instructions
// per neighbour read, so that more rows' reads are in flight at once. The
// sum is the loop's, in the same order (s = 0 + t₀ is t₀).
func (m *Matrix) rowsRegular6(dst, x, p []float64, lo, hi int) float64 {
	adj := m.Adj
	x = x[:m.N]
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
		s *= m.Wc
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}

// InvDegrees returns 1/d_u for the weighted degrees d_u in the internal
// order, or nil when they are all equal: Jacobi is then a multiple of the
// identity, which does not change the iterates of conjugate gradients.
func (m *Matrix) InvDegrees() []float64 {
	d := m.Degrees()
	if !slices.ContainsFunc(d, func(x float64) bool { return x != d[0] }) {
		return nil
	}
	for u, x := range d {
		if x > 0 {
			d[u] = 1 / x
		}
	}
	return d
}

// BlockColsMax is the widest block of the block product RowsBlock.
// Sixteen values are two cache lines per gathered row: wide enough that
// a product fetches each neighbour's lines once for all its columns,
// narrow enough that the six block vectors of a 10⁶-node solve take
// 768 MB.
const BlockColsMax = 16
