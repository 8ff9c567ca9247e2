// Package lanczos holds the Lanczos machinery shared by spectral's
// certified eigenvalue brackets and the stochastic estimators of estimate
// and consensus: the plain three-term recurrence without a stored basis
// (Lanczos: Ritz values, Christoffel-function bounds, Ritz vectors by a
// second pass), the Gauss quadratures of a probe's tridiagonal (Probe:
// qᵀL†q and the resolvents of 2I − γL), and the block recurrence of up to
// BlockLanes probes on interleaved vectors (Block), which reads each
// neighbour's values once for all probes. It is not API. Derivations:
// spec throttlers.md §12.8–§12.9.
package lanczos
