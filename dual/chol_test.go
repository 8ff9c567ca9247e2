package dual

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// cholSystem solves the reduced Newton system of Primal densely, the
// solver Primal used before the PCG one: H_FF formed entry by entry from
// a dense C and factorised by Cholesky. The tests use it as an
// independent reference for the PCG systems, and the benchmarks to
// compare the two (BenchmarkPrimalSolver_N200).
type cholSystem struct {
	hbuf, rbuf []float64
	chol       mat.Cholesky
	sol        mat.VecDense
}

func newChol(n int) *cholSystem {
	return &cholSystem{hbuf: make([]float64, n*n), rbuf: make([]float64, n)}
}

func (cs *cholSystem) solve(nt *newton) {
	nw, m := nt.p.Net, len(nt.free)
	hess := mat.NewDense(m, m, cs.hbuf[:m*m])
	var maxd float64
	for a, j := range nt.free {
		rj := nw.C.RawRowView(j)
		for b := a; b < m; b++ {
			k := nt.free[b]
			rk := nw.C.RawRowView(k)
			var s float64
			for i := range rj {
				s += rj[i] * rk[i] * nt.hc[i]
			}
			v := nw.A[j] * nw.A[k] * s
			if a == b {
				v += nt.fc[j]
				maxd = math.Max(maxd, v)
			}
			hess.Set(a, b, v)
			hess.Set(b, a, v)
		}
		cs.rbuf[a] = -nt.g[j]
	}
	r := ridge(maxd)
	for a := 0; a < m; a++ {
		hess.Set(a, a, hess.At(a, a)+r)
	}
	if cs.chol.Factorize(mat.NewSymDense(m, cs.hbuf[:m*m])) {
		cs.sol.Reset()
		if cs.chol.SolveVecTo(&cs.sol, mat.NewVecDense(m, cs.rbuf[:m])) == nil {
			for a, j := range nt.free {
				nt.d[j] = cs.sol.AtVec(a)
			}
			return
		}
	}
	for a, j := range nt.free {
		nt.d[j] = -nt.g[j] / hess.At(a, a)
	}
}
