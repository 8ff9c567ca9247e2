// Package cholesky factors sparse symmetric positive definite matrices
// and computes selected entries of their inverses, so that exact values
// on large sparse graphs — the diagonal of L†, every edge's effective
// resistance, tr (2I − γL)⁻¹ — cost about as much as one factorisation
// (spec sparse-cholesky.md).
//
// # Use
//
// A Matrix holds both triangles in compressed sparse row form. Analyze
// orders the pattern (Settings.Ordering: AMD, nested dissection, or Auto,
// which counts both and keeps the cheaper), builds the elimination tree
// and the factor's pattern, and reports the predicted entries, flops and
// memory (Symbolic.Report) before any numeric work; a factor that would
// exceed Settings.MaxBytes or Settings.MaxFlops is refused then — on an
// expander within the ordering, as soon as a lower bound on the flops
// passes twice the limit (§6.1). One Symbolic serves every matrix with
// the same pattern:
//
//	sym, err := cholesky.Analyze(a, nil)
//	f, err := sym.Factor(a)      // P A Pᵀ = L Lᵀ
//	x := f.Solve(nil, b)         // A x = b
//	f.SolveTo(x, b, work)        // the same, into the caller's vectors: no allocation
//	z := f.Inverse()             // A⁻¹ on the factor's pattern
//	d := z.Diag(nil)             // diag A⁻¹
//	v, ok := z.At(i, j)          // (A⁻¹)_ij for every stored A_ij
//
// The numeric work runs by supernodes (runs of columns with one row
// pattern, dense panels, spec sparse-cholesky.md §3.1) on the module's
// AVX2 matrix product: on the 1000 × 1000 torus (4·10⁷ entries) the
// analysis, the factor and its selected inverse take about 16 s. Small
// supernodes are merged into their parents (relaxed supernodes, §3.2):
// the merged panels store a few entries that are zero in L as explicit
// zeros, which stay exact zeros, in exchange for far fewer tiny blocks.
// Settings.Relax bounds the merged width (RelaxOff keeps the fundamental
// supernodes); Report.Factor counts L's entries and Report.Stored,
// Flops and Bytes what is stored and done.
//
// The analysis is the expensive part on small factors (on the 4941-node
// power grid it is about ten times the numeric factorisation), so a
// sequence of matrices of one pattern — a Laplacian reweighted at each
// iteration of a design, a link of weight zero kept as an explicit zero —
// analyses once and calls sym.Factor for each; a matrix of another
// pattern is refused with loadlab.ErrInvalid, never analysed afresh
// behind the caller's back. The ordering is deterministic, so results
// are bit-identical across runs and core counts, and a factor on a kept
// analysis is bit for bit the one a fresh Analyze gives.
//
// # Errors
//
// Malformed or asymmetric input, and bad settings, return errors wrapping
// loadlab.ErrInvalid that name the field or entry. A factor beyond the
// budget returns loadlab.ErrTooLarge before allocating it. A matrix that
// is not numerically positive definite (a pivot ≤ 0), or whose condition
// estimate exceeds MaxCondition, returns loadlab.ErrIllConditioned: its
// inverse would have no correct digits.
package cholesky
