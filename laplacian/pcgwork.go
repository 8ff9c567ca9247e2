package laplacian

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lapmat"
)

// pcgWork is the workspace of a Solver: the conjugate-gradient
// vectors, in the solver matrix's internal order, and the per-block
// partial sums of the parallel kernels. Every kernel runs through one
// prebuilt lapmat.RangeFunc, so a solve allocates nothing.
//
// One iteration is three passes over the vectors: the product q = L p
// with p·q; the update x += α p, r −= α q fused with the local
// preconditioner z = D⁻¹ r and the sums r·r, Σ z, r·z, Σ r; and the new
// direction p = (z − μ) + β p, where μ = Σ z / n projects z onto 1⊥
// without a pass of its own (r·(z − μ) = r·z − μ Σ r). When every
// weighted degree is the same (a regular graph with equal weights),
// Jacobi is a multiple of the identity, which leaves the iterates of
// conjugate gradients unchanged, so z is r itself and no division is
// done.
type pcgWork struct {
	s             *Solver
	n, nb         int
	x, b, r, z, p []float64
	q             []float64
	rhs, sol      []float64 // scratch of Resistance, allocated on first use
	part          []pcgSums
	kind          kernel
	useAC         bool      // precondition with the factor (else Jacobi)
	inv           []float64 // 1/weighted degree; nil when they are all equal
	alpha, beta   float64
	mu            float64
	fn            lapmat.RangeFunc
}

// pcgSums holds the partial sums of one block: r·r, Σ z, r·z, Σ r after
// an update; the kernel's single sum in element 0 otherwise.
type pcgSums [4]float64

// kernel names the vector operation a parallel call performs per block.
type kernel int

const (
	kMatDot   kernel = iota // q = L p; Σ p·q
	kUpdate                 // x += α p; r −= α q; z = D⁻¹ r (Jacobi); the pcgSums
	kPrecond                // z = D⁻¹ r (Jacobi, or z already set); Σ z, r·z, Σ r
	kResidual               // q = L x; r = b − q; Σ r·r
	kDirect                 // p = (z − μ) + β p
	kSum                    // Σ b
	kCenter                 // b −= α; Σ b·b
)

func (w *pcgWork) init(s *Solver, inv []float64) {
	n := s.mat.N
	w.s, w.n, w.nb, w.inv = s, n, lapmat.NumBlocks(n), inv
	w.x, w.b, w.r, w.z, w.p, w.q = lapmat.HugeFloats(n), lapmat.HugeFloats(n), lapmat.HugeFloats(n), lapmat.HugeFloats(n), lapmat.HugeFloats(n), lapmat.HugeFloats(n)
	w.part = make([]pcgSums, w.nb)
	w.fn = func(lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			r0, r1 := lapmat.BlockRows(blk, w.n)
			w.part[blk] = w.block(r0, r1)
		}
	}
}

// block runs the current kernel on rows [lo, hi).
func (w *pcgWork) block(lo, hi int) pcgSums {
	var s pcgSums
	a := w.alpha
	x, b, r, z, p, q := w.x[lo:hi], w.b[lo:hi], w.r[lo:hi], w.z[lo:hi], w.p[lo:hi], w.q[lo:hi]
	switch w.kind {
	case kMatDot:
		s[0] = w.s.mat.Rows(w.q, w.p, w.p, lo, hi)
	case kUpdate:
		x, q = x[:len(p)], q[:len(r)]
		for u := range p {
			x[u] += a * p[u]
		}
		for u := range r {
			r[u] -= a * q[u]
			s[0] += r[u] * r[u]
		}
		if !w.useAC {
			s = w.precondRows(s, lo, hi)
		}
	case kPrecond:
		s = w.precondRows(s, lo, hi)
	case kResidual:
		w.s.mat.Rows(w.q, w.x, nil, lo, hi)
		q = q[:len(r)]
		for u := range r {
			r[u] = b[u] - q[u]
			s[0] += r[u] * r[u]
		}
	case kDirect:
		bt, mu := w.beta, w.mu
		if w.identity() {
			z = r
		}
		z = z[:len(p)]
		if bt == 0 { // a restart: p may hold a stagnated solve's NaN
			for u := range p {
				p[u] = z[u] - mu
			}
			break
		}
		for u := range p {
			p[u] = (z[u] - mu) + bt*p[u]
		}
	case kSum:
		for _, v := range b {
			s[0] += v
		}
	case kCenter:
		for u := range b {
			b[u] -= a
			s[0] += b[u] * b[u]
		}
	}
	return s
}

// identity reports whether the preconditioner is the identity (Jacobi
// with equal degrees): z is then r, and z is not written.
func (w *pcgWork) identity() bool { return !w.useAC && w.inv == nil }

// precondRows applies the Jacobi preconditioner to rows [lo, hi) (unless
// it is the identity or z holds the factor's result) and adds Σ z, r·z
// and Σ r to s.
func (w *pcgWork) precondRows(s pcgSums, lo, hi int) pcgSums {
	r, z := w.r[lo:hi], w.z[lo:hi]
	if w.identity() {
		z = r
	}
	z = z[:len(r)]
	if !w.useAC && w.inv != nil {
		inv := w.inv[lo:hi]
		inv = inv[:len(r)]
		for u := range r {
			z[u] = r[u] * inv[u]
		}
	}
	for u := range r {
		s[1] += z[u]
		s[2] += r[u] * z[u]
		s[3] += r[u]
	}
	return s
}

// run performs kernel k with parameter a over all rows and returns the
// sums of its block partials, added in block order.
func (w *pcgWork) run(k kernel, a float64) pcgSums {
	w.kind, w.alpha = k, a
	lapmat.ParallelBlocks(w.nb, w.fn)
	var s pcgSums
	for _, x := range w.part {
		for i := range s {
			s[i] += x[i]
		}
	}
	return s
}

// precondition finishes z = M r from the sums of an update (or computes
// them), sets μ = Σ z / n, and returns r·(z − μ).
func (w *pcgWork) precondition(s pcgSums) float64 {
	if w.useAC {
		copy(w.z, w.r)
		w.s.ac.solve(w.z)
		s = w.run(kPrecond, 0)
	}
	w.mu = s[1] / float64(w.n)
	return s[2] - w.mu*s[3]
}

// maxRestarts bounds the restarts from the true residual when the
// recurrence has drifted from it.
const maxRestarts = 3

// pcg solves L x = b into dst (see Solver.Solve; with ordered,
// dst and b are in the internal order), switching
// preconditioners as Settings.Preconditioner says.
func (w *pcgWork) pcg(dst, b []float64, ordered bool) (SolveResult, error) {
	if ordered {
		copy(w.b, b)
		defer copy(dst, w.x)
	} else {
		w.s.mat.Gather(w.b, b)
		defer w.s.mat.Scatter(dst, w.x)
	}
	return w.pcgInternal()
}

// pcgInternal solves L x = b for the b in w.b, into w.x, both in the
// matrix's internal order.
func (w *pcgWork) pcgInternal() (SolveResult, error) {
	bnorm := math.Sqrt(w.run(kCenter, w.run(kSum, 0)[0]/float64(w.n))[0])
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
			budget = min(budget, w.s.auto.autoJacobiBudget(set.Tol))
		}
		w.useAC = false
		copy(w.r, w.b) // x = 0
		if budget > 0 {
			done = w.iterate(tol, budget)
			if done.Status == loadlab.Success || set.Preconditioner == Jacobi || done.Iterations == set.MaxIter {
				return w.finish(done, bnorm), nil
			}
		}
		if err := w.s.factor(); err != nil {
			return done, err
		}
		if budget > 0 {
			w.run(kResidual, 0)
		}
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
		pq := w.run(kMatDot, 0)[0]
		if !(pq > 0) || !(rz > 0) {
			res.Status = loadlab.Stagnated
			break
		}
		if s := w.run(kUpdate, rz/pq); math.Sqrt(s[0]) > tol {
			rzNew := w.precondition(s)
			w.beta = rzNew / rz
			w.run(kDirect, 0)
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

// restart sets z = M r, p = z − μ and returns r·(z − μ).
func (w *pcgWork) restart() float64 {
	var rz float64
	if w.useAC {
		rz = w.precondition(pcgSums{})
	} else {
		rz = w.precondition(w.run(kPrecond, 0))
	}
	w.beta = 0
	w.run(kDirect, 0)
	return rz
}

// projectResidual projects x onto 1⊥, recomputes r = b − L x and returns
// ‖r‖.
func (w *pcgWork) projectResidual() float64 {
	var sum float64
	for blk := range w.nb {
		r0, r1 := lapmat.BlockRows(blk, w.n)
		var t float64
		for _, x := range w.x[r0:r1] {
			t += x
		}
		sum += t
	}
	mean := sum / float64(w.n)
	for u := range w.x {
		w.x[u] -= mean
	}
	return math.Sqrt(w.run(kResidual, 0)[0])
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
