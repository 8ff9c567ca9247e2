package consensus

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/linalg"
	"gonum.org/v1/gonum/mat"
)

// stability returns the largest eigenvalue μ_n of the (linearised)
// update operator and a warning when γ μ_n ≥ 2 (0 and no warning when a
// bound settles it without an eigenvalue). The operator is L Q with
// Q = diag(q): q = 1 for Amount and Clipped (spec §4.1), q = 1/r(0) for
// Ratio and q = r_total/(l_total r(0)) for LogRatio (the linearisations
// of spec §8 at the first step's demand). A nil q means q = 1.
//
// L Q has the spectrum of Q^{1/2} L Q^{1/2}, and its nonzero spectrum
// is that of Bᵀ Q B W (L = B W Bᵀ), whose row e = {u, v} has absolute
// sum q_u d_u + q_v d_v; so μ_n ≤ max_{u~v} (q_u d_u + q_v d_v).
func stability(g *linalg.Graph, gamma float64, q []float64) (float64, string) {
	n := g.Order()
	qq := func(u int) float64 {
		if q == nil {
			return 1
		}
		return q[u]
	}
	deg := make([]float64, n)
	for u := range n {
		deg[u] = qq(u) * g.WeightedDegree(u)
	}
	var b float64
	for u := range n {
		for _, v := range g.Neighbors(u) {
			b = max(b, deg[u]+deg[v])
		}
	}
	if gamma*b < 2 {
		return 0, ""
	}
	mu := lambdaMax(g, q)
	if gamma*mu >= 2 {
		return mu, fmt.Sprintf("consensus: γ = %v ≥ 2/μ_n = %v: the throttler network is unstable and its limits diverge (spec §4.1, §8)", gamma, 2/mu)
	}
	return mu, ""
}

// lambdaMax returns the largest eigenvalue of Q^{1/2} L Q^{1/2} (q = nil:
// of L): exact (dense eigenvalues) up to 400 nodes, above that the
// largest Ritz value of 80 Lanczos steps with full reorthogonalisation,
// a lower bound that converges fast for the extreme eigenvalue.
func lambdaMax(g *linalg.Graph, q []float64) float64 {
	n := g.Order()
	var sq []float64
	if q != nil {
		sq = make([]float64, n)
		for i, v := range q {
			sq[i] = math.Sqrt(v)
		}
	}
	if n <= 400 {
		l := g.Laplacian()
		if sq != nil {
			for i := range n {
				for j := i; j < n; j++ {
					l.SetSym(i, j, sq[i]*l.At(i, j)*sq[j])
				}
			}
		}
		var es mat.EigenSym
		if !es.Factorize(l, false) {
			return math.NaN()
		}
		return es.Values(nil)[n-1]
	}
	tmp := make([]float64, n)
	mul := func(dst, v []float64) {
		if sq == nil {
			g.LaplacianMulVec(dst, v)
			return
		}
		for i := range v {
			tmp[i] = sq[i] * v[i]
		}
		g.LaplacianMulVec(dst, tmp)
		for i := range dst {
			dst[i] *= sq[i]
		}
	}
	m := min(n, 80)
	src := rand.New(rand.NewPCG(1, 2)) // fixed start vector: deterministic
	qs := make([][]float64, 0, m)
	v := make([]float64, n)
	for i := range v {
		v[i] = src.NormFloat64()
	}
	normalize(v)
	alpha := make([]float64, 0, m)
	beta := make([]float64, 0, m)
	w := make([]float64, n)
	for j := 0; j < m; j++ {
		qs = append(qs, append([]float64(nil), v...))
		mul(w, v)
		a := dot(w, v)
		alpha = append(alpha, a)
		// Full reorthogonalisation (twice is enough).
		for range 2 {
			for _, qi := range qs {
				c := dot(w, qi)
				for t := range w {
					w[t] -= c * qi[t]
				}
			}
		}
		b := math.Sqrt(dot(w, w))
		if b < 1e-12*math.Abs(a) || j == m-1 {
			break
		}
		beta = append(beta, b)
		for t := range w {
			v[t] = w[t] / b
		}
	}
	k := len(alpha)
	t := mat.NewSymDense(k, nil)
	for i := range k {
		t.SetSym(i, i, alpha[i])
		if i+1 < k {
			t.SetSym(i, i+1, beta[i])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(t, false) {
		return math.NaN()
	}
	return es.Values(nil)[k-1]
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func normalize(v []float64) {
	s := 1 / math.Sqrt(dot(v, v))
	for i := range v {
		v[i] *= s
	}
}
