// Package consensus implements distributed system throttlers (DSTs):
// servers on a weighted graph that share a global rate limit by
// consensus, their behaviour under uncertain demand, the design of the
// update cycle and the links, and the per-server throttling of clients.
// The specification is docs/specs/throttlers.md (Siami & Skaf,
// "Structural Analysis and Optimal Design of Distributed System
// Throttlers", IEEE TAC 2018, arXiv:1706.09820); section numbers below
// (§) refer to it. Much of the paper could not be recovered, so the
// spec reconstructs it; the readings this package chose are listed under
// "Choices" and the alternatives are options where the spec names them.
//
// # Model (§3)
//
// A Throttler holds the graph, the update cycle γ, the measure and the
// orientation; every function that models a throttler (Simulate,
// EstimateRho, Rho, NodalRho, Covariance, GreedyLinks) takes a
// *Throttler. Spectral, built from a graph's spectrum, evaluates the
// same measures as functions of γ for sweeps.
//
// Server i receives r_i(k) requests in step k and may accept up to its
// limit x_i(k); it accepts a_i(k) = min{x_i(k), r_i(k)}. Every update
// cycle γ (time units per step) the servers exchange a nodal measure
// p_i(k) with their neighbours and update
//
//	x_i(k+1) = x_i(k) + γ Σ_{j~i} w_ij (p_i(k) − p_j(k)),   x(k+1) = x(k) + γ L p(k),
//
// with L the weighted Laplacian of the graph (wgraph.Graph; weights are
// conductances). Limit flows toward the servers with larger p. Because
// 1ᵀL = 0 the total limit l_total = Σ x_i is conserved (Lemma 1, §3.3).
// The totals r_total, l_total, a_total, the ideal curve
// a_ideal = min{r_total, l_total} and the over-throttling
// O = a_ideal − a_total = min{Σ(r−x)₊, Σ(x−r)₊} ≥ 0 (§3.2) are recorded
// by Simulate. Units: r, x, a are requests per step; γ is time per step;
// weights are per unit time, so γ w is dimensionless.
//
// Nodal measures (Measure, §3.4 Table I):
//
//	Amount   (row I)   p = r − x           fixed point x* = r − (r_total − l_total)/n · 1
//	Ratio    (row II)  p = 1 − x/r         fixed point x* = (l_total/r_total) r
//	LogRatio (row III) p = log r − log x   fixed point x* = (l_total/r_total) r
//	Clipped            p = (r − x)₊ = r − a
//
// # Stability and convergence (§4.1, §4.6)
//
// For Amount the limits obey x(k+1) = (I − γL) x(k) + γ L r(k); the
// dispersion modes are 1 − γλ_i, i ≥ 2, so the throttler is stable iff
// 0 < γ < 2/λ_n. With constant demand the deterministic contraction
// factor is ς(γ) = max{|1 − γλ₂|, |1 − γλ_n|}, smallest at
// γ_conv = 2/(λ₂ + λ_n). For
// Ratio the update is x(k+1) = (I − γ L R⁻¹) x(k), stable iff
// γ < 2/μ_n with μ_n = λ_max(R^{-1/2} L R^{-1/2}); LogRatio linearises to
// the same form with X* = (l_total/r_total) R (spec §8). Simulate checks
// these at the first step's demand with spectral.LambdaMaxBracket, which
// brackets μ_n between upper bounds (max over links of q_u d_u + q_v d_v,
// a Collatz–Wielandt bound from power steps on |S|, and above 400 nodes
// the probabilistic Lanczos bound, wrong with probability at most
// 1e-10) and Lanczos Rayleigh quotients, refining only while 2/γ is
// inside the bracket; up to 400 nodes it uses the dense spectrum and up
// to 3000 a dense Cholesky test of (2/γ)I − S. An unstable γ never passes
// silently: Simulate runs all steps, so the divergence shows, and
// returns the trajectory with an error wrapping ErrUnstable (γ within
// the method's error bound of 2/μ_n, about 10⁻⁹ relative, counts as
// unstable: the dispersion does not decay). Above 3000 nodes, a γ the
// bracket cannot place within its step budget gives an error wrapping ErrIllConditioned that
// says stability is uncertain and gives the bracket.
//
// # H2 performance (§4.2–§4.5)
//
// The measure is ρ = lim E ‖M_n p(k)‖², M_n = I − J/n, the stationary
// dispersion of the throttled amounts (nodal ρ_j = lim E (p_j − p̄)²):
//
//	Case 1  (r = r̄ + white noise σ²):          ρ₁  = σ² Σ_{i≥2} 2/(2 − γλ_i)
//	Case 2  (random walk, step variance σ²):    ρ₂  = σ² Σ_{i≥2} 1/(γλ_i(2 − γλ_i))
//	Case 2T (random walk, variance σ² γ):       ρ₂T = γ ρ₂
//
// Rho and NodalRho evaluate them from Cholesky factorisations
// (dense.SPDFactor): of 2I − γL for Case 1, which is positive definite
// exactly when the throttler is stable, and for Case 2 also of L + αJ/n,
// by the partial fractions 1/(a(2 − a)) = ½ (1/a + 1/(2 − a)),
// ρ₂ = σ²/2 [tr L†/γ + tr (2I − γL)⁻¹ − ½] (on sparse graphs one
// factorisation of γL(2I − γL) + J/n does, formed from the adjacency
// lists). Where the answer would have
// no correct digits they return an error instead of a number:
// ErrUnstable when γλ_n is within rounding of 2, ErrIllConditioned when
// the graph is so nearly disconnected that L† cannot be trusted (as
// spectral.KirchhoffIndex refuses it). Spectral evaluates the
// sums in O(n) per γ after one eigendecomposition. The effective-
// resistance bounds are σ² K_f/(2γn) ≤ ρ₂ ≤ σ² K_f/(γn(2 − γλ_n)) and
// ρ₂ ≥ σ²(n − 1) (Spectral.Bounds). Covariance solves the discrete
// Lyapunov equation directly (Lyapunov) as an independent oracle, and
// EstimateRho measures ρ by simulation. With drifting demand
// r(k+1) = r(k) + d + v(k) the dispersion of p settles at mean L†d/γ,
// a persistent mismatch set by the effective resistances (spec §4.7).
//
// # Update cycle (§5.1, Problem B)
//
// ρ₂ is strictly convex in γ on (0, 2/λ_n) with minimiser γ*_H2, the root
// of g(γ) = Σ (1 − γλ_i)/(λ_i(2 − γλ_i)²) in [1/λ_n, min{1/λ₂, 2/λ_n})
// (Spectral.GammaH2, bisection). ρ₁ and ρ₂T increase with γ; the
// trade-off ρ₂T(γ) + c/γ is minimised by Spectral.GammaTradeoff. Only
// γL matters: ρ(γ, cL) = ρ(cγ, L).
//
// # Large graphs: one API for both regimes
//
// Rho, NodalRho and EstimateGammaH2 compute exactly (dense Cholesky or
// the dense spectrum) up to spectral.DenseMaxNodes = 2048 nodes and by
// stochastic trace estimation (Lanczos quadrature; tr L† by Hutch++
// with sparse Laplacian solves where L is ill-conditioned) above, where
// the dense O(n³) work and O(n²) memory no longer fit (10⁶-node graphs
// take seconds, docs/benchmarks.md). Rho and NodalRho keep returning
// bare numbers: above the limit, the means of the estimates at the
// default accuracy (1 % relative at 95 %, for ρ and per node for the
// nodal values) from the fixed source linalg.DefaultSource, so they are
// deterministic. RhoWith, NodalRhoWith and EstimateGammaH2 take
// estimate.TraceSettings (RelAcc, probe budget, solver, Method to force a
// path) and a rand.Source, and return loadlab.Estimate values with 95 %
// intervals (Lo = Hi = Mean on the dense path), the path that ran and
// the work. On the stochastic path ρ₂ uses the split
// 1/(a(2 − a)) = ½(1/a + 1/(2 − a)): a resistance term tr L†/γ and the
// well-conditioned tr (2I − γL)⁻¹, both by Gauss quadrature on one
// Lanczos run per probe (the resistance term by preconditioned solves
// when κ(L) is too large for Lanczos, as on tori).
// EstimateGammaH2 finds the root of the stochastic estimate of g with
// common probes (smooth and decreasing in γ), with a 95 % interval by
// test inversion; γ is always checked against a certified bracket of
// λ_n (deterministic bounds, spectral.LambdaMaxBracket when they do not
// decide), so γ ≥ 2/λ_n is ErrUnstable, not a number.
//
// # Link design (§5.2, Problems A and C)
//
// DesignWeights solves Problem A, min ρ₂(γ; L(w)) over w ≥ 0 on a given
// support with Σ c_e w_e ≤ B, and its Case 1 variant
// min ρ₁ subject to λ₂(L(w)) ≥ s (see its documentation for the method
// and the duality-gap certificate it reports). GreedyLinks solves
// Problem C, adding k links one at a time with the Sherman–Morrison
// updates of tr L† and tr (2I − γL)⁻¹.
//
// # Per-server throttling (§7)
//
// UniformRatio (Algorithm 1) gives every client x⁽ʲ⁾ = r⁽ʲ⁾ min{1, x/R};
// WaterFill (Algorithm 2) is max–min fair: x⁽ʲ⁾ = min{r⁽ʲ⁾, t} with
// Σ_j min{r⁽ʲ⁾, t} = x. Both return allocations in input order summing
// to min{x, R}; an unsaturated server serves every request in full and
// hands out no spare limit (open question 10).
//
// # Choices on the spec's open questions (§10)
//
// Numbered as in §10.
//
//  1. Sign: x(k+1) = x(k) + γ L p(k) with p oriented "larger = more
//     throttled" (Orientation Starved, the default). Served records the
//     "larger = better" measure with x(k+1) = x(k) − γ L p(k): the same
//     limits. The update uses only the neighbours' measures, not their
//     limits.
//  2. Measure in the analysis: the unclipped amount r − x (Amount). The
//     clipped (r − x)₊ is available in Simulate (Measure Clipped); the
//     closed forms do not apply to it.
//  3. Traffic: Case 1 stationary, Case 2 random walk with per-step
//     variance σ² (default for "ρ₂"), Case 2T with variance σ²γ per step
//     (RandomWalkDemand.Dt = γ, Traffic Case2T).
//  4. Output of the H2 measure: the dispersion of p, not normalised by n
//     (divide by n for a per-server value).
//  5. Both forms of the results are given: eigenvalue sums (Spectral)
//     and effective-resistance forms (the Kirchhoff-index bounds).
//  6. Optimal cycle: both γ*_H2 (H2) and γ_conv (convergence) are given.
//  7. Problems A–C follow §5.2's formulations (Problem A's exact form in
//     the paper is unknown). Problem A is solved without an SDP solver:
//     spectral projected gradient for ρ₂, a barrier Newton method (with
//     a supergradient phase one for its start) for the λ₂-floor variant,
//     both stopped by a duality-gap certificate.
//  8. Table I: rows I–III as reconstructed, plus the clipped amount.
//  10. Per-server algorithms hand out no spare limit: an unsaturated
//     server allows exactly the requests.
//  11. Graphs are undirected (wgraph.Graph), so 1ᵀL = 0 and Lemma 1
//     holds. It is implemented in the exact antisymmetric form: each
//     link carries one rounded flow γ w_uv (p_u − p_v) that one end
//     gains and the other loses, and limits are kept as compensated
//     sums, so the total is conserved to a rounding of the final sum,
//     with no drift.
//
// # Errors and panics
//
// Errors follow docs/conventions.md: each wraps a named error of package
// loadlab and names the parameter or field and its value.
//
//   - ErrInvalid: an argument or settings field outside its domain
//     (Throttler.Gamma, Traffic, σ, MonteCarlo.Runs, DesignSettings.Tol,
//     a link, x0[i], …), and a nil required field (Throttler.Graph,
//     StationaryDemand.Src or RandomWalkDemand.Src with Sigma > 0).
//   - ErrDisconnected: a disconnected graph.
//   - ErrUnstable (= loadlab.ErrUnstable): γλ_n ≥ 2, or γλ_n = 2 to the
//     error bound of the eigenvalue or factorisation that decides it;
//     the H2 functions then return +Inf and Simulate the full
//     (divergent) trajectory with the error.
//   - ErrIllConditioned (= loadlab.ErrIllConditioned): a result would
//     have no correct digits, for example ρ₂ of a graph so nearly
//     disconnected that L + αJ/n is too ill conditioned (as
//     spectral.KirchhoffIndex refuses it), or a stability decision the
//     eigenvalue bounds could not settle (above 3000 nodes).
//   - ErrNotConverged: DesignWeights stopped short of its tolerance; the
//     best design so far comes with it and its Status says why.
//   - ErrTooLarge: a step count whose record would exceed the memory
//     budget, refused before anything is allocated.
//
// A nil *Throttler, a nil Demand and a nil destination of the wrong
// length are programmer errors: the functions panic with a message
// naming the argument, as their documentation says. A nil settings
// pointer means the defaults.
//
// # Cost
//
// Simulate costs O(n + m) per step and never forms a dense matrix. On
// graphs of 4096 servers or more, with GOMAXPROCS > 1, a second
// goroutine draws the demand of the coming steps while the limits are
// updated (except for a TraceDemand, which is only copied); the demand
// stream and its order are unchanged, so results do not depend on it.
// 10⁴ steps on 10⁴ servers of average degree 6 with random-walk demand
// take a median of 0.95 s over six runs (range 0.92–0.96 s,
// docs/benchmarks.md; about 1.4 s on one processor) on the project's
// 2-core machine when idle. From 2^16 servers the update runs as a
// blocked gather (p read one 1 MiB block at a time into a staging array,
// then every server's flows in adjacency order; 13 extra bytes per
// adjacency entry), bitwise identical to the direct loop and split over
// GOMAXPROCS workers by default, each pass over 64 fixed pieces claimed
// one at a time (internal/par); with the linear measure the step's
// totals run beside the gather and the next step's renormalisation
// inside the update. 100 steps on a 10⁶-node random 6-regular graph
// took 7–9 s of CPU time on the shared machine (docs/benchmarks.md); the
// 5 s wall-time target on two quiet cores is not yet confirmed. Rho costs one dense Cholesky and one
// triangular inverse, 2n³/3 flops, for Case 1 and for Case 2 on sparse
// graphs, and two of each for Case 2 on dense graphs (run side by
// side), about twice spectral.KirchhoffIndex on the same graph
// (docs/benchmarks.md); Spectral one dense eigendecomposition.
// DesignWeights solves 50 nodes and 200 candidate links to a relative
// gap of 10⁻⁶ in milliseconds. Covariance is O(n⁶) (oracle for small n).
//
// Measured on the 2-core development machine under light load; see the
// benchmarks in bench_test.go.
package consensus
