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
// Indices run from 0 to N−1 in code; the spec counts from 1.
//
// # Networks, dense and sparse
//
//	nw, err := anycast.NewNetwork(a, c, t)   // c: any mat.Matrix, or a *SparseC
//	s := nw.Loads(nil, x)                    // S = Cᵀ diag(A) x
//
// NewNetwork copies a mat.Matrix into the dense field C, or keeps a
// *SparseC (compressed rows, built by NewSparseC from triplets) in the
// field Sparse; exactly one of the two is set. A real CDN's C is sparse.
// Read C through the methods Loads, MulCT (Cᵀ d), MulC (C μ), Row, Col, At
// and NNZ, which cost O(nnz) for sparse C and O(N²) for dense C and give
// the same bits on any number of cores (spec §11.1); code that reads the
// field C directly works for dense networks only. Network.AsDense and
// AsSparse give the same network in the other form (to compare the two
// paths, or to go dense at small N).
//
// A solver that multiplies by B many times forms it once: Network.LoadOp
// returns a LoadOp (Mul, MulRows for a caller that splits the rows
// itself, Form to form it again after the network changed), equal to
// Loads to rounding. Reduced is B with the columns of nodes held at
// exactly x_j = 1 summed once (Reduce, Narrow, MulFree, MulSettled), the
// operator of the greedy ODE's settled nodes in package stability. Their
// storage and kernels are described in spec §11.2.
//
// GenerateCDN draws a synthetic CDN with sparse C from a rand.Source
// (regions served by their K nearest proxies, log-normal demand;
// CDNSettings documents every parameter and default). It is this
// toolkit's model, not the paper's (spec §11.3).
//
// # Cost
//
// A product with C or B is O(nnz) for sparse C and O(N²) for dense C,
// split over the cores above 2¹⁷ entries (2¹⁵ for a LoadOp). Validate
// reads every entry once.
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
// empty row or a row sum off 1 by more than RowSumTol. GenerateCDN
// returns an ErrInvalid error naming a bad CDNSettings field. Sizes
// beyond the memory budget (NewSparseC, LoadOp, GenerateCDN) are
// loadlab.ErrTooLarge errors, checked before allocating.
//
// The fields of a Network are exported for reading in hot loops: a
// caller who changes them calls Validate again, and the packages that
// take a *Network (dual, stability) do so on every entry point. A LoadOp
// or Reduced does not follow such changes until formed again.
//
// Panics are programmer errors only, each documented on its function:
// Validate on a nil *Network, GenerateCDN with a nil rand.Source, and
// the products (Loads, LoadOp.Mul, MulRows, the Reduced methods) with x
// or dst of the wrong length. Loads does not check that x lies in [0, 1]
// (it is the inner loop of the solvers); a NaN x gives NaN loads.
package anycast
