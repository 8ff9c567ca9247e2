// Package linalg provides weighted undirected graphs, their Laplacians,
// spectra and effective resistances: the linear algebra under loadlab's
// consensus-based throttlers (spec docs/specs/throttlers.md §2) and
// the graph families and random graph models used across loadlab.
//
// # Conventions
//
// A Graph has nodes 0..n−1 and edge weights that act as conductances
// (a weight is 1/resistance). Weights must lie in [MinWeight, MaxWeight]
// = [2^−500, 2^500]: zero, negative, NaN and infinite weights are errors,
// and the bounds keep every degree and resistance finite. The Laplacian is
//
//	L_uv = −w_uv (u ~ v),   L_uu = Σ_v w_uv,   L 1 = 0,
//
// with eigenvalues 0 = λ₁ ≤ λ₂ ≤ … ≤ λ_n; λ₂ > 0 exactly when the graph
// is connected. The pseudoinverse is L† = (L + J/n)⁻¹ − J/n with J the
// all-ones matrix, equivalently Σ_{i≥2} u_i u_iᵀ/λ_i, and the effective
// resistance between u and v is
//
//	R_uv = L†_uu + L†_vv − 2 L†_uv = (e_u − e_v)ᵀ L† (e_u − e_v).
//
// # Graph storage
//
// A Graph is immutable and stored as a compressed sparse row (CSR)
// adjacency: off has n+1 entries, node u's neighbours are
// adj[off[u]:off[u+1]] (int32, sorted ascending) and w[off[u]:off[u+1]]
// their weights; every edge appears once from each end with the same
// weight, so len(adj) = 2m. Neighbors, Weights and CSR return views of
// that storage, so loops over neighbours allocate nothing, and Weight is
// a binary search. Graphs are made by a Builder (NewBuilder, SetEdge,
// Build; g.Builder() starts from an existing graph's edges), by
// FromEdges, by the families and the random generators below, or by
// FromAdjacency, FromMatrix and FromUndirected. At most MaxOrder = 2^31−1
// nodes; sizes are checked before anything is allocated, and a graph
// that would not fit in memory is an error wrapping loadlab.ErrTooLarge.
//
// BFS is a reusable breadth-first search workspace (levels, hop
// distances, bidirectional point-to-point distance); IsConnected,
// Components and CheckConnected answer connectivity, the last with an
// error wrapping loadlab.ErrDisconnected that names an unreachable node.
//
// With unit weights R_uv is in ohms when every edge is a 1 Ω resistor.
// R is a metric on the nodes; raising a conductance never raises any R_uv
// (Rayleigh monotonicity); and Σ_edges w_e R_e = n − 1 (Foster).
//
// # Kirchhoff index
//
// KirchhoffIndex returns
//
//	K_f = Σ_{u<v} R_uv = n tr L† = n Σ_{i≥2} 1/λ_i,
//
// the sum over unordered pairs. Some authors sum over ordered pairs
// (2 K_f), and the "total effective resistance" R_tot of Ghosh, Boyd and
// Saberi equals K_f; others divide by the number of pairs n(n−1)/2 to get
// a mean resistance. Compare conventions before comparing numbers.
//
// NetworkX's resistance_distance treats an edge weight as a resistance
// (invert_weight=True by default), the reciprocal of ours: a weight of 4
// there is a weight of 1/4 here.
//
// # Families and their closed forms
//
// Path, Cycle, Complete, Star, Grid, Torus and Hypercube build unit-weight
// graphs. The path is 0–1–…–(n−1); the cycle adds {n−1, 0}; the star's hub
// is node 0; grids and tori are numbered row-major, node (i, j) being
// i·cols + j; hypercube nodes are d-bit labels, adjacent when they differ
// in one bit. Their Laplacian spectra are known in closed form (spec §9):
//
//	path P_n         4 sin²(πk/(2n)),  k = 0..n−1
//	cycle C_n        4 sin²(πk/n),     k = 0..n−1
//	complete K_n     0, n (n−1 times)
//	star S_n         0, 1 (n−2 times), n
//	grid r×c         every sum of a P_r and a P_c eigenvalue
//	torus r×c        every sum of a C_r and a C_c eigenvalue
//	hypercube Q_d    2j, C(d, j) times, j = 0..d
//
// (2 − 2cos θ is evaluated as 4 sin²(θ/2), which is accurate for small θ.)
// PathSpectrum, CycleSpectrum, … return them sorted as Spectrum would,
// and PathKirchhoff, CycleKirchhoff, … return the Kirchhoff indices:
//
//	path (n³ − n)/6,  cycle (n³ − n)/12,  star (n − 1)²,  complete n − 1,
//	hypercube 2^d Σ_{j=1}^{d} C(d, j)/(2j).
//
// For grids and tori K_f = n Σ 1/(a_i + b_j) over the product spectrum.
// The inner sum over j has a closed form from Chebyshev polynomials
// (derived at cycleResolvent and pathResolvent in spectra.go), so
// GridKirchhoff and TorusKirchhoff cost O(min(rows, cols)): a 1000×1000
// torus takes microseconds, and agrees with the million-term sum to an
// ulp. KirchhoffFromSpectrum and ProductSpectrum cover other products.
//
// # Random graphs
//
// Every generator takes a math/rand/v2 rand.Source and returns unit
// weights; the same source state gives the same graph. These are the
// only random graph generators of loadlab: codedload's random topologies
// and the figures' geometric graphs are drawn here.
//
//   - ErdosRenyi(n, p, connected, src): G(n, p), each pair an edge with
//     probability p independently, sampled in O(n + m) by geometric
//     skipping. With connected true it resamples until connected
//     (G(n, p) conditioned on connectivity), refusing p so small that
//     more than 5 isolated nodes are expected (p well below ln n / n),
//     and giving up after MaxConnectAttempts samples.
//   - RandomRegular(n, d, src): a simple d-regular graph. Law: for d ≤ 4
//     it is exactly uniform over the labelled simple d-regular graphs on
//     n nodes (pairing model of Bollobás, rejecting the whole pairing at
//     its first loop or repeated edge; about exp((d²−1)/4) pairings), as
//     TestRandomRegularUniformChiSquare checks by a χ² test over all 70
//     labelled cubic graphs on 6 nodes and all 465 labelled 4-regular
//     graphs on 7 nodes, and TestRandomRegularUniform by the frequency
//     1/7 of K_{3,3}. For d ≥ 5 it uses the Steger–Wormald process, which
//     redraws bad pairs and is asymptotically uniform for fixed d as
//     n → ∞ (TestStegerWormaldNearUniform compares its triangle counts
//     with exact rejection). For d > (n−1)/2 it complements a random
//     (n−1−d)-regular graph, which has the same law property.
//   - RandomGeometric(n, r, torus, src): n points uniform in [0, 1)², an
//     edge between points at Euclidean distance ≤ r, optionally with the
//     torus (wrap-around) metric; RandomGeometricPoints also returns the
//     points. A grid of k×k cells, 1/k ≥ r and k ≤ √n + 1 whatever r,
//     makes it O(n + m) time and O(n) memory besides the edges. Nodes are
//     numbered in cell order (row-major, then in the order drawn), which
//     keeps neighbours close in memory and, the points being i.i.d., does
//     not change the law.
//
// # Errors and panics
//
// Bad data returns an error wrapping a named error of the root package
// (docs/conventions.md): loadlab.ErrInvalid for an argument outside its
// domain (a negative size, a family size where the family is not a
// simple graph, a weight outside [MinWeight, MaxWeight], a node out of
// range, a self-loop, a duplicate edge in FromEdges), loadlab.ErrTooLarge
// for a size checked before allocating (more than MaxOrder nodes, a
// graph, spectrum or dense matrix beyond the 16 GiB budget of
// internal/size: Complete(1<<20), Path(1<<40), Spectrum of a million
// nodes, Laplacian or LiftedLaplacian of a graph whose dense n×n matrix
// does not fit), loadlab.ErrDisconnected where a connected graph is needed
// (L†-based functions, CheckConnected, KirchhoffFromSpectrum with
// λ₂ ≤ 0, a connected G(n, p) not found), loadlab.ErrIllConditioned for a
// factorisation without correct digits and loadlab.ErrNotConverged for
// an eigensolver or pairing process that stopped short. Panics are for
// programmer errors, each documented on its function: a nil graph,
// matrix or rand.Source (the message names the argument), a node out of
// range on an accessor (Neighbors, Weight, BFS.Start), slices of the
// wrong length and an unknown Family value.
//
// # Cost and accuracy
//
// Every function that needs L† factors A = L + αJ/n once with a dense
// Cholesky (n³/3 flops) instead of an eigendecomposition; NewResistance
// keeps that factorisation for many queries. α is the mean weighted
// degree rather than the spec's 1: A⁻¹ = L† + J/(αn) for every α > 0, and
// α on the scale of L keeps A well conditioned whatever the weights'
// units. Results derived from A⁻¹ have relative error about κ(A)·ε, with
// κ(A) = max(λ_n, α)/min(λ₂, α); NewResistance returns an error when the
// condition estimate exceeds MaxCondition = 1e14 rather than a number with
// no correct digits. KirchhoffIndex needs the inverse V of the Cholesky
// factor (another n³/3, by a recursive algorithm that runs in gonum's
// parallel Gemm); ResistanceMatrix and PseudoInverse also form A⁻¹ = V Vᵀ
// (n³ in all). On two shared cores in pure Go, a dense graph with
// n = 2000 takes about 0.5 s for KirchhoffIndex and 0.65 s for
// ResistanceMatrix when the machine is quiet, up to twice that when it
// is busy. Spectra use a dense symmetric eigensolver, O(n³);
// AlgebraicConnectivity adds the Fiedler vector by inverse iteration
// rather than computing every eigenvector.
//
// The factor-and-invert pass behind these functions is public, for the
// packages above: SPDFactor (Cholesky A = UᵀU, condition estimate, the
// recursive inverse factor V = U⁻¹, and from it the diagonal, trace and
// matrix of A⁻¹ and solves), Lift (A = L + αJ/n), Shift (cI − γL), and
// FactorWellConditioned (the MaxCondition rule, loadlab.ErrIllConditioned
// past it). CompensatedSum and Sum are Neumaier's compensated sums.
// CheckDense refuses dense work beyond the memory budget
// (loadlab.ErrTooLarge) before anything is allocated.
//
// # Eigenvalue brackets
//
// LambdaMaxBracket and Lambda2Bracket return a Bracket [Lo, Hi]
// certified to contain λ_max or λ₂ of L (or of S = Q^{1/2} L Q^{1/2} for
// a positive diagonal Q, EigenSettings.Scale), with an estimate Est, the
// certificate that ran (Bracket.Cert), its failure probability
// (Bracket.Delta, 0 when deterministic), the Lanczos steps and a Status.
// Every computed quantity below is widened by a bound on its rounding
// error.
//
//   - CertBounds (deterministic, O(m)): λ_max ≥ max_u S_uu (a Rayleigh
//     quotient); λ_max ≤ max_{u~v} (S_uu + S_vv) (the row-sum norm of
//     W Bᵀ Q B, which has the nonzero spectrum of L Q); λ_max ≤
//     max_i (|S|x)_i/x_i for x > 0 (Collatz–Wielandt; sharp on bipartite
//     graphs, exact at x = 1 on regular bipartite ones such as the even
//     torus and the hypercube); λ₂ = 0 for a disconnected graph.
//   - CertDense (deterministic, n ≤ 400): the dense symmetric eigensolver
//     (SymEigen), value ± 1e-12 ‖S‖, a bound on its backward error.
//   - CertCholesky (deterministic, n ≤ 3000, only to decide a
//     Threshold t still inside the bracket): Cholesky of c I − S (or of
//     S + zzᵀ − c(I − zzᵀ), z the unit null vector, for λ₂) succeeds iff
//     c > λ_max (λ₂ > c) by Sylvester's law of inertia, up to a backward
//     error 1e-9 (t + ‖S‖).
//   - CertLanczos (n > 400, O(n) memory: 14 n-vectors at most, checked
//     before allocation): plain Lanczos, three-term recurrence with one
//     local reorthogonalisation and no stored basis, from v₁ = g/‖g‖, g
//     Gaussian from a PCG stream seeded by two Uint64 of
//     EigenSettings.Src (nil: rand.NewPCG(1, 2)). For λ_max it runs on S.
//     For λ₂ it runs on z⊥ (v₁ projected onto z⊥), on h I − S (h the
//     deterministic upper bound on λ_max; top eigenvalue h − λ₂) while
//     h/λ₂ appears ≤ 30, as on expanders, else on S⁺, each step a
//     LaplacianSolver solve to relative residual 1e-10 (top eigenvalue
//     1/λ₂), which needs few steps when λ₂ is small and isolated.
//
// The deterministic end of a Lanczos bracket is a Rayleigh quotient:
// the Ritz vector y of an early step whose Ritz value is within 5 % of
// the requested width of the last (rebuilt by a second pass of the same
// recurrence) gives the Rayleigh quotient xᵀLx/Σx_u²/q_u of S at
// Q^{−1/2}x for x = Q^{1/2}y rounded (Lo for λ_max, Hi for λ₂ on h I − S), each
// sum one of nonnegative terms (xᵀLx = Σ_{u<v} w_uv (x_u − x_v)²), hence
// with relative error ≤ γ_{m+5}, γ_{n+2}. For λ₂, Hi is the Rayleigh
// quotient of S at x = S⁺y (one more solve), its null component
// subtracted with its rounding bound; Hi ≤ min_u S_uu/(1 − z_u²)
// always.
//
// The probabilistic end is the Christoffel-function bound, an a
// posteriori form of the probabilistic Lanczos bounds of Kuczyński and
// Woźniakowski (SIAM J. Matrix Anal. Appl. 13, 1992) and of van
// Dorsselaer, Hochstenbach and van der Vorst (SIAM J. Matrix Anal. Appl.
// 22, 2000). Let A be the operator (S, or S⁺ on z⊥), of dimension N, μ
// its largest eigenvalue, u a unit eigenvector and c = uᵀv₁. The Lanczos
// polynomials (p₀ = 1, β_j p_j(x) = (x − α_j) p_{j−1}(x) − β_{j−1} p_{j−2}(x))
// satisfy v_{j+1} = p_j(A) v₁ and are orthonormal for the spectral
// measure of v₁, so for every x, K_k(x) = Σ_{j=0}^{k} p_j(x)² is the
// maximum of q(x)²/‖q(A)v₁‖² over polynomials q of degree ≤ k; taking
// x = μ gives c² K_k(μ) ≤ 1. v₁ is uniform on the unit sphere, so c² is
// Beta(½, (N − 1)/2) and P[c² < s] ≤ √(2(N − 1)s/π) (Wendel's inequality
// for the Beta normaliser); with s = π δ²/(2(N − 1)), c² ≥ s except with
// probability δ, and then K_k(μ) ≤ 1/s. K_k increases beyond the largest
// Ritz value θ_k ≤ μ, so
//
//	μ ≤ x*_k := max{x ≥ θ_k : K_k(x) ≤ k/s}   except with probability δ,
//
// for every k at once (one event, so the stopping rule may look at the
// bounds). The factor k in k/s (instead of 1/s) allows for the copies
// ("ghosts") of converged Ritz values that appear in floating point:
// Greenbaum's analysis (Linear Algebra Appl. 113, 1989) makes the
// computed T_k exact Lanczos for a matrix with eigenvalues in tiny
// clusters around those of A, whose weights add up to c²; each of at
// most k copies then carries at least c²/k. The bound is finally
// widened by 10 k η relative, η the relative error of one application
// of A (4(d_max + 2)u for S, the largest solve residual times
// √(q_max/q_min) for S⁺). For λ_max, Hi = min(x*_k, the deterministic
// bounds); for λ₂, Lo = h − x*_k on h I − S and 1/x*_k on S⁺. The exact-arithmetic statement is a
// theorem; its floating-point transfer (the ghost allowance and the
// margin) rests on the Paige–Greenbaum theory and on the tests
// (TestLanczosBracketsCover: the dense eigenvalue lies in every bracket
// over many start vectors; TestChristoffelBoundRate: at δ = 0.1 and 8
// steps, where the bound binds, 3 of 200 brackets miss, a rate below δ).
//
// Lanczos stops when the bracket's relative width is at most
// EigenSettings.RelWidth (default 1e-3), or, with a Threshold t, as soon
// as t lies outside it (then continuing past RelWidth, to 1e-10 relative),
// or after MaxSteps (default 2000) steps, with Status IterationLimit and
// loadlab.ErrNotConverged. The steps the width needs grow like
// ln(k N/δ²)/√RelWidth on a spectrum that is dense up to its top (about
// 450 at N = 10⁶, δ = 1e-10, RelWidth = 1e-3) and are far fewer when the
// top eigenvalue is isolated (40 on the US power grid). consensus
// decides the stability of γ with t = 2/γ this way; an undecided t is
// ErrIllConditioned there. SymEigen is the dense symmetric eigensolver
// of the dense path: gonum's, on a copy scaled by a power of two, exact
// and safe for entries far from 1.
//
// Building with -tags openblas routes gonum's BLAS through OpenBLAS
// (cgo, Debian's libopenblas-dev and the gonum.org/v1/netlib module;
// openblas.go carries the cgo link directive, so no CGO_LDFLAGS are
// needed); both functions then take about 0.3 s at n = 2000. The default build is pure Go and needs nothing installed.
//
// # Sparse Laplacians at scale
//
// The dense functions above cost O(n³) time and O(n²) memory. For graphs
// of 10⁴–10⁶ nodes the sparse layer works on the compact adjacency
// (g.CSR) in O(m) memory:
//
//   - LaplacianOperator applies y = L x or y = (L + s I) x (spec throttlers.md §2). Rows
//     are split over the cores in fixed blocks, each row computed by one
//     goroutine, so the result is the same whatever GOMAXPROCS is; a call
//     allocates nothing (a small pool of long-lived workers runs the
//     blocks, and a worker's panic is re-raised on the caller).
//   - LaplacianSolver solves L x = b for x = L† b by preconditioned
//     conjugate gradients on 1⊥: b is projected onto 1⊥ (the component
//     along the constants has no solution), every preconditioned residual
//     is projected too, and x is returned with zero mean. It stops at the
//     relative residual ‖b − L x‖₂/‖b‖₂ ≤ Tol (default 1e-10), checked on
//     the true residual, not the recurrence (up to three restarts from the
//     true residual when they drift apart), and reports iterations,
//     residual and Status. Reductions are summed per fixed block in block
//     order, so solutions are bit-identical for any number of goroutines.
//     NewLaplacianSolver builds the preconditioner once; Solve reuses it
//     for every right-hand side. The solver works on a private copy of the
//     Laplacian renumbered in breadth-first order from node 0 (Solve
//     gathers b into that order and scatters x back): the children of
//     consecutive nodes sit at consecutive positions, so most neighbour
//     reads of the product continue where the previous row's left off,
//     even on an expander. A regular graph keeps no row offsets and a
//     graph with equal weights one weight, so the product reads 4 bytes
//     per entry instead of 20; with equal weighted degrees Jacobi is a
//     multiple of the identity and is skipped (the iterates are the same).
//     One iteration is three passes: the product fused with p·Lp, the
//     update of x and r fused with the Jacobi scaling and all dot products
//     (the projection of z onto 1⊥ is folded into the next pass), and the
//     new direction. At 10⁶ nodes the product is most of the time and its
//     cost is the latency of the neighbour reads, not arithmetic or
//     bandwidth: the degree-6 product is unrolled (more rows' reads in
//     flight), and the solver's vectors and adjacency are advised onto
//     transparent huge pages on Linux (an 8 MB vector spans 2048 4 KiB
//     pages, as many as the second-level TLB holds, so with small pages
//     nearly every random read also waits for a page walk).
//   - SolveBlock(dst, b *mat.Dense) solves the k columns of b together,
//     as a block stored row-major in the solver's order (entry (u, j) at
//     u·k + j), in chunks of at most MaxBlockCols = 16 columns. A row of
//     the block product first collects its neighbours' row offsets, then
//     sums column by column over them: the first column's reads miss
//     once per neighbour, all outstanding together, and the other columns
//     find the lines in cache. Each column keeps its own CG scalars α_j,
//     β_j, its own convergence test, restarts and iteration budget, and a
//     converged column is no longer updated; every kernel does column j's
//     arithmetic in the order of the single-vector kernels, so each column
//     gets Solve's iterates and iteration count (tested: same status and
//     iterations, solutions within the residual bound, across Jacobi,
//     Auto and approximate Cholesky, whose forward and backward
//     substitutions walk the factor once for all k columns). Results
//     are one SolveResult per column; a column short of Tol makes the
//     error ErrNotConverged with every column's last iterate in dst. On
//     the 10⁶-node random 6-regular graph, 8 right-hand sides took
//     0.6–0.85 of the CPU time of 8 single solves (busy machine,
//     docs/benchmarks.md); at 1.6·10⁵ nodes, where the block fits in
//     cache, half.
//   - Preconditioners. ApproxCholesky is the randomized approximate
//     Cholesky factorisation of Kyng and Sachdeva (as in Laplacians.jl's
//     approxchol): vertices are eliminated in approximate minimum-degree
//     order and each elimination replaces the clique of the Schur
//     complement by a sampled tree with the same expectation, so the
//     factor has at most m + n entries, and the iteration count depends
//     little on n or on the weights' spread (weights over 10 decades:
//     about 20 iterations at n = 400, where Jacobi needs 150). Jacobi
//     divides by the degrees. Neither wins everywhere (measured in
//     docs/benchmarks.md, 2 shared cores, relative residual 1e-8): on the
//     10⁶-node random 6-regular graph, an expander with κ(L) ≈ 7, Jacobi
//     needs 23 iterations, fewer than approximate Cholesky (28), at a
//     fraction of the cost per iteration and no setup; on the 1000 × 1000
//     torus (κ ≈ 10⁵) Jacobi needs about 2000 iterations and approximate
//     Cholesky about 47. From 2^14 nodes the factorisation eliminates the
//     interiors of the two halves of the breadth-first order in parallel
//     (each with its own random stream), then the boundary between them,
//     and the substitutions run the halves in parallel too; on a 2-D mesh
//     the boundary is O(√n) vertices, so both cores share the work, with
//     results independent of GOMAXPROCS. Smoothed-aggregation AMG was not implemented:
//     approximate Cholesky has no tuning parameters, handles arbitrary
//     weights by construction, and its factor is deterministic given the
//     rand.Source. The default, Auto, is the ski-rental combination:
//     AutoJacobiIters = 50 Jacobi iterations (enough for expanders at
//     1e-10), then the factorisation, continuing from the current
//     iterate, so it costs at most 50 cheap iterations more than the
//     better of the two.
//   - Accuracy floor. A relative residual below about ε·w_max‖x‖/‖b‖
//     cannot be represented (x itself is rounded). With a 1e-12 bridge
//     between two clusters, a right-hand side that drives current across
//     the bridge gives x ≈ ±5e11 and a floor near 1e-3: Solve then stops
//     with Stagnated and ErrNotConverged although R_uv = x_u − x_v is right
//     to 1e-16 relative; right-hand sides within a cluster solve to 1e-10.
//   - Effective resistance. LaplacianSolver.Resistance(u, v) is one solve.
//     ApproxEdgeResistances estimates R_e for every edge, and
//     NewResistanceSketch R_uv for any pair, by the random projections of
//     Spielman and Srivastava: with B the signed incidence matrix,
//     R_uv = ‖W^{1/2} B L† (e_u − e_v)‖², and with a k × m matrix of
//     standard Gaussians each estimate is exactly R_uv·χ²_k/k (up to the
//     solve error). k is the least with P(|χ²_k/k − 1| > ε) ≤ δ
//     (SketchMiss, SketchProjections; ε = 0.3, δ = 0.05 by default give
//     k = 85), so each estimate is within 1 ± ε with probability ≥ 1 − δ
//     and the expected fraction of edges outside is ≤ δ; AllPairs applies
//     δ to all n(n − 1)/2 pairs by the union bound (k = 1431 at n = 10⁶).
//     The solves stop at relative residual ε/100: ε/10 measurably
//     inflated the miss rate on ill-conditioned graphs (see
//     ApproxEdgeResistances). Foster's theorem Σ_e w_e R_e = n − 1 is checked on
//     every result (SketchInfo.Foster, FosterRelErr); its estimate has
//     relative spread √(2/(k(n − 1))) ≪ ε, so a large FosterRelErr means
//     inaccurate solves. The projections are drawn 8 at a time, each
//     from its own stream (seeded from the source in order, drawn in
//     parallel), solved one by one with the solver's reused workspace,
//     and the 8 squared differences accumulated in one parallel pass over
//     the edges. Solving the 8 in lockstep on interleaved vectors was
//     measured and dropped: at n = 10⁶ its 8-column product cost as much
//     as 8 single products.
//   - EstimateKirchhoff estimates K_f = n tr L† by Hutchinson's estimator
//     (on well-conditioned graphs each probe's value by Lanczos quadrature,
//     see the choice below; otherwise one solve per Rademacher probe) (the probes solved in blocks by
//     SolveBlock: 4, then up to MinProbes, then as many as the spread says
//     are missing; the stopping rule sees them one by one, so the estimate
//     is that of one solve per probe), adding probes until the 95 %
//     Student-t interval has relative half-width ≤ RelAcc (default 1 %),
//     and returns a loadlab.Estimate (coverage tested over 300 seeds). On
//     an expander a probe's relative spread is about √(2/n), so a handful
//     of probes suffice at 10⁶ nodes; on a 2-D torus the few smallest
//     eigenvalues dominate and hundreds are needed, so it switches to
//     Hutch++ (see the choice below).
//   - EstimateH2 estimates ρ₁, ρ₂ and ρ₂T (spec throttlers.md §4.4, σ = 1)
//     the same way, from the split 1/(t(2 − t)) = ½(1/t + 1/(2 − t)):
//     ρ₂ = ½[tr L†/γ + tr_{1⊥}(2I − γL)⁻¹] and ρ₁ = 2 tr_{1⊥}(2I − γL)⁻¹,
//     both from the Gauss quadratures of one Lanczos run per probe, as in
//     EstimateGammaH2 below at the fixed γ (blocks of eight probes; tr L†
//     estimated once apart, by Hutch++, when a's quadrature would need
//     more than 200 steps). γ is checked against the
//     certified λ_n bracket of LambdaMaxBracket (which stops at the
//     deterministic bounds when they decide): γ ≥ 2/λ_n is ErrUnstable,
//     a γ the bracket cannot decide ErrIllConditioned.
//   - EstimateGammaH2 estimates γ*_H2, the root of g(γ) (spec
//     throttlers.md §5.1), and ρ₂(γ*_H2) with common probes: each
//     Rademacher probe q gives the Lanczos tridiagonal T of L from Pq,
//     and from it, by Gauss quadrature for every γ at once (stochastic
//     Lanczos quadrature), the three pieces of the split
//     1/(t(2 − t)) = ½(1/t + 1/(2 − t)): the resistance term a = qᵀL†q
//     (‖Pq‖² e₁ᵀT⁻¹e₁) and (Pq)ᵀ(2I − γL)⁻ᵏ(Pq), k = 1, 2. So the
//     estimated g is one smooth decreasing curve; its root is found by
//     bisection and the 95 % interval of γ*_H2 is the set of γ where 0
//     lies in the 95 % interval of g(γ) (test inversion, so it covers at
//     the rate of g's interval; coverage tested over 120 seeds). How the
//     work is kept small, and what is certified:
//     – Stability. Every γ examined is below the cap (2 − δ)/λ_n⁺ with
//     λ_n⁺ a proven upper bound on λ_n, so γ < 2/λ_n holds for all of
//     them. λ_n⁺ is first the deterministic bound (edge and
//     Collatz–Wielandt bounds, O(m), δ = 0 in the Bracket; dense
//     eigenvalues up to 400 nodes). Only if the root or its interval
//     still reaches the cap at the smallest gap 2⁻²⁰ is λ_n bracketed by
//     Lanczos (1 % width, δ = 1e-10) and the search restarted under the
//     new cap, the bracket narrowed 16-fold each time the root reaches
//     the cap again (a random geometric graph of 10⁶ nodes has its root
//     within 0.3 % of 2/λ_n). On a random d-regular graph the bound 2d settles it
//     (γ*_H2 λ_n ≈ 1.56 for d = 6, against 2λ_n/2d ≈ 1.75), so the
//     λ_n Lanczos bracket — 470 steps to width 1e-3 at 10⁶ nodes,
//     because the Kesten–McKay density vanishes like a square root at
//     the edge — is never run; GammaH2Estimate.LambdaMax is then the
//     CertBounds bracket [d, 2d] with the largest Ritz value of the
//     probes as Est. λ₂ is not needed: the search starts at 1/λ_n⁺,
//     where g > 0 term by term.
//     – Quadrature length. A probe's recurrence stops when, for a, b and
//     c, the geometric tail of the changes over its last three steps is
//     ≤ 10⁻³ RelAcc relative; a relative error ε there moves γ̂ by
//     about ε γ̂ (a/4 + γb/4 + γc/2 against γ|g′|, both ≈ 0.25 per node
//     on the 6-regular expander), so the bias is ~10⁻³ of the requested
//     half-width. Gauss quadrature converges like ((√κ − 1)/(√κ + 1))^{2k}:
//     κ(L) ≈ 7 and κ(2I − γL) ≈ 6 on that graph, 9 steps per probe.
//     When a's quadrature is predicted to need more than 200 steps (κ(L)
//     large: tori, paths, random geometric graphs, power grids), the
//     probes' a are dropped and tr L† is estimated once by Hutch++ with
//     preconditioned solves (TraceSettings.Solver; error κ(L)·Tol²
//     relative, negligible at the default Tol = 1e-6), to half of RelAcc,
//     again more tightly if its part alone keeps an interval above RelAcc;
//     g's and ρ₂'s intervals add the two independent parts by
//     Welch–Satterthwaite (h2resist.go). A single probe's a spreads by
//     7.7 % on the 1000 × 1000 torus, so one solve per probe took about
//     225 probes there; now 10 probes and 95 solves, 108 s.
//     – Blocks. The probes' recurrences run eight at a time on
//     interleaved vectors (lanczosBlock): a neighbour's eight values are
//     one cache line, so one block product costs about four single
//     products at 10⁶ nodes (measured on a busy machine), half the cost
//     per probe; every reduction is summed per fixed row block in order,
//     so each probe's tridiagonal is the same whatever GOMAXPROCS and
//     whichever block it ran in.
//   - EstimatePinvDiag and EstimateNodalH2 estimate diag(L†) and the nodal
//     ρ₁,j, ρ₂,j by the diagonal estimator of Bekas, Kokiopoulou and Saad
//     (the mean over probes of q_j (A q)_j), each node with the Student-t
//     interval of its own probe values (coverage tested across seeds),
//     and a Chebyshev control variate: the diagonal of a degree-K
//     polynomial p(L) close to the function (1/λ, 1/(2 − γλ)) is computed
//     exactly from local moments T_k(S)_jj on balls of radius (K − 1)/2,
//     and the probes estimate only what p misses (diagcv.go). The default
//     per-node accuracy is DefaultDiagRelAcc = 1 %: on a random 6-regular
//     graph K = 8 and 10 probes reach it; on a torus no low-degree
//     polynomial fits 1/λ and the estimators stop early, with
//     ErrNotConverged, when the probes projected for RelAcc exceed
//     MaxProbes.
//   - One API for both regimes: KirchhoffIndex (and consensus.Rho,
//     NodalRho, EstimateGammaH2) are exact (dense) up to DenseMaxNodes =
//     2048 nodes and stochastic above, at 1 % relative (95 %) from the
//     fixed source DefaultSource, so a bare number stays deterministic.
//     KirchhoffIndexWith (and consensus.RhoWith, NodalRhoWith) take
//     TraceSettings.Method (MethodAuto, MethodDense, MethodStochastic)
//     and report the path that ran, the interval (Lo = Hi on the dense
//     path) and the work.
//   - Solve tolerance. A probe's quadratic form is computed as
//     2(Pq)ᵀx − xᵀLx from the approximate solution x, whose error is
//     ‖x − L†q‖²_L ≤ ‖r‖²/λ₂, a relative error ≤ κ(L)·Tol²: with the
//     default DefaultTraceSolveTol = 1e-6 that is 1e-12 κ(L), below 1e-4
//     of a 1 % budget up to κ(L) = 10⁶ (the 1000×1000 torus has
//     κ ≈ 2·10⁵), while the cost of a solve grows only with log(1/Tol).
//   - Lanczos quadrature, Hutchinson or Hutch++, chosen at run time by
//     measurement (tracelanczos.go, hutchpp.go, docs/benchmarks.md).
//     EstimateKirchhoff first tries Hutchinson's estimator with each
//     probe's qᵀL†q by Gauss quadrature on its Lanczos tridiagonal, the
//     probes eight at a time in one block, no solves — EstimateGammaH2's
//     resistance term. On the 10⁶-node random 6-regular graph that is 9
//     block steps per probe against 18 CG iterations per solve: 5.6–6.1 s
//     against 13.6 s with solves (quiet machine, docs/benchmarks.md). When a probe's quadrature
//     would need more than 200 Lanczos steps (small eigenvalues: tori,
//     paths, random geometric graphs) it stops before any solve and
//     Hutchinson's estimator with solves runs instead, from the random
//     stream after the attempt's seeds. That one starts with
//     Hutchinson and, from the 4th probe on, switches to Hutch++ when the
//     observed per-probe spread projects more than 60 probes (graphs of
//     ≥ 512 nodes); TraceResult.Estimator says which ran. On the 10⁶-node
//     random 6-regular graph a probe's relative spread is about 10⁻³, so
//     Hutchinson stops at the MinProbes floor (10 probes) and a sketch
//     could only add solves. On the 1000×1000 torus the smallest
//     eigenvalues dominate ‖L†‖_F (spread 0.077, ≈ 225 probes); Hutch++
//     takes the trace on 24 Ritz vectors of a 32-vector subspace
//     iteration with the approximate-Cholesky factor exactly (two loose
//     solves each, whose error is the product of their residuals) and
//     probes only the rest (spread ≈ 0.02, ≈ 15 probes). Its interval is
//     the residual's Student-t interval widened by a bound on the solve
//     errors.
//
// Errors: a disconnected graph wraps loadlab.ErrDisconnected; bad
// settings, a graph with no nodes, or a NaN/Inf right-hand side wrap
// loadlab.ErrInvalid; a workspace that would not fit wraps
// loadlab.ErrTooLarge; a solve or estimate that stops short returns its
// partial result with an error wrapping loadlab.ErrNotConverged and
// Status IterationLimit or Stagnated. Nil graphs and nil random sources
// (where one is needed) are programmer errors and panic; so do vectors of
// the wrong length and nodes out of range in accessors.
package linalg
