package spectral

import (
	"errors"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Spectrum returns the eigenvalues of the Laplacian of g in ascending
// order, 0 = λ₁ ≤ λ₂ ≤ … ≤ λ_n (spec throttlers.md §2 (1)). The
// smallest is rounded and may be a tiny negative number. Its cost is that
// of a dense symmetric eigenvalue decomposition without vectors, O(n³).
// The eigensolver works on L/s, s the power of two nearest the largest
// weighted degree, and the eigenvalues are scaled back: the scaling is
// exact, and it keeps LAPACK's internal scaling in range for every
// weight in [wgraph.MinWeight, wgraph.MaxWeight] (gonum's own rescaling
// panics when every entry is below about 1e-122; see SymEigen).
// It returns an error wrapping loadlab.ErrInvalid for a graph with no
// nodes and one wrapping loadlab.ErrNotConverged if the eigensolver
// fails. It panics if g is nil.
func Spectrum(g *wgraph.Graph) ([]float64, error) {
	if g == nil {
		panic("spectral: Spectrum: nil graph g")
	}
	if g.Order() == 0 {
		return nil, loadlab.Invalid("spectral", "Spectrum of a graph with no nodes")
	}
	if err := size.CheckDense("spectral", "Spectrum", g.Order(), 2); err != nil {
		return nil, err
	}
	l, s := scaledLaplacian(g)
	var es mat.EigenSym
	if !es.Factorize(l, false) {
		return nil, errEigen
	}
	ev := es.Values(nil)
	for i := range ev {
		ev[i] *= s
	}
	return ev, nil
}

// errEigen is the error of a failed dense symmetric eigendecomposition.
var errEigen = loadlab.Wrap(loadlab.ErrNotConverged, "spectral", "symmetric eigendecomposition did not converge")

// scaledLaplacian returns L/s and s, a power of two within a factor 2 of
// the largest weighted degree (1 for a graph without edges), so that the
// entries of L/s lie in [−1, 1] and the largest is at least 1/2.
// Multiplying by a power of two is exact unless a result is subnormal,
// which the weight bounds rule out for every graph of a size a dense
// matrix can hold.
func scaledLaplacian(g *wgraph.Graph) (*mat.SymDense, float64) {
	l := denseLaplacian(g)
	var dmax float64
	for u := range g.Order() {
		dmax = math.Max(dmax, l.At(u, u))
	}
	if dmax == 0 {
		return l, 1
	}
	_, e := math.Frexp(dmax) // dmax = f·2^e, f ∈ [1/2, 1)
	s := math.Ldexp(1, e)
	raw := l.RawSymmetric()
	for i := range raw.N {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+raw.N]
		for j := range row {
			row[j] /= s
		}
	}
	return l, s
}

// AlgebraicConnectivity returns λ₂, the second-smallest Laplacian
// eigenvalue, and a unit Fiedler vector (an eigenvector for λ₂,
// orthogonal to the constants). It needs at least two nodes. A
// disconnected graph is not an error here: it has λ₂ = 0 (to rounding),
// which is the point of the measure.
//
// The eigenvalues come from a dense symmetric eigensolver without
// vectors, and the vector from a few steps of inverse iteration with one
// LU factorisation of L − σI, σ just below λ₂: about a third of the cost
// of a full eigendecomposition with vectors. If the iteration does not
// reach a residual ‖L f − λ₂ f‖ of a few ulps of ‖L‖, the full
// decomposition is used instead.
//
// Like Spectrum it works on L/s and scales λ₂ back. That is the dense
// path, up to DenseMaxNodes nodes. Above, the vector f starts from the
// Lanczos vector of Lambda2Bracket and is refined by steps of L†
// (Laplacian solves), and λ₂ is its Rayleigh quotient θ, certified to
// 1e-12 relative by the Kato–Temple inequality θ − ρ²/(b − θ) ≤ λ₂ ≤ θ
// (ρ the residual of f, b ≤ λ₃ from a Lanczos bound on L† compressed to
// the complement of f; the bound on b fails with probability at most
// 1e-10, as a bracket's lower end does). A λ₂ that is multiple or nearly
// so (a square torus) cannot be separated from λ₃ that way: that is an
// error wrapping loadlab.ErrNotConverged, and Lambda2Bracket gives its
// value. A disconnected graph gives λ₂ = 0 exactly with the centred
// indicator of a component. It returns an error wrapping
// loadlab.ErrInvalid for fewer than 2 nodes, and one wrapping
// loadlab.ErrNotConverged if an eigensolver fails. It panics if g is
// nil.
func AlgebraicConnectivity(g *wgraph.Graph) (float64, *mat.VecDense, error) {
	if g == nil {
		panic("spectral: AlgebraicConnectivity: nil graph g")
	}
	n := g.Order()
	if n < 2 {
		return 0, nil, loadlab.Invalid("spectral", "AlgebraicConnectivity needs at least 2 nodes, graph has %d", n)
	}
	if n > DenseMaxNodes {
		return algebraicConnectivitySparse(g)
	}
	if err := size.CheckDense("spectral", "AlgebraicConnectivity", n, 3); err != nil {
		return 0, nil, err
	}
	l, s := scaledLaplacian(g)
	var es mat.EigenSym
	if !es.Factorize(l, false) {
		return 0, nil, errEigen
	}
	vals := es.Values(nil)
	l2 := vals[1]
	if f := fiedler(l, l2, vals[n-1]); f != nil {
		return l2 * s, f, nil
	}
	if !es.Factorize(l, true) {
		return 0, nil, errEigen
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	return es.Values(nil)[1] * s, mat.VecDenseCopyOf(vecs.ColView(1)), nil
}

// fiedler returns a unit eigenvector of L for λ₂ orthogonal to the
// constants, by inverse iteration, or nil if the residual test fails.
func fiedler(l *mat.SymDense, l2, lmax float64) *mat.VecDense {
	n := l.SymmetricDim()
	// A backward-stable eigensolver gives λ₂ to about n·ε·‖L‖; shifting
	// by more than that keeps L − σI non-singular while the convergence
	// factor |λ₂ − σ| / |λ₃ − σ| stays tiny unless λ₃ ≈ λ₂, in which case
	// any vector of the eigenspace will do.
	norm := math.Max(lmax, math.SmallestNonzeroFloat64)
	sigma := l2 - 16*float64(n)*eps64*norm
	a := mat.NewDense(n, n, nil)
	a.Copy(l)
	for i := range n {
		a.Set(i, i, a.At(i, i)-sigma)
	}
	var lu mat.LU
	lu.Factorize(a)
	// Start from a deterministic vector with no symmetry: a path's or
	// cycle's Fiedler vector is not orthogonal to it.
	x := mat.NewVecDense(n, nil)
	for i := range n {
		x.SetVec(i, math.Sin(float64(i)+0.5))
	}
	tol := 64 * float64(n) * eps64 * norm
	lx := mat.NewVecDense(n, nil)
	for range 4 {
		dense.Center(x.RawVector().Data)
		if nx := mat.Norm(x, 2); nx > 0 && !math.IsInf(nx, 0) {
			x.ScaleVec(1/nx, x)
		} else {
			return nil
		}
		lx.MulVec(l, x)
		var r float64
		for i, v := range x.RawVector().Data {
			d := lx.AtVec(i) - l2*v
			r += d * d
		}
		if math.Sqrt(r) <= tol {
			return x
		}
		if err := lu.SolveVecTo(x, false, x); err != nil {
			var c mat.Condition
			if !errors.As(err, &c) { // near-singularity is the point here
				return nil
			}
		}
	}
	return nil
}

// eps64 is the float64 machine epsilon.
const eps64 = 0x1p-52

// denseLaplacian returns the dense Laplacian of g, whose size the caller
// has checked (so Laplacian cannot fail).
func denseLaplacian(g *wgraph.Graph) *mat.SymDense {
	l, err := g.Laplacian()
	if err != nil {
		panic(err)
	}
	return l
}
