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
// Failure is reported, never hidden: Step returns an error when the step
// budget Settings.MaxSteps is spent, when the step size falls below the
// rounding level of t (the tolerance cannot be met), or when f returns a
// non-finite value that no smaller step cures. The error wraps
// ErrMaxSteps or ErrStepSize (test with errors.Is) and its message gives
// the time reached and, for an underflow, the step size and whether f was
// non-finite there.
//
// # Usage
//
// The stepper object follows the factorisation pattern of gonum's mat: build
// it once, call Step repeatedly, read State and Interpolate between steps.
// Solve is a convenience wrapper that reports the solution at requested
// output times. The right-hand side writes into its first argument and must
// not retain y or dy; no method allocates per step.
//
// Integration may run forwards or backwards in t; the direction is that of
// the first target time.
package ode
