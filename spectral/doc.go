// Package spectral computes exact and certified spectral quantities of a
// graph's Laplacian L (spec throttlers.md §2): eigenvalues, algebraic
// connectivity, certified eigenvalue brackets, effective resistances,
// the pseudoinverse L† and the Kirchhoff index, and the closed forms of
// the families of package wgraph/gen.
//
// # Entry points
//
//	ev, err := spectral.Spectrum(g)                     // 0 = λ₁ ≤ … ≤ λ_n, dense
//	l2, f, err := spectral.AlgebraicConnectivity(g)     // λ₂ and a Fiedler vector
//	b, err := spectral.LambdaMaxBracket(g, nil)         // certified [Lo, Hi] ∋ λ_n
//	b, err = spectral.Lambda2Bracket(g, nil)            // certified [Lo, Hi] ∋ λ₂
//	r, err := spectral.EffectiveResistance(g, u, v)     // R_uv
//	kf, err := spectral.KirchhoffIndex(g)               // K_f = Σ_{u<v} R_uv = n tr L†
//	res, err := spectral.NewResistance(g)               // one factorisation, many queries
//	rs := res.EdgeResistances(nil)                      // every edge's R_uv, exact
//	res.ApplyTo(x, b, work)                             // x = L† b, no allocation
//	ra, err := spectral.AnalyzeResistance(support)      // analyse the links once ...
//	res, err = ra.Factor(g)                             // ... factor each weighting of them
//	top, err := spectral.TopResistances(g, 10)          // the 10 largest R_uv, exact (§12.10)
//	kf, err = spectral.TorusKirchhoff(1000, 1000)       // closed forms, spec §9
//
// # Exact means exact
//
// Every function here returns its number to near working precision, or
// an error. Spectrum, PseudoInverse and ResistanceMatrix are dense (O(n³)
// time, O(n²) memory). NewResistance and KirchhoffIndex choose their
// path (Resistance.Path): on sparse graphs a sparse Cholesky
// factorisation of the grounded Laplacian with a fill-reducing ordering
// and its selected inverse (package cholesky; spec sparse-cholesky.md),
// which gives diag L†, K_f and every edge's resistance (EdgeResistances)
// exactly at about the factor's cost — seconds for the 22 963-node
// Internet AS graph or a 10⁵-node grid; on dense graphs the dense path up
// to DenseMaxNodes = 2048 nodes. Where neither applies (a large graph
// whose factor fills in, such as an expander) they return an error
// wrapping loadlab.ErrTooLarge, and estimate.Kirchhoff estimates K_f with
// an interval. ShiftedLaplacian factors c I + s L (2I − γL for the H2
// measures of consensus) from one analysis.
//
// A sequence of weightings of one set of links (a weight design's
// iterations) shares one symbolic analysis: AnalyzeResistance and
// ShiftedLaplacian analyse the links' pattern once, and
// ResistanceAnalysis.Factor and ShiftedLaplacian.FactorGraph factor any
// graph whose edges are among those links (a link of weight zero stays in
// the pattern as an explicit zero) at the cost of the numeric
// factorisation alone; a graph with an edge outside the links is refused
// with loadlab.ErrInvalid, never analysed afresh behind the caller's
// back. Resistance.ApplyTo, like cholesky.Factor.SolveTo, solves into the
// caller's vectors, so a loop of solves allocates nothing.
//
// AlgebraicConnectivity and
// EffectiveResistance are dense up
// to DenseMaxNodes and certified iterative above: λ₂ as the Rayleigh
// quotient of a refined Fiedler vector with a Kato–Temple bound of 1e-12
// relative (an error for a multiple λ₂), R_uv from a Laplacian solve to a
// relative residual of 1e-12 whose quadratic form errs by at most
// 1e-24 κ(L).
//
// The fast dense route is the build with -tags openblas (cgo and
// Debian's libopenblas-dev), at parity with SciPy on the dense 2000-node
// Kirchhoff index; the default pure-Go build is several times slower
// there (docs/benchmarks.md).
//
// A Bracket [Lo, Hi] comes with the certificate behind it (Cert: the
// deterministic bounds, the dense eigensolver, a Cholesky inertia test,
// or Lanczos with a failure probability Delta, 1e-10 by default) and the
// work done. The Lanczos brackets need O(n) memory and run on graphs of
// millions of nodes (spec throttlers.md §12.8).
//
// # Conventions
//
// Weights are conductances. K_f sums over unordered pairs, as Ghosh,
// Boyd and Saberi's total effective resistance; some authors use ordered
// pairs (2K_f) or the mean n(n−1)/2. Results from A = L + αJ/n have
// relative error about κ(A)·ε; NewResistance refuses κ(A) > MaxCondition
// = 1e14 with loadlab.ErrIllConditioned (spec throttlers.md §12.7).
//
// # Errors and panics
//
// loadlab.ErrDisconnected where L† needs a connected graph,
// loadlab.ErrInvalid for bad arguments (fewer than 2 nodes for λ₂, a node
// out of range, a family size outside its domain), loadlab.ErrTooLarge
// for dense work beyond the memory budget or above DenseMaxNodes where
// the name promises an exact bare number, loadlab.ErrIllConditioned for a
// factorisation without correct digits, loadlab.ErrNotConverged for an
// eigensolver or Lanczos run that stopped short. Nil graphs panic, as do
// an unknown Family and nodes out of range on accessors.
package spectral
