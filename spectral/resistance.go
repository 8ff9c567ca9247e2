package spectral

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
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
//
// On sparse graphs NewResistance takes the sparse path instead (Path
// reports which ran): a sparse Cholesky factorisation of the grounded
// Laplacian and its selected inverse (package cholesky; spec
// sparse-cholesky.md §5), at about the factor's flops.
type Resistance struct {
	n     int
	alpha float64
	f     dense.SPDFactor
	mu    sync.Mutex // guards the first inversion of f
	g     *wgraph.Graph
	sp    *sparsePinv // non-nil on the sparse path
}

// MaxCondition is the largest 1-norm condition number estimate of
// A = L + αJ/n that NewResistance accepts. Quantities derived from A⁻¹
// have relative error of order κ(A)·ε, so at 1e14 about two digits are
// still right. Unit-weight paths reach κ ≈ 0.4 n², so this allows paths
// of about 10⁷ nodes; weights spanning many orders of magnitude reach it
// sooner.
const MaxCondition = dense.MaxCondition

// NewResistance factors the Laplacian of g: by the sparse path when the
// graph is sparse enough for its predicted cost to beat the dense path's
// (above DenseMaxNodes, whenever the factor fits cholesky's default
// memory and flops limits), else by the dense path up to DenseMaxNodes
// nodes; Path reports which ran. It returns an error if g is
// disconnected or has no nodes, an error wrapping loadlab.ErrTooLarge
// above DenseMaxNodes when the sparse factor does not fit (a large graph
// whose factor fills in, such as an expander: the estimate package
// answers there with intervals), or an error wrapping
// loadlab.ErrIllConditioned if the factored matrix is too ill
// conditioned for its inverse to be trusted (not numerically positive
// definite, or a condition estimate above MaxCondition). The dense cost
// is one Cholesky, n³/3 flops, and an O(n²) condition estimate; the
// sparse cost is reported by Report. It panics if g is nil.
func NewResistance(g *wgraph.Graph) (*Resistance, error) {
	return newResistance(g, sparseSettings, "NewResistance", "the estimate package")
}

// NewResistanceWith is NewResistance with the sparse path's ordering and
// limits given by set (nil: cholesky's defaults, as NewResistance): a
// caller with the memory and the time raises Settings.MaxFlops for a
// factor beyond DefaultMaxFlops — the 3163 × 3163 torus (10⁷ nodes)
// predicts about 8·10¹¹ flops (spec sparse-cholesky.md §3.1). It returns
// NewResistance's errors, and one wrapping loadlab.ErrInvalid naming a
// bad field of set. It panics if g is nil.
func NewResistanceWith(g *wgraph.Graph, set *cholesky.Settings) (*Resistance, error) {
	if g == nil {
		panic("spectral: NewResistanceWith: nil graph g")
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	return newResistance(g, set, "NewResistanceWith", "the estimate package")
}

// newResistance is NewResistance with the sparse limits set, fn naming
// the caller and instead the estimator its ErrTooLarge names.
func newResistance(g *wgraph.Graph, set *cholesky.Settings, fn, instead string) (*Resistance, error) {
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, err
	}
	ga, aerr := choosePath(g, set)
	if ga != nil {
		sp, err := newSparsePinv(ga)
		if err != nil {
			return nil, err
		}
		return &Resistance{n: g.Order(), g: g, sp: sp}, nil
	}
	if n := g.Order(); n > DenseMaxNodes {
		return nil, loadlab.TooLarge("spectral", "%s: n = %d nodes > DenseMaxNodes = %d (the dense O(n³) path) and the sparse path is refused (%v); %s estimates with 95 %% intervals", fn, n, DenseMaxNodes, aerr, instead)
	}
	return newDenseResistance(g)
}

// newDenseResistance is NewResistance's dense path.
func newDenseResistance(g *wgraph.Graph) (*Resistance, error) {
	if err := size.CheckDense("spectral", "NewResistance", g.Order(), 2); err != nil {
		return nil, err
	}
	a, alpha := liftedLaplacian(g)
	r := &Resistance{n: g.Order(), alpha: alpha, g: g}
	if err := r.f.FactorizeChecked(a, "L + αJ/n"); err != nil {
		return nil, err
	}
	return r, nil
}

// LiftedLaplacian returns A = L + (α/n) J for the Laplacian L of g and
// α, the mean weighted degree (spec throttlers.md §12.7). It returns an
// error wrapping loadlab.ErrTooLarge, naming n, if the dense n×n matrix
// would exceed the memory budget. It panics if g is nil.
func LiftedLaplacian(g *wgraph.Graph) (*mat.SymDense, float64, error) {
	if g == nil {
		panic("spectral: LiftedLaplacian: nil graph g")
	}
	if err := size.CheckDense("spectral", "LiftedLaplacian", g.Order(), 1); err != nil {
		return nil, 0, err
	}
	a, alpha := liftedLaplacian(g)
	return a, alpha, nil
}

// liftedLaplacian is LiftedLaplacian after the size check.
func liftedLaplacian(g *wgraph.Graph) (*mat.SymDense, float64) {
	l := denseLaplacian(g)
	return l, dense.Lift(l, l)
}

// Order returns the number of nodes.
func (r *Resistance) Order() int { return r.n }

// inverseFactor returns the row-major storage of V = U⁻¹ (upper
// triangle), computing it once (n³/3 flops, nearly all in Gemm).
func (r *Resistance) inverseFactor() []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Invert()
	return r.f.U
}

func (r *Resistance) check(u, v int) error {
	if u < 0 || u >= r.n {
		return fmt.Errorf("spectral: node u = %d out of range [0, %d)", u, r.n)
	}
	if v < 0 || v >= r.n {
		return fmt.Errorf("spectral: node v = %d out of range [0, %d)", v, r.n)
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
	if r.sp != nil {
		return r.sp.between(u, v)
	}
	vd := r.inverseFactor()
	// Rows of upper-triangular V: row u is zero before column u.
	if u > v {
		u, v = v, u
	}
	ru := vd[u*r.n : (u+1)*r.n]
	rv := vd[v*r.n : (v+1)*r.n]
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
		panic(fmt.Sprintf("spectral: len(dst) = %d, want %d", len(dst), r.n))
	}
	if r.sp != nil {
		r.sp.pinvDiag(dst)
		return dst
	}
	r.inverseFactor()
	r.f.InverseDiag(dst)
	c := 1 / (r.alpha * float64(r.n))
	for u := range dst {
		dst[u] -= c
	}
	return dst
}

// Kirchhoff returns the Kirchhoff index K_f = Σ_{u<v} R_uv = n tr L†
// (spec throttlers.md §2), with tr L† a compensated sum.
func (r *Resistance) Kirchhoff() float64 {
	if r.n == 1 {
		return 0
	}
	if r.sp != nil {
		return r.sp.kirchhoff()
	}
	return float64(r.n) * dense.Sum(r.PseudoInverseDiag(nil))
}

// PseudoInverse returns L† = A⁻¹ − J/(α n), with A⁻¹ = V Vᵀ formed from
// the inverse factor by LAPACK's Dlauum (n³/3 flops beyond those of V);
// on the sparse path, column by column from n solves with the factor.
func (r *Resistance) PseudoInverse() *mat.SymDense {
	p := mat.NewSymDense(r.n, nil)
	r.PseudoInverseTo(p)
	return p
}

// PseudoInverseTo stores L† in dst, which must be n×n (a zero-sized
// SymDense is resized), so that repeated calls allocate nothing. It
// panics if dst is nil or has another size.
func (r *Resistance) PseudoInverseTo(dst *mat.SymDense) {
	out := r.reuse(dst)
	if r.sp != nil {
		for j := range r.n {
			r.sp.column(out.Data[j*out.Stride:j*out.Stride+r.n], j)
		}
		return
	}
	r.inverseFactor()
	r.f.InverseTo(dst)
	c := 1 / (r.alpha * float64(r.n))
	for i := range r.n {
		floats.AddConst(-c, out.Data[i*out.Stride+i:i*out.Stride+r.n])
	}
}

// reuse checks or sizes dst and returns its storage.
func (r *Resistance) reuse(dst *mat.SymDense) blas64.Symmetric {
	if dst == nil {
		panic("spectral: nil destination dst")
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(r.n)
	}
	if n := dst.SymmetricDim(); n != r.n {
		panic(fmt.Sprintf("spectral: destination is %d×%d, want %d×%d", n, n, r.n, r.n))
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
func PseudoInverse(g *wgraph.Graph) (*mat.SymDense, error) {
	if g == nil {
		panic("spectral: PseudoInverse: nil graph g")
	}
	// The answer is n×n whichever path factors L.
	if err := size.CheckDense("spectral", "PseudoInverse", g.Order(), 1); err != nil {
		return nil, err
	}
	r, err := NewResistance(g)
	if err != nil {
		return nil, err
	}
	return r.PseudoInverse(), nil
}

// EffectiveResistance returns R_uv = (e_u − e_v)ᵀ L† (e_u − e_v) (spec
// throttlers.md §2 eq. (2)) to near working precision: up to
// DenseMaxNodes nodes with one factorisation and one solve (for many
// queries on one graph, use NewResistance); above, on graphs whose
// sparse Cholesky factor fits, with one sparse factorisation of the
// grounded Laplacian and one solve; else by one preconditioned
// Laplacian solve to a
// relative residual of 1e-12 and the second-order quadratic form
// 2bᵀx − xᵀLx, whose relative error is at most 1e-24 κ(L) (spec
// throttlers.md §12.9). It returns an error for a disconnected graph or a
// node out of range, and one wrapping loadlab.ErrNotConverged when the
// solve stops short. It panics if g is nil.
func EffectiveResistance(g *wgraph.Graph, u, v int) (float64, error) {
	if g == nil {
		panic("spectral: EffectiveResistance: nil graph g")
	}
	for _, x := range [...]struct {
		name string
		u    int
	}{{"u", u}, {"v", v}} {
		if x.u < 0 || x.u >= g.Order() {
			return math.NaN(), loadlab.Invalid("spectral", "EffectiveResistance: node %s = %d out of range [0, %d)", x.name, x.u, g.Order())
		}
	}
	if g.Order() > DenseMaxNodes {
		if err := wgraph.CheckConnected(g); err != nil {
			return math.NaN(), err
		}
		if ga, _ := choosePath(g, sparseSettings); ga != nil {
			sp, err := newSparsePinv(ga)
			if err != nil {
				return math.NaN(), err
			}
			return sp.solveBetween(u, v), nil
		}
		return resistanceSparse(g, u, v)
	}
	r, err := NewResistance(g)
	if err != nil {
		return math.NaN(), err
	}
	if u == v {
		return 0, nil
	}
	if r.sp != nil {
		return r.sp.solveBetween(u, v), nil
	}
	x := make([]float64, r.n)
	x[u], x[v] = 1, -1
	r.f.SolveVec(x, x)
	return x[u] - x[v], nil
}

// resistSolveTol is the relative residual of EffectiveResistance's solve
// above DenseMaxNodes.
const resistSolveTol = 1e-12

// resistanceSparse is EffectiveResistance above DenseMaxNodes: one
// Laplacian solve of L x = b, b = e_u − e_v, to relative residual δ =
// resistSolveTol, and R = 2bᵀx − xᵀLx. With r = b − Lx, bᵀL†b =
// 2bᵀx − xᵀLx + rᵀL†r exactly, so the error is rᵀL†r ≤ ‖r‖²/λ₂ ≤
// 2δ²/λ₂, against R ≥ 2/λ_n: a relative error of at most δ²κ(L), below
// an ulp unless κ(L) exceeds 10⁸.
func resistanceSparse(g *wgraph.Graph, u, v int) (float64, error) {
	s, err := laplacian.NewSolver(g, &laplacian.Settings{Tol: resistSolveTol}, rand.NewPCG(1, 2))
	if err != nil {
		return math.NaN(), err
	}
	if u == v {
		return 0, nil
	}
	n := g.Order()
	b, x, lx := make([]float64, n), make([]float64, n), make([]float64, n)
	b[u], b[v] = 1, -1
	if _, err := s.Solve(x, b); err != nil {
		return math.NaN(), err
	}
	s.Operator().Apply(lx, x)
	return 2*(x[u]-x[v]) - dense.Dot(x, lx), nil
}

// ResistanceMatrix returns all effective resistances of g. It returns an
// error if g is disconnected or empty.
func ResistanceMatrix(g *wgraph.Graph) (*mat.SymDense, error) {
	if g == nil {
		panic("spectral: ResistanceMatrix: nil graph g")
	}
	// The answer is n×n whichever path factors L.
	if err := size.CheckDense("spectral", "ResistanceMatrix", g.Order(), 1); err != nil {
		return nil, err
	}
	r, err := NewResistance(g)
	if err != nil {
		return nil, err
	}
	return r.Matrix(), nil
}

// KirchhoffIndex returns K_f(g) = Σ_{u<v} R_uv = n Σ_{i≥2} 1/λ_i (spec
// throttlers.md §2), exact to rounding, rather than from an
// eigendecomposition: on sparse graphs by the sparse path (a sparse
// Cholesky factorisation of the grounded Laplacian and its selected
// inverse, at any size where the factor fits cholesky's default memory
// and flops limits), else by the dense path (one Cholesky and one
// triangular inverse, 2n³/3 flops) up to DenseMaxNodes nodes;
// NewResistance(g).Path() tells which. It returns an error if g is
// disconnected or empty, one wrapping loadlab.ErrIllConditioned if the
// factored matrix is too ill conditioned, and one wrapping
// loadlab.ErrTooLarge when neither path applies (a large graph whose
// factor fills in, such as an expander): estimate.Kirchhoff estimates
// K_f with a 95 % interval in about O(m) per probe. It panics if g is
// nil.
func KirchhoffIndex(g *wgraph.Graph) (float64, error) {
	if g == nil {
		panic("spectral: KirchhoffIndex: nil graph g")
	}
	r, err := newResistance(g, sparseSettings, "KirchhoffIndex", "estimate.Kirchhoff")
	if err != nil {
		return math.NaN(), err
	}
	return r.Kirchhoff(), nil
}

// DenseMaxNodes is the largest order at which the functions that return a
// bare number by dense O(n³) work (KirchhoffIndex, consensus.Rho and
// consensus.NodalRho) run it; above, they return an error wrapping
// loadlab.ErrTooLarge that names the way on, and AlgebraicConnectivity
// and EffectiveResistance switch to certified sparse methods (spec
// throttlers.md §12.9, "Exact names stay exact"). At 2048 nodes a dense
// factor-and-invert pass (2n³/3 ≈ 5.7·10⁹ flops, 32 MB per matrix) takes
// a fraction of a second; its cost grows as n³, eightfold per doubling.
const DenseMaxNodes = 2048

// Apply writes L† b into dst (allocated if nil; dst and b may be the same
// slice) and returns it. b need not be orthogonal to 1: L† b = L† P b with
// P = I − J/n. On the sparse path it costs one solve with the factor of
// the grounded Laplacian, L† P b = P X̂ P b (spec sparse-cholesky.md §5);
// on the dense path two triangular solves with the factor of
// A = L + αJ/n, since A⁻¹ P b = L† P b. It allocates nothing beyond dst on
// the dense path and one vector of n on the sparse one; ApplyTo takes
// the caller's workspace and allocates nothing on either. It panics if
// len(b) or a non-nil dst's length is not the order.
func (r *Resistance) Apply(dst, b []float64) []float64 {
	if len(b) != r.n || (dst != nil && len(dst) != r.n) {
		panic(fmt.Sprintf("spectral: Resistance.Apply: len(b) = %d, len(dst) = %d, want %d", len(b), len(dst), r.n))
	}
	if dst == nil {
		dst = make([]float64, r.n)
	}
	var work []float64
	if r.sp != nil {
		work = make([]float64, r.n)
	}
	r.apply(dst, b, work)
	return dst
}

// ApplyTo writes L† b into dst, as Apply, with work (at least n values)
// as scratch, and allocates nothing, so that a loop of solves with one
// factorisation reuses its vectors. dst may be b; work must share no
// element with either. Its result is Apply's, bit for bit. Concurrent
// calls are safe when each has its own dst and work. It panics if len(b)
// or len(dst) is not the order or work is shorter than it.
func (r *Resistance) ApplyTo(dst, b, work []float64) {
	if len(b) != r.n || len(dst) != r.n || len(work) < r.n {
		panic(fmt.Sprintf("spectral: Resistance.ApplyTo: len(b) = %d, len(dst) = %d, len(work) = %d, want %d, %d and ≥ %d", len(b), len(dst), len(work), r.n, r.n, r.n))
	}
	r.apply(dst, b, work)
}

// apply is Apply after the checks; work (n values) is used on the sparse
// path only.
func (r *Resistance) apply(dst, b, work []float64) {
	mean := dense.Sum(b) / float64(r.n)
	if r.sp != nil {
		r.sp.apply(dst, b, mean, work)
	} else {
		for i, v := range b {
			dst[i] = v - mean
		}
		r.f.SolveVec(dst, dst)
	}
	c := dense.Sum(dst) / float64(r.n)
	for i := range dst {
		dst[i] -= c
	}
}
