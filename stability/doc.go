// Package stability analyses FastRoute's greedy load-management heuristic
// for anycast CDNs (spec docs/specs/anycast-cdn.md §5): its dynamics, its
// equilibria and their stability, the polytope Π_C of demands it always
// controls, the two-node system, and its cost against the optimal dual
// algorithm of package dual.
//
// # Model
//
// The network (package anycast) has N nodes with DNS demand A_j ≥ 0,
// capacities T_i > 0 and a row-stochastic correlation matrix C; node j
// answers with the primary layer with probability x_j ∈ [0, 1], and proxy
// i carries S_i = Σ_j A_j x_j C_ji (eq. (21)). The greedy law (eq. (24),
// type Law) is
//
//	dx_i/dt = β x_i (1 − x_i) (T_i − S_i),   β = Law.Sensitivity,
//
// in time units of 1/(β·load). A node suffers a locally uncontrollable
// overload (§5.3) when x_i = 0 and still Σ_{j≠i} C_ji A_j x_j > T_i;
// demand in the polytope Π_C (eq. (28)) never produces one. Indices run
// from 0 (the spec counts from 1); in two-node helpers node a is 0 and b
// is 1, and a vertex mask has bit i set iff x_i = 1.
//
// # Entry points
//
//	law, err := stability.NewLaw(nw, 1)
//	tr, err := law.Integrate(x0, 1000, nil)   // T, X, S, Overload, Second (traffic to L2), Excess
//	eq, err := law.Snap(tr.Final(), 1e-6)     // the equilibrium reached, classified
//
// The entry points by subject:
//
//   - Dynamics: Law.Rate, Law.EulerStep and Law.Iterate (Algorithm 2,
//     explicit Euler, an error when a step could leave [0, 1], §5.2);
//     Law.Integrate and Law.IntegrateLogit with package ode (Dormand–Prince
//     at every accepted step or at Settings.Times; fixed-step RK4 with
//     Settings.Step; AbsTol, RelTol and MaxSteps go to ode with its
//     defaults, 1e-8 and 10⁶ steps). By default Integrate works in the
//     logits z_i = log(x_i/(1 − x_i)), so x stays in [0, 1] whatever the
//     rounding (spec §13.1); Settings.Direct integrates in x (spec §13.2).
//     Settings.Logits records z in Trajectory.Z (±Inf on a face), and
//     IntegrateLogit starts from it. Law.Normalized selects the variant
//     with (T_i − S_i)/T_i (§5.1, open question §9.8).
//   - Equilibria (§5.4): Law.Jacobian and Law.JacobianOp, Law.Linearize
//     (Stable, Saddle, Unstable or NonHyperbolic, a real part within
//     ZeroTol counting as zero; eigenvalues sorted, per node at a vertex
//     in Equilibrium.NodeRates; spec §13.5), Law.Equilibria (every face
//     pattern, N ≤ MaxEnumNodes), Law.Snap, Law.Corner,
//     Law.ClassifyCorners (all 2^N vertices, N ≤ MaxCornerNodes), and
//     Law.SearchCorners and Law.Attractors for larger N.
//   - Uncontrollable overload and Π_C (§5.3, §5.5): Uncontrollable,
//     PolytopeSlack, InPolytope, and the larger region Π′_C of ExtendedSlack
//     and InExtended; for two nodes Favorable, TwoNodeInterior and
//     TwoNodeMap.
//   - The greedy heuristic as deployed (spec §13.8): Controller runs
//     Algorithm 2 as a discrete controller with a measurement period,
//     loads measured from Poisson request counts (Controller.Rate) and x
//     clamped into [Guard, 1 − Guard], over a demand Trace; the run counts
//     clamps and overshoots (the steps Iterate refuses) and scores every
//     period. Law.PeriodLimit is the longest period for which an
//     equilibrium stays stable for the controller, min −2 Re λ/|λ|².
//   - Decisions robust to a wrong C (spec §15.4–§15.5): RobustSlack and
//     InRobustPolytope check A ∈ Π_C for every C of a confidence set of
//     package anycast/beacon (per-entry intervals ∩ simplex, the worst
//     case per node in O(nnz + N)); RobustUncontrollable is (27) over the
//     set (nodes possibly and certainly uncontrollable). Robustness scores
//     the optimum computed on a wrong C against the true one: Decide,
//     Beacon (one campaign, Ĉ, the decision, the robust verdict) and
//     BeaconStudy (loss of optimality and overload against the beacon
//     budget, with intervals over campaigns), DriftStudy (a stale C under
//     the drift model of beacon.Drift).
//   - Greedy against optimal (spec §13.6): Compare on a demand trace such
//     as Diurnal's, scored on traffic to the second layer, overload, time
//     uncontrollable and the P1 cost of dual.Quadratic; with
//     CompareSettings.FastControl also the dual algorithm learning β from
//     FastControl packets under loss and delay, with its control messages
//     per HTTP request (Policy.Overhead).
//   - The headline evaluation (spec §13.9): Study runs StudyPoint (N, load
//     level, self-correlation) over random CDNs, each instance
//     StudyPoint.Run on its stream, and summarises the greedy/optimal
//     cost ratio, overload and L2 shares with 95 % intervals over the
//     instances and the share of instances left in an uncontrollable
//     overload with its exact binomial interval.
//
// The readings chosen on the spec's open questions are listed in spec
// §13.7.
//
// # Cost
//
// Every entry point works on sparse C (anycast.SparseC) at O(nnz) per
// product without an N×N matrix, and on dense C at O(N²); Law.Jacobian is
// the one dense N×N result (spec §13.3–§13.5). The two agree to rounding.
// A recorded sample costs 8·3N bytes; ClassifyCorners O(N) per vertex.
// Settings.Workspace keeps a dense integration's matrices for the next
// integration of the caller (spec §13.3). Targets and results:
// docs/benchmarks.md.
//
// # Errors and panics
//
// Every function that takes a *anycast.Network validates it on each call,
// so changed exported fields are checked again; the hot-loop methods
// Law.Rate, Law.Jacobian, Law.JacobianOp and Law.EulerStep do not.
// Compare and TwoNodeMap replace the network's demand, Favorable and
// TwoNodeInterior need only C and T: they do not read nw.A. In Settings,
// CompareSettings, MapSettings and DiurnalSettings a nil pointer or a
// zero field means the default stated on the field (DiurnalSettings turns
// the cycle and the noise off with NoCycle and NoNoise).
//
// Errors wrap the named errors of package loadlab and name the parameter
// and its value (errors.Is): loadlab.ErrInvalid for bad data (including a
// settings field that is negative, NaN, infinite or outside its domain,
// never replaced by the default, and a Diurnal demand that overflows
// float64); loadlab.ErrTooLarge for a size or count beyond memory or a
// budget (trajectory samples, Iterate steps, RK4 steps above
// Settings.MaxSteps, SearchCorners and Attractors starts, grids, traces,
// N above MaxEnumNodes or MaxCornerNodes), checked before anything is
// allocated; loadlab.ErrIllConditioned for a failed eigendecomposition or
// a two-node C that is singular to rounding. When the integrator stops
// short, Integrate returns the trajectory so far with its Status and the
// ode error (ode.ErrMaxSteps or ode.ErrStepSize, both instances of
// loadlab.ErrNotConverged).
//
// Panics are for programmer errors only and are documented on each
// function: a nil network argument (NewLaw and the functions above; a
// Law whose Net field is nil is an ErrInvalid error naming Law.Net, and a
// panic in Rate, Jacobian and JacobianOp), a nil rand.Source (Diurnal,
// SearchCorners, Attract, Robustness.Beacon), a nil confidence set or
// matrix (the robust checks, Robustness.Decide and DriftStudy), a slice of the wrong length in the hot-loop
// methods. The message names the argument.
package stability
