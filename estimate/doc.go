// Package estimate holds loadlab's stochastic estimators of quantities of
// a graph's Laplacian L, and Hutchinson's trace estimator for any
// symmetric operator: each is named as an estimate and returns its
// 95 % confidence interval (loadlab.Estimate), and each takes its
// randomness from a math/rand/v2 rand.Source.
//
// # Entry points
//
//	r, err := estimate.Kirchhoff(g, nil, src)      // K_f = n tr L†, 1 % at 95 % by default
//	r, err = estimate.KirchhoffWithSolver(s, nil, src) // the same on a laplacian.Solver already built
//	d, err := estimate.PinvDiag(g, nil, src)       // diag(L†) (nodal resistances), per-node intervals
//	ds, err := estimate.Diagonals(g, 0, terms, coef, nil, src) // diagonals of combinations of f_i(L)
//	er, err := estimate.EdgeResistances(g, nil, src)        // R_e of every edge within 1 ± ε
//	sk, err := estimate.NewResistanceSketch(g, nil, src)    // R_uv of any pair within 1 ± ε
//	t, err := estimate.Trace(n, apply, nil, src)            // tr A of any symmetric A, given as apply(dst, x)
//
// The exact values of these quantities, where a dense or certified method
// reaches them, are in package spectral; the H2 measures of a throttler
// and γ*_H2 are estimated by package consensus with the same machinery.
//
// # Estimators
//
//   - Kirchhoff: Hutchinson's estimator (Rademacher probes q, n qᵀL†q),
//     each probe's quadratic form bracketed by Gauss and Gauss–Radau
//     quadratures on its Lanczos tridiagonal (the interval holds the
//     brackets) when that settles within 200 steps and the probes' spread
//     stays small (well-conditioned graphs; no solves), else by one
//     preconditioned solve per probe,
//     switching to Hutch++ (a sketch of the smallest-eigenvalue modes
//     taken exactly, probes on the rest) when the observed spread
//     projects more than 60 probes. TraceResult.Estimator says which ran;
//     TraceSettings.Estimator forces one.
//   - Trace: Hutchinson's estimator for an operator given as a function
//     (a matrix product, solves, a polynomial of L): one application per
//     probe, Rademacher probes, the same stopping rule as Kirchhoff.
//   - PinvDiag and Diagonals: the diagonal estimator of Bekas, Kokiopoulou
//     and Saad with a Chebyshev control variate computed exactly from
//     local moments; each node gets the Student-t interval of its own
//     probe values.
//   - EdgeResistances and NewResistanceSketch: the random projections of
//     Spielman and Srivastava, with k projections chosen so that each
//     value is within 1 ± ε with probability 1 − δ (SketchProjections),
//     and Foster's theorem checked on every result.
//
// Probes are added until the interval's relative half-width is at most
// TraceSettings.RelAcc (default 1 %), after MinProbes (default 10: a
// sequential rule that looks earlier undercovers; below 2¹⁷ nodes the
// Lanczos path rounds it up to whole blocks of 8 probes, 16, at no
// measurable cost). Kirchhoff's probes are weighted by n − 1 rather than ‖Pq‖²
// (an exact removal of the constants' direction, unbiased because the
// probes' law is invariant under permutations): on stars and complete
// graphs the old weight left a skewed χ²₁-type term that put the 95 %
// intervals' coverage near 85 % (spec throttlers.md §12.12). Coverage is
// tested over hundreds of seeds. The derivations, the stopping rules and
// the choice between estimators are in spec throttlers.md §12.9–§12.12.
//
// # Errors and panics
//
// Bad settings, a graph with no nodes, or a NaN argument wrap
// loadlab.ErrInvalid; a disconnected graph wraps loadlab.ErrDisconnected;
// a workspace beyond the memory budget wraps loadlab.ErrTooLarge. An
// estimate that reaches MaxProbes short of RelAcc, or whose solves stop
// short, is returned with its partial interval and an error wrapping
// loadlab.ErrNotConverged; its Status says why. Nil graphs, solvers and
// sources panic, as do the programmer errors of Diagonals (no terms, a
// nil callback, a row of coef of the wrong length).
//
// # Cost
//
// About O(m) per probe: on the 10⁶-node random 6-regular graph K_f to
// 1 % takes ten probes by quadrature, a few seconds on two cores; on the
// 1000 × 1000 torus Hutch++ with approximate-Cholesky solves takes about
// a minute of CPU (docs/benchmarks.md). Where a graph's sparse Cholesky
// factor fits — meshes, grids, road and power networks, not expanders —
// spectral.KirchhoffIndex gives the exact value and is the faster route:
// 16 s on that torus, every digit. Hutch++'s work is conjugate-
// gradient iterations with the factor, spent on the pilot probes (about
// 14 %), the sketch, the two loose solves per Ritz vector (about half)
// and the residual probes. The residual probes are solved in blocks at a
// tolerance chosen from a bound on their second-order error (about 10⁻⁴
// at 1 %, instead of 10⁻⁶), and the Ritz vectors' first solve stops at
// 10·RelAcc, both errors bounded and added to the interval: 20 % fewer
// iterations than one tight solve per probe (999 against 1248 on the
// 500 × 500 torus, same seed). Chosen by measurement (spec throttlers.md
// §12.9): a deflated start from the Ritz values and fewer Ritz vectors
// cost more. At 10⁷ nodes the solves run one at a time
// (laplacian.Solver.PreferredBlockCols), the sketch holds 64 vectors.
package estimate
