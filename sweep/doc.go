// Package sweep runs a Monte Carlo sweep as shards of independent
// processes, resumes a shard after a crash, and merges the shards'
// partial results into exactly the single-process result.
//
// # Model
//
// A sweep is a Plan: a name, a configuration (any value with a
// JSON encoding), a root seed and a number of runs. Run r is identified
// by its seed path (the root seed, the plan's Prefix, then r; or
// Plan.Path(r) for sweeps of (point, run) pairs, whose run r of the
// flattened loop is run j of point i with seed path seed, i, j): the
// path of loadlab.Stream the model derives the run's random stream from
// (run j of point i of a sweep with seed s draws from Stream(s, i, j)).
// Its result is a vector of float64 values that depends on the seed
// path and the configuration only. Shard i of N (written "i/N",
// 0 ≤ i < N, digits only: ParseShard refuses " 0/2", "+1/2" or "01/2")
// holds the runs r with r mod N = i, in increasing order.
//
// # The partial-result file
//
// JSON lines: a Header line (sweep name, the
// SHA-256 of the configuration's canonical JSON, seed, shard, total
// runs), then one Record per completed run (run index, seed path,
// values). Values are written in Go's shortest round-trip decimal form,
// so reading them back gives the same bits; NaN and ±Inf are written
// as the strings "NaN", "+Inf", "-Inf". Every line ends with its
// checksum "crc32c": the CRC-32C (eight hex digits) of the line's
// fields re-encoded as written, so a value edited by hand or a flipped
// bit is an error naming the file, the line and the run, in Merge and
// in a resume. A file without checksums (written before they existed)
// is refused with a message saying so: its values cannot be verified,
// and the shard must be run again. Each line is one write(2), so a
// crash leaves at most a truncated last line.
//
// # Resume
//
// RunShard on an existing file validates its header against
// the plan, drops a truncated last line (by truncating the file at the
// last newline), skips the runs already recorded and appends the rest.
//
// # Merge
//
// Merge reads the files of all shards and returns the records in
// run order; MergePlan also checks them against the plan (sweep,
// configuration hash, seed, runs and every seed path). A sweep's summary
// of them equals its single-process result bit for bit, since each run's
// values do not depend on which process computed them and the summary
// sees them in the same order.
//
// # The sweeps of the library
//
// The command loadlab sweep runs the library's Monte Carlo sweeps
// this way. Every one of them is a loop that calls the model's ordinary
// per-run function on the run's stream and summarises the runs in run
// order, so the command's adapter for it calls the same function on the
// same stream for run r, and its merge summarises the recorded values as
// the loop does:
//
//   - consensus.EstimateRho: consensus.SimulateRho on (seed, r) for run r.
//   - mobility.Compare: mobility.Play(sc, cs, seed, point, r).
//   - codedload.Sweep (parameter and server sweeps, with SizePoints) and
//     codedload.CompareSizes: Point.Run(seed, i, r) for run r of point
//     i (CompareSizes's points are Variant.At of each variant at each
//     size, on one topology per size from (seed, 2⁴⁰, n), rebuilt by
//     every shard).
//   - stability.Law.Attractors: Law.Attract on (seed, r) for start r,
//     its equilibrium recorded by its state; the merge rebuilds each
//     with Law.Linearize and groups them with stability.GroupAttractors.
//   - stability.TwoNodeMap: one cell is the map of a 1×1 grid; its cells
//     are deterministic (no random stream at all).
//   - dual.Sweep: P* from dual.Primal (computed by every shard), then
//     run r of point k is dual.Solve with FastControl on (seed, k, r),
//     recorded as its Result.SteadyGap(P*), BetaErr and Packets.
//
// Errors. Bad input (a malformed shard spec, a plan without a name or
// runs, a file of another sweep, configuration or seed, duplicated or
// missing runs, a line whose checksum is missing or does not match, a
// truncated or corrupt line given to Merge) gives an
// error wrapping loadlab.ErrInvalid that names the file, line or value;
// a file header claiming more runs than the memory budget holds is an
// error wrapping loadlab.ErrTooLarge (Merge), and a plan of any number of
// runs is worked through without listing them (RunShard); I/O errors are
// returned wrapped with the path. Errors of a run are
// returned wrapped with the run index, after the runs before it were
// recorded. RunShard panics if its run function is nil.
package sweep
