// Package codedload simulates and analyses coded load balancing in cache
// networks (spec docs/specs/coded-load.md, after Jafari Siavoshani,
// Parvaresh, Pourmiri and Shariatpanahi, "Coded Load Balancing in Cache
// Networks", TPDS 2019), against the nearest-replica and power-of-two-choices
// baselines. It is fast enough to see the asymptotic claims over n from 10²
// to 10⁶ servers on two cores: coded maximum load O(1) with ℓ = Θ(log n),
// nearest replica Θ(log n), two choices Θ(log log n).
//
// # Model
//
// n servers are the nodes of a connected graph G; data travels along
// shortest paths and dist(u, v) is a hop count (spec §3.1). Topologies:
//
//   - Torus: the √n×√n grid with wrap-around, exact distance
//     min(|Δr|, s−|Δr|) + min(|Δc|, s−|Δc|); the authors' pre-2019
//     five-offset metric is available as WrapLegacy.
//   - Grid: the rows×cols grid without wrap, distance |Δr|+|Δc|.
//   - Hypercube: n = 2^m, distance popcount(u ⊕ v).
//   - GraphTopology: any connected *wgraph.Graph (FromGraph), searched by
//     linalg's breadth-first search directly on the graph's compact CSR
//     storage. NewRGG draws the random geometric graph of the unit square
//     with r_n = √(1.25 ln n / n) (gen.RandomGeometric), NewRegular a
//     random d-regular graph (gen.RandomRegular, exactly uniform for
//     d ≤ 4); both are resampled until connected, up to 100 times.
//
// A library of K files has Zipf popularity p_k = k^−γ / H_{K,γ},
// H_{K,γ} = Σ_{j≤K} j^−γ, γ ≥ 0 (γ = 0 uniform), sampled in O(1) per draw
// with an alias table (spec §3.2). Each server caches M files' worth of data.
// Uncoded placement (spec §4.1): each server makes M independent draws from
// the popularity law and keeps the set of files drawn. Coded placement (spec
// §4.2): each file is cut into ℓ pieces; each server has Mℓ chunk slots, each
// filled with a fresh coded chunk of a file drawn from the law; any ℓ
// distinct chunks of a file decode it (DecodeProb quantifies that assumption
// for random linear codes). The reference simulator's "uniform" placement
// and full replication are options.
//
// In one time block exactly n requests arrive (or N ~ Po(n) in the
// Poissonized mode), each at a uniform server for a file drawn from the law
// (spec §3.3).
//
// # Strategies
//
// A Config holds the shared model (Topology, Files K, Cache M, Gamma γ,
// Placement, Requests, Ties); its Strategy is a value that carries and
// validates its own parameters (spec §5):
//
//   - NearestReplica{}: the nearest holder serves (load +1, cost +dist). A
//     nil Strategy means NearestReplica{}.
//   - Coded{Ell: ℓ, ChunkCap: chnk_max}: the ℓ nearest chunk copies are
//     sent, each adding 1/ℓ to its sender's load and dist/ℓ to the cost.
//     Selection is exact: with D the distance where N(<D) < ℓ ≤ N(≤D), all
//     copies closer than D are taken and ℓ−N(<D) are chosen among the
//     copies at D by the tie rule. ChunkCap ≥ 1 bounds the chunks one server
//     sends per request; 0 means no cap.
//   - TwoChoice{Radius: r} (a): two holders drawn with replacement within
//     r hops, the less loaded serves; with none in the ball, nearest replica
//     (counted in Result.Fallbacks).
//   - TwoChoiceGlobal{} (b) and TwoChoiceStretch{Alpha: α} (c): the
//     reference simulator's variants.
//
// # Tie rules and the reference simulator
//
// Config.Ties decides among equidistant candidates. TieRandom (the default)
// chooses uniformly among the copies (copies at one server count with
// multiplicity) and settles equal loads by a fair coin. TieLowest takes the
// lowest server index (and the first candidate on equal loads): it makes
// tests deterministic. TieListOrder takes the copies that come first in the
// holder list the authors' simulator (spec S3) builds while placing: the
// copies dealt by Uniform placement, in the order dealt, then the others by
// server index; with Proportional or Full placement that list is in server
// order and TieListOrder chooses as TieLowest does.
//
// The authors' simulator picks the ℓ nearest copies with NumPy's default,
// unstable argsort over that list. Compared with its numbers (issue 15),
// it behaves like a stable sort, that is TieListOrder, at ℓ = 1, and like
// random ties at ℓ > 1. So its nearest-replica numbers (ℓ = 1, as in the
// committed Main_SrvSzVar.py and Main_Zipf_GammaVar.py drivers) are
// reproduced with TieListOrder (equal to TieLowest under Proportional
// placement), and its coded numbers (ℓ > 1) with TieRandom. No rule reproduces it run for run: the argsort order
// depends on the NumPy version (spec §5). The averages differ little (mean
// nearest-replica maximum load about 0.08 lower with random ties at
// n = 400, spec §5).
//
// Metrics (spec §3.5): the load L_s of a server is the data it sent, in
// files; the maximum load is L = max_s L_s; the communication cost is
// C = (1/#requests) Σ_requests Σ_chunks dist/ℓ, in files·hops; the outage is
// the fraction of requests whose file has fewer than ℓ copies in the
// network (they add no load and no cost). Result also gives the whole load
// histogram and, on request, every server's load.
//
// # Exact formulas
//
// Spec §6.3, used as test oracles (exact for the proportional placement
// without cap): with N_d ~ Bin(|B_d|·M·ℓ, p) the chunk copies within distance
// d, a request for a file of popularity p costs on average
//
//	c(ℓ) = (1/ℓ) Σ_{d≥0} E[(ℓ − N_d)⁺],   C(ℓ) = Σ_k p_k c_k(ℓ),
//
// and is in outage with probability P(Bin(nMℓ, p) < ℓ). FileCost and Cost
// take the ball sizes |B_d| of any vertex-transitive topology (Torus.Balls,
// Hypercube.Balls, where the formula is exact including wrap-around and
// outage) or nil for the infinite grid (|B_d| = 2d²+2d+1). MaxPoissonMean is
// the balls-into-bins reference E[max of n iid Po(1)], MaxBinomialMean its
// exactly-n counterpart (independence approximation), and DecodeProb the
// decoding probability of random linear chunks over GF(q).
//
// # Experiments
//
// Run is a pure function of (Config, seed): placement, requests and
// tie-breaking draw from separate streams derived from one seed, so two
// strategies run with one seed are compared on the same requests. Sweep runs
// (point, run) pairs on all cores with one derived stream per pair, so its
// results do not depend on the number of workers. CompareSizes runs a set
// of Variants over network sizes on one topology per size. PointResult
// summarises each metric as a loadlab.Estimate (mean, 95 % interval,
// standard error, runs). The reference simulator's experiments (spec §7.1)
// are presets of their callers (the tests, the figure driver), not of this
// package.
//
// # Cost of a run
//
// Nothing is quadratic in n. A request searches outward from its origin, one
// distance shell at a time (rings on the torus and grid, Hamming shells on
// the hypercube, breadth-first levels on a GraphTopology) until its ℓ copies are
// found, so a run costs O(n · |ball holding ℓ copies|); holder look-ups use a
// per-file bitset over the servers (while K·n ≤ 2³¹). One coded run on the
// 1000×1000 torus with K = 100, M = 2, ℓ = 14 takes about 3 s of CPU and
// 260 MiB. Memory locality matters at that size: on the torus a search
// touches a few cache lines per row of its ball, and NewRGG numbers its
// points in bucket order for the same reason, while the Hamming shells of a
// hypercube scatter over memory (a coded run on 2²⁰ nodes is several times
// slower than on the 10⁶ torus). The exception to the cost above is
// TwoChoiceGlobal on a GraphTopology, whose second candidate can be anywhere: when
// it wins, its distance comes from a bidirectional BFS (from the origin and
// from the candidate, the smaller level grown first). On a random regular
// graph the two balls of half the distance hold about √n nodes each, and a
// run at n = 16384 takes a few tens of milliseconds; on a random geometric
// graph, whose balls grow like the square of the radius, the saving over a
// one-sided BFS is only about a factor 2 and a run costs O(n²): about 2 s at
// n = 16384, so keep n to a few tens of thousands there.
//
// # Choices on the spec's open questions (§9)
//
//   - Tie-breaking is uniform among equidistant chunk copies by default;
//     see the section on tie rules for TieLowest and TieListOrder.
//   - No chunk cap by default (ChunkCap = 0), as in the paper's description;
//     with γ > 1 the cap decides whether the load stays O(1) (spec §8 J), so
//     the figures show both where it matters.
//   - Placement is the reference simulator's iid popularity-proportional
//     draw with replacement (§9 question 3); a file with fewer than ℓ
//     copies is in outage.
//   - Cost counts origin-served data as distance 0 and is divided by the
//     number of requests, outage included (S3's normalisation); the origin's
//     own cache counts toward its load (§9 question 4).
//   - Two choices (a) draws its two candidates with replacement and falls
//     back to nearest replica when the ball holds no replica (§9 question 6).
//   - Requests are exactly n by default, as in the reference simulator;
//     Poissonized is available (§9 question 9).
//   - The torus stands for the paper's "grid" (spec §3.1, §9 question 10);
//     Grid is the boundary version.
//   - Spec §8 J gives 5.25 for the uncapped coded maximum load at n = 1024,
//     K = 100, M = 2, ℓ = 10, γ = 2. Run gives 4.904 ± 0.009 (mean ± standard
//     error over 4000 runs, TieRandom; TieLowest and Poissonized requests
//     move it by less than 0.04) and an independent brute-force simulator
//     of the same model 4.899 ± 0.012 (2500 runs): the spec's value, 30
//     standard errors away, is not reproduced by the model as the spec
//     states it, and the tests compare Run with the brute-force simulator
//     instead. The capped value 2.17 agrees (2.201 ± 0.005 over 1000 runs,
//     against the spec's 10-run mean).
//
// # Errors and panics
//
// Bad data is an error that names the parameter or field and its value and
// wraps a named error of package loadlab (docs/conventions.md §1), testable
// with errors.Is:
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
//     exact formulas that would need more than 10⁸ terms (FileCost on the
//     infinite grid with a tiny p, for which it needs about √(1/(2mp))
//     terms).
//   - loadlab.ErrDisconnected: FromGraph on a disconnected graph.
//
// Settings follow the contract's rule: a nil *SweepSettings, a zero field
// (Workers, Point.Runs, Variant.MaxN, Coded.ChunkCap) or a nil Strategy
// means the default stated on the field; a negative value is an error,
// never replaced by the default.
//
// Panics are for programmer errors and are documented on each function: a
// nil rand.Source (Run, Alias.Draw), a nil graph (FromGraph), a nil Family
// or runs function (CompareSizes), a nil or invalid topology given to
// BallRadius (or a size < 1) or to Torus.Balls and Hypercube.Balls, an
// n < 2 given to RGGRadius, a node index out of
// range (Dist), GridBall beyond 2^31. A panic inside a Sweep worker is
// re-raised on the caller's goroutine (internal/mc).
package codedload
