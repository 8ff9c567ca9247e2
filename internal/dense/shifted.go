package dense

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// SPDFactor is the Cholesky factorisation A = UᵀU of a symmetric
// positive definite matrix with its 1-norm condition estimate and, on
// first use, the inverse factor V = U⁻¹ (upper triangular), computed in
// place by the recursive triangular inverse Trinv (n³/3 flops,
// nearly all in Gemm). From V:
//
//	A⁻¹ = V Vᵀ,   (A⁻¹)_jj = ‖row j of V‖²,   tr A⁻¹ = ‖V‖_F².
//
// This is the factor-and-invert pass behind the Kirchhoff index, the H2
// measures of consensus and the Problem A solver. The zero value is
// empty; Factorize fills it and may be called again (the storage is
// reused when the order is unchanged).
type SPDFactor struct {
	n        int
	U        []float64 // row-major n×n; upper triangle: U, or V once inverted
	cond     float64
	logdet   float64
	inverted bool
	work     []float64
	iwork    []int
}

// Factorize factors a (which is not modified). It returns an error
// wrapping loadlab.ErrIllConditioned if a is not numerically positive
// definite; the condition number is not checked here (see Cond), so
// that callers choose what they can afford.
func (f *SPDFactor) Factorize(a *mat.SymDense) error {
	raw := a.RawSymmetric()
	n := raw.N
	if f.n != n || f.U == nil {
		f.n = n
		f.U = make([]float64, n*n)
		f.work = make([]float64, 3*n)
		f.iwork = make([]int, n)
	}
	for i := range n {
		copy(f.U[i*n+i:(i+1)*n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
	}
	f.inverted = false
	impl := lapackgo.Implementation{}
	anorm := impl.Dlansy(lapack.MaxColumnSum, blas.Upper, n, f.U, max(n, 1), f.work)
	if n == 0 {
		f.cond, f.logdet = 1, 0
		return nil
	}
	if !impl.Dpotrf(blas.Upper, n, f.U, n) {
		f.cond = math.Inf(1)
		return loadlab.Wrap(loadlab.ErrIllConditioned, "dense", "the %d×%d matrix is not numerically positive definite (its Cholesky factorisation failed)", n, n)
	}
	var ld float64
	for i := range n {
		ld += math.Log(f.U[i*n+i])
	}
	f.logdet = 2 * ld
	f.cond = 1 / impl.Dpocon(blas.Upper, n, f.U, n, anorm, f.work, f.iwork)
	return nil
}

// Order returns n.
func (f *SPDFactor) Order() int { return f.n }

// Cond returns the estimate of the 1-norm condition number κ₁(A) from
// the factorisation (LAPACK's Dpocon); +Inf after a failed Factorize.
// Quantities derived from A⁻¹ have relative error of order κ(A)·ε.
func (f *SPDFactor) Cond() float64 { return f.cond }

// LogDet returns log det A = 2 Σ log U_ii.
func (f *SPDFactor) LogDet() float64 { return f.logdet }

// Invert replaces U by the inverse factor V = U⁻¹; later calls do
// nothing.
func (f *SPDFactor) Invert() {
	if f.inverted {
		return
	}
	// A Cholesky factor that passed Dpotrf has a positive diagonal, so
	// V exists.
	Trinv(blas64.General{Rows: f.n, Cols: f.n, Stride: f.n, Data: f.U})
	f.inverted = true
}

// row returns row j of V from its diagonal on (the part that can be
// non-zero).
func (f *SPDFactor) row(j int) []float64 {
	f.Invert()
	return f.U[j*f.n+j : (j+1)*f.n]
}

// InverseDiag writes the diagonal of A⁻¹ into dst (allocated if nil)
// and returns it. It panics if dst is non-nil with a length other than n.
func (f *SPDFactor) InverseDiag(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, f.n)
	} else if len(dst) != f.n {
		panic(fmt.Sprintf("dense: InverseDiag: len(dst) = %d, want %d", len(dst), f.n))
	}
	for j := range f.n {
		r := f.row(j)
		dst[j] = floats.Dot(r, r)
	}
	return dst
}

// InverseTrace returns tr A⁻¹ = ‖V‖_F² as a compensated sum of the
// diagonal entries.
func (f *SPDFactor) InverseTrace() float64 {
	var s CompensatedSum
	for j := range f.n {
		r := f.row(j)
		s.Add(floats.Dot(r, r))
	}
	return s.Value()
}

// InverseTo stores A⁻¹ = V Vᵀ in dst, formed by LAPACK's Dlauum (n³/3
// flops beyond those of V). A zero-sized dst is resized; it panics if
// dst has another size.
func (f *SPDFactor) InverseTo(dst *mat.SymDense) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(f.n)
	}
	if n := dst.SymmetricDim(); n != f.n {
		panic(fmt.Sprintf("dense: InverseTo: destination is %d×%d, want %d×%d", n, n, f.n, f.n))
	}
	out := dst.RawSymmetric()
	for i := range f.n {
		copy(out.Data[i*out.Stride+i:i*out.Stride+f.n], f.row(i))
	}
	lapackgo.Implementation{}.Dlauum(blas.Upper, f.n, out.Data, out.Stride)
}

// SolveVec writes x = A⁻¹ b into dst (dst and b may be the same slice),
// by two triangular solves with U, or two products with V once the
// inverse factor exists.
// It panics if the lengths differ from n.
func (f *SPDFactor) SolveVec(dst, b []float64) {
	if len(dst) != f.n || len(b) != f.n {
		panic(fmt.Sprintf("dense: SolveVec: len(dst) = %d, len(b) = %d, want %d", len(dst), len(b), f.n))
	}
	copy(dst, b)
	if f.n == 0 {
		return
	}
	t := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: f.n, Stride: f.n, Data: f.U}
	x := blas64.Vector{N: f.n, Inc: 1, Data: dst}
	if f.inverted {
		blas64.Trmv(blas.Trans, t, x)   // Vᵀ b
		blas64.Trmv(blas.NoTrans, t, x) // V Vᵀ b
		return
	}
	blas64.Trsv(blas.Trans, t, x)   // Uᵀ y = b
	blas64.Trsv(blas.NoTrans, t, x) // U x = y
}

// Lift writes A = L + (α/n) J into dst (dst may be l) for a Laplacian l,
// with J the all-ones matrix and α = tr L / n, the mean weighted degree
// (α = 1 when L = 0), and returns α. Because J/n projects onto the
// constants and L annihilates them, A⁻¹ = L† + J/(α n) for every α > 0
// (spec throttlers.md §12.7; §2 uses α = 1); α on the scale of L keeps A as
// well conditioned as L allows on 1⊥, κ(A) = max(λ_n, α)/min(λ₂, α),
// whatever the units of the weights. It panics if the sizes differ.
func Lift(dst, l *mat.SymDense) float64 {
	n := l.SymmetricDim()
	if dst.SymmetricDim() != n {
		panic(fmt.Sprintf("dense: Lift: destination is %d×%d, want %d×%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n))
	}
	if n == 0 {
		return 1
	}
	src, out := l.RawSymmetric(), dst.RawSymmetric()
	var tr float64
	for i := range n {
		tr += src.Data[i*src.Stride+i]
	}
	alpha := tr / float64(n)
	if !(alpha > 0) {
		alpha = 1
	}
	c := alpha / float64(n)
	for i := range n {
		s, d := src.Data[i*src.Stride+i:i*src.Stride+n], out.Data[i*out.Stride+i:i*out.Stride+n]
		for j, x := range s {
			d[j] = x + c
		}
	}
	return alpha
}

// Shift writes c I − γ L into dst (dst may be l). With c = 2 this is the
// matrix 2I − γL whose positive definiteness is the stability of the
// update x ← (I − γL) x and whose inverse gives the H2 measures of
// consensus (spec throttlers.md §4.1, §4.4). It panics if the sizes
// differ.
func Shift(dst, l *mat.SymDense, c, gamma float64) {
	n := l.SymmetricDim()
	if dst.SymmetricDim() != n {
		panic(fmt.Sprintf("dense: Shift: destination is %d×%d, want %d×%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n))
	}
	src, out := l.RawSymmetric(), dst.RawSymmetric()
	for i := range n {
		s, d := src.Data[i*src.Stride+i:i*src.Stride+n], out.Data[i*out.Stride+i:i*out.Stride+n]
		for j, x := range s {
			d[j] = -gamma * x
		}
		d[0] += c
	}
}

// MaxCondition is the largest 1-norm condition number estimate that
// FactorizeChecked accepts. Quantities derived from A⁻¹ have relative
// error of order κ(A)·ε, so at 1e14 about two digits are still right.
const MaxCondition = 1e14

// FactorizeChecked factors a into f and returns an error wrapping
// loadlab.ErrIllConditioned, naming the matrix as what, if a is not
// numerically positive definite or its condition estimate exceeds
// MaxCondition: past it fewer than two digits of anything derived from
// a⁻¹ would be right, so the caller gets an error rather than a silently
// wrong number.
func (f *SPDFactor) FactorizeChecked(a *mat.SymDense, what string) error {
	if err := f.Factorize(a); err != nil {
		return loadlab.Wrap(loadlab.ErrIllConditioned, "dense", "%s is not numerically positive definite (weights spanning too many orders of magnitude?)", what)
	}
	if c := f.Cond(); !(c <= MaxCondition) {
		return loadlab.Wrap(loadlab.ErrIllConditioned, "dense", "%s has condition number ≈ %.3g > %.0e: results derived from its inverse would be inaccurate (weights spanning too many orders of magnitude?)", what, c, MaxCondition)
	}
	return nil
}
