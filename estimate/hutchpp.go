package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"gonum.org/v1/gonum/mat"
)

// Hutch++ for the Kirchhoff index (Meyer, Musco, Musco and Woodruff
// 2021; spec throttlers.md §12.9), with the sketch refined by subspace
// iteration and Rayleigh–Ritz:
// for any orthonormal Q ⊥ 1 with projector P = QQᵀ,
//
//	tr L† = tr(Qᵀ L† Q) + tr((I − P) L† (I − P)),
//
// the first term computed by one solve per column of Q and the second by
// Hutchinson's estimator on the probes (I − P) z. Q depends only on the
// sketch, drawn before and independently of the residual probes, so
// conditionally on Q the residual mean is unbiased and its Student-t
// interval is the usual one; Q only decides the variance. The residual's
// per-probe variance is 2‖(I − P) L† (I − P)‖_F² (Rademacher, minus the
// diagonal): when Q holds the m smallest-eigenvalue modes it is the tail
// Σ_{i>m} 1/λ_i². On a 2-D torus there are ≈ πr² modes with (j²+k²) ≤ r²,
// so the tail falls like π/r² ∝ 1/m: from the closed spectrum of the
// 1000×1000 torus, the per-probe relative spread of n zᵀL†z is 0.077
// with no deflation (225 probes for 1 %), 0.0196 with m = 24 (15
// probes), 0.017 with m = 32 (12), 0.014 with m = 48 (10, the minimum).
// The kept m = 24 and sketch k = 32 are the cheaper of the two settings
// compared on the 500×500 torus: 1440 conjugate-gradient iterations in
// all against 1620 with k = 40, m = 32 (the solves of the Ritz vectors,
// smooth right-hand sides, cost ≈ 29 iterations each, a probe ≈ 36).
const (
	// hppSketch is the sketch width k: the subspace iteration runs on k
	// vectors and the hppKeep Ritz vectors with the smallest Ritz values
	// are kept. Oversampling (k > m) makes the kept vectors converge to
	// the low modes in few steps: the subspace iteration's rate for mode
	// i ≤ m is λ_i/λ_{k+1} per step, not λ_i/λ_{m+1}.
	hppSketch = 32
	hppKeep   = 24
	// hppPower is the number of subspace-iteration steps, each applying
	// the preconditioner (≈ L†) to every sketch vector: one triangular
	// solve pair per vector, about a PCG iteration's cost.
	hppPower = 3
	// hppPilot is the number of Hutchinson probes after which the
	// switching rule is first applied; hppSwitchProbes is the projected
	// probe count above which Hutch++ takes over. A Hutch++ run costs
	// about two loose solves per kept Ritz vector plus MinProbes probes
	// or more, ≈ 35–45 probe solves: above 60 projected probes it wins.
	hppPilot        = 4
	hppSwitchProbes = 60
	// hppMinOrder is the smallest order for which Hutch++ is used (the
	// sketch must be a small fraction of n).
	hppMinOrder = 16 * hppSketch
	// hppDetTol1Factor·RelAcc (at most 0.3) and hppDetTol2 are the
	// relative residuals of the two solves per Ritz vector (see
	// deterministic). Their error bound is about Σ_j tol₁² tol₂ ‖L†q_j‖,
	// computed and added to the interval: on the 500 × 500 torus at 1 %
	// it is 5·10⁻⁴ of K_f, a twentieth of the requested half-width, and
	// it saves 13 % of the deterministic part's iterations against
	// tol₁ = 3·RelAcc (496 against 567 for the 24 columns).
	hppDetTol1Factor = 10
	hppDetTol2       = 0.3
	// hppBlockCols is the width of the blocks passed to SolveBlock:
	// half of MaxBlockCols, so that its workspace (7 vectors per column)
	// and the sketch stay under 2 GiB at 10⁶ nodes (1.9 GB peak RSS with
	// 16, 1.5 GB with 8).
	hppBlockCols = 8
	// hppBiasShare: the residual probes' solve-error bound is kept below
	// RelAcc/hppBiasShare of the estimate (see probeTol), so that it
	// widens the interval by a twentieth.
	hppBiasShare = 20
)

// switchToHutchPP reports whether the Hutchinson sample vals (relative
// target relAcc) on a graph of order n calls for Hutch++: after hppPilot
// probes, when it projects more than hppSwitchProbes probes and n ≥
// hppMinOrder, or always (n ≥ 64) when force is EstimatorHutchPP; never
// when force is EstimatorHutchinson.
func switchToHutchPP(vals []float64, relAcc float64, n int, force TraceEstimator) bool {
	if len(vals) != hppPilot && (len(vals) < hppPilot || force == EstimatorHutchPP) {
		return false
	}
	switch force {
	case EstimatorHutchinson:
		return false
	case EstimatorHutchPP:
		return n >= 64
	}
	e := mc.Estimate(vals)
	if n < hppMinOrder || !(e.Mean > 0) {
		return false
	}
	need := math.Pow(1.96*e.StdErr*math.Sqrt(float64(len(vals)))/(relAcc*e.Mean), 2)
	return need > hppSwitchProbes
}

// hutchPP is the state of one Hutch++ estimate.
type hutchPP struct {
	s     *laplacian.Solver
	ts    TraceSettings
	tol   float64 // of the residual probes
	rng   *rand.Rand
	n     int
	k, m  int         // sketch width, vectors kept
	power int         // subspace-iteration steps
	q, lq [][]float64 // the kept Ritz vectors, L times them
	w     [][]float64 // workspace, as long as the sketch
	theta []float64   // Ritz values
	det   float64     // tr(QᵀL†Q)
	bound float64     // bound on the solve error of det
	sigma float64     // estimate of 1/λ₂ for the second-order error terms
}

// newHutchPP returns the estimator state with the default sketch.
func newHutchPP(s *laplacian.Solver, ts TraceSettings, rng *rand.Rand) *hutchPP {
	n := s.Order()
	k := max(min(hppSketch, n/16), 4)
	return &hutchPP{s: s, ts: ts, tol: s.Settings().Tol, rng: rng, n: n, k: k, m: min(hppKeep, k), power: hppPower}
}

// estimateHutchPP finishes out (Hutchinson's so far) by Hutch++, starting
// the sketch from seeds (solutions L† z of earlier probes, taken over).
func estimateHutchPP(s *laplacian.Solver, ts TraceSettings, rng *rand.Rand, seeds [][]float64, out *TraceResult) error {
	h := newHutchPP(s, ts, rng)
	out.Estimator = EstimatorHutchPP
	if err := h.sketch(seeds); err != nil {
		return err
	}
	out.Sketch = len(h.q)
	if err := h.deterministic(out); err != nil {
		return err
	}
	return h.residual(out)
}

// sketch builds Q: the seeds and fresh Gaussian vectors up to h.k,
// h.power steps of subspace iteration with the preconditioner, and the
// h.m Ritz vectors of L with the smallest Ritz values. One SVQB pass per
// step suffices (the preconditioner maps an orthonormal block to one of
// condition about λ_k/λ_2, so one pass orthogonalises to κ²ε); the last
// gets two, as Q must be orthonormal for the splitting of the trace.
func (h *hutchPP) sketch(seeds [][]float64) error {
	k := h.k
	if err := size.Check("estimate", "Kirchhoff: Hutch++ sketch, nodes", h.n, 2*k*8); err != nil {
		return err
	}
	a, b := make([][]float64, k), make([][]float64, k)
	copy(a, seeds[:min(len(seeds), k)])
	for j := range k {
		if a[j] == nil {
			a[j] = make([]float64, h.n)
			for u := range a[j] {
				a[j][u] = h.rng.NormFloat64()
			}
		}
		b[j] = make([]float64, h.n)
	}
	q := orthonormalize(a, 1)
	for step := range h.power {
		for j, v := range q {
			if err := h.s.ApplyPreconditioner(b[j], v); err != nil {
				return err
			}
		}
		passes := 1
		if step == h.power-1 {
			passes = 2
		}
		q = orthonormalize(b[:len(q)], passes)
		a, b = b, a
	}
	if h.power == 0 {
		q = orthonormalize(q, 1)
	}
	h.q, h.theta = ritz(h.s.Operator(), q, b, h.m)
	h.w = b
	return nil
}

// deterministic computes tr(QᵀL†Q) column by column with two loose
// solves instead of one tight one. For q ⊥ 1, x ≈ L†q with residual r =
// q − L x, and y ≈ L†r with residual s = r − L y,
//
//	qᵀL†q = qᵀx + xᵀr + rᵀy + (L†r)ᵀs,
//
// exactly (L†q = x + L†r and L†r = y + L†s), so the first three terms,
// all computed, leave an error |(L†r)ᵀs| ≤ ‖s‖ (‖y‖ + ‖L†s‖) that is the
// product of both residuals. The right-hand sides q are smooth (low
// modes), on which conjugate gradients converge slowly: two solves to
// hppDetTol1Factor·RelAcc and hppDetTol2 cost fewer iterations than one
// to the accuracy their product gives (on the torus, 27 iterations per
// column to 1e-3).
func (h *hutchPP) deterministic(out *TraceResult) error {
	m := len(h.q)
	x := h.w[:m]
	res, err := blockSolve(h.s, max(min(hppDetTol1Factor*h.ts.RelAcc, 0.3), h.tol), x, h.q)
	h.count(out, res)
	if err != nil {
		return err
	}
	r := make([]float64, h.n)
	for j, q := range h.q { // x_j becomes r_j
		h.s.Operator().Apply(r, x[j])
		for u := range r {
			r[u] = q[u] - r[u]
		}
		h.det += dense.Dot(q, x[j]) + dense.Dot(x[j], r)
		h.sigma = max(h.sigma, 2*math.Sqrt(dense.Dot(x[j], x[j])))
		copy(x[j], r)
	}
	y := make([][]float64, min(m, blockCols(h.s)))
	for j := range y {
		y[j] = make([]float64, h.n)
	}
	for c0 := 0; c0 < m; c0 += len(y) {
		c1 := min(c0+len(y), m)
		res, err := blockSolve(h.s, max(hppDetTol2, h.tol), y[:c1-c0], x[c0:c1])
		h.count(out, res)
		if err != nil {
			return err
		}
		for j, rr := range res {
			rj := x[c0+j]
			h.det += dense.Dot(rj, y[j])
			h.bound += h.solveBound(rr.Residual*math.Sqrt(dense.Dot(rj, rj)), math.Sqrt(dense.Dot(y[j], y[j])))
		}
	}
	return nil
}

// count adds the work of the solves res to out.
func (h *hutchPP) count(out *TraceResult, res []laplacian.SolveResult) {
	for _, r := range res {
		out.Iterations += r.Iterations
		out.Solves++
	}
}

// solveBound bounds the error (L†b)ᵀr left by a solve x ≈ L†b with
// residual r = b − L x of norm rnorm: |(L†b)ᵀr| ≤ ‖L†b‖ rnorm ≤ (‖x‖ +
// ‖L†r‖) rnorm ≤ (‖x‖ + rnorm/λ₂) rnorm. 1/λ₂ is taken as h.sigma = 2
// max_j ‖L†q_j‖ over the Ritz vectors q_j (≤ 2/λ₂, and ≥ 1/λ₂ once q₁
// holds half the weight of the lowest mode, which the subspace iteration
// gives by far): an estimate, not a certificate, but it only scales the
// second-order term rnorm²/λ₂.
func (h *hutchPP) solveBound(rnorm, xnorm float64) float64 {
	return rnorm * (xnorm + h.sigma*rnorm)
}

// residual runs Hutchinson's estimator on (I − P) L† (I − P) until the
// interval of the total meets RelAcc. The probes are solved in blocks of
// up to blockCols (the first up to MinProbes, then as many as the
// interval projects, see nextResidualBlock), at the loose tolerance of
// probeTol: each probe's value carries its first-order correction, so
// its error is the second-order rᵀL†r ≥ 0 (see probeValue), bounded and
// added to the upper end of the interval.
func (h *hutchPP) residual(out *TraceResult) error {
	tol := h.probeTol()
	var vals []float64
	var bias float64 // Σ of the per-probe bounds on rᵀL†r, times n
	var z, x [][]float64
	r := make([]float64, h.n)
	for len(vals) < h.ts.MaxProbes {
		k := min(h.ts.MaxProbes-len(vals), nextResidualBlock(len(vals), out.Estimate, h.ts, blockCols(h.s)))
		for len(z) < k {
			z, x = append(z, make([]float64, h.n)), append(x, make([]float64, h.n))
		}
		for j := range k {
			mc.Rademacher(z[j], h.rng)
			h.project(z[j])
		}
		res, err := blockSolve(h.s, tol, x[:k], z[:k])
		h.count(out, res)
		if err != nil {
			return err
		}
		for j := range k {
			v, b := h.probeValue(z[j], x[j], r)
			vals, bias = append(vals, v), bias+b
		}
		out.Estimate, out.Probes = h.total(vals, bias), len(vals)
		if len(vals) >= h.ts.MinProbes && out.Estimate.RelHalfWidth() <= h.ts.RelAcc {
			out.Status = loadlab.Success
			return nil
		}
	}
	return nil
}

// nextResidualBlock returns the number of residual probes to solve next
// after m with the estimate e so far: up to MinProbes first, then half
// the number the relative half-width h projects as still missing,
// (m·(h/RelAcc)² − m)/2, at least 1 and at most the block width w. Half,
// because a block is not faster per column than single solves with the
// factor at 10⁶ nodes (laplacian's approxcholblock.go) while the
// projection, from a noisy spread, overshoots: the whole projection took
// 26 probes on the 1000 × 1000 torus where one at a time had stopped at
// 21.
func nextResidualBlock(m int, e loadlab.Estimate, ts TraceSettings, w int) int {
	if m < ts.MinProbes {
		return min(ts.MinProbes-m, w)
	}
	hw := e.RelHalfWidth() / ts.RelAcc
	need := (float64(m)*hw*hw - float64(m)) / 2
	if !(need < float64(w)) { // also NaN
		return w
	}
	return max(1, int(math.Ceil(need)))
}

// probeTol returns the relative residual of the residual probes' solves:
// the loosest (at most 10⁻², at least the solver's tolerance) at which
// the bound n‖r‖²σ of probeValue, with ‖r‖ ≤ tol‖z‖ ≤ tol√n, stays below
// RelAcc/hppBiasShare of n·det ≤ K_f. On the 1000 × 1000 torus at 1 %
// it is about 10⁻⁴, two decades looser than the default 10⁻⁶ of a
// first-order bound (a third of the iterations of each probe).
func (h *hutchPP) probeTol() float64 {
	n := float64(h.n)
	tol := math.Sqrt(h.ts.RelAcc / hppBiasShare * h.det / (n * h.sigma))
	if !(tol > h.tol) { // also NaN: a degenerate sketch
		return h.tol
	}
	return min(tol, 1e-2)
}

// probeValue returns n·((z̄)ᵀx + xᵀr) for the probe z, its computed
// solution x ≈ L†z and r = z̄ − L x (z̄ the projection of z onto 1⊥; r is
// written to the scratch r), and the bound n‖r‖²σ on its error. Since z̄
// = L x + r, z̄ᵀL†z̄ = xᵀLx + 2xᵀr + rᵀL†r and z̄ᵀx = xᵀLx + xᵀr, so the
// value falls short of n z̄ᵀL†z̄ by exactly n rᵀL†r ∈ [0, n‖r‖²/λ₂]:
// second order in the residual, whatever the solver did (conjugate
// gradients make xᵀr ≈ 0, but the identity does not rely on it). 1/λ₂
// is taken as σ (see solveBound).
func (h *hutchPP) probeValue(z, x, r []float64) (val, bound float64) {
	n := float64(h.n)
	h.s.Operator().Apply(r, x)
	var mean float64
	for u := range r {
		mean += z[u]
	}
	mean /= n
	for u := range r {
		r[u] = z[u] - mean - r[u]
	}
	val = n * (dense.Dot(z, x) - mean*sum(x) + dense.Dot(x, r))
	return val, n * dense.Dot(r, r) * h.sigma
}

// sum returns Σ v.
func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// total returns the estimate n·det + mean(vals) with the Student-t
// interval of the residual sample widened by the deterministic part's
// solve-error bound on both sides and by the mean of the probes' bounds
// bias on the upper side (their values are low by at most that).
func (h *hutchPP) total(vals []float64, bias float64) loadlab.Estimate {
	e := mc.Estimate(vals)
	shift := float64(h.n) * h.det
	slack := float64(h.n) * h.bound
	e.Mean += shift
	e.Lo += shift - slack
	e.Hi += shift + slack + bias/float64(len(vals))
	return e
}

// project sets z = (I − QQᵀ) z.
func (h *hutchPP) project(z []float64) {
	c := gram(h.q, [][]float64{z}, false)
	for j, v := range h.q {
		dense.Axpy(z, -c[j], v)
	}
}

// blockSolve sets dst[j] ≈ L† b[j] for every j at relative residual tol
// by SolveBlock, in chunks of at most blockCols(s) columns through one
// n×chunk matrix (by Solve when that is 1), and returns the results of
// the columns solved; it stops after the first chunk with an error. dst
// and b may be the same vectors.
func blockSolve(s *laplacian.Solver, tol float64, dst, b [][]float64) ([]laplacian.SolveResult, error) {
	saved := s.Settings().Tol
	if err := s.SetTol(tol); err != nil {
		return nil, err
	}
	defer s.SetTol(saved)
	n, w := s.Order(), blockCols(s)
	var res []laplacian.SolveResult
	var m *mat.Dense
	for c0 := 0; c0 < len(b); c0 += w {
		c1 := min(c0+w, len(b))
		if c1-c0 == 1 { // a block of one is slower than Solve
			r, err := s.Solve(dst[c0], b[c0])
			if res = append(res, r); err != nil {
				return res, err
			}
			continue
		}
		if m == nil || c1-c0 != w {
			m = mat.NewDense(n, c1-c0, nil)
		}
		for j := c0; j < c1; j++ {
			m.SetCol(j-c0, b[j])
		}
		r, err := s.SolveBlock(m, m)
		res = append(res, r...)
		for j := c0; j < c1; j++ {
			mat.Col(dst[j], j-c0, m)
		}
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// blockCols returns the width of the blocks of Hutch++'s solves:
// hppBlockCols, or fewer where the solver's PreferredBlockCols says so
// (above about 2·10⁶ nodes, where a wider block would be substituted in
// groups, or its workspace would pass 2 GiB).
func blockCols(s *laplacian.Solver) int {
	return min(hppBlockCols, s.PreferredBlockCols())
}

// TraceEstimator names the estimator behind a TraceResult, or the one
// TraceSettings.Estimator asks for.
type TraceEstimator int

const (
	// EstimatorNone is the zero value: in TraceSettings, let Kirchhoff
	// choose; in a TraceResult, no estimator ran (an error came first).
	EstimatorNone TraceEstimator = iota
	// EstimatorHutchinson: Hutchinson's estimator, one solve per probe.
	EstimatorHutchinson
	// EstimatorHutchPP: Hutch++ — the trace on a sketched subspace of
	// the smallest-eigenvalue modes by solves, plus Hutchinson's
	// estimator on the rest (spec throttlers.md §12.9).
	EstimatorHutchPP
	// EstimatorLanczos: Hutchinson's estimator with each probe's qᵀL†q
	// by Gauss quadrature on its Lanczos tridiagonal, no solves (spec
	// throttlers.md §12.9); Kirchhoff takes it when the quadrature
	// settles within 200 Lanczos steps (well-conditioned graphs).
	EstimatorLanczos
)

// String returns the estimator's name.
func (e TraceEstimator) String() string {
	switch e {
	case EstimatorNone:
		return "none"
	case EstimatorHutchinson:
		return "Hutchinson"
	case EstimatorHutchPP:
		return "Hutch++"
	case EstimatorLanczos:
		return "Lanczos quadrature"
	}
	return fmt.Sprintf("TraceEstimator(%d)", int(e))
}
