// Package dual computes optimal distributed load management for anycast
// CDNs: problem P1, its dual super-gradient algorithm with the step-size
// guarantee of Theorem III.3, and the FastControl protocol through which
// nodes learn the coupling factor (spec docs/specs/anycast-cdn.md §3–§4,
// §7; Sinha, Mani, Liu, Flavel and Maltz, Allerton 2015). The network
// (A, C, T and the loads S_i = Σ_j A_j x_j C_ji) is package anycast's;
// this package adds costs and the optimisation.
//
// # Model
//
// Problem P1 (spec §3) prices the traffic sent to the second layer with
// f_i (convex, non-increasing in x_i) and proxy load with h_i (convex,
// non-decreasing in S_i):
//
//	minimise   Σ_i f_i(x_i) + Σ_i h_i(S_i)
//	subject to Σ_j A_j C_ji x_j ≤ S_i   (9),   0 ≤ x_i ≤ 1,  0 ≤ S_i ≤ S̄_i.
//
// With multipliers μ ≥ 0 of (9) and the coupling factor β_i(μ) = Σ_j C_ij μ_j
// (14), the Lagrangian separates into one-dimensional sub-problems (13)
// for x_i* and S_i*; the super-gradient is g = S^obs(x*) − S* (16) and the
// nodes step μ_i ← [μ_i + α g_i]⁺ (17), with the guarantee of Theorem
// III.3 (spec §4.6). In FastControl (spec §4.7) node i emits category-j
// packets at rate r_ij = γ μ_i C_ji / C_ij (19), and proxy i, counting
// R_i = γ β_i (20), learns β_i without any exchange of state.
//
// A, S, S̄ and T are in one normalised request-rate unit; μ and β are
// prices per unit rate; γ is packets per unit time per unit of μ, and the
// FastControl window W is in the same time unit. Indices run from 0 in
// code; C[j][i] is C_ji.
//
// # Entry points
//
//	p, err := dual.Quadratic(nw, 1, 4) // f_i = ½A_i(1−x_i)², h_i = 2(S_i−T_i)₊² (spec §8 item 23)
//	res, err := dual.Solve(p, &dual.Settings{Mu0: mu0})
//
// NewProblem takes one Cost per node for f and for h: the closed-form
// families LinearX, QuadraticX, Hinge, Overload, Delay and Exp of spec §7,
// or Func for a user cost. NewQuadratic and Quadratic build smooth costs
// from the network's A and T. Solve runs the dual algorithm, warm-started
// from Settings.Mu0, and is what other packages call; it returns the best
// feasible point met with a certified gap (rules Constant, the paper's
// Algorithm 1, and Accelerated, FISTA on the dual: spec §12.2). Primal is
// the reference solver (projected Newton, or the simplex method when P1
// is linear; spec §12.4). FastControl in Settings replaces
// the exact β by measured counts with loss and delay; Rates, Receptions
// and Overhead evaluate (19)–(20), and Sweep runs the window/loss
// trade-off. Eval, Coupling, Objective, Reduced, GBound, MuBound,
// SmoothBound, Step, Iterations and Bound expose the pieces of spec §4.
//
// # Choices on the spec's open questions (§9)
//
// Costs are one interface for f and h (Tilt: the sub-problem's
// minimiser); S_i is capped by S̄_i = (Cᵀ A)_i, or T_i for Delay; Theorem
// III.3 is read in its best-iterate form with step ε/G², bounded a priori
// through MuBound; x_i is set directly from (13), one FastControl
// measurement per step, counts Poisson per receiver; C_ij = 0 < C_ji is
// rejected by default (Unreachable: Reject, Drop or Direct). The reasons
// are in spec §12.1.
//
// # Cost
//
// One dual step costs O(nnz(C)) and allocates nothing; a FastControl
// measurement adds one Poisson draw per node. Sparse and dense storage of
// C give the same results (spec §12.3). Primal needs O(N + nnz) memory;
// only its linear-program path reads C densely (a tableau of 15 N²
// values), as does Rates' N × N result.
//
// # Errors and panics
//
// Bad data returns an error that names the parameter and its value and
// wraps a named error of package loadlab (test with errors.Is):
//
//   - loadlab.ErrInvalid: a bad network (anycast's Validate), cost
//     parameter (each closed-form cost has a Validate), cap S̄_i,
//     multiplier μ, γ, rate, ε, G, R, K, point x or S, or settings field
//     (a negative, NaN or infinite field is never replaced by its
//     default; a nil FastControl.Src with a window W > 0 is a missing
//     required field).
//   - loadlab.ErrTooLarge: storage sized by the settings that the machine
//     cannot hold (RecordDual or Record with a huge MaxIter,
//     FastControl.Delay, Sweep's points × runs, the LP tableau, Rates'
//     matrix), or an Iterations count above 2⁵³; checked before
//     allocating.
//   - loadlab.ErrNotConverged: Solve or Primal stopped before the
//     certificate closed; the partial result comes with it, and its
//     Status (IterationLimit, StepLimit, Stagnated) says why. Solve with
//     Settings.Fixed runs its budget and does not return it.
//   - *UnreachableError: a FastControl rate (19) that is undefined.
//
// Settings, PrimalSettings and FastControl: a nil pointer means the
// defaults, a zero field the default stated on the field. Problem, like
// anycast.Network, has exported fields: Validate checks the whole problem
// with its network (a network changed after NewProblem, a cost whose copy
// of A_i drifted from it), and every public function validates what it
// is given (Coupling the network and μ, Objective and Reduced x in [0, 1]
// and S in [0, S̄], MuBound its lower bound), returning an error, never a
// NaN; the solvers' inner loops use unchecked forms on data validated
// once per call. The methods of Cost (Value, Deriv, Tilt) are evaluated
// in those loops and do not check their argument.
//
// Panics are programmer errors, each documented on its function: a nil
// *Problem or *anycast.Network, a dst of the wrong shape, a Func without
// DF on an unbounded interval, or a NaN derivative from a user Func.
package dual
