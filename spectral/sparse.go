package spectral

import (
	"fmt"
	"sync"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/wgraph"
)

// Path names the computation behind an exact value.
type Path int

const (
	// Dense is the dense Cholesky factorisation of L + αJ/n and its
	// triangular inverse, 2n³/3 flops.
	Dense Path = iota + 1
	// Sparse is the sparse Cholesky factorisation of the grounded
	// Laplacian with a fill-reducing ordering and selected inversion
	// (package cholesky), about the factor's flops.
	Sparse
)

// String returns the path's name.
func (p Path) String() string {
	switch p {
	case Dense:
		return "dense"
	case Sparse:
		return "sparse"
	}
	return fmt.Sprintf("Path(%d)", int(p))
}

// sparseSettings are the sparse path's limits: nil, cholesky's
// defaults; tests lower them to reach the refusals on small graphs.
var sparseSettings *cholesky.Settings

// sparseSpeedFactor is how many flops of the dense path cost as much
// time as one predicted flop (Σ c_j²) of the sparse path, measured on
// connected Erdős–Rényi graphs of 2000 nodes (both cores; spec
// sparse-cholesky.md §7): the supernodal factorisation and selected
// inversion against the dense factor-and-invert passes broke even at
// mean degree 64 (predicted 1.75e9 flops against 2n³/3 = 5.3e9), and
// the sparse path took 0.12 of the dense path's time at mean degree 8.
const sparseSpeedFactor = 3

// choosePath returns the sparse analysis of the grounded Laplacian of g,
// within the limits of set, when the sparse path should run: always when it fits the limits above
// DenseMaxNodes, and below when its predicted cost is under the dense
// path's 2n³/3 flops. Otherwise it returns nil and, if the analysis was
// refused, the reason.
func choosePath(g *wgraph.Graph, set *cholesky.Settings) (*groundedAnalysis, error) {
	n, m := g.Order(), g.Size()
	if n <= DenseMaxNodes && 8*m > n*n {
		return nil, nil // a dense graph: the dense path wins
	}
	ga, err := analyzeGrounded(g, set)
	if err != nil {
		return nil, err
	}
	if sparseWins(n, ga.sym.Report()) {
		return ga, nil
	}
	return nil, nil
}

// sparseWins reports whether the sparse path should run for a graph of
// n nodes whose factor rep predicts.
func sparseWins(n int, rep cholesky.Report) bool {
	nf := float64(n)
	return n > DenseMaxNodes || sparseSpeedFactor*rep.Flops < 2*nf*nf*nf/3
}

// ShiftedLaplacian factors c I + s L for the Laplacian L of one graph and
// any (c, s) that make it positive definite — 2I − γL for the
// throttlers' H2 measures — from one symbolic analysis of L's pattern.
// It is safe for concurrent use.
type ShiftedLaplacian struct {
	g    *wgraph.Graph
	sym  *cholesky.Symbolic
	path Path
}

// NewShiftedLaplacian analyses the pattern of the Laplacian of g with
// the settings set (nil for cholesky's defaults). Path
// reports whether the sparse factorisation beats the dense path by the
// rule NewResistance uses; where the graph is too dense for the sparse
// path to pay (more than n²/8 edges, at most DenseMaxNodes nodes) no
// analysis is made and Path is Dense. It returns an error wrapping
// loadlab.ErrInvalid for a graph with no nodes and one wrapping
// loadlab.ErrTooLarge when the factor would exceed cholesky's default
// limits, and an error naming a bad settings field. It panics if g is
// nil.
func NewShiftedLaplacian(g *wgraph.Graph, set *cholesky.Settings) (*ShiftedLaplacian, error) {
	if g == nil {
		panic("spectral: NewShiftedLaplacian: nil graph g")
	}
	n := g.Order()
	if n == 0 {
		return nil, loadlab.Invalid("spectral", "NewShiftedLaplacian: the graph has no nodes")
	}
	sl := &ShiftedLaplacian{g: g, path: Dense}
	if n <= DenseMaxNodes && 8*g.Size() > n*n {
		return sl, nil
	}
	sym, err := cholesky.Analyze(laplacianMatrix(g, 1, 0, -1), set)
	if err != nil {
		return nil, err
	}
	sl.sym = sym
	if sparseWins(n, sym.Report()) {
		sl.path = Sparse
	}
	return sl, nil
}

// Path returns the path the exact values of the graph should take.
func (sl *ShiftedLaplacian) Path() Path { return sl.path }

// Factor returns the sparse Cholesky factor of c I + s L. Its errors are
// cholesky's: loadlab.ErrIllConditioned when the matrix is not
// numerically positive definite or its condition estimate exceeds
// cholesky.MaxCondition, loadlab.ErrInvalid for c or s not finite. It
// panics on the dense path (Path() == Dense with no analysis made).
func (sl *ShiftedLaplacian) Factor(c, s float64) (*cholesky.Factor, error) {
	if sl.sym == nil {
		panic("spectral: ShiftedLaplacian.Factor: the graph is dense; no sparse analysis was made")
	}
	return sl.sym.Factor(laplacianMatrix(sl.g, c, s, -1))
}

// groundedAnalysis is the symbolic analysis of the Laplacian of g with
// node r's row and column deleted (spec sparse-cholesky.md §5).
type groundedAnalysis struct {
	g   *wgraph.Graph
	r   int
	sym *cholesky.Symbolic
}

// analyzeGrounded chooses the ground r, the node of largest weighted
// degree (lowest index among ties): removing a hub removes the most
// fill, and its row is the best conditioned to drop.
func analyzeGrounded(g *wgraph.Graph, set *cholesky.Settings) (*groundedAnalysis, error) {
	r, best := 0, -1.0
	for u := range g.Order() {
		if d := g.WeightedDegree(u); d > best {
			r, best = u, d
		}
	}
	a := laplacianMatrix(g, 0, 1, r)
	sym, err := cholesky.Analyze(a, set)
	if err != nil {
		return nil, err
	}
	return &groundedAnalysis{g: g, r: r, sym: sym}, nil
}

// laplacianMatrix returns c I + s L for the Laplacian L of g as a
// cholesky.Matrix, with node ground's row and column deleted (ground < 0
// keeps every node); nodes after ground shift down by one.
func laplacianMatrix(g *wgraph.Graph, c, s float64, ground int) *cholesky.Matrix {
	a, _, _ := laplacianOn(g, g, c, s, ground)
	return a
}

// laplacianOn is laplacianMatrix for the weights of g on the pattern of
// support: a link of support that g lacks is stored as an explicit zero,
// so every subgraph of support gives the same pattern. It returns false
// if g has an edge that support lacks (the first found, as u, v).
func laplacianOn(support, g *wgraph.Graph, c, s float64, ground int) (*cholesky.Matrix, bool, [2]int) {
	n := support.Order()
	idx := func(u int) int {
		if ground >= 0 && u > ground {
			return u - 1
		}
		return u
	}
	nn := n
	if ground >= 0 {
		nn--
	}
	a := &cholesky.Matrix{N: nn, Ptr: make([]int, nn+1)}
	a.Ind = make([]int, 0, nn+2*support.Size())
	a.Val = make([]float64, 0, nn+2*support.Size())
	for u := range n {
		if u == ground {
			continue
		}
		diag := c + s*g.WeightedDegree(u)
		placed := false
		gv, gw, k := g.Neighbors(u), g.Weights(u), 0
		for _, v := range support.Neighbors(u) {
			if k < len(gv) && gv[k] < v {
				return nil, false, [2]int{u, int(gv[k])}
			}
			off := 0.0
			if k < len(gv) && gv[k] == v {
				off = -s * gw[k]
				k++
			}
			if !placed && int(v) > u {
				a.Ind, a.Val, placed = append(a.Ind, idx(u)), append(a.Val, diag), true
			}
			if int(v) != ground {
				a.Ind, a.Val = append(a.Ind, idx(int(v))), append(a.Val, off)
			}
		}
		if k < len(gv) {
			return nil, false, [2]int{u, int(gv[k])}
		}
		if !placed {
			a.Ind, a.Val = append(a.Ind, idx(u)), append(a.Val, diag)
		}
		a.Ptr[idx(u)+1] = len(a.Ind)
	}
	return a, true, [2]int{}
}

// sparsePinv holds the selected inverse X of the grounded Laplacian and
// the two numbers that turn it into L† (spec sparse-cholesky.md §5):
// with P = I − J/n, L† = P X̂ P for X̂ = X padded with a zero row and
// column at r, so
//
//	L†_uu = X̂_uu − 2 y_u/n + s/n²,   y = X̂ 1,  s = 1ᵀ X̂ 1,
//	R_uv  = X̂_uu + X̂_vv − 2 X̂_uv,    K_f = n tr X̂ − s.
type sparsePinv struct {
	ga   *groundedAnalysis
	f    *cholesky.Factor
	once sync.Once
	zinv *cholesky.Inverse // on first use
	y    []float64         // X̂ 1, zero at r
	s    float64
}

// z returns the selected inverse, computing it on first use.
func (sp *sparsePinv) z() *cholesky.Inverse {
	sp.once.Do(func() { sp.zinv = sp.f.Inverse() })
	return sp.zinv
}

// newSparsePinv factors the grounded Laplacian and inverts it on the
// factor's pattern. A refusal of the factorisation (not positive
// definite, or condition estimate above MaxCondition) wraps
// loadlab.ErrIllConditioned, as the dense path's does.
func newSparsePinv(ga *groundedAnalysis) (*sparsePinv, error) {
	return factorPinv(ga, ga.g, laplacianMatrix(ga.g, 0, 1, ga.r))
}

// pinvFromFactor completes the sparsePinv of g from the factor f of its
// grounded Laplacian: y = X̂ 1 by one solve, and s = 1ᵀ y.
func pinvFromFactor(ga *groundedAnalysis, g *wgraph.Graph, f *cholesky.Factor) *sparsePinv {
	sp := &sparsePinv{ga: ga, f: f}
	ones := make([]float64, g.Order()-1)
	for i := range ones {
		ones[i] = 1
	}
	sp.y = sp.pad(f.Solve(nil, ones))
	sp.s = dense.Sum(sp.y)
	return sp
}

// pad returns x (indexed without r) as a vector over all nodes with a
// zero at r.
func (sp *sparsePinv) pad(x []float64) []float64 {
	r := sp.ga.r
	out := make([]float64, len(x)+1)
	copy(out, x[:r])
	copy(out[r+1:], x[r:])
	return out
}

// sub returns node u's index in the grounded matrix (-1 for r).
func (sp *sparsePinv) sub(u int) int {
	switch r := sp.ga.r; {
	case u == r:
		return -1
	case u > r:
		return u - 1
	}
	return u
}

// x returns X̂_uv and whether it was on the factor's pattern.
func (sp *sparsePinv) x(u, v int) (float64, bool) {
	a, b := sp.sub(u), sp.sub(v)
	if a < 0 || b < 0 {
		return 0, true
	}
	return sp.z().At(a, b)
}

// diagX returns the diagonal of X̂.
func (sp *sparsePinv) diagX() []float64 {
	return sp.pad(sp.z().Diag(nil))
}

// pinvDiag writes diag L† into dst.
func (sp *sparsePinv) pinvDiag(dst []float64) {
	nf := float64(len(dst))
	d := sp.diagX()
	c := sp.s / (nf * nf)
	for u := range dst {
		dst[u] = d[u] - 2*sp.y[u]/nf + c
	}
}

// kirchhoff returns K_f = n tr X̂ − s.
func (sp *sparsePinv) kirchhoff() float64 {
	return float64(len(sp.y))*dense.Sum(sp.diagX()) - sp.s
}

// between returns R_uv: from the selected inverse when (u, v) is on the
// factor's pattern (every edge is), else by one solve with the factor.
func (sp *sparsePinv) between(u, v int) float64 {
	if u == v {
		return 0
	}
	xuv, ok := sp.x(u, v)
	if ok {
		xuu, _ := sp.x(u, u)
		xvv, _ := sp.x(v, v)
		return xuu + xvv - 2*xuv
	}
	return sp.solveBetween(u, v)
}

// solveBetween returns R_uv = (e_u − e_v)ᵀ X̂ (e_u − e_v) by one solve.
func (sp *sparsePinv) solveBetween(u, v int) float64 {
	b := make([]float64, len(sp.y)-1)
	if a := sp.sub(u); a >= 0 {
		b[a] = 1
	}
	if a := sp.sub(v); a >= 0 {
		b[a] = -1
	}
	x := sp.pad(sp.f.Solve(b, b))
	return x[u] - x[v]
}

// column writes column j of L† into dst by one solve: with x = X̂ e_j,
// L† e_j = P X̂ (e_j − 1/n) = x − y/n − (y_j/n − s/n²) 1, since
// 1ᵀx = y_j.
func (sp *sparsePinv) column(dst []float64, j int) {
	n := len(sp.y)
	b := make([]float64, n-1)
	if a := sp.sub(j); a >= 0 {
		b[a] = 1
	}
	x := sp.pad(sp.f.Solve(b, b))
	nf := float64(n)
	c := sp.s/(nf*nf) - sp.y[j]/nf
	for i := range dst {
		dst[i] = x[i] - sp.y[i]/nf + c
	}
}

// Path returns the computation NewResistance chose.
func (r *Resistance) Path() Path {
	if r.sp != nil {
		return Sparse
	}
	return Dense
}

// Report returns the sparse factorisation's size and cost on the sparse
// path, and the zero Report on the dense path.
func (r *Resistance) Report() cholesky.Report {
	if r.sp != nil {
		return r.sp.f.Report()
	}
	return cholesky.Report{}
}

// EdgeResistances returns the effective resistance of every edge of the
// graph, in the order of its Edges method, in dst (allocated if nil).
// On the sparse path each is read off the selected inverse; on the dense
// one it costs O(n) per edge. It panics if a non-nil dst does not have
// one entry per edge.
func (r *Resistance) EdgeResistances(dst []float64) []float64 {
	m := r.g.Size()
	if dst == nil {
		dst = make([]float64, m)
	}
	if len(dst) != m {
		panic(fmt.Sprintf("spectral: EdgeResistances: len(dst) = %d, want %d edges", len(dst), m))
	}
	k := 0
	for u := range r.n {
		for _, v := range r.g.Neighbors(u) {
			if u < int(v) {
				dst[k] = r.Between(u, int(v))
				k++
			}
		}
	}
	return dst
}

// Report returns the predicted size and cost of the sparse factor, and
// the zero Report where no analysis was made (a dense graph).
func (sl *ShiftedLaplacian) Report() cholesky.Report {
	if sl.sym == nil {
		return cholesky.Report{}
	}
	return sl.sym.Report()
}

// apply writes X̂ (b − mean·1) into dst by one solve with the factor (dst
// and b may be the same slice), with work (n − 1 values or more) as the
// solve's scratch; the caller centres the result. The grounded right
// side is built in dst[:n−1]: its entry for node u lands at index u or
// u − 1, never after u, so ascending u reads each b[u] before dst
// overwrites it.
func (sp *sparsePinv) apply(dst, b []float64, mean float64, work []float64) {
	r, n := sp.ga.r, len(b)
	for u := range n {
		if a := sp.sub(u); a >= 0 {
			dst[a] = b[u] - mean
		}
	}
	rhs := dst[:n-1]
	sp.f.SolveTo(rhs, rhs, work[:n-1])
	copy(dst[r+1:], dst[r:n-1])
	dst[r] = 0
}
