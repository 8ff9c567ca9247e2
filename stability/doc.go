// Package stability analyses FastRoute's greedy load-management heuristic
// for anycast CDNs (spec docs/specs/anycast-cdn.md §5): its dynamics,
// its equilibria and their stability, the polytope Π_C of demands it always
// controls, the two-node system, and its cost against the optimal dual
// algorithm.
//
// # Model
//
// The network (package anycast) has N nodes with DNS demand A_j ≥ 0,
// capacities T_i > 0 and a row-stochastic correlation matrix C (C_ji: the
// share of node j's primary-layer traffic that lands at proxy i). Node j
// answers a DNS query with the primary layer L1 with probability x_j ∈
// [0, 1]; the load at proxy i is S_i = Σ_j A_j x_j C_ji (eq. (21)). Time is
// in the units of 1/(Sensitivity·load).
//
// The greedy law (eq. (24), type Law) lets every node raise x_i while it is
// under-loaded and lower it while it is overloaded:
//
//	dx_i/dt = β x_i (1 − x_i) (T_i − S_i).
//
// Law.Normalized selects the variant with (T_i − S_i)/T_i (§5.1, open
// question §9.8). Algorithm 2 (Law.EulerStep, Law.Iterate) is the explicit
// Euler step x_i ← x_i + Δt·β x_i(1 − x_i)(T_i − S_i); it stays in [0, 1]
// whenever |Δt β (T_i − S_i)| ≤ 1 (§5.2, DERIVED), which EulerStep enforces
// by returning an error otherwise.
//
// # Integration: logit coordinates
//
// Law.Integrate solves (24) with package ode: the adaptive Dormand–Prince
// method (ode.Solve at Settings.Times, ode.SolveStepsFunc at every
// accepted step), or fixed-step RK4 (ode.SolveRK4) when Settings.Step is set. It
// has no output sampler or defaults of its own: AbsTol, RelTol and MaxSteps
// are passed to ode, whose defaults (ode.DefaultTol = 1e-8, ode.
// DefaultMaxSteps = 10⁶ steps) apply. By default it integrates the logits
// z_i = log(x_i/(1 − x_i)), which obey (spec §5.2 item 1)
//
//	dz_i/dt = β (T_i − S_i(σ(z))),   σ(z) = 1/(1 + e^{−z}).
//
// This is the choice made for the soundness requirement "x stays in
// [0, 1]^N": x = σ(z) lies in [0, 1] for every real z, so no rounding or
// step-size choice can push x out (σ may round to exactly 0 or 1 once
// |z| > 37 or 745, which is "in [0, 1] to rounding"). It is also the better
// numerical problem: the right-hand side is bounded by β·max(T_i, (CᵀA)_i)
// and globally Lipschitz, and the approach to a vertex, which in x is an
// exponential decay to 0 or 1, becomes a straight line in z that the
// integrator crosses with long steps. Coordinates that start on a face
// (x_i ∈ {0, 1}) stay there exactly, since faces are invariant (§5.1); they
// are frozen and not integrated. Tolerances apply to z; an error δ in z
// moves x by at most δ·x(1 − x) ≤ δ/4.
//
// The logit state is available: Settings.Logits records it in
// Trajectory.Z (±Inf on a face), and Law.IntegrateLogit starts from it.
// It matters near a face: x rounds to exactly 1 once z passes 37 (and to 0
// only below −745), while z keeps its digits.
//
// Settings.Direct integrates (24) in x itself, with the right-hand side
// evaluated at clamp(x, 0, 1) and clamped states reported. The clamp is
// needed, not cosmetic: outside the cube the polynomial field is repelling
// on an under-loaded face (x_i < 0 with T_i > S_i grows like e^{β(T_i−S_i)t}),
// so a rounding excursion would be amplified. With the clamp, x_i(1 − x_i)
// vanishes outside [0, 1] and an excursion (at most one local error) is
// frozen; inside the cube the clamped field equals (24), and since the
// exact flow leaves the cube invariant the clamped problem has the same
// solution. Direct mode is the independent second check of the logit
// identity x_i(t) = [1 + (1 − x_i(0))/x_i(0)·e^{−β∫(T_i − S_i)}]^{−1} in
// the tests (spec §8 item 14).
//
// Settled nodes. Once z_i > 37, σ(z_i) rounds to exactly 1, and an
// under-loaded node stays there: on the dense N = 1000 benchmark 386 of
// 1000 nodes do by t = 1000. With every accepted step recorded (the
// default), Integrate on a dense network then computes the loads as
// S = b + B_F x_F, the columns of the settled nodes summed once
// (anycast.Reduced, rebuilt when N/16 more nodes have settled or one has
// left 1; every evaluation checks that the nodes summed once are still at
// exactly 1 and otherwise uses the full product), which saves about a
// fifth of the products' cost over that run. The loads are the same sum
// rounded differently: they agree with LoadOp.Mul of the recorded state
// to 2Nε relative (TestRecordedLoadsAreThoseOfRecordedStates), and the
// parallel and serial right-hand sides still agree to the bit. The
// settled nodes also influence nothing while they stay at 1, so their
// own rows wait for the end of each step (ode.Lagger): every stage
// computes the loads of the free nodes, and the settled nodes' loads of
// all six stages are computed at once, their rows read once per step
// (anycast.Reduced.MulSettled), after which a check on the true stage
// logits confirms that they stayed at 1 (or the step is computed again
// the ordinary way, with the same bits). A Law made by NewLaw keeps the
// matrices of its last integration on a dense network of at most 1448
// nodes (B and the reduced operators, at most 48 MB), so that repeated
// integrations (Attractors, sweeps) form them in pages already mapped.
//
// Trajectories report times, states, loads, per-node overloads
// (S_i − T_i)_+, the traffic sent to the second layer Σ_j A_j(1 − x_j) and
// the total overload.
//
// # Equilibria and linearisation
//
// x* is an equilibrium iff each x*_i ∈ {0, 1} or S_i(x*) = T_i (§5.2 item
// 4). The Jacobian (Law.Jacobian, or Law.JacobianOp without the N×N
// matrix; §5.4) is
//
//	∂F_i/∂x_j = β(1 − 2x_i)(T_i − S_i) δ_ij − β x_i(1 − x_i) C_ji A_j,
//
// tested against gonum's diff/fd.Jacobian. Law.Linearize computes its
// eigenvalues with mat.Eigen and classifies the equilibrium; a real part
// counts as zero within ZeroTol, relative to the scale β·max(T_i,
// (CᵀA)_i). One eigenvalue with positive real part proves instability
// whatever the others are (Lyapunov's indirect method), so it decides
// first: Saddle (positive and negative real parts, zero ones allowed),
// Unstable (positive and no negative ones: a source, or unstable with
// zero ones), NonHyperbolic (no positive real part, some zero:
// linearisation decides nothing), Stable (all negative). Eigenvalues are
// always sorted by real part, then imaginary part (Equilibrium.
// Eigenvalues); at a vertex, Equilibrium.NodeRates gives them per node. Law.Equilibria enumerates the 3^N face patterns for
// N ≤ MaxEnumNodes, solving the interior balance S_I = T_I for each;
// patterns with a singular balance (continua of equilibria) are skipped.
// Law.Snap finds the equilibrium near the end state of an integration.
//
// At a vertex x ∈ {0, 1}^N every factor x_i(1 − x_i) vanishes, so the
// Jacobian is exactly diagonal: λ_i = β(T_i − S_i) where x_i = 0 and
// β(S_i − T_i) where x_i = 1 (§5.4). Law.Corner uses this closed form, and
// Law.ClassifyCorners walks all 2^N vertices in Gray-code order, updating
// the loads in O(N) per vertex (with a fresh O(N²) recomputation every 64
// vertices to stop rounding drift; O(nnz) for sparse C), so N = 20 costs about 2·10⁷ flops
// rather than 2^20 eigendecompositions. Beyond MaxCornerNodes
// two targeted modes remain: Law.SearchCorners (N ≤ 64) starts from
// random vertices and follows the largest positive eigenvalue (the
// direction the greedy law pushes) until it reaches a stable vertex; and
// Law.Attractors (any N) integrates from random interior starts and snaps
// each end state to its equilibrium, so it finds the attractors that are
// actually reached, with the share of starts reaching each.
//
// # Locally uncontrollable overload and Π_C
//
// A node suffers a locally uncontrollable overload (§5.3, eqs. (26)–(27))
// when it has shed all its own traffic, x_i = 0, and is still overloaded:
// Σ_{j≠i} C_ji A_j x_j > T_i. A stable vertex with some x_i = 0 is exactly
// such a state (Equilibrium.Uncontrollable); Uncontrollable detects
// condition (27) at any state. Since x_j ≤ 1, demand in the polytope
//
//	Π_C = {A ≥ 0 : Σ_{j≠i} C_ji A_j ≤ T_i for all i}   (eq. (28))
//
// can never produce one (PolytopeSlack, InPolytope). The larger region
// Π′_C = {A ≥ 0 : Σ_{j≠i} C_ji min(A_j, T_j/C_jj) ≤ T_i} (spec §5.5,
// DERIVED) uses that a node j that is stable with x_j > 0 carries at most
// T_j, so its own demand answered with L1 is at most T_j/C_jj
// (ExtendedSlack, InExtended). For two nodes with demand growing without
// bound, Π′_C becomes the favourable condition C_aa T_b > C_ab T_a and
// C_bb T_a > C_ba T_b (Favorable) under which the greedy law controls any
// demand; TwoNodeInterior gives the balancing point y* = A∘x* solving
// Cᵀy = T, and TwoNodeMap charts controlled and uncontrollable demands.
//
// # Greedy versus optimal
//
// Compare runs the greedy law and the dual algorithm of package dual
// (Algorithm 1, spec §4.8) on the same demand trace, such as one made by
// Diurnal (a daily cycle per node, shifted by time zone, times slowly
// varying log-normal AR(1) noise; the randomness comes in as a
// rand.Source). Demand is piecewise constant over measurement periods. The
// greedy state evolves continuously through each period; the dual
// algorithm takes a fixed number of warm-started super-gradient steps at
// the start of each period and holds x*(μ) for the period, the way a
// deployment with FastControl would. Both are scored on the traffic sent to
// L2, the total overload Σ(S_i − T_i)₊, overload duration, time with a
// locally uncontrollable node, and the P1 objective of dual.Quadratic
// (f_i = (W/2) A_i (1 − x_i)², h_i = (Penalty/2)(S_i − T_i)₊²). The
// quadratic L2 cost spreads second-layer traffic over nodes, so the
// optimum may send more in total to L2 than the greedy law while
// overloading far less: the comparison is one of cost, not of L2 volume
// alone. The greedy state is kept in [Guard, 1 − Guard] at each period,
// because exactly 0 or 1 are absorbing and floating point reaches them
// after a long quiet spell; the guard also bounds the law's wind-up (its
// reaction time from x = 1 − g is about log(1/g)/(β·overload)).
//
// # Sparse networks and cost
//
// Every entry point works on a network with sparse C (anycast.SparseC, as
// drawn by anycast.GenerateCDN) at O(nnz) per product and without an N×N
// matrix, and on dense C at O(N²):
//
//   - Integrate forms the load matrix B = Cᵀ diag(A) once per call
//     (anycast.LoadOp: pre-scaled sparse rows, or dense rows for dense C)
//     and evaluates S = B x in each right-hand side. When every node is
//     integrated (no start on a face) the right-hand side is an
//     ode.Split: each Dormand–Prince stage is one pass over pieces of
//     the nodes in which a piece computes its loads (LoadOp.MulRows), its
//     rates, the stage combination and the sigmoids of the next stage
//     (and, at the last stage, its error sums and dense output), on all
//     cores from 2¹⁵ entries of B, with the bits of the serial
//     evaluation. Otherwise the product is split over the cores from 2¹⁵
//     entries and the sigmoids from 4096 free nodes. The sigmoid is
//     skipped at z ≥ 37, where σ(z) is exactly 1; in the split passes it
//     runs four at a time in an AVX2/FMA kernel (amd64 with AVX2 and FMA,
//     not with the tag noasm) that repeats math.Exp's arithmetic lane by
//     lane, so its bits are those of the scalar σ (tested on a fine grid
//     of the whole range and on the edge cases it leaves to the scalar
//     code: logits below −700, infinite or NaN).
//     Recording every accepted step reuses the state and loads of the
//     step's last evaluation (Dormand–Prince is first-same-as-last), so a
//     trajectory costs copies, not products; at N = 10⁵ a few hundred
//     samples of X, S and Overload are the memory (8·3N bytes each).
//   - Law.JacobianOp holds the Jacobian factored as diag(D) − diag(R) B
//     (O(N) numbers beside the network), with entries equal to Jacobian's
//     and products J v in O(nnz); Law.Jacobian stays the dense N×N matrix.
//   - On sparse C, Linearize (and Snap, Corner, Equilibria and Attractors,
//     which use it) splits the spectrum exactly: rows of nodes on a face
//     are D_i e_i, so J is block triangular and its eigenvalues are those
//     D_i with the eigenvalues of the interior block J_II, the only dense
//     matrix (|I|×|I|, O(|I|³) work), assembled from the columns of C in
//     O(nnz + |I|²). Snap solves the interior balance B_II x_I = T_I −
//     (B x_B)_I on the same block. On dense C, Linearize decomposes the
//     whole Jacobian as before.
//   - PolytopeSlack, ExtendedSlack, Uncontrollable, Corner (NodeRates),
//     ClassifyCorners and SearchCorners read C by rows or through Loads;
//     Compare calls dual's sparse path for the optimum.
//
// The sparse and dense paths agree to rounding (their sums run in other
// orders: LoadOp rounds C_ji A_j first, and gonum's dense dot product
// keeps several partial sums), and bit for bit on two nodes. The
// benchmarks and their targets are in docs/benchmarks.md.
//
// # Choices on the spec's open questions
//
//   - Rate law: β x(1 − x)(T − S) as reconstructed in §5.1; the normalised
//     variant is available. Theorem (25) is represented by its candidate
//     properties of §5.2, each a test.
//   - Algorithm 2: explicit Euler on (24) with a fixed period Δt, without
//     measurement noise; a step that could leave [0, 1] is an error rather
//     than silently clamped.
//   - The unknown C_ba of the seed example: every check loops over
//     C_ba ∈ {0, 0.1, 0.3, 0.5, 0.59} (§8).
//   - An end state counts as an uncontrollable overload when (27) holds with
//     a margin of 1e-6 load units, well above the integration error.
//   - Simulation section (§6, §9 item 10): the costs, demand model, period
//     length and number of dual steps of Compare are this package's
//     choices, stated with CompareSettings and DiurnalSettings.
//
// # Arguments, settings, errors and panics
//
// An anycast model is always a *anycast.Network (Law.Net, Compare,
// TwoNodeMap, Favorable, TwoNodeInterior, PolytopeSlack, …); functions
// that replace its demand (Compare takes a demand trace, TwoNodeMap a grid
// of demands) or need only C and T (Favorable, TwoNodeInterior) say that
// they do not read nw.A. Every function that takes a network validates it
// on each call (anycast.Network.Validate), so a network whose exported
// fields were changed after construction is checked again; the hot-loop
// methods Law.Rate, Law.Jacobian, Law.JacobianOp and Law.EulerStep do
// not.
//
// Settings (Settings, CompareSettings, MapSettings, DiurnalSettings): a
// nil pointer or a zero field means the default stated on the field; a
// negative, NaN or infinite field (or one outside its domain) is an error
// wrapping loadlab.ErrInvalid that names the field, never replaced by the
// default. Each has a Validate method. DiurnalSettings switches the cycle
// and the noise off with NoCycle and NoNoise, since a zero Amplitude or
// Noise means the default.
//
// Errors wrap the named errors of package loadlab and name the parameter
// and its value (errors.Is): loadlab.ErrInvalid for bad data (including a
// Diurnal demand that overflows float64), loadlab.ErrTooLarge for a size
// or count beyond memory or a budget (trajectory samples, Iterate steps,
// RK4 steps above Settings.MaxSteps, SearchCorners and Attractors starts,
// grids, traces), checked before anything is allocated, and loadlab.
// ErrIllConditioned for a failed eigendecomposition or a two-node C that
// is singular to rounding. When the integrator stops short, Integrate
// returns the trajectory so far with its Status and the ode error
// (ode.ErrMaxSteps or ode.ErrStepSize, both instances of loadlab.
// ErrNotConverged).
//
// Panics are for programmer errors only and are documented on each
// function: a nil network argument (NewLaw, the functions above; a Law
// whose Net field is nil is an ErrInvalid error naming Law.Net, and a panic in Rate, Jacobian and JacobianOp), a nil rand.Source (Diurnal, SearchCorners, Attractors), a slice
// of the wrong length in the hot-loop methods. The message names the
// argument.
//
// Indices run from 0 in code (the spec counts from 1); in two-node helpers
// node a is 0 and node b is 1, and a vertex mask has bit i set iff x_i = 1.
package stability
