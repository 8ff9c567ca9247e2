// Package anycast holds the system model shared by the dual and stability
// packages: an anycast CDN's primary layer of N nodes, each with a DNS
// server and a proxy (spec docs/specs/anycast-cdn.md §1).
//
// # Model
//
//   - A_j ≥ 0 is the rate of DNS queries arriving at node j (normalised
//     requests per unit time).
//   - x_j ∈ [0, 1] is the probability that node j's DNS server answers
//     with the primary layer's anycast address (the rest goes to the
//     second layer).
//   - C is the N×N correlation matrix: C_ji is the fraction of
//     primary-layer HTTP requests from users answered at node j that
//     anycast routing delivers to proxy i. C ≥ 0 and each row sums to 1
//     (row-stochastic, §1.2).
//   - T_i > 0 is the capacity (threshold) of proxy i, in the same units
//     as A.
//
// The load at proxy i is (§1.3, eq. (21))
//
//	S_i = Σ_j A_j x_j C_ji,   that is   S = B x,  B = Cᵀ diag(A).
//
// Because C is row-stochastic the total load equals the answered demand,
// Σ_i S_i = Σ_j A_j x_j ≤ ‖A‖₁, and 0 ≤ S_i ≤ (Cᵀ A)_i (§1.3, DERIVED).
//
// Indices run from 0 to N−1 in code; the spec counts from 1.
//
// # Dense and sparse C
//
// A real CDN's C is sparse: the users behind one DNS server land on a
// handful of proxies. NewNetwork takes either any mat.Matrix, copied into
// the dense field C, or a *SparseC (compressed rows built by NewSparseC
// from triplets), stored in the field Sparse; exactly one of the two is
// set. Algorithms read C through the Network methods Loads (S = Cᵀ
// diag(A) x), MulCT (Cᵀ d), MulC (C μ), Row, Col, At and NNZ, which cost
// O(nnz) for sparse C and O(N²) for dense C; products with N² or nnz
// above 2¹⁷ are split over GOMAXPROCS goroutines, each output entry
// computed by one goroutine in the serial order, so results do not depend
// on the number of cores. Code that reads the field C directly works for
// dense networks only. Network.AsDense and AsSparse give the same network
// in the other form (to compare the two paths, or to go dense at small N).
//
// A solver that multiplies by the same B = Cᵀ diag(A) many times (the
// greedy ODE of package stability) forms it once with Network.LoadOp: for
// sparse C the columns of C pre-scaled by A in compressed rows with 32-bit
// indices (a third less memory traffic per entry than Loads, which
// gathers A_j as well), for dense C the dense N×N matrix B, multiplied by
// an AVX2/FMA assembly kernel where the CPU has one (gonum's Ddot per row
// otherwise, or with the build tag noasm). LoadOp.Mul splits
// products of 2¹⁵ entries or more over the cores, again one goroutine per
// output entry (dense: pieces of 64 rows claimed by the caller and the
// busy-waiting helpers of internal/par); it equals Loads to rounding
// (C_ji A_j is rounded first, and the dense kernel keeps several partial
// sums). LoadOp.MulRows computes a range of rows on the caller, with the
// bits Mul gives them, for a caller that splits the work itself (the
// fused stages of package ode). A LoadOp does not follow later changes
// of the network's fields; LoadOp.Form forms it again, in the storage it
// has (dense B: the transpose of C read eight rows at a time, on all
// cores).
//
// Reduced is a dense B with the columns of a set K of nodes held at
// exactly x_j = 1 summed once, S_i = b_i + Σ_{j∉K} B_ij x_j (Reduce from
// a LoadOp, Narrow to a larger K from a Reduced, both reusing the
// receiver's storage): the same sum rounded differently, at
// (N − |K|)/N of the cost. The greedy ODE uses it for the nodes that have
// settled at 1 (package stability, reduce.go). Its rows are stored free
// nodes first, so that MulFree computes the free rows of a range and
// MulSettled the settled ones, the latter for six states at once with
// each row read once (three rows by six states in 512-bit registers where
// the CPU has AVX-512); every row has the same bits whichever method
// computes it. Its rows are padded with zero columns to a multiple of
// eight (Cols), so that the kernels sum every row in whole blocks, with
// no remainder column by column.
//
// GenerateCDN draws a synthetic CDN with sparse C from a rand.Source:
// nodes uniform on the unit square, each region's traffic split over its
// K nearest proxies with weights ∝ exp(−d/ℓ), log-normal demand and
// capacities set from drawn utilisations (CDNSettings documents every
// parameter and default). It is this package's model, not the paper's.
// Nodes are numbered along a serpentine sweep of a grid of cells, so a
// region's proxies have nearby indices (mean |i − j| over the entries of
// C is 97 at N = 2·10⁴ and K = 10, against N/3 for random labels), and
// the gathers of the products stay within a small window of the vector.
//
// # Errors and panics
//
// NewNetwork and Validate return an error wrapping loadlab.ErrInvalid
// (test it with errors.Is) that names the entry and its value: A[j] or
// T[i] negative, zero (T), NaN or infinite; C[j][i] negative, NaN or
// infinite; a row of C whose sum misses 1 by more than RowSumTol; a total
// demand Σ A_j that overflows; a C that is nil, not square or not N×N; a
// len(T) that differs from len(A); both or neither of C and Sparse set.
// NewSparseC returns an *EntryError (wrapping loadlab.ErrInvalid, with
// the row and the column, −1 for a whole-row fault) for an index out of
// range, a negative, NaN, infinite or > 1 entry, a duplicate entry, an
// empty row or a row sum off 1 by more than RowSumTol. The fields of a Network are exported
// for reading in hot loops: a caller who changes them calls Validate
// again, and the packages that take a *Network (dual, stability) do so on
// every entry point.
//
// Panics are programmer errors only, each documented on its method:
// Validate on a nil *Network, and Loads with x or dst of the wrong
// length. Loads does not check that x lies in [0, 1] (it is the inner
// loop of the solvers); a NaN x gives NaN loads.
package anycast
