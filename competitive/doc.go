// Package competitive implements nomadic service assignment (Bortnikov,
// Cidon and Keidar, "Nomadic Service Points", INFOCOM 2006; spec
// docs/specs/nomadic.md): a mobile session is attached, slot by slot, to
// one of k servers, paying a hold cost per slot and a setup cost C per
// (re)assignment. The package holds the offline optimum, the online
// algorithms DTrack, CTrack, the work function algorithm and Marking,
// the motion-aware Lookahead, and the adversaries that bound them.
//
// # Model (spec §2)
//
// An Instance has T slots, k servers and hold costs h_t(s) ≥ 0, finite,
// stored row-major; C ≥ 0 is finite. Slots and servers are numbered from
// 0. A schedule σ gives the server of every slot; with N(σ) = 1 + #{t :
// σ_t ≠ σ_{t−1}} setups (the first assignment is charged),
//
//	cost(σ) = C·N(σ) + Σ_t h_t(σ_t),      OPT = min_σ cost(σ).
//
// Costs have no unit of their own. An online algorithm (interface Online)
// chooses σ_t after seeing h_1..h_t and nothing later (spec §2.2); ALG is
// r-competitive if cost ≤ r·OPT on every input, without additive constant
// (spec §2.4, open question 2). Decisions compare float64 values exactly,
// so integer-valued costs reproduce the spec's traces bit for bit.
//
// # Algorithms
//
//	opt, sched, err := competitive.Optimum(in)          // the O(kT) dynamic program
//	cost, err := competitive.RunCost(competitive.NewDTrack(competitive.RoundRobin), in)
//
// By type:
//
//   - Optimal (Optimum, OptimumCost) is the dynamic program of spec §3,
//     fed slot by slot (Reset, Push, Schedule), with a warm start on a
//     server; the schedule costs one bit per (slot, server), 27 MiB for
//     k = 100, T = 10⁶, and the cost-only mode O(k) (spec §12.2).
//     CountOptimal counts the optimal schedules.
//   - DTrack (spec §4) tracks deficits and transitions when the largest
//     exceeds α·C, to a server chosen by Policy: RoundRobin (DTrack-RR,
//     2k-competitive at α = 1), Forward (DTrack-F) or Backward (DTrack-B
//     with β); Reach selects the trigger ≥ instead of >.
//   - CTrack (spec §5) moves when the hold cost of the current stay would
//     exceed α·C; Cyclic drops the skip of expensive servers.
//   - WFA, the work function algorithm of the uniform task system (spec
//     §2.5), is (2k − 1)-competitive, the best deterministic ratio (proof
//     in spec §12.4). Marking is randomised: E[cost] ≤ 2H_k·OPT against an
//     input fixed in advance, its randomness from a rand.Source.
//   - Lookahead (spec §7) plans with the warm-start optimum over Window
//     slots predicted by a Forecaster and falls back to DTrack-RR; the
//     mesh and chat-room forecasters are in package competitive/mobility.
//   - Baselines that never migrate (spec §12.7): StaticBest, the best
//     single server in hindsight (OPT ≤ StaticBest), and NeverMigrate,
//     the online policy that stays on the first slot's cheapest server.
//   - Cruel, the adaptive adversary of spec §6.1, forces every
//     deterministic algorithm towards ratio k (WFA to 2k − 1); Trap (spec
//     §6.4) makes DTrack-F and DTrack-B(β = α) pay (2n+1)C against
//     OPT = C + n + 1.
//
// The bounds tested against random instances, the adversaries and every
// small integer instance are listed in spec §12.6.
//
// # Migration costs that depend on source and destination (spec §14)
//
// A Metric replaces the one setup cost C by a k×k matrix d(i, j) ≥ 0 of
// migration costs (zero diagonal) and first-placement costs a(s) ≥ 0, so
// that cost(σ) = a(σ_1) + Σ_t d(σ_{t−1}, σ_t) + Σ_t h_t(σ_t); the setup
// cost of the Instance is then not used. Constructors: UniformMetric (d
// ≡ a ≡ C, the model of spec §2), NewMetric (any matrix, such as one read from
// a CSV file by package dataio), ShortestPathMetric (hop counts or
// delays of a network of links, all-pairs shortest paths), TreeMetric
// (distances along a weighted tree) and LineMetric (points on a line).
// What each function needs of the costs, and what it costs:
//
//	MetricOptimum, MetricOptimumCost  any valid costs   O(k²T) time; O(kT) on a uniform, tree or line metric
//	MetricWFA                         a metric (Violation() == nil)   O(k²) per slot; O(k) on those
//	MetricDTrack                      any valid costs   O(k) per slot
//	MetricNeverMigrate, StaticBestMetric  any valid costs   O(1) / O(kT)
//
// MetricOptimum keeps one int32 back-pointer per slot and server (38 MiB
// for k = 100, T = 10⁵, solved in about 2 s; 0.2 s on a line metric). On a uniform metric every
// metric function gives exactly the result of its uniform counterpart
// (Optimum, WFA, DTrack-RR, NeverMigrate, StaticBest). The bounds (spec
// §14.3, §14.4): MetricWFA pays at most (2k − 1)·OPT + 2(k − 1)·(D −
// min a), D the largest migration cost; MetricDTrack at α = 1 at
// most (1 + Δ(2k − 1))·OPT plus first-placement terms, Δ = max d / min d.
// Run the metric algorithms with RunMetric and RunMetricCost and price
// schedules with MetricCost.
//
// # The threshold α and DTrack-B's β (spec §15)
//
// DTrackBound(k, α) is DTrack-RR's bound U(α) = max{k(1 + 1/α), (k − 1)α
// + k}; BestAlpha gives its minimiser α* = √(k/(k − 1)) and U(α*) = k +
// √(k(k − 1)) < 2k − ½, so α = 1 (U = 2k) is not the best threshold.
// DTrackCruelLimit(k, α) = max{k(1 + 1/α), (k − 1)(1 + α)} is the ratio
// the adversary Cruel forces as ε → 0, a proved lower bound: DTrack-RR's
// ratio is exactly 2k at α = 1. AlphaStudy measures DTrack (any policy,
// α, β) against the adversary and on random workloads (Sticky, Uniform;
// AlphaPoint), with the never-migrate baseline, over seeds:
//
//	out, err := competitive.AlphaStudy([]competitive.AlphaPoint{{Servers: 3, Alpha: 1.2}}, 100, seed)
//	// out[0].Bound, out[0].Limit, out[0].Adversary, out[0].Random (mean ratio, 95 % interval)
//
// # Predictions (spec §16)
//
// Lookahead trusts its forecaster and has no bound when the forecasts
// are bad; NoisyOracle is the perfect Oracle plus N(0, σ²) errors.
// Guarded follows a prediction-based algorithm while its cost stays
// within (1 + Lambda)·(the fallback's cost) + C, and the fallback (WFA)
// for good afterwards: it pays OPT when the forecasts are exact over the
// whole horizon and at most ((1 + Lambda)(2k − 1) + 2)·OPT whatever they
// are. PredictionStudy measures the trade-off against the prediction
// error, beside WFA, DTrack-RR and never migrate.
//
// # Several sessions sharing servers (spec §17.4)
//
// Sessions holds m instances (same T, k, C) and a capacity per server;
// SessionsOptimum is the exact dynamic program over the joint states
// within the capacities, O(T·S²·m) for S ≤ k^m states (small sizes
// only: ErrTooLarge beyond k^m = 10⁶ or T·S²·m = 2·10⁹), and
// SessionsSequential the heuristic that gives each session in turn its
// optimum on the capacity left, checked against the exact program and
// brute force on small instances.
//
// # Choices on the spec's open questions (§10)
//
// The trigger is strict (max D′ > αC) by default (Q1); ties go to the
// lowest id, and RR and B scan cyclically from s+1 (Q3); the a-priori
// deficit h_t(j) − min_i h_t(i) ≤ αC is required by RR and B (Q4); DTrack-B
// falls back to the leaders, then to the RR choice, and β = −∞ makes it RR
// (Q5); CTrack counts the arrival slot and skips servers with h_t(j) > αC
// (Q6). Details in spec §12.3.
//
// # Cost
//
// Optimal, DTrack, WFA and Marking cost O(k) per slot, CTrack O(1) in a
// slot where it stays (O(k) at a transition), Lookahead O(k·Window);
// Optimal needs O(kT) bits for the schedule.
//
// # Errors and panics (docs/conventions.md)
//
// Bad data is an error that names the parameter (or the slot, server or
// row index) and the value, and wraps a named error of package loadlab:
//
//   - loadlab.ErrInvalid: T < 1 or k < 1, a hold cost, C, ε, α or β that
//     is negative, NaN or infinite (β: NaN, +∞ or above α), rows of
//     different lengths, a row of the wrong length given to Optimal.Push
//     or Online.Step, a start server out of range, costs so large that a
//     schedule's cost overflows float64 (C·T + Σ_t max_s h_t(s) = +Inf),
//     an online algorithm that picks a server out of range, a forecaster
//     that predicts a bad cost or more slots than asked for, a nil
//     required field (Marking.Src, Oracle.In: Validate and Reset name it);
//   - ErrNotMetric (which wraps loadlab.ErrInvalid): migration costs
//     that are asymmetric, break the triangle inequality or have
//     |a(i) − a(j)| > d(i, j), given to MetricWFA (Metric.Violation names
//     the pair or triple);
//   - loadlab.ErrInvalid also: a migration or first-placement cost that is
//     negative, NaN or infinite, a non-zero diagonal, a matrix that is not
//     square, a MetricDTrack.Alpha out of range, costs whose schedules
//     overflow float64 (max a + (T − 1)·max d + Σ_t max_s h_t(s));
//   - loadlab.ErrInvalid also: k < 2 or α not positive and finite given
//     to DTrackBound, DTrackCruelLimit or BestAlpha, an AlphaPoint field
//     out of its domain (named AlphaPoint.Field), runs < 2 in AlphaStudy;
//     likewise for PredictionPoint and PredictionStudy; a nil
//     Guarded.Predicted or Fallback, a bad Guarded.Lambda, a bad
//     NoisyOracle.Sigma or a nil NoisyOracle.Src with Sigma > 0; Sessions
//     without sessions, with a nil or mismatched instance, capacities
//     that are negative, not one per server or short of m, and a joint
//     schedule over capacity given to Sessions.Cost;
//   - loadlab.ErrDisconnected: a network given to ShortestPathMetric in
//     which a server cannot reach another;
//   - loadlab.ErrTooLarge: a size whose product overflows int or whose
//     memory exceeds size.MaxBytes (T·k hold costs, Trap's and Cruel's
//     3T and T·(k+1) values, Lookahead's Window·k forecast, Optimal's
//     back-pointers, a Metric's k×k costs, MetricOptimum's T·k
//     back-pointers, an AlphaPoint's instance and adversary, and its
//     default adversary horizon beyond 10⁷ slots), reported before
//     anything is allocated.
//
// The streaming APIs validate as they go: Optimal.Reset and Push and
// every Online.Step check their input and leave the state unchanged when
// they refuse it. The parameter fields of the algorithms (DTrack's Alpha,
// Beta, Policy and Reach, CTrack's Alpha and Cyclic, Lookahead's Window)
// are checked by their Validate methods, which Reset calls, and are read
// at Reset: a change takes effect at the next Reset.
//
// Panics are for programmer errors only, each documented on its function:
// a schedule of the wrong length or with a server out of range given to
// Instance.Cost, Optimal.Schedule without trace, Optimal.Push or an
// Online.Step before a successful Reset, Oracle.Forecast with a nil In
// (Lookahead.Reset reports it first), a nil instance or algorithm given
// to Optimum, OptimumCost, CountOptimal, StaticBest, Run, RunCost, Cruel or
// CruelRatio, and a negative server id given to Setups; for the metric
// functions, a nil instance, metric or algorithm, an instance and a
// metric of different numbers of servers, a bad schedule given to
// MetricCost, an index out of range given to Metric.Dist or
// Metric.Initial, and a Step before a successful Reset; a nil source
// given to AlphaPoint.Run, AlphaPoint.Instance or PredictionPoint.Run,
// an invalid point given to SummarizeAlpha or SummarizePredictions,
// Guarded.Step before Reset, Sessions.Cost with a schedule per session
// missing or out of range, and NoisyOracle.Forecast where
// Oracle.Forecast panics or without a Src while Sigma > 0.
package competitive
