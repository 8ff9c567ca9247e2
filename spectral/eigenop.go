package spectral

import (
	"math"

	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// unitRound is the unit roundoff u = 2⁻⁵³ of float64.
const unitRound = 0x1p-53

// gammaK is Higham's γ_k = k u/(1 − k u), the relative error bound of k
// successive roundings (Accuracy and Stability of Numerical Algorithms,
// Lemma 3.1); +Inf once k u ≥ 1.
func gammaK(k int) float64 {
	ku := float64(k) * unitRound
	if ku >= 1 {
		return math.Inf(1)
	}
	return ku / (1 - ku)
}

// operator is S = Q^{1/2} L Q^{1/2} with its diagonal and the rounding
// scale of its row sums.
type operator struct {
	g    *wgraph.Graph
	lap  *laplacian.Operator
	q    []float64 // Q's diagonal, nil for q = 1
	sq   []float64 // √q, nil for q = 1
	diag []float64 // S_uu = q_u d_u
	tmp  []float64
	// rel bounds the relative rounding error of a row sum of |S| x with
	// x > 0: (max degree + 2) additions at u each, doubled.
	rel float64
}

// opVectors is the number of n-vectors an operator holds (diag, sq,
// tmp, q is the caller's).
const opVectors = 3

func newOperator(g *wgraph.Graph, q []float64) *operator {
	n := g.Order()
	op := &operator{g: g, lap: laplacian.NewOperator(g), q: q, diag: make([]float64, n), tmp: make([]float64, n)}
	if q != nil {
		op.sq = make([]float64, n)
		for i, v := range q {
			op.sq[i] = math.Sqrt(v)
		}
	}
	maxDeg := 0
	for u := range n {
		op.diag[u] = g.WeightedDegree(u)
		if q != nil {
			op.diag[u] *= q[u]
		}
		maxDeg = max(maxDeg, len(g.Neighbors(u)))
	}
	op.rel = 4 * float64(maxDeg+2) * unitRound
	return op
}

// mul computes dst = S v (dst and v distinct).
func (op *operator) mul(dst, v []float64) {
	if op.sq == nil {
		op.lap.Apply(dst, v)
		return
	}
	for i := range v {
		op.tmp[i] = op.sq[i] * v[i]
	}
	op.lap.Apply(dst, op.tmp)
	for i := range dst {
		dst[i] *= op.sq[i]
	}
}

// dense returns S as a dense matrix, built from the adjacency lists, or
// an error wrapping loadlab.ErrTooLarge past the memory budget.
func (op *operator) dense(fn string) (*mat.SymDense, error) {
	n := op.g.Order()
	if err := size.CheckDense("spectral", fn, n, 2); err != nil {
		return nil, err
	}
	a := mat.NewSymDense(n, nil)
	raw := a.RawSymmetric()
	for u := range n {
		raw.Data[u*raw.Stride+u] = op.diag[u]
		ws := op.g.Weights(u)
		for i, v := range op.g.Neighbors(u) {
			if int(v) <= u {
				continue
			}
			x := -ws[i]
			if op.sq != nil {
				x *= op.sq[u] * op.sq[v]
			}
			raw.Data[u*raw.Stride+int(v)] = x
		}
	}
	return a, nil
}

// edgeBounds returns a lower bound (the largest diagonal entry, a
// Rayleigh quotient) and an upper bound on λ_max(S). The upper bound:
// the nonzero spectrum of L Q = B W Bᵀ Q is that of W Bᵀ Q B (B the
// incidence matrix, W the link weights), whose row e = {u, v} has
// absolute sum q_u d_u + q_v d_v, so λ_max ≤ max_{u~v} (q_u d_u + q_v d_v)
// by the row-sum norm: the weighted, scaled form of Anderson and
// Morley's bound (Linear and Multilinear Algebra 18, 141–145, 1985).
func (op *operator) edgeBounds() (lo, hi float64) {
	for u, du := range op.diag {
		lo = max(lo, du)
		for _, v := range op.g.Neighbors(u) {
			hi = max(hi, du+op.diag[int(v)])
		}
	}
	return lo * (1 - op.rel), hi * (1 + op.rel)
}

// perronBound returns a Collatz–Wielandt upper bound on λ_max(S):
// λ_max(S) ≤ ρ(|S|) (|S| = Q^{1/2}(D + A)Q^{1/2} dominates S entrywise),
// and ρ(|S|) ≤ max_i (|S| x)_i / x_i for every positive x; power steps on
// |S| drive x toward its Perron vector. For a bipartite graph S and |S|
// are similar (flip the signs on one side), so the bound is sharp: on a
// regular bipartite graph (even torus, hypercube) the first step, x = 1,
// gives λ_max exactly. It stops after iters steps, early once the bound
// is below stop, improves by less than a part in 10⁴, or comes from a
// vector with equal ratios (the Perron vector: nothing to improve).
func (op *operator) perronBound(stop float64, iters int) float64 {
	g, n := op.g, op.g.Order()
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	best := math.Inf(1)
	for range iters {
		var ratio, norm float64
		low := math.Inf(1)
		for u := range n {
			s := op.diag[u] * x[u]
			ws := g.Weights(u)
			for i, v := range g.Neighbors(u) {
				w := ws[i]
				if op.sq != nil {
					w *= op.sq[u] * op.sq[int(v)]
				}
				s += w * x[int(v)]
			}
			y[u] = s
			ratio = max(ratio, s/x[u])
			low = min(low, s/x[u])
			norm = max(norm, s)
		}
		prev := best
		best = min(best, ratio*(1+op.rel))
		// Equal ratios: x is the Perron vector (on a regular graph the
		// first step, x = 1), so the bound is ρ(|S|) and cannot improve.
		if best < stop || !(norm > 0) || best > prev*(1-1e-4) || low >= ratio {
			break
		}
		for i := range x {
			x[i] = y[i] / norm
			if !(x[i] > 0) { // underflow: x must stay positive
				x[i] = math.SmallestNonzeroFloat64
			}
		}
	}
	return best
}

// quotient holds the rigorous pieces of a Rayleigh quotient of S at
// y = Q^{−1/2} x for a vector x whose floating-point entries are taken
// as exact: y = Q^{−1/2}x gives yᵀ S y = xᵀ L x = Σ_{u<v} w_uv (x_u − x_v)²
// and ‖y‖² = Σ x_u²/q_u, sums of nonnegative terms whose computed values
// carry relative errors at most γ_{m+3} and γ_{n+1}. nullDot is
// Σ x_u/q_u = ‖Q^{−1/2}1‖ (the null vector's component), with absolute
// error at most nullErr, and nullNorm2 = Σ 1/q_u.
type quotient struct {
	num, den, nullDot, nullErr, nullNorm2 float64
	m, n                                  int
}

// newQuotient evaluates the quotient's sums at x (see quotient).
func (op *operator) newQuotient(x []float64) quotient {
	off, adj, w := op.g.CSR()
	qt := quotient{n: len(x), m: op.g.Size()}
	var abs float64
	for u, xu := range x {
		for i := off[u]; i < off[u+1]; i++ {
			if v := int(adj[i]); v > u {
				d := xu - x[v]
				qt.num += w[i] * d * d
			}
		}
		iq := 1.0
		if op.q != nil {
			iq = 1 / op.q[u]
		}
		qt.den += xu * xu * iq
		qt.nullDot += xu * iq
		abs += math.Abs(xu) * iq
		qt.nullNorm2 += iq
	}
	qt.nullErr = gammaK(qt.n+2) * abs
	return qt
}

// lower returns a proven lower bound on λ_max(S): the Rayleigh quotient
// of y rounded down (its value ≤ λ_max for every y ≠ 0).
func (qt quotient) lower() float64 {
	if !(qt.den > 0) {
		return 0
	}
	return qt.num * (1 - gammaK(qt.m+5)) / (qt.den * (1 + gammaK(qt.n+2)))
}

// upperOnComplement returns a proven upper bound on λ₂(S): the Rayleigh
// quotient of y's component orthogonal to the null vector Q^{−1/2}1
// (whose numerator equals yᵀSy, since S annihilates the null vector),
// rounded up; +Inf when rounding leaves that component's norm unproven.
func (qt quotient) upperOnComplement() float64 {
	c := math.Abs(qt.nullDot) + qt.nullErr
	perp := qt.den*(1-gammaK(qt.n+2)) - c*c/(qt.nullNorm2*(1-gammaK(qt.n+2)))
	if !(perp > 0) {
		return math.Inf(1)
	}
	return qt.num * (1 + gammaK(qt.m+5)) / perp * (1 + 4*unitRound)
}

// sqVector returns x = Q^{1/2} y for a vector y in S's coordinates
// (y itself for q = 1), the exact vector newQuotient takes.
func (op *operator) sqVector(y []float64) []float64 {
	if op.sq == nil {
		return y
	}
	x := make([]float64, len(y))
	for i := range y {
		x[i] = op.sq[i] * y[i]
	}
	return x
}

// checkVectors refuses a workspace of count n-vectors past the memory
// budget (loadlab.ErrTooLarge naming fn and n).
func checkVectors(fn string, n, count int) error {
	return size.Check("spectral", fn+": n-vectors of the Lanczos workspace, n", n, 8*count)
}
