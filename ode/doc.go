// Package ode integrates systems of ordinary differential equations
//
//	dy/dt = f(t, y),   y(t0) = y0,   y ∈ ℝⁿ,
//
// with two explicit Runge–Kutta methods:
//
//   - DormandPrince: the adaptive Dormand–Prince 5(4) pair with a
//     fourth-order dense output (Hairer, Nørsett and Wanner, "Solving
//     Ordinary Differential Equations I", §II.5 and §II.6), the method of
//     SciPy's solve_ivp RK45. The fifth-order solution is propagated, the
//     embedded fourth-order one estimates the local error, and the last
//     stage of a step is the first of the next (FSAL), so an accepted step
//     costs six evaluations of f and interpolation costs none.
//   - RK4: the classical fixed-step fourth-order method.
//
// The greedy law of package stability is its main user; the method's
// details and the design of the parallel passes are in spec
// docs/specs/anycast-cdn.md §14.
//
// # Usage
//
//	res, err := ode.Solve(f, 0, y0, []float64{1, 2, 5}, nil) // y at t = 1, 2, 5
//
// Solve reports the solution at requested output times (from the dense
// output), SolveSteps at every accepted step and SolveStepsFunc hands each
// accepted step to a callback; SolveRK4 is the fixed-step counterpart of
// Solve. The stepper objects follow the factorisation pattern of gonum's
// mat: build one (NewDormandPrince, NewRK4), call Step repeatedly, read
// State and Interpolate between steps. The right-hand side (Func) writes
// into its first argument and must not retain y or dy; no method
// allocates per step. Integration may run forwards or backwards in t; the
// direction is that of the first target time.
//
// A system whose right-hand side is a component-wise map followed by one
// coupling product, f(t, y) = R(t, Φ(y)), may be given as a Split:
// NewDormandPrinceSplit and SolveStepsSplit then run every stage as one
// pass over fixed pieces on all cores, with the steps and bits of the
// equivalent Func stepper on any number of cores (spec §14.2). A Split
// that implements Lagger holds back, step by step, the rows of components
// that for a while influence nothing and computes them once per step
// (spec §14.3).
//
// # Error control and settings
//
// A step is accepted when the RMS norm of the error estimate, each
// component scaled by AbsTol + RelTol·max(|y_i|, |y₁_i|), is at most 1; the
// next step size follows the usual fifth-root rule (spec §14.1). The
// tolerances bound the local error per step, not the global error; for a
// stable problem the global error is typically a small multiple of them.
//
// One Settings type tunes every solver; a nil *Settings or a zero field
// means the default stated on the field: AbsTol = RelTol = DefaultTol
// (1e-8), an automatic initial step, no bound on the step size and a
// budget of DefaultMaxSteps (10⁶) steps. RK4 uses only MaxSteps. A step
// longer than the remaining interval (an InitialStep, or an RK4 h larger
// than the span) is clipped to the interval.
//
// # Errors and panics
//
// Failure is reported, never hidden (docs/conventions.md):
//
//   - Bad input (non-finite t0, y0 or output times, times not monotone, an
//     empty y0, h ≤ 0, a negative, NaN or infinite Settings field, never
//     replaced by the default) is an error wrapping loadlab.ErrInvalid
//     naming the argument or field and its value.
//   - A request whose work or output is too large (an RK4 step count above
//     Settings.MaxSteps, checked before the first step and overflow-safe;
//     a workspace of 15 copies of y0 or an output beyond the memory
//     budget of internal/size) is an error wrapping loadlab.ErrTooLarge
//     that names h, len(y0) or the count.
//   - An integration that stops short returns the solution computed so far
//     together with an error, and Result.Status says why. ErrMaxSteps (the
//     step budget is spent, Status IterationLimit) is an instance of
//     loadlab.ErrNotConverged. ErrStepSize (the step size needed for the
//     tolerance falls below the rounding level of t, or f is non-finite
//     where no smaller step cures it, Status StepLimit) is an instance of
//     both loadlab.ErrNotConverged and loadlab.ErrIllConditioned: float64
//     has no more digits to give. A step that reaches the end of the
//     interval is always tried, so an interval of a few ulps integrates in
//     one step. The messages give the time reached and, for an underflow,
//     the step size and whether f was non-finite there. An RK4 state that
//     becomes non-finite (RK4.Step, SolveRK4) is an error wrapping
//     loadlab.ErrNotConverged naming the component, Status Failure; an RK4
//     step whose end time overflows is refused (loadlab.ErrInvalid).
//   - Panics are for programmer errors only, each documented on its
//     function: a nil f (the message names f), a dst or y of the wrong
//     length, Interpolate outside the last step.
package ode
