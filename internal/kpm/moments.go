package kpm

import (
	"math"

	"github.com/loadlab/loadlab/internal/lapmat"
)

// Basis is the scaled Laplacian S = C1·L + C0·I, which maps [a, b] onto
// [−1, 1].
type Basis struct{ C1, C0 float64 }

// NewBasis returns the basis of the interval [a, b], a < b.
func NewBasis(a, b float64) Basis { return Basis{C1: 2 / (b - a), C0: -(a + b) / (b - a)} }

// T returns T_0(s), …, T_k(s) at the scalar s (T_k(S) at an eigenvalue λ
// is T_k(C1·λ + C0)).
func T(k int, s float64) []float64 {
	t := make([]float64, k+1)
	t[0] = 1
	if k > 0 {
		t[1] = s
	}
	for i := 2; i <= k; i++ {
		t[i] = 2*s*t[i-1] - t[i-2]
	}
	return t
}

// Moments sets mu[0..2h] to xᵀT_k(S)x for the start vector x with
// values vals at the internal nodes nodes of lm (deg its weighted
// degrees), from w_r = T_r(S)x: T_{2r} = 2T_r² − T_0 and
// T_{2r−1} = 2T_rT_{r−1} − T_1 give
//
//	μ_{2r} = 2‖w_r‖² − μ_0,   μ_{2r−1} = 2 w_rᵀw_{r−1} − μ_1,
//
// at the cost of h sparse products on the balls of radius < h around
// x's support. It panics if mu is shorter than 2h + 1.
func (s *Scratch) Moments(lm *lapmat.Matrix, deg []float64, b Basis, nodes []int32, vals []float64, h int, mu []float64) {
	_ = mu[2*h]
	s.reset()
	var n0 float64
	for i, u := range nodes {
		s.w[1][s.touch(u)] = vals[i]
		n0 += vals[i] * vals[i]
	}
	mu[0] = n0
	ip, ic, in := 0, 1, 2
	for r := 1; r <= h; r++ {
		m := len(s.list)
		clear(s.w[in][:m]) // held w_{r−3} on part of this support
		s.scatter(lm, deg, b, ic, in, m)
		prev, cur, next := s.w[ip], s.w[ic], s.w[in]
		var nn, nc float64
		for li := range s.list {
			if r > 1 { // w_r = 2 S w_{r−1} − w_{r−2}; w_1 = S w_0
				next[li] = 2*next[li] - prev[li]
			}
			nn += next[li] * next[li]
			nc += next[li] * cur[li]
		}
		if r == 1 {
			mu[1] = nc
		} else {
			mu[2*r-1] = 2*nc - mu[1]
		}
		mu[2*r] = 2*nn - mu[0]
		ip, ic, in = ic, in, ip
	}
}

// scatter adds S x into y (x = s.w[ix], y = s.w[iy]) for the first m
// local nodes (x's support), touching their neighbours.
func (s *Scratch) scatter(lm *lapmat.Matrix, deg []float64, b Basis, ix, iy, m int) {
	for li := 0; li < m; li++ {
		xi := s.w[ix][li]
		if xi == 0 {
			continue
		}
		u := int(s.list[li])
		e0, e1 := lm.Span(u)
		for e, k := range lm.Adj[e0:e1] {
			w := lm.Wc
			if lm.W != nil {
				w = lm.W[e0+e]
			}
			lk := s.touch(k) // may grow s.w: index it afterwards
			s.w[iy][lk] -= b.C1 * w * xi
		}
		s.w[iy][li] += (b.C1*deg[u] + b.C0) * xi
	}
}

// Interp returns the coefficients c_0..c_k of the Chebyshev interpolant
// of f on [a, b] (at the k + 1 Chebyshev points of the first kind), so
// that p(L) = Σ_j c_j T_j(S) with S = NewBasis(a, b).
func Interp(f func(float64) float64, a, b float64, k int) []float64 {
	k1 := k + 1
	fx := make([]float64, k1)
	for i := range fx {
		t := math.Cos(math.Pi * (float64(i) + 0.5) / float64(k1))
		fx[i] = f((a+b)/2 + (b-a)/2*t)
	}
	c := make([]float64, k1)
	for j := range c {
		var s float64
		for i, v := range fx {
			s += v * math.Cos(math.Pi*float64(j)*(float64(i)+0.5)/float64(k1))
		}
		c[j] = 2 * s / float64(k1)
	}
	c[0] /= 2
	return c
}
