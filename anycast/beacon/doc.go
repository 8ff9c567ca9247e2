// Package beacon estimates the anycast correlation matrix C from beacon
// measurements (spec docs/specs/anycast-cdn.md §15). FastRoute measures C
// offline: a JavaScript beacon in DNS answers makes clients fetch a small
// object over anycast, so the beacons of users answered by the DNS
// server of region j that land at proxy i are a sample of row j of C.
//
// # Use
//
//	n, err := beacon.NewCounts(N, N, regions, proxies, counts) // triplets n_ji
//	h, err := beacon.EstimateC(n, nil)                         // Ĉ with its intervals
//	e := h.Estimate(j, i)                                      // Ĉ_ji and its 95 % interval
//	c, err := h.Matrix()                                       // Ĉ as an anycast.SparseC
//
// CHat holds Ĉ_ji = n_ji/n_j (the row frequencies, §15.1); Entry, the
// per-entry 95 % Clopper–Pearson intervals (§15.2; an unseen pair of
// region j has the interval [0, 1 − 0.025^{1/n_j}]); and Set, a
// simultaneous confidence set for the whole matrix: per-entry intervals
// at miss probability α/(R·K) intersected with the simplex in every row,
// which holds C with probability ≥ 1 − α by Bonferroni's inequality
// (§15.3). Package stability checks decisions against every C in the set
// (RobustSlack, RobustUncontrollable). Draw simulates a beacon campaign
// on a known C and Drift is the stated model of a stale C (§15.5).
// dataio.ReadCountsCSV reads a counts table (region,proxy,count).
//
// Rows with few beacons are never guessed: a region with no beacons, or
// fewer than Settings.MinCount, is an error naming the region — unless a
// prior C is stated (Settings.Prior): the region then takes the prior's
// row, with the interval [0, 1] on every pair, and CHat.Prior lists it.
//
// # Cost
//
// EstimateC costs four Beta quantiles per observed pair, split over the
// cores by rows with each row computed by one goroutine (the result does
// not depend on their number): 10⁸ beacons over 10⁴ × 10⁴ pairs with 10
// per row take about a second (docs/benchmarks.md).
//
// # Errors and panics
//
// Bad data is an error wrapping loadlab.ErrInvalid that names the
// triplet, region or settings field (Settings: a nil pointer or a zero
// field means the default); a table beyond the memory budget wraps
// loadlab.ErrTooLarge. Nil required arguments panic, as do out-of-range
// indices of the accessors and ClopperPearson outside its domain.
package beacon
