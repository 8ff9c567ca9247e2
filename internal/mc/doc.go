// Package mc holds the Monte Carlo plumbing shared by loadlab's packages:
// derived random streams, a deterministic parallel loop and confidence
// intervals. It is not API.
//
// Source(seed, path...), the public loadlab.Stream, derives one PCG
// stream per run from a root seed and the run's path (point, run, ...), so a run's draws do not depend on
// which worker computes it; For runs the indices on a given number of
// goroutines (GOMAXPROCS for workers ≤ 0) through internal/par. Summarize gives a sample's mean with
// its Student-t 95 % interval (Estimate as a loadlab.Estimate), Rademacher
// draws the ±1 probe vectors of the stochastic estimators, Binomial the exact
// (Clopper–Pearson) 95 % interval of a probability from k successes in n
// runs, and SumIndependent the Welch–Satterthwaite
// interval of a sum of independent estimates. Until runs series of runs
// in parallel rounds until each meets a loadlab.Precision, by the
// stopping rule of docs/specs/monte-carlo.md §2 (looks run by run in run
// order, so the result is independent of workers and batches).
//
// Nothing here returns an error: with fewer than two values an interval
// is NaN. A panic in a worker of For is re-raised on the caller's
// goroutine (docs/conventions.md §6).
package mc
