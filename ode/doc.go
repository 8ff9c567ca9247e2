// Package ode integrates systems of ordinary differential equations
//
//	dy/dt = f(t, y),   y(t0) = y0,   y ∈ ℝⁿ,
//
// with two explicit Runge–Kutta methods:
//
//   - DormandPrince: the adaptive Dormand–Prince 5(4) pair (Dormand and
//     Prince 1980; the tableau and the continuous extension are those of
//     Hairer, Nørsett and Wanner, "Solving Ordinary Differential
//     Equations I", §II.5 and §II.6). The fifth-order solution is
//     propagated (local extrapolation), the embedded fourth-order one
//     estimates the local error, and a fourth-order dense output
//     interpolates inside each accepted step at the cost of no extra
//     evaluations of f. The last stage of a step is the first of the next
//     (FSAL), so an accepted step costs six evaluations.
//   - RK4: the classical fixed-step fourth-order method.
//
// # Error control
//
// A step of size h from y to y₁ is accepted when the scaled RMS norm of
// the error estimate e,
//
//	err = sqrt( (1/n) Σ_i ( e_i / (AbsTol + RelTol·max(|y_i|, |y₁_i|)) )² ),
//
// is at most 1. The next step is h·min(FacMax, max(FacMin, 0.9·err^(−1/5)))
// (with FacMax = 1 right after a rejection). The tolerances bound the local
// error per step, not the global error; for a stable problem the global
// error is typically a small multiple of them.
//
// # Settings and defaults
//
// One Settings type tunes every solver; a nil *Settings or a zero field
// means the default stated on the field: AbsTol = RelTol = DefaultTol
// (1e-8), an automatic initial step, no bound on the step size and a
// budget of DefaultMaxSteps (10⁶) steps. RK4 uses only MaxSteps. A
// negative, NaN or infinite field is an error wrapping loadlab.ErrInvalid
// that names the field (Settings.Validate); it is never replaced by the
// default. A step longer than the remaining interval (an InitialStep, or
// an RK4 h larger than the span) is clipped to the interval.
//
// # Errors and panics
//
// Failure is reported, never hidden (docs/conventions.md):
//
//   - Bad input (non-finite t0, y0 or output times, times not monotone, an
//     empty y0, h ≤ 0) is an error wrapping loadlab.ErrInvalid naming the
//     argument and its value.
//   - A request whose work or output is too large (an RK4 step count above
//     Settings.MaxSteps, checked before the first step and overflow-safe;
//     a workspace of 15 copies of y0 or an output that would exceed the
//     memory budget of internal/size) is an error wrapping
//     loadlab.ErrTooLarge that names h, len(y0) or the count.
//   - An integration that stops short returns the solution computed so far
//     together with an error; Result.Status says why. ErrMaxSteps (the step
//     budget is spent, Status IterationLimit) is an instance of
//     loadlab.ErrNotConverged. ErrStepSize (the step size needed for the
//     tolerance falls below the rounding level of t, or f is non-finite
//     where no smaller step cures it, Status StepLimit; a step that
//     reaches the end of the interval is always tried, so an interval of
//     a few ulps integrates in one step) is an instance of
//     both loadlab.ErrNotConverged and loadlab.ErrIllConditioned: the
//     integration stopped short, and float64 has no more digits to give.
//     errors.Is matches the package name and the shared ones. The messages
//     give the time reached and, for an underflow, the step size and
//     whether f was non-finite there. An RK4 state that becomes non-finite
//     (RK4.Step, SolveRK4) is an error wrapping loadlab.ErrNotConverged
//     naming the component, Status Failure; an RK4 step whose end time
//     overflows is refused (loadlab.ErrInvalid).
//   - Panics are for programmer errors only, each documented on its
//     function: a nil f (the message names f), a dst or y of the wrong
//     length, Interpolate outside the last step.
//
// # Usage
//
// The stepper object follows the factorisation pattern of gonum's mat: build
// it once, call Step repeatedly, read State and Interpolate between steps.
// Solve reports the solution at requested output times (from the dense
// output), SolveSteps at every accepted step; both share one output loop.
// SolveRK4 is the fixed-step counterpart of Solve. The right-hand side
// writes into its first argument and must not retain y or dy; no method
// allocates per step.
//
// Integration may run forwards or backwards in t; the direction is that of
// the first target time.
//
// # Large coupled systems
//
// For a system whose right-hand side is a component-wise map followed by
// one coupling product (f(t, y) = R(t, Φ(y))), a Split gives the two
// parts as passes over ranges of components; NewDormandPrinceSplit and
// SolveStepsSplit then run every stage as one pass over fixed pieces on
// all cores, each piece evaluating its rows of R and at once the stage
// arithmetic and the map of the next stage, so that the vector work of
// the method is split with the product. The error norm is summed in
// fixed blocks of 16 components by every stepper, so a Split stepper
// takes the steps of the equivalent Func stepper and computes the same
// bits, on any number of cores. A Split may also hold back, step by step,
// the rows of components that for a while influence nothing (Lagger, like
// the quadrature variables of CVODES) and compute them once for all six
// stages after the others, with a check on the true stage arguments and
// the step computed again if it fails.
//
// The stage sums y + h Σ a_jl k_l (and the error estimate and dense
// output, which are sums of the same form) run four components at a time
// through an AVX2 kernel where the CPU has one, with separate multiplies
// and adds in the order of the Go expression, so that results have the
// same bits with and without it (the build tag noasm leaves it out).
// SolveStepsFunc and SolveStepsSplit, which hand every accepted state to
// their caller and never interpolate, skip the dense output coefficients.
package ode
