// Package lanczos holds the Lanczos machinery shared by spectral's
// certified eigenvalue brackets and the stochastic estimators of estimate
// and consensus: the plain three-term recurrence without a stored basis
// (Lanczos: Ritz values, Christoffel-function bounds, Ritz vectors by a
// second pass), the Gauss quadratures of a probe's tridiagonal (Probe:
// (n − 1) vᵀf(L)v for v = Pq/‖Pq‖, unbiased for tr_{1⊥} f(L), with f
// 1/x and the resolvents of 2I − γL or of any σI + τL with its pole off
// the spectrum) with their Gauss–Radau partners, which bracket them (a
// node at a lower bound on λ₂ for 1/x, at λ_n⁺ or 0 for the
// resolvents), and the block recurrence of up to BlockLanes probes on
// interleaved vectors (Block), which reads each neighbour's values once
// for all probes; a probe's recurrence stops when its brackets are
// narrower than QuadRel·RelAcc (Settle), and BracketEstimate turns the
// probes' brackets into an interval that holds the quadrature error. It
// is not API. Derivations: spec throttlers.md §12.8–§12.9, §12.11–§12.13.
package lanczos
