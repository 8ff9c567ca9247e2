package laplacian

import (
	"math"

	"github.com/loadlab/loadlab/internal/lapmat"
)

// The Auto preconditioner's cost model, in units of one Jacobi iteration
// (one product with L and five passes over the vectors), measured on the
// 1000 × 1000 torus, where the choice is closest (docs/benchmarks.md):
// the approximate Cholesky factorisation costs about acSetupIters Jacobi
// iterations and one of its iterations about acIterCost. Its iterations
// per decade of residual reduction, acDecadeBase + acDecadeLog·log₁₀ n,
// fit the counts measured on tori and grids of 1.6·10³–10⁶ nodes (3.2 at
// n = 1600, 5.7 at 10⁶). On an expander the factorisation and its
// iterations cost several times more (the elimination is sequential
// there), which only strengthens the choice of Jacobi that the model
// makes there anyway.
const (
	acSetupIters = 100
	acIterCost   = 3.2
	acDecadeBase = 0.3
	acDecadeLog  = 0.9
	jacobiRate   = 0.23
)

// autoProbe holds what Auto learns from the graph when the solver is
// built: a lower bound on the condition number κ(D⁻¹L) on 1⊥, by one
// sequential pass over the matrix (no products, no randomness), so the
// same graph gives the same choice whatever the number of goroutines.
type autoProbe struct {
	kappaLo float64 // λ_max lower bound over λ₂ upper bound
	n       int     // order
}

// probeKappa bounds κ(D⁻¹L) = λ_max/λ₂ of the pencil (L, D) from below by
// Rayleigh quotients R(f) = fᵀLf / fᵀDf of test vectors built from the
// breadth-first levels ℓ of the solver's numbering (spec throttlers.md
// §12.9): λ₂ ≤ R(f) for any f D-orthogonal to the constants, here ℓ and
// cos(π ℓ/ℓ_max) projected, and λ_max ≥ max(1, R((−1)^ℓ)) (the
// eigenvalues of D⁻¹L sum to n). A smooth vector over the levels is
// close to the slowest mode of a mesh, whose λ₂ shrinks with the square
// of the diameter; on an expander the levels are few and the bound stays
// a small constant, as κ does. One pass over the matrix, by fixed blocks
// whose sums are added in block order.
func probeKappa(m *lapmat.Matrix) float64 {
	n := m.N
	if n < 3 {
		return 1
	}
	level := make([]int32, n)
	for i := 1; i < n; i++ { // in breadth-first order the parent is the first neighbour
		lo, _ := m.Span(i)
		level[i] = level[m.Adj[lo]] + 1
	}
	top := int(level[n-1])
	cosv := make([]float64, top+1)
	for l := range cosv {
		cosv[l] = math.Cos(math.Pi * float64(l) / float64(top))
	}
	nb := lapmat.NumBlocks(n)
	part := make([]levelSums, nb)
	lapmat.ParallelBlocks(nb, func(lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			r0, r1 := lapmat.BlockRows(blk, n)
			part[blk] = levelBlock(m, level, cosv, r0, r1)
		}
	})
	var t levelSums
	for _, p := range part {
		for k := range t {
			t[k] += p[k]
		}
	}
	// t: Σd, Σd ℓ, Σd ℓ², Σd c, Σd c², Σ_{i~j} w [ℓ_i ≠ ℓ_j], Σ_{i~j} w (c_i − c_j)²,
	// the edge sums counting each edge twice. Adjacent levels differ by at
	// most one, so (ℓ_i − ℓ_j)² = [ℓ_i ≠ ℓ_j] and ((−1)^ℓ_i − (−1)^ℓ_j)² =
	// 4 [ℓ_i ≠ ℓ_j].
	dsum, cut := t[0], t[5]/2
	lin := cut / (t[2] - t[1]*t[1]/dsum)
	cs := t[6] / 2 / (t[4] - t[3]*t[3]/dsum)
	lam2 := min(lin, cs)
	lamMax := max(1, 4*cut/dsum)
	if !(lam2 > 0) {
		return math.Inf(1)
	}
	return max(1, lamMax/lam2)
}

// levelSums are the sums probeKappa gathers per block of rows.
type levelSums [7]float64

// levelBlock returns the sums of rows [lo, hi) (see probeKappa).
func levelBlock(m *lapmat.Matrix, level []int32, cosv []float64, lo, hi int) levelSums {
	var t levelSums
	for i := lo; i < hi; i++ {
		l := level[i]
		c := cosv[l]
		r0, r1 := m.Span(i)
		var d, cut, dc float64
		for k := r0; k < r1; k++ {
			w := m.Wc
			if m.W != nil {
				w = m.W[k]
			}
			d += w
			lj := level[m.Adj[k]]
			if lj != l {
				cut += w
			}
			e := c - cosv[lj]
			dc += w * e * e
		}
		fl := float64(l)
		t[0] += d
		t[1] += d * fl
		t[2] += d * fl * fl
		t[3] += d * c
		t[4] += d * c * c
		t[5] += cut
		t[6] += dc
	}
	return t
}

// jacobiIters predicts the Jacobi iterations to reduce the residual by
// tol as jacobiRate·√κ·ln(2/tol), κ its lower bound: the
// conjugate-gradient bound ½√κ ln(2/tol) with the factor measured on
// tori and grids of 4·10³–10⁶ nodes (random right-hand sides converge
// about twice as fast as the bound, and the bound on κ is within a
// factor 1.7 of κ there).
func (p autoProbe) jacobiIters(tol float64) float64 {
	return jacobiRate * math.Sqrt(p.kappaLo) * math.Log(2/tol)
}

// breakEven returns the cost of approximate Cholesky on n nodes,
// factorisation included, in Jacobi iterations, for a residual reduction
// by tol.
func breakEven(n int, tol float64) float64 {
	perDecade := acDecadeBase + acDecadeLog*math.Log10(float64(max(n, 2)))
	return acSetupIters + acIterCost*perDecade*math.Log10(1/tol)
}

// autoJacobiBudget returns the Jacobi iterations an Auto solve to tol
// runs before it switches to the factor: 0 when the probe predicts Jacobi
// to cost more than the factor and its iterations (the factor is built at
// once), else the break-even count, after which a Jacobi run that the
// probe misjudged has spent what the factor would have cost and switches
// (so Auto costs at most about twice the better choice).
func (p autoProbe) autoJacobiBudget(tol float64) int {
	t := breakEven(p.n, tol)
	if p.jacobiIters(tol) > t {
		return 0
	}
	return int(math.Ceil(t))
}
