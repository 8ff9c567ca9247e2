package linalg

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	lapack "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// Resistance answers effective-resistance queries on a connected graph
// from one Cholesky factorisation (spec throttlers.md §2).
//
// It factors A = L + (α/n) J, with J the all-ones matrix and α the mean
// weighted degree. Because J/n projects onto the constants and L
// annihilates them, A⁻¹ = L† + J/(α n) for every α > 0 (the spec's
// formula is α = 1); choosing α on the scale of L keeps A well
// conditioned and keeps tr L† = tr A⁻¹ − 1/α free of cancellation when
// weights are large or small.
//
// With A = Uᵀ U and V = U⁻¹ (upper triangular), A⁻¹ = V Vᵀ, so
//
//	R_uv = ‖V_u − V_v‖²            (rows of V; eq. (2))
//	L†_uu = ‖V_u‖² − 1/(α n)
//	K_f = n tr L† = n (‖V‖_F² − 1/α)
//
// V is computed once, on first use, in n³/3 flops.
type Resistance struct {
	n     int
	alpha float64
	chol  mat.Cholesky

	once sync.Once
	v    *mat.TriDense
}

// MaxCondition is the largest 1-norm condition number estimate of
// A = L + αJ/n that NewResistance accepts. Quantities derived from A⁻¹
// have relative error of order κ(A)·ε, so at 1e14 about two digits are
// still right. Unit-weight paths reach κ ≈ 0.4 n², so this allows paths
// of about 10⁷ nodes; weights spanning many orders of magnitude reach it
// sooner.
const MaxCondition = 1e14

// NewResistance factors the Laplacian of g. It returns an error if g is
// disconnected or has no nodes, or if A = L + αJ/n is too ill conditioned
// for its inverse to be trusted (condition estimate above MaxCondition).
// The cost is one dense Cholesky, n³/3 flops, and an O(n²) condition
// estimate.
func NewResistance(g *Graph) (*Resistance, error) {
	if err := requireConnected(g); err != nil {
		return nil, err
	}
	n := g.Order()
	l := g.Laplacian()
	var tr float64
	for u := range n {
		tr += l.At(u, u)
	}
	alpha := tr / float64(n)
	if n == 1 {
		alpha = 1
	}
	raw := l.RawSymmetric()
	shift := alpha / float64(n)
	for i := range n {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		floats.AddConst(shift, row)
	}
	r := &Resistance{n: n, alpha: alpha}
	if !r.chol.Factorize(l) {
		return nil, errors.New("linalg: L + αJ/n is not numerically positive definite (weights spanning too many orders of magnitude?)")
	}
	// The relative error of everything derived from A⁻¹ is about κ(A)·ε.
	// Past MaxCondition fewer than two digits would be right, so refuse
	// rather than return a silently wrong number.
	if c := r.chol.Cond(); !(c <= MaxCondition) {
		return nil, fmt.Errorf("linalg: L + αJ/n has condition number ≈ %.3g > %.0e: effective resistances would be inaccurate (weights spanning too many orders of magnitude?)", c, MaxCondition)
	}
	return r, nil
}

// Order returns the number of nodes.
func (r *Resistance) Order() int { return r.n }

// inverseFactor returns V = U⁻¹, computing it once with the recursive
// triangular inverse of tri.go (n³/3 flops, nearly all in Gemm).
func (r *Resistance) inverseFactor() *mat.TriDense {
	r.once.Do(func() {
		var v mat.TriDense
		r.chol.UTo(&v)
		raw := v.RawTriangular()
		// The diagonal of a Cholesky factor that passed the condition
		// check is positive, so V exists.
		trinv(blas64.General{Rows: r.n, Cols: r.n, Stride: raw.Stride, Data: raw.Data})
		r.v = &v
	})
	return r.v
}

func (r *Resistance) check(u, v int) error {
	if u < 0 || u >= r.n {
		return fmt.Errorf("linalg: node u = %d out of range [0, %d)", u, r.n)
	}
	if v < 0 || v >= r.n {
		return fmt.Errorf("linalg: node v = %d out of range [0, %d)", v, r.n)
	}
	return nil
}

// Between returns the effective resistance R_uv (spec eq. (2)) in O(n)
// time after the first call. It panics if u or v is out of range.
func (r *Resistance) Between(u, v int) float64 {
	if err := r.check(u, v); err != nil {
		panic(err)
	}
	if u == v {
		return 0
	}
	raw := r.inverseFactor().RawTriangular()
	// Rows of upper-triangular V: row u is zero before column u.
	if u > v {
		u, v = v, u
	}
	ru := raw.Data[u*raw.Stride : u*raw.Stride+r.n]
	rv := raw.Data[v*raw.Stride : v*raw.Stride+r.n]
	var s float64
	for j := u; j < v; j++ {
		s += ru[j] * ru[j]
	}
	for j := v; j < r.n; j++ {
		d := ru[j] - rv[j]
		s += d * d
	}
	return s
}

// PseudoInverseDiag returns the diagonal of L† in dst (allocated if nil).
// It panics if dst is non-nil with the wrong length.
func (r *Resistance) PseudoInverseDiag(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, r.n)
	} else if len(dst) != r.n {
		panic(fmt.Sprintf("linalg: len(dst) = %d, want %d", len(dst), r.n))
	}
	raw := r.inverseFactor().RawTriangular()
	c := 1 / (r.alpha * float64(r.n))
	for u := range r.n {
		row := raw.Data[u*raw.Stride+u : u*raw.Stride+r.n]
		dst[u] = floats.Dot(row, row) - c
	}
	return dst
}

// Kirchhoff returns the Kirchhoff index K_f = Σ_{u<v} R_uv = n tr L†
// (spec throttlers.md §2).
func (r *Resistance) Kirchhoff() float64 {
	if r.n == 1 {
		return 0
	}
	d := r.PseudoInverseDiag(nil)
	return float64(r.n) * floats.Sum(d)
}

// PseudoInverse returns L† = A⁻¹ − J/(α n), with A⁻¹ = V Vᵀ formed from
// the inverse factor by LAPACK's Dlauum (n³/3 flops beyond those of V).
func (r *Resistance) PseudoInverse() *mat.SymDense {
	p := mat.NewSymDense(r.n, nil)
	r.PseudoInverseTo(p)
	return p
}

// PseudoInverseTo stores L† in dst, which must be n×n (a zero-sized
// SymDense is resized), so that repeated calls allocate nothing. It
// panics if dst has another size.
func (r *Resistance) PseudoInverseTo(dst *mat.SymDense) {
	out := r.reuse(dst)
	raw := r.inverseFactor().RawTriangular()
	for i := range r.n {
		copy(out.Data[i*out.Stride+i:i*out.Stride+r.n], raw.Data[i*raw.Stride+i:i*raw.Stride+r.n])
	}
	lapack.Implementation{}.Dlauum(blas.Upper, r.n, out.Data, out.Stride)
	c := 1 / (r.alpha * float64(r.n))
	for i := range r.n {
		floats.AddConst(-c, out.Data[i*out.Stride+i:i*out.Stride+r.n])
	}
}

// reuse checks or sizes dst and returns its storage.
func (r *Resistance) reuse(dst *mat.SymDense) blas64.Symmetric {
	if dst.IsEmpty() {
		dst.ReuseAsSym(r.n)
	}
	if n := dst.SymmetricDim(); n != r.n {
		panic(fmt.Sprintf("linalg: destination is %d×%d, want %d×%d", n, n, r.n, r.n))
	}
	return dst.RawSymmetric()
}

// Matrix returns the matrix of all effective resistances,
// R_uv = L†_uu + L†_vv − 2 L†_uv.
func (r *Resistance) Matrix() *mat.SymDense {
	m := mat.NewSymDense(r.n, nil)
	r.MatrixTo(m)
	return m
}

// MatrixTo stores the matrix of effective resistances in dst, with the
// same rules as PseudoInverseTo.
func (r *Resistance) MatrixTo(dst *mat.SymDense) {
	r.PseudoInverseTo(dst)
	raw := dst.RawSymmetric()
	// The diagonal of L† is read row by row just before the row is
	// overwritten, and rows below still hold theirs.
	for i := range r.n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+r.n]
		di := row[i]
		for j := i + 1; j < r.n; j++ {
			row[j] = di + raw.Data[j*raw.Stride+j] - 2*row[j]
		}
		row[i] = 0
	}
}

// PseudoInverse returns the Moore–Penrose pseudoinverse of the Laplacian
// of g, L† = (L + J/n)⁻¹ − J/n (spec throttlers.md §2). It returns an
// error if g is disconnected or empty.
func PseudoInverse(g *Graph) (*mat.SymDense, error) {
	r, err := NewResistance(g)
	if err != nil {
		return nil, err
	}
	return r.PseudoInverse(), nil
}

// EffectiveResistance returns R_uv = (e_u − e_v)ᵀ L† (e_u − e_v) (spec
// eq. (2)) with one factorisation and one solve. For many queries on one
// graph, use NewResistance. It returns an error for a disconnected graph
// or a node out of range.
func EffectiveResistance(g *Graph, u, v int) (float64, error) {
	if err := g.checkNode("u", u); err != nil {
		return math.NaN(), err
	}
	if err := g.checkNode("v", v); err != nil {
		return math.NaN(), err
	}
	r, err := NewResistance(g)
	if err != nil {
		return math.NaN(), err
	}
	if u == v {
		return 0, nil
	}
	b := mat.NewVecDense(r.n, nil)
	b.SetVec(u, 1)
	b.SetVec(v, -1)
	var x mat.VecDense
	if err := r.chol.SolveVecTo(&x, b); err != nil {
		var c mat.Condition
		if !errors.As(err, &c) {
			return math.NaN(), err
		}
	}
	return x.AtVec(u) - x.AtVec(v), nil
}

// ResistanceMatrix returns all effective resistances of g. It returns an
// error if g is disconnected or empty.
func ResistanceMatrix(g *Graph) (*mat.SymDense, error) {
	r, err := NewResistance(g)
	if err != nil {
		return nil, err
	}
	return r.Matrix(), nil
}

// KirchhoffIndex returns K_f(g) = Σ_{u<v} R_uv = n Σ_{i≥2} 1/λ_i (spec
// throttlers.md §2), from one Cholesky and one triangular inverse
// (2n³/3 flops) rather than an eigendecomposition. It returns an error if
// g is disconnected or empty.
func KirchhoffIndex(g *Graph) (float64, error) {
	r, err := NewResistance(g)
	if err != nil {
		return math.NaN(), err
	}
	return r.Kirchhoff(), nil
}
