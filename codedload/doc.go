// Package codedload simulates and analyses coded load balancing in cache
// networks (spec docs/specs/coded-load.md, after Jafari Siavoshani,
// Parvaresh, Pourmiri and Shariatpanahi, "Coded Load Balancing in Cache
// Networks", TPDS 2019), against the nearest-replica and two-choices
// baselines, fast enough to see the asymptotic claims for n up to 10⁶
// servers: coded maximum load O(1) with ℓ = Θ(log n), nearest replica
// Θ(log n), two choices Θ(log log n).
//
// # Model
//
// n servers are the nodes of a connected Topology, Dist(u, v) a hop count
// along shortest paths (spec §3.1): Torus (√n×√n with wrap-around;
// WrapLegacy is the authors' pre-2019 metric), Grid, Hypercube (n = 2^m),
// or any connected *wgraph.Graph (FromGraph; NewRGG and NewRegular draw
// random geometric and d-regular graphs; spec §10.1).
//
// A library of K files has Zipf popularity p_k ∝ k^−γ (γ = 0 uniform,
// spec §3.2), sampled in O(1) per draw with an alias table. Each server
// caches M files' worth: uncoded, the files of M draws from the law (spec
// §4.1); coded, Mℓ slots each holding a fresh coded chunk of a drawn file,
// any ℓ distinct chunks of a file decoding it (spec §4.2; coding.DecodeProb
// quantifies that assumption for random linear codes, and Coded.Field
// replaces it by real decoding). In one block
// exactly n requests arrive (or Po(n), Poissonized), each at a uniform
// server for a file drawn from the law (spec §3.3).
//
// A Config holds the shared model (Topology, Files K, Cache M, Gamma γ,
// Placement, Requests, Ties); its Strategy carries and validates its own
// parameters (spec §5, §10.3):
//
//   - NearestReplica{} (the default for a nil Strategy): the nearest
//     holder serves (load +1, cost +dist).
//   - Coded{Ell: ℓ, ChunkCap: chnk_max}: the ℓ nearest chunk copies are
//     sent, each adding 1/ℓ to its sender's load and dist/ℓ to the cost;
//     ChunkCap ≥ 1 bounds the chunks one server sends per request. With
//     Field: q (2, 4, 16 or 256) decoding is real instead of ideal (spec
//     §11.6): every stored copy is a random linear combination over
//     GF(q) (package coding), a request takes copies nearest first until
//     they span, and Result.ExtraChunks and Result.Undecodable count the
//     chunks beyond ℓ and the requests whose file's copies do not decode.
//   - TwoChoice{Radius: r} (a): two holders drawn with replacement within
//     r hops, the less loaded serves; with none in the ball, nearest
//     replica (counted in Result.Fallbacks).
//   - TwoChoiceGlobal{} (b) and TwoChoiceStretch{Alpha: α} (c): the
//     reference simulator's variants.
//
// Config.Ties decides among equidistant candidates: TieRandom (the
// default), TieLowest (deterministic tests) or TieListOrder (the holder
// order of the authors' simulator; spec §10.2 says which rule reproduces
// which of their numbers). Metrics (spec §3.5): a server's load is the
// data it sent, in files; MaxLoad = max_s L_s; Cost is the mean over
// requests of Σ_chunks dist/ℓ, in files·hops; Outage is the fraction of
// requests whose file has fewer than ℓ copies (no load, no cost).
//
// # Entry points
//
//	res, err := codedload.Run(cfg, rand.NewPCG(1, 2))   // one block: MaxLoad, Cost, Outage, histogram
//
// Run is a pure function of (Config, seed). Sweep runs (point, run) pairs
// on all cores with results independent of the number of workers, and
// CompareSizes runs Variants over network sizes, one topology per size; PointResult summarises
// each metric as a loadlab.Estimate (spec §10.6); with
// SweepSettings.Precision the runs given are a pilot, and each point runs
// until its MaxLoad and Cost meet that 95 % half-width (len(Runs) runs;
// docs/specs/monte-carlo.md). The exact formulas of
// spec §6.3 (FileCost, Cost, Outage, with Torus.Balls, Hypercube.Balls or
// nil for the infinite grid), MaxPoissonMean and MaxBinomialMean serve
// as test oracles (spec §10.4).
//
// The readings chosen on the spec's open questions (§9) are listed in
// spec §10.7.
//
// # Theorem-shaped checks, presets and design
//
// The papers' asymptotic claims are checked numerically (spec §12):
// TailStudy (and Tails on any PointResult, e.g. a sharded sweep's)
// estimates P[L_max > c] with exact Clopper–Pearson intervals;
// SlopeStudy fits the mean maximum load against ln n with
// ℓ = ScaledEll(c, n) = round(c·ln n) beside baselines (FitLine: least
// squares over the runs, interval from the per-point errors); Regime and
// RegimeStudy run proximity-aware two choices with K = n, M = n^α,
// radius n^β and fit against ln ln n. Presets, LookupPreset and
// RunPreset rerun the authors' experiments of spec §7.1; DesignCoded
// chooses ℓ and the chunk cap of least price meeting a target maximum
// load (spec §12.5).
//
// # Cost
//
// Nothing is quadratic in n: a request searches outward one distance shell
// at a time until its ℓ copies are found, so a run costs O(n·|ball holding
// ℓ copies|). One coded run on the 1000×1000 torus (K = 100, M = 2,
// ℓ = 14) takes seconds and about 260 MiB. The exception is
// TwoChoiceGlobal on a GraphTopology: O(n²) on a random geometric graph,
// so keep n to a few tens of thousands there (spec §10.5).
//
// # Errors and panics
//
// Bad data is an error that names the parameter or field and its value and
// wraps a named error of package loadlab (docs/conventions.md §1):
//
//   - loadlab.ErrInvalid: a field or argument outside its domain
//     (Config.Validate and each strategy's Validate, the constructors
//     NewTorus, NewGrid, NewHypercube, FromGraph, ZipfPMF, NewAlias, the
//     exact formulas, Sweep's runs and SweepSettings.Workers < 0).
//   - loadlab.ErrTooLarge: a size whose product overflows or exceeds the
//     memory budget of internal/size, checked before anything is allocated
//     (Cache·Ell > 2^24 slots per server, n·Cache·Ell > 2^34 draws,
//     Files·Ell dealt chunks, Files ≥ 2^31, a torus side above 46340, a
//     grid of 2^31 nodes, the total runs of a sweep), and a series of the
//     exact formulas that would need more than 10⁸ terms.
//   - loadlab.ErrDisconnected: FromGraph on a disconnected graph.
//   - loadlab.ErrNotConverged: a point of Sweep or CompareSizes at its
//     Precision.MaxRuns short of its precision (results come with it).
//
// A nil *SweepSettings, a zero field (Workers, Point.Runs, Variant.MaxN,
// Coded.ChunkCap) or a nil Strategy means the default stated on the
// field; a negative value is an error, never replaced by the default.
//
// Panics are for programmer errors and are documented on each function: a
// nil rand.Source (Run, Alias.Draw), a nil graph (FromGraph), a nil Family
// or runs function (CompareSizes), a nil or invalid topology given to
// BallRadius (or a size < 1) or to Torus.Balls and Hypercube.Balls, an
// n < 2 given to RGGRadius, a node index out of range (Dist), GridBall
// beyond 2^31. A panic inside a Sweep worker is re-raised on the caller's
// goroutine (internal/mc).
package codedload
