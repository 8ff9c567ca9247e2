// Package mobility holds the simulations of spec docs/specs/nomadic.md §8
// for package competitive: a user walking through a wireless mesh
// network, and a wide-area chat room, with the motion-aware algorithms of
// spec §7. The setups are reconstructions (spec §10 questions 9 and 10);
// spec §13 states every choice and what they reproduce.
//
// # Scenes
//
// Mesh (spec §8.1, §13.1): routers at the cell centres of a Grid × Grid
// lattice with 100 m spacing (Grid = 10: 100 routers on 1 km × 1 km); one
// user walks by random way-point at 10 m/s with no pause, slot = 1 s,
// T = 3600 slots by default; the hold cost of a router is the distance in
// metres from the user's position at the start of the slot; C = 50 m.
// Grid = 10, …, 50 reads "scaled up by 25" as constant router density.
//
// ChatRoom (spec §8.2, §13.1): servers on a Grid × Grid lattice with unit
// spacing; static users arrive by a Poisson process at uniform points and
// stay exponential times (mean Stay = 100 slots), so that Users = 3 are
// present on average; the hold cost of a server is the sum of the
// distances from the present users; C = 10.
//
// A Scenario's Sample draws one run: its Instance and its Scene (for the
// mesh, the Walk; RandomWaypoint draws walks alone). Walks of any finite
// side are exact (spec §13.1).
//
// # Motion-aware algorithms and comparisons
//
// TargetAware(W, σ) predicts the next L = min(W, ⌊d/v⌋) positions on the
// straight line to the current way-point and plans with
// competitive.Lookahead; DirectionAware(W, σ) knows only the heading and
// speed and aims at the point W slots ahead; the noise σ (metres)
// displaces the (pseudo-)target once per leg (spec §13.2).
// TargetForecast and DirectionForecast expose the two predictors for use
// with competitive.Lookahead outside Compare.
//
// Compare runs a list of Contenders (Baselines: the online algorithms of
// package competitive) on repeated scenes of a Scenario in parallel
// (internal/mc) and reports, per contender, the mean cost and the ratio
// cost/OPT as loadlab.Estimate values (mean with its 95 % Student-t
// interval over the runs). Run r of a sweep point is
// Play(sc, cs, seed, point, r), which draws its scene from
// loadlab.Stream(seed, point, r) and contender i its noise from
// loadlab.Stream(seed, point, r, 1+i), so results depend only on the
// arguments (spec §13.4). CompareWith adds CompareSettings: Workers, and
// a Precision that makes runs a pilot and plays on until every mean cost
// and ratio meets a 95 % half-width (docs/specs/monte-carlo.md; the runs
// used are each Estimate's N).
// In the mesh at C = 50 m the opportunistic DTrack versions come within
// 8–12 % of OPT (the slides' 20–50 % band appears near C = 200 m) and the
// motion-aware algorithms within 1–2 %, flat in the number of routers
// (spec §13.3).
//
// # Cost
//
// A mesh scene holds Slots·Grid² hold costs; a chat room about
// Users·(1 + Slots/Stay) users and Users·Grid²·Slots distances. Each run
// solves the offline optimum once and runs every contender once, O(k) per
// slot (O(k·W) for the motion-aware ones).
//
// # Errors and panics (docs/conventions.md)
//
// Mesh and ChatRoom are settings: a zero field is the default, and
// Validate (called by Sample) returns an error naming the field and its
// value. Errors wrap the named errors of package loadlab:
//
//   - loadlab.ErrInvalid: a negative Grid or Slots, a negative, NaN or
//     infinite Speed, Setup, Users or Stay, a side or speed of
//     RandomWaypoint that is not positive and finite, T < 1, runs < 1, a
//     negative, NaN or infinite noise, a Contender.New that is nil or
//     returns nil, and a forecast on a scene whose Walk is nil;
//   - loadlab.ErrTooLarge, before anything is allocated: Grid² sites or
//     Slots·Grid² hold costs beyond size.MaxBytes, a walk whose T
//     positions or about T·speed/(0.52·side) way-points do not fit, and a
//     chat room whose expected number of users Users·(1 + Slots/Stay)
//     exceeds 10⁸ or whose Users·Grid²·Slots distances exceed 10¹¹;
//   - loadlab.ErrNotConverged: CompareWith at Precision.MaxRuns short of
//     its precision, with the results over those runs.
//
// Panics are for programmer errors, each documented on its function: a
// nil rand.Source (RandomWaypoint, Sample, the forecasts), a nil scenario
// given to Compare, and a forecast on a nil scene. Compare checks its
// arguments on the caller's goroutine, and a panic inside one of its
// workers (a scenario's or contender's own) is re-raised on the caller's
// goroutine with the worker's stack in its message (an error value that
// unwraps to the original panic value when that is an error); it never
// kills the process.
package mobility
