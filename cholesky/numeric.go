package cholesky

import (
	"math"
	"sync"

	"github.com/loadlab/loadlab"
	lapackgo "gonum.org/v1/gonum/lapack/gonum"
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
// pattern s was built from (left-looking, column by column, O(flops)
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
	f := &Factor{sym: s, lx: make([]float64, s.lp[s.n])}
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

// numeric is the left-looking factorisation: column j gathers A's column
// j, subtracts L_jk times column k's rows ≥ j for every k on row j's
// subtree, and scales by the pivot. next[k] points at the first entry of
// column k not yet used, which is row j when k is on row j's subtree
// because a column's ancestors are visited in ascending order (spec
// sparse-cholesky.md §3). Independent subtrees run side by side. It
// returns the first failing pivot and false if a pivot is not positive.
func (f *Factor) numeric(val []float64) (int, bool) {
	s := f.sym
	n := s.n
	next := make([]int, n)
	var mu sync.Mutex
	bad := n
	newWork := func() any { return &colWork{x: make([]float64, n), mark: make([]int, n)} }
	s.tree.run(n, false, newWork, func(j int, w any) {
		if !f.column(j, val, next, w.(*colWork)) {
			mu.Lock()
			bad = min(bad, j)
			mu.Unlock()
		}
	})
	return bad, bad == n
}

// colWork is one goroutine's workspace of the factorisation: the dense
// column x (zero between columns) and the subtree marks.
type colWork struct {
	x    []float64
	mark []int
}

// column computes column j of L; it reports false for a pivot that is
// not positive (the column is then left zero, and so are those after it
// that depend on it, harmlessly: the factorisation is refused).
func (f *Factor) column(j int, val []float64, next []int, w *colWork) bool {
	s := f.sym
	lp, li, lx, x, mark := s.lp, s.li, f.lx, w.x, w.mark
	for p := s.lowp[j]; p < s.lowp[j+1]; p++ {
		x[s.lowi[p]] = val[s.src[p]]
	}
	mark[j] = j + 1
	for p := s.upp[j]; p < s.upp[j+1]; p++ {
		for k := s.upi[p]; mark[k] != j+1; k = s.parent[k] {
			mark[k] = j + 1
			q := next[k]
			ljk := lx[q]
			for ; q < lp[k+1]; q++ {
				x[li[q]] -= lx[q] * ljk
			}
			next[k]++
		}
	}
	d := x[j]
	ok := d > 0 && !math.IsInf(d, 1)
	if ok {
		d = math.Sqrt(d)
	}
	x[j] = 0
	for p := lp[j] + 1; p < lp[j+1]; p++ {
		i := li[p]
		if ok {
			lx[p] = x[i] / d
		}
		x[i] = 0
	}
	if ok {
		lx[lp[j]] = d
	} else {
		lx[lp[j]] = math.NaN()
	}
	next[j] = lp[j] + 1
	return ok
}

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
		s += math.Log(f.lx[f.sym.lp[j]])
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
	lp, li, lx := f.sym.lp, f.sym.li, f.lx
	for j := range f.sym.n {
		yj := y[j] / lx[lp[j]]
		y[j] = yj
		for p := lp[j] + 1; p < lp[j+1]; p++ {
			y[li[p]] -= lx[p] * yj
		}
	}
	for j := f.sym.n - 1; j >= 0; j-- {
		yj := y[j]
		for p := lp[j] + 1; p < lp[j+1]; p++ {
			yj -= lx[p] * y[li[p]]
		}
		y[j] = yj / lx[lp[j]]
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
	impl := lapackgo.Implementation{}
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
