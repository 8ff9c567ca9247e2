// Package competitive implements nomadic service assignment (Bortnikov,
// Cidon and Keidar, "Nomadic Service Points", INFOCOM 2006; spec
// docs/specs/nomadic.md): a mobile session is attached, slot by
// slot, to one of k servers, paying a hold cost per slot and a setup
// cost C per (re)assignment. The package holds the offline optimum, the
// online algorithms DTrack, CTrack and the work function algorithm, the
// motion-aware Lookahead, and the adversaries that bound them.
//
// # Model (spec §2)
//
// An Instance has T slots, k servers and hold costs h_t(s) ≥ 0, finite,
// stored row-major in one []float64; C ≥ 0 is finite. Slots and servers
// are numbered from 0 (the spec counts slots from 1 and the slides count
// servers from 1). A schedule σ gives the server of every slot; with
// N(σ) = 1 + #{t : σ_t ≠ σ_{t−1}} setups (the first assignment is
// charged),
//
//	cost(σ) = C·N(σ) + Σ_t h_t(σ_t),      OPT = min_σ cost(σ).
//
// Costs have no unit of their own: in the mobility simulations hold
// costs are metres and C is in metres too.
//
// An online algorithm (interface Online) chooses σ_t after seeing
// h_1..h_t and nothing later (spec §2.2, the metrical task system
// convention). The competitive ratio is read without additive constant
// (spec §2.4, open question 2): ALG is r-competitive if cost ≤ r·OPT on
// every input.
//
// # Algorithms
//
// Optimal is the O(kT) dynamic program of spec §3, fed slot by slot:
//
//	V_t(s) = h_t(s) + min(V_{t−1}(s), M_{t−1} + C),   M_t = min_s V_t(s),
//
// with V_1(s) = C + h_1(s), or h_1(s) + C·[s ≠ s0] from a warm start on
// s0. The schedule is recovered from one bit per (slot, server) (did the
// optimum into s switch from the previous row's minimiser?) and the
// minimiser of every row, so k = 100, T = 10⁶ needs 19 MiB of
// back-pointers (2 words per row plus an int32), 27 MiB per solve with
// the []int schedule as measured by BenchmarkOptimal_k100_T1e6; the
// cost-only mode needs O(k). Ties: lowest-id minimiser in the last slot, and staying whenever
// staying is optimal (open question 3).
//
// DTrack (spec §4) tracks deficits D(s') = max(0, D(s') + h_t(s) −
// h_t(s')) and transitions when the largest tentative deficit exceeds
// α·C, to a server chosen by Policy: RoundRobin (DTrack-RR), Forward
// (DTrack-F) or Backward (DTrack-B with β). Choices on the open
// questions (spec §10):
//
//   - Q1 trigger: strict (max D' > αC) by default; Reach selects
//     max D' ≥ αC (and > 0), which the slide example of §4.7 needs.
//   - Q3 ties: lowest id for the first server, DTrack-F and argmins; RR
//     and B scan s+1, s+2, ... cyclically.
//   - Q4 admissibility: a-priori deficit h_t(j) − min_i h_t(i) ≤ αC,
//     applied to RR and B (F satisfies it by construction).
//   - Q5 DTrack-B fallbacks: if no server exceeds βC, the leaders (the
//     servers with the largest deficit); if no eligible server is
//     admissible, the RR choice. β = −∞ makes B identical to RR.
//
// CTrack (spec §5) accumulates the hold cost of the current stay, the
// arrival slot included, and moves when the next slot would take it
// above αC, to the next server in cyclic order with h_t(j) ≤ αC (the
// cheapest server if none); Cyclic drops the skip (open question 6).
//
// WFA is the work function algorithm for the uniform metrical task system
// the problem is (spec §2.5): work function w_t(x) = min(V_t(x), M_t + C);
// from its previous server p it moves to a supported minimiser of
// w_t(x) + C·[x ≠ p], which on the uniform metric means: stay while
// V_t(p) ≤ M_t + C, else move to the lowest-id argmin of V_t. Borodin,
// Linial and Saks show that 2k − 1 is the best deterministic ratio on
// this metric. For WFA we prove, and test, the bound without additive
// constant: cost ≤ (2k − 1)·OPT. Proof sketch (ours): let g(x) = w_t(x) −
// M_t ∈ [0, C], p the current server and Φ = −2 Σ_{x≠p} g(x) − g(p). A
// slot in which WFA stays costs h_t(p) = Δw(p), and then cost + ΔΦ =
// (2k − 1)ΔM − 2 Σ_{x≠p} Δw(x) ≤ (2k − 1)ΔM. A move p → q costs
// C + ΔM − g_{t−1}(q) with g_{t−1}(q) ≤ ΔM (q minimises V_t), g_t(p) = C
// and g_t(q) = 0, so cost + ΔΦ ≤ (2k − 2)ΔM. Summing from slot 2, with
// slot 1 costing M_1 ≥ C, Φ_1 ≤ 0 and −Φ_T ≤ 2(k − 1)C:
// cost ≤ (2k − 1)OPT − (2k − 2)(M_1 − C) ≤ (2k − 1)OPT. The adaptive
// adversary (Cruel) drives WFA's ratio to 2k − 1, so the bound is tight.
//
// Marking is a randomised algorithm for the same uniform task system:
// per phase every server accumulates its hold cost; the session leaves a
// server once that exceeds C, for a server drawn uniformly among those
// that have not; a phase ends when none is left. Against an input fixed
// in advance E[cost] ≤ 2H_k·OPT (H_k the k-th harmonic number; argument
// in its doc comment); randomness comes from a rand.Source.
//
// Lookahead is the motion-aware scheme of spec §7: each slot it plans
// with the warm-start optimum over the current slot and up to Window
// slots predicted by a Forecaster, follows the plan for one slot, and
// falls back to DTrack-RR when nothing can be predicted. Target-Aware and
// Direction-Aware are its forecasters in package competitive/mobility,
// which also holds the mesh and chat-room simulations of spec §8.
//
// # Bounds tested (spec §6, §9)
//
// TestCompetitiveBounds runs every bound below on 20,000 random
// instances and on the adaptive adversary's instances built against
// each algorithm, and requires the worst case to come within 10% of
// every bound, so that none is checked only where it is loose;
// TestBoundsExhaustive runs them on every small integer instance.
//
//   - OPT ≤ cost of every schedule (brute force for k^T ≤ 729).
//   - DTrack-RR (α = 1, either trigger): cost ≤ 2k·OPT. The bound is
//     nearly tight: Cruel with ε = C/16 drives DTrack-RR to 3.76 at k = 2
//     (5.64 at k = 3), above the optimal deterministic 2k − 1, so
//     DTrack-RR is not an optimal deterministic algorithm; WFA is.
//   - DTrack-RR for other α: cost ≤ max{k(1 + 1/α), (k − 1)α + k}·OPT,
//     the spec's own bookkeeping (§6.3, open question 7); the second
//     term is attained for k = 2, α ≥ √2 by (0,0), (αC,0), (αC,0).
//   - CTrack (both variants, α = 1): cost ≤ (2 + a)k·OPT, a = max h / C.
//   - WFA: cost ≤ (2k − 1)·OPT (additive constant 0, proof above).
//   - Marking: mean cost over 200 runs ≤ 2H_k·OPT + 4 standard errors.
//   - Cruel (spec §6.1) forces every deterministic algorithm to a ratio
//     ≥ k(C + (T−1)ε)/(kC + (T−1)ε) → k; Trap (spec §6.4) makes DTrack-F
//     and DTrack-B(β = α) pay (2n+1)C against OPT = C + n + 1.
//
// Decisions compare float64 values exactly. With integer-valued costs all
// sums are exact and traces reproduce the spec's numbers bit for bit.
//
// CountOptimal counts the optimal schedules with the same dynamic program
// (a count per server, saturating at 2⁶⁴ − 1 with a flag), so a caller
// can tell whether the schedule Optimum returns is the only one.
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
//   - loadlab.ErrTooLarge: a size whose product overflows int or whose
//     memory exceeds size.MaxBytes (T·k hold costs, Trap's and Cruel's
//     3T and T·(k+1) values, Lookahead's Window·k forecast, Optimal's
//     back-pointers), reported before anything is allocated.
//
// The streaming APIs validate as they go: Optimal.Reset and Push and
// every Online.Step check their input and leave the state unchanged when
// they refuse it. The parameter fields of the algorithms (DTrack's
// Alpha, Beta, Policy and Reach, CTrack's Alpha and Cyclic, Lookahead's
// Window) are checked by their Validate methods, which Reset calls, and
// are read at Reset: a change takes effect at the next Reset. Panics are for programmer errors only, each documented
// on its function: a schedule of the wrong length or with a server out
// of range given to Instance.Cost, Optimal.Schedule without trace,
// Optimal.Push or an Online.Step before a successful Reset,
// Oracle.Forecast with a nil In (Lookahead.Reset reports it first), a nil
// instance or algorithm given to Optimum, OptimumCost, CountOptimal, Run,
// RunCost, Cruel or CruelRatio,
// and a negative server id given to Setups.
package competitive
