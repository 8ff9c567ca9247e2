package cholesky

import (
	"math"
	"slices"
	"sync"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"gonum.org/v1/gonum/blas"
	blasgo "gonum.org/v1/gonum/blas/gonum"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"
)

// The dense kernels of the supernodes: gonum's pure-Go BLAS and LAPACK.
var (
	blasImpl   blasgo.Implementation
	lapackImpl lapackgo.Implementation
)

// MaxCondition is the largest 1-norm condition number estimate of A that
// Factor accepts, as for the module's dense factorisations: quantities
// derived from A⁻¹ have relative error of order κ(A)·ε, so at 1e14 about
// two digits are still right.
const MaxCondition = 1e14

// Factor is the numeric Cholesky factorisation P A Pᵀ = L Lᵀ of a
// symmetric positive definite matrix, with P the symbolic analysis's
// ordering. It is safe for concurrent use once built (Solve allocates its
// own workspace; concurrent SolveTo calls need one workspace each).
type Factor struct {
	sym   *Symbolic
	lx    []float64 // L's values on sym's pattern, diagonal first in each column
	anorm float64   // ‖A‖₁
	cond  float64   // 1-norm condition estimate of A
}

// Factor computes the numeric factorisation of a, which must have the
// pattern s was built from (left-looking, by supernodes, O(flops)
// time; spec sparse-cholesky.md §3). It returns an error wrapping
// loadlab.ErrInvalid if a's pattern differs or its values are not finite
// and symmetric, and one wrapping loadlab.ErrIllConditioned if a pivot is
// not positive (a is not numerically positive definite) or the condition
// estimate of a exceeds MaxCondition. It panics if a is nil.
func (s *Symbolic) Factor(a *Matrix) (*Factor, error) {
	if a == nil {
		panic("cholesky: Factor: nil matrix a")
	}
	if !samePattern(&s.a, a) {
		return nil, loadlab.Invalid("cholesky", "Factor: the matrix's pattern differs from the analysed one (N = %d, %d entries; analysed N = %d, %d entries)", a.N, len(a.Ind), s.n, len(s.a.Ind))
	}
	if err := checkValues("Factor", a); err != nil {
		return nil, err
	}
	f := &Factor{sym: s, lx: make([]float64, s.sn.size)}
	if k, ok := f.numeric(a.Val); !ok {
		return nil, loadlab.Wrap(loadlab.ErrIllConditioned, "cholesky", "Factor: the %d×%d matrix is not numerically positive definite (pivot %d, original row %d, is not positive)", s.n, s.n, k, s.perm[k])
	}
	f.anorm = norm1(a)
	f.cond = f.anorm * f.inverseNorm1()
	if !(f.cond <= MaxCondition) {
		return nil, loadlab.Wrap(loadlab.ErrIllConditioned, "cholesky", "Factor: the %d×%d matrix has condition number ≈ %.3g > MaxCondition = %.0e: results derived from its inverse would be inaccurate", s.n, s.n, f.cond, MaxCondition)
	}
	return f, nil
}

// numeric is the left-looking supernodal factorisation (spec
// sparse-cholesky.md §3.1): each supernode gathers A's columns into its
// panel, subtracts the updates of the supernodes below it, and factors
// its diagonal block and solves for the rows below by dense kernels.
// Independent subtrees run side by side. It returns the first failing
// pivot and false if a pivot is not positive.
func (f *Factor) numeric(val []float64) (int, bool) {
	s := f.sym
	n := s.n
	var mu sync.Mutex
	bad := n
	newWork := func() any {
		return &snWork{pos: make([]int, n), mark: make([]int, n), seen: make([]int, s.sn.count())}
	}
	s.tree.run(s.sn.count(), false, newWork, func(J int, w any) {
		if k, ok := f.supernode(J, val, w.(*snWork)); !ok {
			mu.Lock()
			bad = min(bad, k)
			mu.Unlock()
		}
	})
	return bad, bad == n
}

// snWork is one goroutine's workspace of the factorisation: the
// positions of the current supernode's rows, the marks of the columns
// and supernodes already met below it, the supernodes that update it,
// and the update block.
type snWork struct {
	pos        []int
	mark, seen []int
	desc       []int
	c, neg     []float64 // the update block, solveUT's scratch
}

// supernode computes the panel of supernode J; it reports the first
// failing pivot and false when its diagonal block is not numerically
// positive definite.
func (f *Factor) supernode(J int, val []float64, w *snWork) (int, bool) {
	s := f.sym
	sn := s.sn
	j0, j1 := sn.start[J], sn.start[J+1]
	wd := j1 - j0
	rows := s.li[s.lp[j0]:s.lp[j0+1]]
	ld := len(rows)
	panel := f.lx[sn.base[J]:sn.base[J+1]]
	for a, i := range rows {
		w.pos[i] = a
	}
	for c := range wd {
		for p := s.lowp[j0+c]; p < s.lowp[j0+c+1]; p++ {
			panel[c*ld+w.pos[s.lowi[p]]] = val[s.src[p]]
		}
	}
	for _, K := range f.descendants(J, w) {
		f.update(J, K, panel, w)
	}
	if !lapackImpl.Dpotrf(blas.Upper, wd, panel, ld) {
		for c := range wd {
			if d := panel[c*ld+c]; !(d > 0) {
				return j0 + c, false
			}
		}
		return j0, false
	}
	if ld > wd {
		w.neg = scratch(w.neg, blockedNB*wd)
		solveUT(wd, ld-wd, panel, ld, panel[wd:], ld, w.neg)
	}
	return j1, true
}

// descendants returns the supernodes whose columns have a row in J's
// columns, in a fixed order: the union of the row subtrees of J's
// columns (spec sparse-cholesky.md §2), below J's first column.
func (f *Factor) descendants(J int, w *snWork) []int {
	s := f.sym
	j0, j1 := s.sn.start[J], s.sn.start[J+1]
	w.desc = w.desc[:0]
	for j := j0; j < j1; j++ {
		for p := s.upp[j]; p < s.upp[j+1]; p++ {
			for k := s.upi[p]; k < j0 && w.mark[k] != J+1; k = s.parent[k] {
				w.mark[k] = J + 1
				if K := s.sn.of[k]; w.seen[K] != J+1 {
					w.seen[K] = J + 1
					w.desc = append(w.desc, K)
				}
			}
		}
	}
	return w.desc
}

// update subtracts supernode K's contribution L_{R,K} L_{C,K}ᵀ from J's
// panel, C the rows of K's panel in J's columns and R those rows and the
// rows below them. Small blocks are summed in place; larger ones by one
// matrix product into w.c and a scatter.
func (f *Factor) update(J, K int, panel []float64, w *snWork) {
	s := f.sym
	sn := s.sn
	j0, j1 := sn.start[J], sn.start[J+1]
	ld := s.lp[j0+1] - s.lp[j0]
	k0 := sn.start[K]
	wk := sn.start[K+1] - k0
	krows := s.li[s.lp[k0]:s.lp[k0+1]]
	ldk := len(krows)
	o, _ := slices.BinarySearch(krows, int32(j0))
	m := ldk - o
	p := 0
	for p < m && int(krows[o+p]) < j1 {
		p++
	}
	kp := f.lx[sn.base[K]+o : sn.base[K+1]]
	if m*p*wk <= smallUpdate {
		for c := range p {
			dst := panel[(int(krows[o+c])-j0)*ld:]
			for i := c; i < m; i++ {
				var sum float64
				for k := range wk {
					sum += kp[k*ldk+i] * kp[k*ldk+c]
				}
				dst[w.pos[krows[o+i]]] -= sum
			}
		}
		return
	}
	// The product is formed as its transpose, p × m, reading K's panel
	// in place as both factors.
	w.c = scratch(w.c, m*p)
	ct := w.c
	clear(ct)
	dense.MulAdd(p, m, wk, kp, 1, ldk, kp, ldk, ct, m)
	for c := range p {
		dst, src := panel[(int(krows[o+c])-j0)*ld:], ct[c*m:(c+1)*m]
		for i := c; i < m; i++ {
			dst[w.pos[krows[o+i]]] -= src[i]
		}
	}
}

// smallUpdate is the size m·p·w_K below which an update is summed in
// place rather than by a matrix product: below it the call's overhead
// outweighs the product's speed.
var smallUpdate = 512 // a variable so that tests can force either path

// Report returns the factor's size and cost.
func (f *Factor) Report() Report { return f.sym.rep }

// Symbolic returns the analysis the factor was built on.
func (f *Factor) Symbolic() *Symbolic { return f.sym }

// Cond returns the 1-norm condition number estimate of A (Hager and
// Higham's estimator on solves with the factor: a lower bound on κ₁(A),
// nearly always within a factor of 3 of it).
func (f *Factor) Cond() float64 { return f.cond }

// LogDet returns log det A = 2 Σ_j log L_jj.
func (f *Factor) LogDet() float64 {
	s := 0.0
	for j := range f.sym.n {
		s += math.Log(f.lx[f.sym.sn.xp[j]])
	}
	return 2 * s
}

// Solve solves A x = b into dst (allocated if nil) and returns it; dst
// may be b. It allocates a workspace of N values per call; SolveTo takes
// the caller's and allocates nothing. It panics if b, or a non-nil dst,
// does not have length N.
func (f *Factor) Solve(dst, b []float64) []float64 {
	n := f.sym.n
	if len(b) != n || (dst != nil && len(dst) != n) {
		panic("cholesky: Solve: len(b) or len(dst) differs from the order")
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	f.SolveTo(dst, b, make([]float64, n))
	return dst
}

// SolveTo solves A x = b into dst with work as scratch, and allocates
// nothing: a loop of solves with one factor reuses its vectors. dst may
// be b; work must share no element with either. Its result is Solve's,
// bit for bit (spec sparse-cholesky.md §8). Concurrent calls on one
// factor are safe when each has its own dst and work. It panics if dst or b does not have length N or work
// is shorter than N.
func (f *Factor) SolveTo(dst, b, work []float64) {
	n := f.sym.n
	if len(b) != n || len(dst) != n || len(work) < n {
		panic("cholesky: SolveTo: len(b) or len(dst) differs from the order, or len(work) is below it")
	}
	y := work[:n]
	for k, i := range f.sym.perm {
		y[k] = b[i]
	}
	f.solvePermuted(y)
	for k, i := range f.sym.perm {
		dst[i] = y[k]
	}
}

// solvePermuted solves L Lᵀ y = y in place in the permuted order.
func (f *Factor) solvePermuted(y []float64) {
	lp, li, xp, lx := f.sym.lp, f.sym.li, f.sym.sn.xp, f.lx
	for j := range f.sym.n {
		x := lx[xp[j] : xp[j]+lp[j+1]-lp[j]]
		yj := y[j] / x[0]
		y[j] = yj
		for a, i := range li[lp[j]+1 : lp[j+1]] {
			y[i] -= x[a+1] * yj
		}
	}
	for j := f.sym.n - 1; j >= 0; j-- {
		x := lx[xp[j] : xp[j]+lp[j+1]-lp[j]]
		yj := y[j]
		for a, i := range li[lp[j]+1 : lp[j+1]] {
			yj -= x[a+1] * y[i]
		}
		y[j] = yj / x[0]
	}
}

// norm1 returns ‖A‖₁, the largest absolute column sum.
func norm1(a *Matrix) float64 {
	m := 0.0
	for i := range a.N {
		s := 0.0
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			s += math.Abs(a.Val[p])
		}
		m = max(m, s)
	}
	return m
}

// inverseNorm1 estimates ‖A⁻¹‖₁ by LAPACK's Dlacn2 (Hager's method with
// Higham's refinements) on solves with the factor; A⁻¹ is symmetric, so
// the transposed solves are solves too.
func (f *Factor) inverseNorm1() float64 {
	n := f.sym.n
	if n == 0 {
		return 0
	}
	impl := lapackImpl
	v, x, work := make([]float64, n), make([]float64, n), make([]float64, n)
	isgn := make([]int, n)
	var isave [3]int
	est, kase := 0.0, 0
	for {
		est, kase = impl.Dlacn2(n, v, x, isgn, est, kase, &isave)
		if kase == 0 {
			return est
		}
		f.SolveTo(x, x, work)
	}
}
