package lanczos

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// Block runs the plain Lanczos recurrences of L for m probes in
// lockstep: the three vectors of every probe are stored interleaved
// (entry j of node i at i·m + j, in the breadth-first order of a
// lapmat.Matrix), so that one product reads each neighbour's m values from
// one or two cache lines. On a 10⁶-node expander the product is bound by
// the latency of those reads, not by arithmetic, so m probes cost little
// more than one (the reason for the block).
//
// Each probe's recurrence is exactly the single-vector one (no
// reorthogonalisation; the quadratures of finite-precision Lanczos
// converge as in exact arithmetic: Greenbaum, Linear Algebra Appl. 113,
// 1989; Knizhnerman 1996), with the component along the constants
// removed at every step (rounding leaks one, which T would see as a
// spurious eigenvalue 0). Every reduction is summed per fixed row block
// and the blocks in order, so a probe's tridiagonal does not depend on
// the number of goroutines, nor on the other probes of its block
// (spec throttlers.md §12.9).
type Block struct {
	mat      *lapmat.Matrix
	m        int
	v, vp, w []float64 // current, previous and next vectors, interleaved
	probes   []*Probe
	beta     []float64 // β of the last step per probe (pending in T)
	scale    []float64 // largest |α| so far per probe
	active   []bool    // false at an invariant subspace (T is exact)
	part     []float64 // per-row-block partial sums, m × 3 per block
}

// blockVectors is the number of interleaved n × m arrays of a block.
const blockVectors = 3

// NewBlock starts the recurrences of the probes: probe j from
// v = Pq_j/‖Pq_j‖, q_j the Rademacher vector of its seed (in the graph's
// order, gathered into the matrix's). It checks the workspace size.
func NewBlock(mat *lapmat.Matrix, probes []*Probe, q []float64) (*Block, error) {
	n := mat.N
	m := BlockLanes // lane counts 2, 4 or 8 (extra lanes stay inactive)
	if len(probes) <= 2 {
		m = 2
	} else if len(probes) <= 4 {
		m = 4
	}
	if err := size.Check("lanczos", "block Lanczos: interleaved Lanczos vectors, n", n, 8*blockVectors*m); err != nil {
		return nil, err
	}
	lb := &Block{mat: mat, m: m, probes: probes,
		v: make([]float64, n*m), vp: make([]float64, n*m), w: make([]float64, n*m),
		beta: make([]float64, m), scale: make([]float64, m), active: make([]bool, m), // lanes past the probes stay inactive
		part: make([]float64, 3*m*lapmat.NumBlocks(n))}
	for j, p := range probes {
		p.Alpha, p.Beta, p.Exact = p.Alpha[:0], p.Beta[:0], false
		nrm2 := drawProbe(q, p)
		p.wt = float64(n - 1)
		if nrm2 == 0 {
			p.Exact = true
			continue // one node: L† = 0 and every quadratic form is 0
		}
		lb.active[j] = true
		inv := 1 / math.Sqrt(nrm2)
		for i, u := range mat.Perm {
			lb.v[i*m+j] = q[u] * inv
		}
	}
	return lb, nil
}

// drawProbe fills q with the projection Pq of p's Rademacher probe and
// returns ‖Pq‖². On a graph of at least two nodes a probe with Pq = 0
// (every entry equal, probability 2^{1−n}) is replaced: p.Seed moves to
// the next seed of a fixed sequence until Pq ≠ 0, so the probes are
// Rademacher vectors conditioned on Pq ≠ 0, a law still invariant under
// permutations and sign flips (spec throttlers.md §12.12).
func drawProbe(q []float64, p *Probe) float64 {
	for {
		ProbeVector(q, p.Seed)
		nrm2 := dense.Dot(q, q)
		if nrm2 > 0 || len(q) < 2 {
			return nrm2
		}
		p.Seed = p.Seed*6364136223846793005 + 1442695040888963407
	}
}

// ProbeVector fills q with the projection Pq of the Rademacher probe of
// seed, as NewBlock draws it.
func ProbeVector(q []float64, seed uint64) {
	mc.Rademacher(q, rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)))
	var mean float64
	for _, v := range q {
		mean += v
	}
	mean /= float64(len(q))
	for i := range q {
		q[i] -= mean
	}
}

// live reports whether any recurrence is still running.
func (lb *Block) live() bool {
	for _, a := range lb.active {
		if a {
			return true
		}
	}
	return false
}

// sums runs fn over the fixed row blocks in parallel, fn adding its
// block's k·m partial sums into part, and returns the k·m totals summed
// in block order.
func (lb *Block) sums(k int, fn func(part []float64, lo, hi int)) []float64 {
	n, km := lb.mat.N, k*lb.m
	nb := lapmat.NumBlocks(n)
	part := lb.part[:nb*km]
	clear(part)
	lapmat.ParallelBlocks(nb, func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			lo, hi := lapmat.BlockRows(b, n)
			fn(part[b*km:(b+1)*km], lo, hi)
		}
	})
	tot := make([]float64, km)
	for b := range nb {
		for j, x := range part[b*km : (b+1)*km] {
			tot[j] += x
		}
	}
	return tot
}

// step runs one Lanczos step of every active probe: w = L v − α v −
// β vp with α = vᵀ L v, the constants' component removed, β = ‖w‖, and
// the vectors shifted (v ← w/β). It appends α (and the previous β) to
// each probe's tridiagonal and returns the number of products with L.
func (lb *Block) step() int {
	m := lb.m
	alpha := lb.sums(1, func(part []float64, lo, hi int) { lb.product(part, lo, hi) })
	for j, p := range lb.probes {
		if !lb.active[j] {
			alpha[j] = 0
			continue
		}
		if len(p.Alpha) > 0 {
			p.Beta = append(p.Beta, lb.beta[j])
		}
		p.Alpha = append(p.Alpha, alpha[j])
		lb.scale[j] = max(lb.scale[j], math.Abs(alpha[j]))
	}
	beta := lb.beta
	// w − αv − βvp, with Σ and Σ² of the result per probe: the
	// constants' component is its mean, and ‖w − mean‖² = Σ² − n mean².
	s := lb.sums(2, func(part []float64, lo, hi int) {
		w, v, vp := lb.w, lb.v, lb.vp
		for i := lo * m; i < hi*m; i += m {
			for j := range m {
				x := w[i+j] - alpha[j]*v[i+j] - beta[j]*vp[i+j]
				w[i+j] = x
				part[j] += x
				part[m+j] += x * x
			}
		}
	})
	n := float64(lb.mat.N)
	mean, inv := make([]float64, m), make([]float64, m)
	count := 0
	for j := range m {
		if !lb.active[j] {
			continue
		}
		count++
		mean[j] = s[j] / n
		b := math.Sqrt(max(s[m+j]-n*mean[j]*mean[j], 0))
		if b <= 1e-14*lb.scale[j] {
			lb.active[j] = false // invariant subspace: the quadrature is exact
			lb.probes[j].Exact = true
			continue
		}
		lb.beta[j], inv[j] = b, 1/b
	}
	// vp ← (w − mean)/β (zero for a finished probe), then rotate.
	lapmat.ParallelBlocks(lapmat.NumBlocks(lb.mat.N), func(b0, b1 int) {
		lo, _ := lapmat.BlockRows(b0, lb.mat.N)
		_, hi := lapmat.BlockRows(b1-1, lb.mat.N)
		w, vp := lb.w, lb.vp
		for i := lo * m; i < hi*m; i += m {
			for j := range m {
				vp[i+j] = (w[i+j] - mean[j]) * inv[j]
			}
		}
	})
	lb.v, lb.vp = lb.vp, lb.v
	return count
}

// BlockLanes is the width of the lane groups of a block: 8 float64 are
// one 64-byte cache line, and the interleaved arrays are allocated with
// a multiple of 8 lanes, so a neighbour's group is one aligned line (Go
// allocates arrays this large on page boundaries).
const BlockLanes = 8

// product sets w = L v on the rows [lo, hi) and adds each lane's
// Σ_i w_ij v_ij into part, as (L v)_i = d_i v_i − Σ_e c_e v_{u(e)} with
// d_i = Σ_e c_e (a relative rounding error of (deg + 2) u in
// |L||v|, like the single-vector product's). Each group of 8 lanes is
// one pass over the row's entries with the 8 sums unrolled.
func (lb *Block) product(part []float64, lo, hi int) {
	mt, m := lb.mat, lb.m
	if m%BlockLanes != 0 {
		lb.productNarrow(part, lo, hi)
		return
	}
	v, w := lb.v, lb.w
	for i := lo; i < hi; i++ {
		e0, e1 := mt.Span(i)
		adj := mt.Adj[e0:e1]
		var ws []float64
		if mt.W != nil {
			ws = mt.W[e0:e1]
			ws = ws[:len(adj)]
		}
		for g := 0; g < m; g += BlockLanes {
			var a0, a1, a2, a3, a4, a5, a6, a7, d float64
			if ws == nil {
				// One weight wc: sum the neighbours' values, scale once.
				for _, u := range adj {
					x := (*[BlockLanes]float64)(v[int(u)*m+g:])
					a0 += x[0]
					a1 += x[1]
					a2 += x[2]
					a3 += x[3]
					a4 += x[4]
					a5 += x[5]
					a6 += x[6]
					a7 += x[7]
				}
				c := mt.Wc
				a0, a1, a2, a3, a4, a5, a6, a7 = c*a0, c*a1, c*a2, c*a3, c*a4, c*a5, c*a6, c*a7
				d = c * float64(len(adj))
			}
			for e, u := range ws {
				c := u
				x := (*[BlockLanes]float64)(v[int(adj[e])*m+g:])
				a0 += c * x[0]
				a1 += c * x[1]
				a2 += c * x[2]
				a3 += c * x[3]
				a4 += c * x[4]
				a5 += c * x[5]
				a6 += c * x[6]
				a7 += c * x[7]
				d += c
			}
			xi := (*[BlockLanes]float64)(v[i*m+g:])
			out := (*[BlockLanes]float64)(w[i*m+g:])
			pt := (*[BlockLanes]float64)(part[g:])
			out[0] = d*xi[0] - a0
			out[1] = d*xi[1] - a1
			out[2] = d*xi[2] - a2
			out[3] = d*xi[3] - a3
			out[4] = d*xi[4] - a4
			out[5] = d*xi[5] - a5
			out[6] = d*xi[6] - a6
			out[7] = d*xi[7] - a7
			for j := range BlockLanes {
				pt[j] += out[j] * xi[j]
			}
		}
	}
}

// productNarrow is product for a block of 2 or 4 lanes (a chunk's last
// few probes, whose interleaved arrays are kept narrow, small enough for
// the cache, rather than padded to a full line), with the sums unrolled.
func (lb *Block) productNarrow(part []float64, lo, hi int) {
	mt, m := lb.mat, lb.m
	v, w := lb.v, lb.w
	for i := lo; i < hi; i++ {
		e0, e1 := mt.Span(i)
		adj := mt.Adj[e0:e1]
		var ws []float64
		if mt.W != nil {
			ws = mt.W[e0:e1]
			ws = ws[:len(adj)]
		}
		var a0, a1, a2, a3, d float64
		c := 1.0 // with one weight wc: summed unscaled, scaled once (as product)
		switch {
		case m == 2:
			for e, u := range adj {
				if ws != nil {
					c = ws[e]
				}
				x := (*[2]float64)(v[int(u)*2:])
				a0 += c * x[0]
				a1 += c * x[1]
				d += c
			}
		default:
			for e, u := range adj {
				if ws != nil {
					c = ws[e]
				}
				x := (*[4]float64)(v[int(u)*4:])
				a0 += c * x[0]
				a1 += c * x[1]
				a2 += c * x[2]
				a3 += c * x[3]
				d += c
			}
		}
		if ws == nil {
			c = mt.Wc
			a0, a1, a2, a3, d = c*a0, c*a1, c*a2, c*a3, c*float64(len(adj))
		}
		acc := [4]float64{a0, a1, a2, a3}
		xi, out := v[i*m:][:m], w[i*m:][:m]
		for j, xj := range xi {
			out[j] = d*xj - acc[j]
			part[j] += out[j] * xj
		}
	}
}

// tailErr estimates the relative error left in the last of four Gauss
// quadratures x0, …, x3 taken CheckSteps steps apart (sequences that
// increase to their limits here): with the first and last changes d₁,
// d₃ and the mean rate r = √(d₃/d₁) over the two checks between them,
// the geometric tail d₃ r/(1 − r), relative to x3; 0 when stationary,
// +Inf while r ≥ 1. It returns r too. (The rate over two checks, not
// one, keeps a single slow step from predicting hundreds.) It only
// predicts how many steps a quadrature still needs (the choice between
// Lanczos and solves for a); whether a quadrature has settled is decided
// by its bracket (relWidth).
func tailErr(x0, x1, x2, x3 float64) (relErr, ratio float64) {
	d1, d3 := math.Abs(x1-x0), math.Abs(x3-x2)
	if d3 == 0 {
		return 0, 0
	}
	r := math.Sqrt(d3 / d1)
	if !(r < 1) {
		return math.Inf(1), math.Inf(1)
	}
	return d3 * r / (1 - r) / math.Abs(x3), r
}

// relWidth returns the relative half-width (hi − lo)/(hi + lo) of a
// bracket of a nonnegative quantity (0 for [0, 0], +Inf for an open
// upper end).
func relWidth(lo, hi float64) float64 {
	if hi == lo {
		return 0
	}
	return (hi - lo) / (hi + lo)
}

// Ends holds the ends of intervals holding the spectrum of L on 1⊥ that
// the Gauss–Radau bounds need (spec throttlers.md §12.11).
type Ends struct {
	// LmaxHi is a proven upper bound on λ_n; every γ is below 2/LmaxHi.
	LmaxHi float64
	// Lam2Lo returns a lower bound on λ₂ (≤ 0 when none is available:
	// then a is never settled by quadrature). It is asked for once, when
	// the first probe's a looks settled, and remembered.
	Lam2Lo func() float64
	// Extra, if not nil, returns the relative half-width of further
	// brackets of a probe that must settle too (the delayed quadratures
	// of consensus, at their own γ).
	Extra func(p *Probe) float64
	lam2  float64
	asked bool
}

// Lam2 returns the remembered lower bound on λ₂, asking for it on the
// first call.
func (e *Ends) Lam2() float64 {
	if !e.asked {
		e.asked = true
		if e.Lam2Lo != nil {
			e.lam2 = e.Lam2Lo()
		}
	}
	return e.lam2
}

// blockState is the convergence of a block's quadratures at one check.
type blockState struct {
	shifted bool    // b and c of every probe within tol at γ
	a       bool    // a of every probe within tol
	aSteps  float64 // predicted further steps for the slowest a
}

// check judges the quadratures of every running probe of lb after its
// k steps: b and c at γ have settled when their brackets (Gauss below,
// Gauss–Radau at ends.LmaxHi above), and those of ends.Extra, have
// relative half-width ≤ tol; a
// when the geometric tail of its Gauss quadratures after k − 3, …, k
// steps (the leading blocks of T, so no history is kept) is ≤ tol
// and then its bracket (Gauss–Radau at the lower bound on λ₂) too. The
// tail's rate, and once the bracket is computed the rate at which its
// width shrank over the last step, predict the further steps a needs. A probe at an invariant
// subspace is exact.
func (lb *Block) check(gamma, tol float64, withA bool, ends *Ends, w *QuadWork) blockState {
	st := blockState{shifted: true, a: true}
	for j, p := range lb.probes {
		k := len(p.Alpha)
		if !lb.active[j] {
			continue
		}
		if k <= 2*CheckSteps {
			st.shifted, st.a, st.aSteps = false, !withA, math.Inf(1)
			continue
		}
		b, c := p.ShiftedBounds(gamma, ends.LmaxHi, w)
		if relWidth(b[0], b[1]) > tol || relWidth(c[0], c[1]) > tol ||
			ends.Extra != nil && !(ends.Extra(p) <= tol) {
			st.shifted = false
		}
		if !withA {
			continue
		}
		if k <= 3*CheckSteps {
			st.a = false // no prediction yet
			continue
		}
		var a [4]float64
		for i := range 4 {
			a[i] = p.ResistanceK(k-(3-i)*CheckSteps, w)
		}
		ea, r := tailErr(a[0], a[1], a[2], a[3])
		if ea <= tol {
			lam2 := ends.Lam2()
			if !(lam2 > 0) {
				st.a, st.aSteps = false, math.Inf(1)
				continue
			}
			prev := relWidth(p.ResistanceBounds(k-CheckSteps, lam2, w))
			ea = relWidth(p.ResistanceBounds(k, lam2, w))
			r = ea / prev // the bracket's own rate predicts the steps left
		}
		if ea > tol {
			st.a = false
			st.aSteps = max(st.aSteps, stepsToTol(ea, r, tol))
		}
	}
	return st
}

// stepsToTol predicts the Lanczos steps that bring a relative error e
// shrinking by r per check down to tol (+Inf without a rate).
func stepsToTol(e, r, tol float64) float64 {
	if !(r < 1) || !(r > 0) || math.IsInf(e, 1) {
		return math.Inf(1)
	}
	return CheckSteps * math.Log(tol/e) / math.Log(r)
}

// steps returns the steps taken by the block's running recurrences.
func (lb *Block) steps() int {
	k := 0
	for _, p := range lb.probes {
		k = max(k, len(p.Alpha))
	}
	return k
}

// ErrSteps is the error of a block that reached maxSteps.
func ErrSteps(gamma float64, maxSteps int) error {
	return loadlab.Wrap(loadlab.ErrNotConverged, "lanczos", "Lanczos quadrature at γ = %.6g did not settle in %d steps", gamma, maxSteps)
}

// Budgets of the quadrature samplers (consensus.EstimateGammaH2,
// consensus.EstimateH2 and the Lanczos path of estimate.Kirchhoff).
const (
	// QuadRel is the quadratures' relative tolerance per unit of RelAcc:
	// each probe's a, b and c are bracketed (Gauss and Gauss–Radau) to a
	// relative half-width ≤ RelAcc/10, and the estimates' intervals are
	// widened by the brackets (BracketEstimate), so the quadratures add
	// at most about a tenth of the requested half-width.
	QuadRel = 0.1
	// ResMax is the most Lanczos steps spent on the resistance
	// term a = qᵀL†q before it is left to preconditioned solves.
	ResMax = 200
)

// Settle steps lb until every probe's brackets of b and c at γ (and of
// a when withA) have relative half-width ≤ tol (check, with the spectral
// ends ends); it checks before the first step,
// so a block continued after a change of γ may need none. When a is
// predicted to need more than ResMax steps it reports slowA and
// stops once b and c have settled. It returns the products with L and
// an error wrapping loadlab.ErrNotConverged after maxSteps steps.
func (lb *Block) Settle(gamma, tol float64, withA bool, ends *Ends, maxSteps int, qw *QuadWork) (matvecs int, slowA bool, err error) {
	for lb.live() {
		k := lb.steps()
		if k%CheckSteps == 0 {
			st := lb.check(gamma, tol, withA, ends, qw)
			if withA && st.shifted && !st.a && (k >= ResMax || float64(k)+st.aSteps > ResMax) {
				slowA, withA, st.a = true, false, true
			}
			if st.shifted && (st.a || !withA) {
				return matvecs, slowA, nil
			}
		}
		if k >= maxSteps {
			return matvecs, slowA, ErrSteps(gamma, maxSteps)
		}
		matvecs += lb.step()
	}
	return matvecs, slowA, nil
}
