// Package consensus implements distributed system throttlers: servers on
// a weighted graph that share a global rate limit by consensus, their
// dispersion under uncertain demand (the H2 measures), the design of the
// update cycle and the links, and the per-server throttling of clients.
// The specification is docs/specs/throttlers.md (Siami & Skaf, IEEE TAC
// 2018); "§" refers to it, and §13 gives the full account of this
// package, including its readings of the spec's open questions.
//
// # Model
//
// A Throttler holds the graph (a *wgraph.Graph, weights as
// conductances), the update cycle γ, the nodal Measure and the
// Orientation. Server i accepts a_i = min{x_i, r_i} of its r_i requests
// and every cycle updates its limit by x(k+1) = x(k) + γ L p(k), p the
// nodal measure (Amount r − x, Ratio, LogRatio, Clipped; §3.4), which
// conserves the total limit (Lemma 1, §3.3) to the last bit. Units: r,
// x, a in requests per step; γ in time per step; γ w is dimensionless.
//
//	tr, err := consensus.Simulate(th, demand, x0, steps, nil) // totals, over-throttling, dispersion
//	rho, err := consensus.Rho(th, consensus.Case2, sigma)     // ρ₂, exact
//	sp, err := consensus.NewSpectral(g)                      // all measures as functions of γ
//	gamma, rho2, err := sp.GammaH2(sigma)                    // the H2-optimal cycle γ*_H2
//
// # Stability
//
// For Amount the throttler is stable iff 0 < γ < 2/λ_n (§4.1), with the
// fastest contraction at γ_conv = 2/(λ₂ + λ_n). Simulate checks stability
// at the first step with a certified bracket of λ_n and returns the full
// (divergent) trajectory with an error wrapping ErrUnstable when it
// fails.
//
// # H2 measures
//
// The dispersion ρ = lim E‖M_n p‖² of three traffic cases (§4.2–§4.4):
// Case1 (white noise, ρ₁), Case2 (random walk, ρ₂), Case2T (random walk
// scaled by γ, ρ₂T = γρ₂); the nodal values ρ_j sum to ρ.
//
//   - Exact: Rho, NodalRho and GammaH2 by Cholesky factorisations —
//     sparse ones with selected inversion on sparse graphs at any size
//     where the factor fits (seconds for the Internet AS graph), dense
//     ones up to spectral.DenseMaxNodes nodes, ErrTooLarge naming the
//     estimator beyond (spec sparse-cholesky.md §5); Spectral from one
//     eigendecomposition; Covariance by the Lyapunov equation, an
//     independent oracle for small graphs.
//   - Estimates with 95 % intervals, at any size: EstimateH2 (ρ₁, ρ₂,
//     ρ₂T by Lanczos quadrature with Rademacher probes), EstimateNodalH2
//     (per-node intervals), EstimateGammaH2 (γ*_H2 and ρ₂ there), all
//     taking estimate.TraceSettings and a rand.Source; EstimateRho by
//     Monte Carlo simulation, over MonteCarlo.Runs runs or until a
//     MonteCarlo.Precision is met (docs/specs/monte-carlo.md).
//
// # Design
//
// GammaH2 and Spectral.GammaH2 minimise ρ₂ over γ (§5.1, Problem B),
// and
// Spectral.GammaTradeoff the trade-off ρ₂T + c/γ; DesignWeights chooses
// link weights under a budget (Problem A) with a duality-gap certificate;
// GreedyLinks adds links one at a time (Problem C). Decision helpers
// (§13.11): Spectral.GammaMargin (EstimateGammaMargin above
// spectral.DenseMaxNodes) picks γ*_H2 or the cycle a stated margin below
// the certified stability limit, with the H2 price of the margin;
// Spectral.GammaWorstServer minimises the worst server's ρ₂,j;
// ReweightLinks reweights at most k links, certified against the full
// design. DesignWeightsAtScale (§13.12) minimises tr L(w)† under a
// budget and per-link bounds at any size: exactly up to 1000 nodes
// (dense) and above wherever a sparse Cholesky factor fits (one solve per
// link per step: grids, power grids); on expanders (random regular
// graphs) by the local path, whose gradients and exact polynomial
// certificate come from each link's neighbourhood (10⁶ nodes certified
// within 1 %, only the value's interval at 95 %); otherwise by
// projected gradient on a sketch with warm-started solves, its
// lower bound f(w)²/max_v Σ v_e‖L†b_e‖² then holding at a stated
// confidence (the sketch's envelope limits the certified gap to about
// 2ε). DesignRho2AtScale (§13.14) minimises ρ₂ itself at a given γ by
// the same paths (the local one with a second polynomial for
// (2I − γL)⁻¹ in its certificate), adding the solves of the
// well-conditioned 2I − γL and a certified λ_n bracket that keeps every
// iterate stable; DesignRho2CycleAtScale designs the weights and the
// cycle together (ρ₂ depends on γw only, so with zero lower bounds the
// joint problem needs one design).
//
// AddLinks adds k links to lower the Kirchhoff index at any size
// (§13.13): exact up to LinkDenseMaxNodes, above by sketches that screen
// every candidate, solves that confirm the best, and rank-one updates;
// each step's gain and K_f come with intervals, and Lower, from the
// convex relaxation, bounds the best K_f of any k candidates:
//
//	cands, err := consensus.Candidates(g, 2)          // non-edges within 2 hops
//	res, err := consensus.AddLinks(g, cands, 100, nil, src)
//	fmt.Println(res.After, res.Lower, res.Gap)
//
// With LinkSettings.Objective = LinkRho2 (at LinkSettings.Gamma) or
// LinkRho2Star (at the best cycle γ*, re-tuned as links are added) it
// lowers ρ₂ instead (§13.15): links that would make the throttler
// unstable are refused, the greedy stops when no link helps, and Lower
// bounds the best ρ₂ of any k candidates. LinkRho2 runs at any size:
// above LinkDenseMaxNodes it screens with sketches of L† and of
// (2I − γL)⁻¹, confirms by solves, certifies each link's stability, and
// gives ρ₂ with a 95 % interval and Lower at a stated Confidence (§13.16);
// so does LinkRho2Star, with γ* estimated by EstimateGammaH2, one sketch of
// (2I − γL)⁻¹ per cycle of its grid, and After at the answer's own γ*
// (AfterGamma, §13.17).
// LinkStability says which links would push γλ_n past 2 (ρ₂ infinite).
//
// # Per-server throttling
//
// UniformRatio (Algorithm 1) and WaterFill (Algorithm 2, max–min fair)
// split a server's limit among its clients (§7). SimulateClients runs
// that split inside the loop for every server (ClientStationary,
// ClientRandomWalk, ClientTrace; Clients.Split) and records Jain's index
// (JainIndex) of the clients' shares; the servers' record is Simulate's,
// bit for bit.
//
// # The throttler as deployed
//
// docs/specs/throttlers-deployed.md ("spec deployed"). Settings.Network
// runs Simulate on an imperfect Network: link delays (uniform, per link,
// random), exchanges lost independently or in bursts, per-server cycles,
// servers ticking on their own clocks, one-way links. Under the default
// Joint protocol a transfer is applied by both ends or by neither, so the
// total limit stays conserved to the last bit under every imperfection
// but one-way links (§1.4). Delay: with every
// measure τ cycles late the throttler is stable iff γλ_n < a*(τ) =
// 2 sin(π/(2(2τ+1))) (DelayLimit, DelayStability); RhoDelay,
// Spectral.RhoDelay and Spectral.GammaH2Delay are exact, EstimateH2Delay
// and EstimateGammaH2Delay estimate at any size; SecondMomentRho adds lost
// exchanges and random ticking (n ≤ 256). The centralized baseline
// Central (a Rule, decisions Delay cycles late) runs in SimulateCentral.
// Over-throttling a_ideal − a_total: exact in the Gaussian stationary
// regime (ExpectedOver, Spectral.Over, Spectral.GammaOver,
// DesignOverWeights), estimated with intervals for both throttlers
// (EstimateOver, EstimateCentralOver).
//
// # Errors and panics
//
// Errors follow docs/conventions.md: each wraps a named error of package
// loadlab and names the parameter or field and its value. ErrInvalid: an
// argument or settings field outside its domain, or a nil required field
// (Throttler.Graph, a demand's Src where it draws). ErrDisconnected: a
// disconnected graph. ErrUnstable (= loadlab.ErrUnstable): γλ_n ≥ 2 to
// the error bound of what decides it; the H2 functions then return +Inf.
// ErrIllConditioned (= loadlab.ErrIllConditioned): a result would have no
// correct digits (L† of a nearly disconnected graph, a stability
// decision the bounds cannot settle). ErrNotConverged: an estimate or a
// design stopped short, returned with its partial result and Status.
// ErrTooLarge: dense work above spectral.DenseMaxNodes, or a record
// beyond the memory budget, refused before anything is allocated. A nil
// *Throttler, Demand or rand.Source, and a destination of the wrong
// length, are programmer errors: the functions panic naming the
// argument. A nil settings pointer means the defaults.
//
// # Cost
//
// Simulate is O(n + m) per step on both cores (10⁴ steps on 10⁴ servers
// in about a second; 100 steps on 10⁶ servers in a few seconds); Rho and
// NodalRho are O(n³); the estimators about O(m) per probe
// (docs/benchmarks.md, §13.10).
package consensus
