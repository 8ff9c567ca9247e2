// Package coding is the coding layer under coded load balancing (spec
// docs/specs/coded-load.md §11): random linear network coding (RLNC)
// over GF(2⁸), a maximum-distance-separable (MDS) Reed–Solomon code as
// the ideal reference, and the probability that a receiver of random
// chunks can decode. Package codedload assumes that any ℓ coded chunks
// of a file decode it; this package says how often real random chunks
// do, and how many extra chunks a receiver needs.
//
// # Field
//
// GF(2⁸) is built on the polynomial x⁸ + x⁴ + x³ + x² + 1 (Poly = 0x11d)
// with primitive element 2, the field of github.com/klauspost/reedsolomon,
// so every product agrees byte for byte with that library's tables and
// SIMD kernels (tested over all 65 536 pairs). Add, Mul, Inv, Div, Exp
// and Log are the scalar operations; Rank is the rank of a set of
// coefficient vectors.
//
// # Random linear coding
//
//	enc, err := coding.NewEncoder(source)         // ℓ equal-length chunks
//	chunks, err := enc.Random(k, src)             // k chunks, coefficients uniform over GF(2⁸)^ℓ
//	dec, err := coding.NewDecoder(ℓ, chunkSize)
//	innovative, err := dec.Add(chunk)             // one at a time; dec.Rank(), dec.CanDecode()
//	data, err := dec.Decode()                     // ErrRankDeficient below rank ℓ
//
// The decoder keeps a row-echelon basis of the coefficient vectors to
// tell innovative chunks from redundant ones (O(ℓ²) byte operations per
// chunk, no work on the data), copies the data of the innovative ones,
// and at rank ℓ inverts the ℓ×ℓ coefficient matrix by Gauss–Jordan
// elimination and multiplies the data by the inverse.
//
// That data product is the only heavy step (ℓ² multiply-adds of a whole
// chunk). It runs on the Reed–Solomon library's encoder, with the
// inverse given as the custom "parity" rows of a code with ℓ data shards
// (reedsolomon.New with WithCustomMatrix, on one goroutine): the
// library's generated SIMD code (GFNI, AVX-512, AVX2 or SSSE3 on amd64,
// NEON or SVE on arm64, a table fallback elsewhere) streams each input
// once per block of outputs. Measured on one core of an AMD EPYC with
// GFNI and AVX-512 (BenchmarkDecode, ℓ = 14 chunks of 64 KiB, the
// benchmark of issue 30, target ≥ 100 MB/s; docs/benchmarks.md): this
// matrix path decodes 2.8 GB/s; calling the library's single-slice
// multiply-add once per coefficient 2.3 GB/s; a portable Go loop over a
// 256 × 256 product table 58 MB/s, below the target. Hence the matrix
// path, which is also the encoder's (Encoder.Random makes up to 128
// chunks per pass; 2.4 GB/s of coded data). All three give the same
// bytes as a bitwise reference product in the tests.
//
// # The MDS reference
//
// NewMDS(ℓ, n) wraps the library's systematic Reed–Solomon code (n ≤ 256):
// any ℓ of its n chunks decode (spec §11.4). It is the code the ideal
// model of codedload stands for.
//
// # Fountain codes
//
// NewLT(k, c, δ) is a Luby transform code with the robust soliton degree
// law (spec §11.7): LT.Encode makes a symbol as the exclusive or of a
// random set of source chunks, an LTDecoder peels symbols one at a time
// (LTDecoder.Add, Recovered, Done, Decode), and EstimateLTReception
// measures the reception overhead (symbols needed over k, minus 1) and
// the fraction of receivers that need more than kβ symbols, at most δ by
// Luby's theorem when c is large enough. No field arithmetic, at the
// price of an overhead of tens of percent at k = 200 where random linear
// coding over GF(2⁸) needs 0.4 % of a chunk.
//
// # Decoding probability
//
// DecodeProb(q, ℓ, δ) is the exact probability that ℓ + δ chunks with
// uniform coefficient vectors over GF(q) decode, ∏_{j=δ+1}^{ℓ+δ}(1 − q^{−j}),
// and ExpectedExtra(q, ℓ) the mean Σ_{j=1}^{ℓ} 1/(q^j − 1) and variance of
// the number of chunks a receiver needs beyond ℓ (spec §11.3).
// EstimateReception measures both by Monte Carlo over GF(2⁸) or its
// subfields GF(2), GF(4), GF(16) (Fields): run r is
// ChunksToDecode(q, ℓ, loadlab.Stream(seed, r)); the decode
// probabilities come with their exact (Clopper–Pearson) 95 % intervals,
// the mean extra count with a Student-t interval. With
// MonteCarlo.Precision the runs given are a pilot and the study runs on
// until the mean extra count meets it (docs/specs/monte-carlo.md), with
// the fixed-runs result at the runs used. At q = 256 only about one run
// in 255 needs an extra chunk, so that mean needs many thousand runs
// before its interval means anything.
//
// # Errors and panics
//
// Bad data is an error naming the argument and its value:
//
//   - loadlab.ErrInvalid: ℓ < 1, chunk sizes 0 or different, a coefficient
//     vector or chunk of the wrong length, n outside [ℓ, 256] for NewMDS,
//     q < 2 (or not a subfield size where one is drawn), negative δ, runs
//     < 2, MonteCarlo.Workers < 0, an invalid MonteCarlo.Precision or a
//     pilot above its cap, rows of different lengths for Rank.
//   - loadlab.ErrTooLarge: ℓ·chunkSize, ℓ² or a chunk or run count beyond
//     the memory budget of internal/size, checked before allocating, and
//     ℓ > MaxStudyEll for the Monte Carlo study (its cost grows as ℓ³).
//   - ErrRankDeficient (this package): Decoder.Decode below rank ℓ,
//     MDS.Decode with fewer than ℓ chunks present, LTDecoder.Decode before
//     every chunk is revealed; more chunks are needed.
//   - loadlab.ErrNotConverged: EstimateReception at Precision.MaxRuns
//     short of its precision (the partial result comes with it), and
//     ChunksToDecode (and EstimateReception) when a source gives no full
//     rank within ℓ + MaxExtraDraws draws (LTSymbolsToDecode: no
//     decoding within 10k + MaxExtraDraws symbols), a broken source rather
//     than bad luck.
//
// A nil *MonteCarlo means the defaults. Panics are for programmer errors,
// documented on each function: a nil rand.Source (Encoder.Random,
// ChunksToDecode, DrawCoeffs, LT.Encode, LT.Neighbours,
// LTSymbolsToDecode), a nil *LT, Inv, Div or Log of zero, a dst of the wrong shape
// given to Decoder.DecodeTo. The package starts no goroutines of its
// own (the library runs on one; EstimateReception runs on internal/mc).
package coding
