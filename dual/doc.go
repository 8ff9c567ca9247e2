// Package dual computes optimal distributed load management for anycast
// CDNs: problem P1, its dual super-gradient algorithm with the step-size
// guarantee of Theorem III.3, and the FastControl protocol through which
// nodes learn the coupling factor (spec docs/specs/anycast-cdn.md
// §3–§4, §7; Sinha, Mani, Liu, Flavel and Maltz, Allerton 2015).
//
// The network model (A, C, T and the loads S_i = Σ_j A_j x_j C_ji) is
// package anycast's; this package adds costs and the optimisation.
//
// # Problem P1 (spec §3)
//
//	minimise   Σ_i f_i(x_i) + Σ_i h_i(S_i)
//	subject to Σ_j A_j C_ji x_j ≤ S_i     (9)
//	           0 ≤ x_i ≤ 1,  0 ≤ S_i ≤ S̄_i
//
// f_i prices the traffic sent to the second layer (convex, non-increasing
// in x_i); h_i prices proxy load (convex, non-decreasing in S_i). x = 0
// with S > 0 is strictly feasible, so there is no duality gap.
//
// # Dual algorithm (spec §4)
//
// With μ ≥ 0 the multipliers of (9) and the coupling factor
//
//	β_i(μ) = Σ_j C_ij μ_j                                    (14)
//
// the Lagrangian separates into the one-dimensional sub-problems
//
//	x_i* = argmin_{0≤x≤1} f_i(x) + A_i β_i x,
//	S_i* = argmin_{0≤S≤S̄_i} h_i(S) − μ_i S                    (13)
//
// whose values sum to the dual function D(μ) (11). The super-gradient
// is g = S^obs(x*) − S* with S^obs_i = Σ_j A_j C_ji x_j* (16), and the
// nodes step μ_i ← [μ_i + α g_i]⁺ (17). Every ‖g‖₂ ≤ G with
// G² = Σ_i max((Cᵀ A)_i, S̄_i)² (18), and for any K ≥ 1 (Theorem III.3)
//
//	D* − max_{k<K} D(μ(k)) ≤ ‖μ(0) − μ*‖₂²/(2αK) + αG²/2,
//
// so α = ε/G² reaches an ε-gap after K = ‖μ(0) − μ*‖₂² G²/ε² steps.
//
// FastControl (spec §4.7): node i emits category-j packets at rate
// r_ij = γ μ_i C_ji / C_ij (19); proxy i receives category-i packets at
// rate R_i = Σ_j r_ji C_ji = γ β_i (20), and so learns β_i without any
// exchange of state.
//
// # Units and conventions
//
// A, S, S̄ and T are in the same (normalised) request-rate units; μ and β
// are prices per unit rate; γ is packets per unit time per unit of μ, and
// the FastControl window W is in the same time unit, so a window holds
// about γ W β_i packets for proxy i. Indices run from 0 in code. C[j][i]
// is C_ji.
//
// # Choices on the spec's open questions (§9)
//
//   - Costs (question 1): Cost is one interface for both f_i and h_i. Its
//     Tilt(λ, lo, hi) returns argmin φ(z) − λz on [lo, hi]; the x
//     sub-problem is Tilt(−A_i β_i, 0, 1) and the S sub-problem is
//     Tilt(μ_i, 0, S̄_i). The five families of spec §7 are LinearX,
//     QuadraticX, Hinge, Delay and Exp, with closed forms; Overload, a
//     linear price per unit of overload, is added so that LinearX with
//     Overload makes P1 a linear program (checked against gonum's
//     lp.Simplex in the tests); Func wraps a
//     user cost and solves Tilt by bisection on the derivative (or
//     golden-section search without one). Ties are broken
//     deterministically: LinearX picks x = 1 at β = W, Hinge picks S = T
//     at μ = 0.
//   - Upper bound on S (questions 1–2): P1 carries S_i ≤ S̄_i with
//     default S̄_i = (Cᵀ A)_i, lowered to T_i for the Delay barrier. This
//     leaves P* unchanged (the optimal S_i is S^obs_i ≤ (Cᵀ A)_i) and makes
//     G of (18) finite for every cost family; it is the special case
//     G = ‖Cᵀ A‖₂ ≤ ‖A‖₁ of spec §4.5.
//   - Theorem III.3 (question 3): the best-iterate form above, with step
//     ε/G². ‖μ(0) − μ*‖₂ is bounded a priori through the Slater point
//     x = 0, S = Ŝ (MuBound), so Solve reports a guarantee that needs no
//     knowledge of μ*. Primal recovery uses the running averages of x*(k)
//     and S*(k) (their violation of (9) is reported) and the best feasible
//     point (x*(k), S^obs(x*(k))) met, which with the best dual value
//     gives a certified gap Upper − Best used as the stopping rule.
//   - Algorithm 1 (question 7): x_i is set directly from (13); one
//     FastControl measurement per dual step. With a window W > 0 the
//     count at proxy i is Poisson with mean W (1 − loss) R_i: a sum of
//     independent Poisson counts over senders is Poisson, so the count is
//     drawn per receiver, which has the same law as per-pair counts. The
//     nodes do not know the loss rate, so loss biases β̂ by 1 − loss
//     (a known loss rate can be folded into γ). Measurement delay makes
//     the nodes use β(μ(k − Delay)) at step k; the observed loads S^obs are
//     current. Theorem III.3 assumes exact super-gradients, so with
//     FastControl noise, loss or delay the reported Bound is a reference,
//     not a guarantee; Sweep measures what is achieved instead.
//   - C_ij = 0 < C_ji (question 9): Unreachable chooses. The default,
//     Reject, returns an *UnreachableError naming the pair; Drop leaves
//     the term out (β̂ low by exactly that term); Direct replaces it by an
//     explicit unicast report, counted separately as overhead. No rate is
//     ever divided by zero.
//
// # Cost of a step
//
// One dual step costs O(nnz(C)) and allocates nothing: β = C μ and
// S^obs = Cᵀ(A ∘ x) use the network's products — compressed rows and
// columns for a sparse C (anycast.SparseC), gonum's assembly dot and
// axpy kernels on dense rows, or compressed rows of a dense C when at
// most a quarter of it is non-zero. A FastControl measurement walks the
// pairs with C_ij > 0 in compressed rows too, so it adds O(nnz(C)) plus
// one Poisson draw per node; its set-up, Overhead, Rates and Receptions
// read the pairs (C_ij, C_ji) by merging row i and column i of C, also
// O(nnz(C)) in all (Rates' result is nevertheless the dense N × N rate
// matrix, refused with ErrTooLarge beyond the memory budget). Sparse and
// dense storage of the same C give the same results: bit for bit for the
// dual steps and FastControl (the same terms summed in the same order),
// to rounding where a dense product uses gonum's kernels.
//
// # Reference solver
//
// Primal solves P1 without the dual: it eliminates S (S = S^obs(x) is
// optimal for non-decreasing h) and minimises the reduced objective over
// the box [0, 1]^N by projected Newton, then certifies its value with
// the dual value at the multipliers μ_i = h_i'(S_i). The Newton systems
// on the free coordinates,
//
//	(diag(f”) + Bᵀ diag(h”) B)_FF d_F = −∇F_F,  B = Cᵀ diag(A),
//
// are solved matrix-free by conjugate gradients with the Jacobi
// preconditioner: a product with the matrix is two products with C
// (O(nnz)), its diagonal f_j” + A_j² Σ_i C_ji² h_i” one more pass, and CG
// stops at the inexact-Newton residual η = min(0.1, √‖∇P‖_∞) (Eisenstat
// and Walker), so no N × N matrix is formed and the memory is O(N + nnz).
// The choice is by measurement (BenchmarkPrimalSolver_N200, CPU time on
// the shared machine): on the dense N = 200 instance of the benchmarks,
// PCG takes 6 Newton steps with 10 CG iterations in all, 1.3–2.2 ms of
// CPU, against 28–33 ms for the dense Cholesky factorisation of the same
// systems (4 Newton steps); on a sparse N = 200 CDN 4.2–4.4 ms against
// 97–108 ms; at N = 10⁴ (10⁵ nonzeros) PCG needs 16 Newton steps and 92 CG
// iterations, 0.13–0.18 s, where the dense factorisation would need N³/3
// ≈ 3·10¹¹ operations per step and 800 MB. gonum has no sparse Cholesky,
// and the fill-in of Bᵀ diag(h”) B (regions sharing a proxy are coupled)
// is what PCG avoids. A truncated CG solve is still a descent direction,
// and the certificate below does not depend on how exactly the systems
// were solved. Projected Newton needs curvature, so when every cost is
// LinearX or Overload (P1 is then a linear program) Primal solves the
// primal and the dual LP with gonum's lp.Simplex instead, on a dense
// tableau of 15 N² values (the one path that reads C densely; beyond the
// memory budget it is ErrTooLarge). Either way PrimalResult.Status is
// Success only when the certificate Value − Lower has closed; a stalled
// run (possible on mixed, nearly linear problems) returns its partial
// result with a Status saying why and ErrNotConverged. Its Armijo search
// is the shared one of internal/solve.
//
// # Step rules and certificates
//
// Solve has two step rules (Settings.Rule, reported in Result.Rule):
//
//   - Constant: the projected super-gradient step (17) with α =
//     Settings.Step or the Theorem III.3 step ε/G². It is the paper's
//     Algorithm 1 and the rule FastControl runs. Guarantee: Theorem III.3
//     (Result.Bound).
//   - Accelerated: FISTA with μ ≥ 0 as its proximal term, backtracking
//     on the Lipschitz constant of ∇D (started from Problem.SmoothBound)
//     and momentum restarts. It needs exact dual values and a smooth dual
//     (QuadraticX with Hinge, Delay or Exp). Guarantee: Beck and
//     Teboulle's O(L R²/k²) bound per restart epoch (Result.Bound).
//
// The default (Auto) is Accelerated when the dual is smooth and β is
// exact, Constant otherwise. Whatever the rule, every evaluated μ gives a
// lower bound D(μ) ≤ P* and a feasible point (x*(μ), S^obs(x*(μ))), an
// upper bound; Result.X and Result.S are the best such point, the
// optimal point the run reports, and Status is Success only when
// Upper − Best ≤ Tol·max(|Upper|, |Best|) (Tol = 10⁻⁶ by default). The
// running averages AvgX, AvgS of the classical primal recovery are
// reported next to it.
//
// # Errors, panics and settings
//
// The package follows docs/conventions.md. Bad data returns an error
// that names the parameter and its value and wraps a named error of
// package loadlab (test with errors.Is):
//
//   - loadlab.ErrInvalid: a bad network (anycast's Validate), cost
//     parameter (each closed-form cost has a Validate), cap S̄_i,
//     multiplier μ, γ, rate, ε, G, R, K, or settings field.
//   - loadlab.ErrTooLarge: storage sized by the settings that the machine
//     cannot hold (RecordDual or Record with a huge MaxIter,
//     FastControl.Delay, Sweep's points × runs), or an Iterations count
//     above 2⁵³; checked before allocating.
//   - loadlab.ErrNotConverged: Solve or Primal stopped before the
//     certificate closed; the partial result comes with it, and its
//     Status (IterationLimit, StepLimit, Stagnated) says why. Solve with
//     Settings.Fixed runs its budget and does not return it.
//   - *UnreachableError: a FastControl rate (19) that is undefined.
//
// Problem, like anycast.Network, has exported fields: Validate checks the
// whole problem with its network (a network changed after NewProblem, a
// cost whose copy of A_i drifted from the network), and Solve, Primal,
// Eval, Rates, Receptions and Overhead validate what they are given.
//
// Settings (Settings, PrimalSettings, FastControl): a nil pointer means
// the defaults, a zero field its default (stated on the field), and a
// negative, NaN or infinite field is an error naming it, never replaced.
// A nil FastControl.Src with a window W > 0 is a missing required field:
// an error naming it (docs/conventions.md §2), from Validate and Solve.
//
// Every public function that takes data validates it: Coupling (the
// network and μ), Objective and Reduced (the problem and the point, x in
// [0, 1] and S in [0, S̄]), GBound, MuBound and SmoothBound (the problem,
// and MuBound's lower bound) return an error wrapping loadlab.ErrInvalid
// that names the parameter and its value, never a NaN. The solvers' inner
// loops use unexported unchecked forms on data validated once per call.
// The methods of Cost (Value, Deriv, Tilt) are the exception: they are
// evaluated in the inner loops on problems that Validate checked (each
// closed-form cost's parameters included), and do not check z.
//
// Panics are programmer errors, each documented on its function: a nil
// *Problem or *anycast.Network, a dst of the wrong shape, a Func without
// DF on an unbounded interval, or a NaN derivative from a user Func.
//
// # Entry points
//
// Solve(p, &Settings{Mu0: mu0}) solves P1 warm-started from μ0, and is
// what other packages should call; NewQuadratic builds per-node smooth
// costs from the network's A and T (Quadratic: the same weights at every
// node, the pair of spec §8 item 23). Sweep runs the FastControl
// window/loss trade-off.
package dual
