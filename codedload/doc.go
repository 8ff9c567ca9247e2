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
//   - GraphTopology: any connected *linalg.Graph (FromGraph), searched by
//     linalg's breadth-first search directly on the graph's compact CSR
//     storage. NewRGG draws the random geometric graph of the unit square
//     with r_n = √(1.25 ln n / n) (linalg.RandomGeometric), NewRegular a
//     random d-regular graph (linalg.RandomRegular, exactly uniform for
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
// (spec §3.3). Strategies (spec §5):
//
//   - NearestReplica: the nearest holder serves (load +1, cost +dist).
//   - Coded: the ℓ nearest chunk copies are sent, each adding 1/ℓ to its
//     sender's load and dist/ℓ to the cost. Selection is exact: with D the
//     distance where N(<D) < ℓ ≤ N(≤D), all copies closer than D are taken
//     and ℓ−N(<D) are chosen among the copies at D. An optional cap
//     chnk_max bounds the chunks one server sends per request.
//   - TwoChoice (a): two holders drawn with replacement within radius r, the
//     less loaded serves; with none in the ball, nearest replica (counted).
//   - TwoChoiceGlobal (b) and TwoChoiceStretch (c): the reference
//     simulator's variants.
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
// results do not depend on the number of workers. ServerSweep, CacheSweep,
// ChunkSweep, ZipfSweep and TradeoffSweep give the points of the reference
// simulator's experiments (spec §7.1).
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
//   - Tie-breaking is uniform among equidistant chunk copies (copies at one
//     server count with multiplicity) by default; TieLowest picks the lowest
//     server index, for deterministic tests. Neither reproduces the
//     reference code's numpy argsort order run for run (spec §5).
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
//   - NewRegular repairs the loops and repeated edges of the configuration
//     model by random double-edge switches: close to uniform for fixed d, not
//     exactly uniform.
//
// Errors are returned for invalid configurations and name the field
// (Config.Validate); panics are reserved for programmer errors and are
// documented where they can occur.
package codedload
