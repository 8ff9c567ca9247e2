package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/mat"
)

// Lyapunov returns the solution Σ of the discrete Lyapunov equation
// Σ = A Σ Aᵀ + Q by a direct solve of the n²×n² linear system
// (I − A⊗A) vec Σ = vec Q, symmetrised. It is an independent oracle for
// the closed forms (spec §4.4, Lyapunov forms) and costs O(n⁶): use it
// for n up to about 30. It returns an error if the system is singular
// (A has eigenvalues μ, ν with μν = 1; ErrIllConditioned), and an
// error wrapping ErrInvalid naming the entry if A or Q holds a NaN or an
// infinity, or ErrTooLarge if the n²×n² system exceeds the memory
// budget. It panics if a or q is nil, or if a is not square or its size
// differs from q's.
func Lyapunov(a mat.Matrix, q mat.Symmetric) (*mat.SymDense, error) {
	if a == nil || q == nil {
		panic("consensus: Lyapunov: nil matrix a or q")
	}
	n, c := a.Dims()
	if n != c || q.SymmetricDim() != n {
		panic(fmt.Sprintf("consensus: Lyapunov: A is %d×%d, Q is %d×%d", n, c, q.SymmetricDim(), q.SymmetricDim()))
	}
	nn, ok := size.Mul(n, n)
	if !ok {
		return nil, loadlab.TooLarge("consensus", "Lyapunov: n = %d: the n²×n² system overflows", n)
	}
	if err := size.CheckDense("consensus", "consensus: Lyapunov", nn, 1); err != nil {
		return nil, err
	}
	for i := range n {
		for j := range n {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, loadlab.Invalid("consensus", "Lyapunov: A[%d][%d] = %v, want finite", i, j, v)
			}
			if v := q.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, loadlab.Invalid("consensus", "Lyapunov: Q[%d][%d] = %v, want finite", i, j, v)
			}
		}
	}
	k := mat.NewDense(nn, nn, nil)
	b := mat.NewVecDense(nn, nil)
	// Row (i, j) of the system: Σ_ij − Σ_kl A_ik A_jl Σ_kl = Q_ij.
	for i := range n {
		for j := range n {
			r := i*n + j
			b.SetVec(r, q.At(i, j))
			for kk := range n {
				aik := a.At(i, kk)
				if aik == 0 {
					continue
				}
				for l := range n {
					k.Set(r, kk*n+l, k.At(r, kk*n+l)-aik*a.At(j, l))
				}
			}
			k.Set(r, r, k.At(r, r)+1)
		}
	}
	var s mat.VecDense
	if err := s.SolveVec(k, b); err != nil {
		return nil, loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "Lyapunov: the system I − A⊗A is singular to rounding (A has eigenvalues μ, ν with μν ≈ 1): %v", err)
	}
	out := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			out.SetSym(i, j, (s.AtVec(i*n+j)+s.AtVec(j*n+i))/2)
		}
	}
	return out, nil
}

// Covariance returns the stationary covariance of the dispersion M_n p
// for traffic t (spec §4.4), computed with Lyapunov, independently of the
// closed forms; its trace is ρ and its diagonal the nodal ρ_j. The
// conserved mode λ₁ = 0 has eigenvalue 1 in A = I − γL, which makes
// I − A⊗A singular; since every noise covariance here has range in 1⊥
// and A maps 1⊥ to itself, A is replaced by à = A − J/n (the same map on
// 1⊥, zero on 1):
//
//	Case 2:  Σ = ÃΣÃᵀ + σ² M_n
//	Case 2T: Σ = ÃΣÃᵀ + σ² γ M_n
//	Case 1:  P = ÃPÃᵀ + σ² γ² L²,  Σ = σ² M_n + P   (spec §4.4 R1)
//
// It returns an error wrapping ErrUnstable when 2I − γL is not positive
// definite or γλ_n is within rounding of 2, and the errors of Rho for
// bad arguments; it panics if th is nil. Cost O(n⁶).
func Covariance(th *Throttler, t Traffic, sigma float64) (*mat.SymDense, error) {
	if err := th.validateLinear("Covariance"); err != nil {
		return nil, err
	}
	g, gamma := th.Graph, th.Gamma
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return nil, err
	}
	if _, err := stationaryInverse(g, gamma); err != nil {
		return nil, err
	}
	n := g.Order()
	l, err := g.Laplacian()
	if err != nil {
		return nil, err
	}
	at := mat.NewDense(n, n, nil)
	mn := mat.NewSymDense(n, nil)
	c := 1 / float64(n)
	for i := range n {
		for j := range n {
			v := -gamma*l.At(i, j) - c
			m := -c
			if i == j {
				v++
				m++
			}
			at.Set(i, j, v)
			if j >= i {
				mn.SetSym(i, j, m)
			}
		}
	}
	v := sigma * sigma
	switch t {
	case Case2:
		mn.ScaleSym(v, mn)
		return Lyapunov(at, mn)
	case Case2T:
		mn.ScaleSym(v*gamma, mn)
		return Lyapunov(at, mn)
	}
	var l2 mat.SymDense
	l2.SymOuterK(1, l) // L Lᵀ = L²
	l2.ScaleSym(v*gamma*gamma, &l2)
	p, err := Lyapunov(at, &l2)
	if err != nil {
		return nil, err
	}
	p.AddSym(p, scaled(v, mn))
	return p, nil
}

func scaled(f float64, a *mat.SymDense) *mat.SymDense {
	var s mat.SymDense
	s.ScaleSym(f, a)
	return &s
}

// isFinite reports whether every element of xs is finite.
func isFinite(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
