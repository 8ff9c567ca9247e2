package linalg

import (
	"math"

	"github.com/loadlab/loadlab"
)

// pcgWork is the workspace of a LaplacianSolver: the conjugate-gradient
// vectors and the per-block partial sums of the parallel kernels. Every
// kernel runs through one prebuilt rangeFunc, so a solve allocates
// nothing.
type pcgWork struct {
	s             *LaplacianSolver
	n, nb         int
	x, b, r, z, p []float64
	q             []float64
	rhs, sol      []float64 // scratch of Resistance, allocated on first use
	part          []float64
	kind          kernel
	useAC         bool // precondition with the factor (else Jacobi)
	alpha         float64
	fn            rangeFunc
}

// kernel names the vector operation a parallel call performs per block;
// each returns a partial sum for its block.
type kernel int

const (
	kMatDot   kernel = iota // q = L p; Σ p·q
	kUpdate                 // x += α p; r −= α q; Σ r·r
	kResidual               // q = L x; r = b − q; Σ r·r
	kJacobi                 // z = r/d; Σ z
	kShift                  // z −= α; Σ r·z
	kDirect                 // p = z + α p
	kSum                    // Σ b
	kCenter                 // b −= α; Σ b·b
)

func (w *pcgWork) init(s *LaplacianSolver) {
	n := s.op.n
	w.s, w.n, w.nb = s, n, numBlocks(n)
	w.b, w.r, w.z, w.p, w.q = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	w.part = make([]float64, w.nb)
	w.fn = func(lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			r0, r1 := blockRows(blk, w.n)
			w.part[blk] = w.block(r0, r1)
		}
	}
}

// block runs the current kernel on rows [lo, hi).
func (w *pcgWork) block(lo, hi int) float64 {
	var s float64
	a := w.alpha
	x, b, r, z, p, q := w.x[lo:hi], w.b[lo:hi], w.r[lo:hi], w.z[lo:hi], w.p[lo:hi], w.q[lo:hi]
	switch w.kind {
	case kMatDot:
		return w.s.op.rows(w.q, w.p, w.p, 0, lo, hi)
	case kUpdate:
		for u := range x {
			x[u] += a * p[u]
			r[u] -= a * q[u]
			s += r[u] * r[u]
		}
	case kResidual:
		w.s.op.rows(w.q, w.x, nil, 0, lo, hi)
		for u := range r {
			r[u] = b[u] - q[u]
			s += r[u] * r[u]
		}
	case kJacobi:
		inv := w.s.inv[lo:hi]
		for u := range z {
			z[u] = r[u] * inv[u]
			s += z[u]
		}
	case kShift:
		for u := range z {
			z[u] -= a
			s += r[u] * z[u]
		}
	case kDirect:
		for u := range p {
			p[u] = z[u] + a*p[u]
		}
	case kSum:
		for _, v := range b {
			s += v
		}
	case kCenter:
		for u := range b {
			b[u] -= a
			s += b[u] * b[u]
		}
	}
	return s
}

// run performs kernel k with parameter a over all rows and returns the
// sum of its block partials, added in block order.
func (w *pcgWork) run(k kernel, a float64) float64 {
	w.kind, w.alpha = k, a
	parallelBlocks(w.nb, w.fn)
	var s float64
	for _, x := range w.part {
		s += x
	}
	return s
}

// precondition sets z = M r with M the preconditioner followed by the
// projection onto 1⊥, and returns r·z.
func (w *pcgWork) precondition() float64 {
	var sum float64
	if w.useAC {
		copy(w.z, w.r)
		w.s.ac.solve(w.z)
		sum = w.sumOf(w.z)
	} else {
		sum = w.run(kJacobi, 0)
	}
	return w.run(kShift, sum/float64(w.n))
}

// sumOf returns Σ v in block order (sequentially; it is cheap beside the
// preconditioner it follows).
func (w *pcgWork) sumOf(v []float64) float64 {
	var s float64
	for blk := range w.nb {
		r0, r1 := blockRows(blk, w.n)
		var t float64
		for _, x := range v[r0:r1] {
			t += x
		}
		s += t
	}
	return s
}

// maxRestarts bounds the restarts from the true residual when the
// recurrence has drifted from it.
const maxRestarts = 3

// pcg solves L x = b into dst (see LaplacianSolver.Solve), switching
// preconditioners as Settings.Preconditioner says.
func (w *pcgWork) pcg(dst, b []float64) (SolveResult, error) {
	copy(w.b, b)
	w.x = dst
	bnorm := math.Sqrt(w.run(kCenter, w.run(kSum, 0)/float64(w.n)))
	clear(w.x)
	if bnorm == 0 {
		return SolveResult{Status: loadlab.Success}, nil
	}
	set := w.s.set
	tol := set.Tol * bnorm
	var done SolveResult
	if w.s.ac == nil {
		budget := set.MaxIter
		if set.Preconditioner == Auto {
			budget = min(budget, AutoJacobiIters)
		}
		w.useAC = false
		copy(w.r, w.b) // x = 0
		done = w.iterate(tol, budget)
		if done.Status == loadlab.Success || set.Preconditioner == Jacobi || done.Iterations == set.MaxIter {
			return w.finish(done, bnorm), nil
		}
		if err := w.s.factor(); err != nil {
			return done, err
		}
		w.run(kResidual, 0)
	} else {
		copy(w.r, w.b)
	}
	w.useAC = true
	res := w.iterate(tol, set.MaxIter-done.Iterations)
	res.Iterations += done.Iterations
	return w.finish(res, bnorm), nil
}

// iterate runs preconditioned conjugate gradients from the current x,
// whose residual b − L x the caller has put in r, for at most maxIter
// iterations, until ‖b − L x‖ ≤ tol. On Success, x is projected onto 1⊥
// and Residual holds its true residual norm.
func (w *pcgWork) iterate(tol float64, maxIter int) SolveResult {
	res := SolveResult{Status: loadlab.IterationLimit, Residual: math.NaN()}
	rz := w.restart()
	restarts := 0
	for res.Iterations < maxIter {
		res.Iterations++
		pq := w.run(kMatDot, 0)
		if !(pq > 0) || !(rz > 0) {
			res.Status = loadlab.Stagnated
			break
		}
		if rr := w.run(kUpdate, rz/pq); math.Sqrt(rr) > tol {
			rzNew := w.precondition()
			w.run(kDirect, rzNew/rz)
			rz = rzNew
			continue
		}
		// The recurrence says converged: check the true residual.
		if rr := w.projectResidual(); rr <= tol {
			res.Status, res.Residual = loadlab.Success, rr
			break
		}
		if restarts++; restarts > maxRestarts {
			res.Status = loadlab.Stagnated
			break
		}
		rz = w.restart()
	}
	return res
}

// restart sets z = M r, p = z and returns r·z.
func (w *pcgWork) restart() float64 {
	rz := w.precondition()
	copy(w.p, w.z)
	return rz
}

// projectResidual projects x onto 1⊥, recomputes r = b − L x and returns
// ‖r‖.
func (w *pcgWork) projectResidual() float64 {
	mean := w.sumOf(w.x) / float64(w.n)
	for u := range w.x {
		w.x[u] -= mean
	}
	return math.Sqrt(w.run(kResidual, 0))
}

// finish sets the relative residual of res, projecting x and computing
// its residual unless the last check did.
func (w *pcgWork) finish(res SolveResult, bnorm float64) SolveResult {
	if math.IsNaN(res.Residual) {
		res.Residual = w.projectResidual()
	}
	res.Residual /= bnorm
	return res
}
