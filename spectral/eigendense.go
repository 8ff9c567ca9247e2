package spectral

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"gonum.org/v1/gonum/mat"
)

// SymEigen returns the eigenvalues of the symmetric matrix a in
// ascending order and, if vectors is set, the orthonormal eigenvectors
// as the columns of a matrix, in the same order. It factors a copy of a
// scaled by a power of two that brings its largest entry into [½, 1):
// the scaling is exact, so the eigenvalues are exactly those of the
// scaled matrix rescaled, and it keeps gonum's eigensolver away from its
// own rescaling of tiny or huge matrices, which panics ("insufficient
// length") when every entry is below about 1e-122. a is not modified.
// It returns an error wrapping loadlab.ErrIllConditioned if the
// eigensolver does not converge, or loadlab.ErrInvalid if a has a NaN or
// infinite entry. It panics if a is nil.
func SymEigen(a *mat.SymDense, vectors bool) ([]float64, *mat.Dense, error) {
	if a == nil {
		panic("spectral: SymEigen: nil matrix a")
	}
	n := a.SymmetricDim()
	raw := a.RawSymmetric()
	var big float64
	for i := range n {
		for j, x := range raw.Data[i*raw.Stride+i : i*raw.Stride+n] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, nil, loadlab.Invalid("spectral", "SymEigen: a[%d][%d] = %v, want finite", i, i+j, x)
			}
			big = max(big, math.Abs(x))
		}
	}
	if n == 0 {
		return nil, nil, nil
	}
	c := mat.NewSymDense(n, nil)
	_, e := math.Frexp(big) // big = f·2^e, f ∈ [½, 1)
	if big == 0 {
		e = 0
	}
	cr := c.RawSymmetric()
	for i := range n {
		src := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		dst := cr.Data[i*cr.Stride+i : i*cr.Stride+n]
		for j, x := range src {
			dst[j] = math.Ldexp(x, -e)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(c, vectors) {
		return nil, nil, loadlab.Wrap(loadlab.ErrIllConditioned, "spectral", "SymEigen: the dense symmetric eigensolver did not converge")
	}
	ev := es.Values(nil)
	for i := range ev {
		ev[i] = math.Ldexp(ev[i], e)
	}
	if !vectors {
		return ev, nil, nil
	}
	var v mat.Dense
	es.VectorsTo(&v)
	return ev, &v, nil
}

// denseValues returns the ascending dense spectrum of S.
func (op *operator) denseValues(fn string) ([]float64, error) {
	a, err := op.dense(fn)
	if err != nil {
		return nil, err
	}
	ev, _, err := SymEigen(a, false)
	if err != nil {
		return nil, fmt.Errorf("spectral: %s: %w", fn, err)
	}
	return ev, nil
}

// denseBracket brackets the eigenvalue ev[i] of the dense spectrum:
// the symmetric eigensolver is backward stable, with absolute error a
// modest multiple of n u ‖S‖ ≤ 1e-12 norm for n ≤ denseEigenMax.
func denseBracket(ev []float64, i int, norm float64) Bracket {
	mu := ev[i]
	m := 1e-12 * norm
	return Bracket{Lo: max(mu-m, 0), Est: max(mu, 0), Hi: mu + m, Cert: CertDense, Status: loadlab.Success}
}

// cholMargin is the backward-error margin of the dense Cholesky
// decisions: a factorisation of an n × n matrix A that succeeds proves
// A + E positive definite for some ‖E‖ ≤ c_n u ‖A‖ (Higham, Accuracy and
// Stability of Numerical Algorithms, Thm 10.3), below 1e-9 ‖A‖ for
// n ≤ denseCholMax.
func cholMargin(t, norm float64) float64 { return 1e-9 * (t + norm) }

// spdBelow reports whether c I − S is numerically positive definite
// (its Cholesky factorisation succeeds), that is c > λ_max(S) up to the
// factorisation's backward error (Sylvester's law of inertia).
func (op *operator) spdBelow(c float64) (bool, error) {
	a, err := op.dense("LambdaMaxBracket")
	if err != nil {
		return false, err
	}
	dense.Shift(a, a, c, 1)
	var f dense.SPDFactor
	return f.Factorize(a) == nil, nil
}

// choleskyMax settles t against λ_max by up to two dense Cholesky
// factorisations: success at c = t − 2m proves Hi = t − m < t; failure,
// then failure at c = t + m, proves Lo = t; failure then success leaves
// the narrow bracket [t − 3m, t + 2m] (m = cholMargin).
func (op *operator) choleskyMax(b Bracket, t float64) (Bracket, error) {
	m := cholMargin(t, b.Hi)
	below, err := op.spdBelow(t - 2*m)
	if err != nil {
		return b, err
	}
	above := false
	if !below {
		if above, err = op.spdBelow(t + m); err != nil {
			return b, err
		}
	}
	exact := true // Lo is a Rayleigh quotient, deterministic
	switch {
	case below:
		b.Hi = min(b.Hi, t-m)
	case !above:
		b.Lo, exact = max(b.Lo, t), b.Delta == 0
	default:
		b.Lo, b.Hi = max(b.Lo, t-3*m), min(b.Hi, t+2*m)
	}
	return b.settled(CertCholesky, exact), nil
}

// liftedAbove reports whether S + zzᵀ − c(I − zzᵀ) is numerically
// positive definite, that is λ₂(S) > c up to rounding (z the unit null
// vector of S; Sylvester's law of inertia).
func (op *operator) liftedAbove(z []float64, c float64) (bool, error) {
	a, err := op.dense("Lambda2Bracket")
	if err != nil {
		return false, err
	}
	raw := a.RawSymmetric()
	for i := range raw.N {
		row := raw.Data[i*raw.Stride : (i+1)*raw.Stride]
		for j := i; j < raw.N; j++ {
			row[j] += (1 + c) * z[i] * z[j]
		}
		row[i] -= c
	}
	var f dense.SPDFactor
	return f.Factorize(a) == nil, nil
}

// cholesky2 settles t against λ₂ by up to two dense Cholesky
// factorisations of the lifted matrix, as choleskyMax does for λ_max.
func (op *operator) cholesky2(b Bracket, z []float64, t, norm float64) (Bracket, error) {
	m := cholMargin(t, norm)
	above, err := op.liftedAbove(z, t+m)
	if err != nil {
		return b, err
	}
	below := false
	if !above {
		if below, err = op.liftedAbove(z, t-2*m); err != nil {
			return b, err
		}
		below = !below
	}
	exact := true // Hi is a Rayleigh quotient, deterministic
	switch {
	case above:
		b.Lo = max(b.Lo, t)
	case below:
		b.Hi, exact = min(b.Hi, t-m), b.Delta == 0
	default:
		b.Lo, b.Hi = max(b.Lo, t-3*m), min(b.Hi, t+2*m)
	}
	return b.settled(CertCholesky, exact), nil
}

// settled marks a bracket refined by the method cert: Delta becomes 0
// when exact (the refinement leaves both ends deterministic), the
// estimate is clamped into [Lo, Hi] and the status is Success.
func (b Bracket) settled(cert Certificate, exact bool) Bracket {
	b.Cert = cert
	if exact {
		b.Delta = 0
	}
	b.Est = min(max(b.Est, b.Lo), b.Hi)
	b.Status = loadlab.Success
	return b
}
