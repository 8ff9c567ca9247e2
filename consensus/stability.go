package consensus

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/linalg"
	"gonum.org/v1/gonum/mat"
)

// stability returns λ_n (0 if not needed) and a warning when γλ_n ≥ 2.
// No eigenvalue is needed when γ b < 2 for the bound
// λ_n ≤ b = max_{u~v} (d_u + d_v) (weighted degrees; L = B W Bᵀ has the
// spectrum of Bᵀ B W, whose row e = {u, v} has absolute sum d_u + d_v).
func stability(g *linalg.Graph, gamma float64) (float64, string) {
	n := g.Order()
	deg := make([]float64, n)
	for u := range n {
		deg[u] = g.WeightedDegree(u)
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
	ln := lambdaMax(g)
	if gamma*ln >= 2 {
		return ln, fmt.Sprintf("consensus: γ = %v ≥ 2/λ_n = %v: the throttler network is unstable and its limits diverge (spec §4.1)", gamma, 2/ln)
	}
	return ln, ""
}

// lambdaMax returns λ_n of the Laplacian: exact (dense eigenvalues) up
// to 400 nodes, above that the largest Ritz value of 80 Lanczos steps
// with full reorthogonalisation, a lower bound that converges fast for
// the extreme eigenvalue.
func lambdaMax(g *linalg.Graph) float64 {
	n := g.Order()
	if n <= 400 {
		s, err := linalg.Spectrum(g)
		if err != nil {
			return math.NaN()
		}
		return s[n-1]
	}
	m := min(n, 80)
	src := rand.New(rand.NewPCG(1, 2)) // fixed start vector: deterministic
	q := make([][]float64, 0, m)
	v := make([]float64, n)
	for i := range v {
		v[i] = src.NormFloat64()
	}
	normalize(v)
	alpha := make([]float64, 0, m)
	beta := make([]float64, 0, m)
	w := make([]float64, n)
	for j := 0; j < m; j++ {
		q = append(q, append([]float64(nil), v...))
		g.LaplacianMulVec(w, v)
		a := dot(w, v)
		alpha = append(alpha, a)
		// Full reorthogonalisation (twice is enough).
		for range 2 {
			for _, qi := range q {
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
	vals := es.Values(nil)
	return vals[k-1]
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
