package dual

import (
	"math"
)

// pcgSystem solves the reduced Newton system of Primal without forming
// it: H_FF = diag(f” + ridge)_F + (B_F)ᵀ diag(h”) B_F with B = Cᵀ diag(A)
// (spec §1.3 eq. (22)) is applied to a vector v (zero off F) as
//
//	H v = (f” + ridge)∘v + A∘(C (h”∘(Cᵀ (A∘v)))),
//
// two products with C, O(nnz) each, and the system is solved by the
// conjugate-gradient method with the Jacobi preconditioner
// diag(H)_j = f_j” + ridge + A_j² Σ_i C_ji² h_i” (O(nnz) once per
// Newton step). CG stops at the relative residual ‖r‖ ≤ η‖g_F‖ with the
// forcing term η = min(0.1, √‖∇P‖_∞) (Eisenstat and Walker 1996: an
// inexact Newton method with η → 0 keeps Newton's superlinear rate), or
// after maxCG iterations. Every CG iterate from d = 0 is a descent
// direction (dᵀg < 0, H positive definite), so a truncated solve is a
// valid, if shorter, Newton step; the Armijo search and the certificate
// do not depend on how exactly the system was solved.
type pcgSystem struct {
	r, z, q, hq, u, w, diag []float64
	iters                   int // CG iterations of the last solve
}

// maxCG bounds the CG iterations per Newton step. It is a safeguard, not
// the usual stop: on the synthetic CDNs of the benchmarks η is met in
// tens of iterations (spec docs/specs/anycast-cdn.md §12.4).
const maxCG = 1000

func newPCG(n int) *pcgSystem {
	mk := func() []float64 { return make([]float64, n) }
	return &pcgSystem{r: mk(), z: mk(), q: mk(), hq: mk(), u: mk(), w: mk(), diag: mk()}
}

// apply sets out = H_FF v for v zero off the free set (out zero off it).
func (ps *pcgSystem) apply(nt *newton, out, v []float64, rg float64) {
	nw := nt.p.Net
	for j, a := range nw.A {
		ps.u[j] = a * v[j]
	}
	nw.MulCT(ps.w, ps.u) // (Cᵀ (A∘v))_i
	for i, c := range nt.hc {
		ps.w[i] *= c
	}
	nw.MulC(out, ps.w)
	for j, a := range nw.A {
		if nt.isFree[j] {
			out[j] = a*out[j] + (nt.fc[j]+rg)*v[j]
		} else {
			out[j] = 0
		}
	}
}

// jacobi fills diag with the diagonal of H_FF before the ridge and returns
// its largest free entry.
func (ps *pcgSystem) jacobi(nt *newton) float64 {
	nw := nt.p.Net
	var maxd float64
	for _, j := range nt.free {
		cols, vals := nw.Row(j)
		var s float64
		for k, i := range cols {
			s += vals[k] * vals[k] * nt.hc[i]
		}
		ps.diag[j] = nt.fc[j] + nw.A[j]*nw.A[j]*s
		maxd = math.Max(maxd, ps.diag[j])
	}
	return maxd
}

// solve runs preconditioned CG on H_FF d_F = −g_F from d_F = 0.
func (ps *pcgSystem) solve(nt *newton) {
	rg := ridge(ps.jacobi(nt))
	var rz, r2 float64
	for j := range ps.r {
		ps.r[j], ps.z[j], ps.q[j] = 0, 0, 0
	}
	for _, j := range nt.free {
		nt.d[j] = 0
		ps.diag[j] += rg
		ps.r[j] = -nt.g[j]
		ps.z[j] = ps.r[j] / ps.diag[j]
		ps.q[j] = ps.z[j]
		rz += ps.r[j] * ps.z[j]
		r2 += ps.r[j] * ps.r[j]
	}
	stop := math.Min(0.1, math.Sqrt(nt.pg))
	stop *= stop * r2 // ‖r‖² ≤ η² ‖g_F‖²
	ps.iters = 0
	for r2 > stop && ps.iters < maxCG && rz > 0 {
		ps.apply(nt, ps.hq, ps.q, rg)
		var qhq float64
		for _, j := range nt.free {
			qhq += ps.q[j] * ps.hq[j]
		}
		if !(qhq > 0) {
			break // rounding made H look singular along q: keep the iterate
		}
		alpha := rz / qhq
		var rzn float64
		r2 = 0
		for _, j := range nt.free {
			nt.d[j] += alpha * ps.q[j]
			ps.r[j] -= alpha * ps.hq[j]
			ps.z[j] = ps.r[j] / ps.diag[j]
			rzn += ps.r[j] * ps.z[j]
			r2 += ps.r[j] * ps.r[j]
		}
		for _, j := range nt.free {
			ps.q[j] = ps.z[j] + rzn/rz*ps.q[j]
		}
		rz = rzn
		ps.iters++
	}
	if ps.iters == 0 { // no CG step taken: the preconditioned gradient step
		for _, j := range nt.free {
			nt.d[j] = -nt.g[j] / ps.diag[j]
		}
	}
	nt.cgIter += ps.iters
}
