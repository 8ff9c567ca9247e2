package lanczos

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lapmat"
	"gonum.org/v1/gonum/lapack/gonum"
)

// Lanczos is the plain Lanczos process (three-term recurrence, no
// stored basis, O(n) memory) for a symmetric positive semidefinite
// operator, optionally on the complement of a unit vector z, behind the
// certified brackets of spec throttlers.md §12.8. The start vector is
// Gaussian from a PCG stream seeded by seed, so a second pass
// (RitzVector) regenerates the same basis. Alpha and Beta hold the
// tridiagonal T_k of the steps so far.
type Lanczos struct {
	apply       func(dst, src []float64) error
	z           []float64 // deflated unit vector, or nil
	seed        [2]uint64
	Alpha, Beta []float64
	parts       [][2]float64 // α_j's two parts (projection, local reorthogonalisation)
	prev, v, w  []float64
	part        []float64 // per-block partial sums of reduce
	Done        bool      // invariant subspace reached (β = 0)
}

// Vectors is the number of n-vectors a Lanczos holds, with the
// second pass's four.
const Vectors = 7

// New returns the Lanczos process of order n for the operator apply,
// deflated against the unit vector z when z is non-nil, with its start
// vector drawn from seed.
func New(n int, apply func(dst, src []float64) error, z []float64, seed [2]uint64) *Lanczos {
	lz := &Lanczos{apply: apply, z: z, seed: seed,
		prev: make([]float64, n), v: make([]float64, n), w: make([]float64, n)}
	lz.start(lz.v)
	return lz
}

// start writes the unit start vector: Gaussian entries (uniform on the
// sphere once normalised, and on the sphere of z⊥ once deflated).
func (lz *Lanczos) start(v []float64) {
	rnd := rand.New(rand.NewPCG(lz.seed[0], lz.seed[1]))
	for i := range v {
		v[i] = rnd.NormFloat64()
	}
	lz.Deflate(v)
	dense.Normalize(v)
}

// Deflate removes the z component of x (twice, for orthogonality to
// rounding).
func (lz *Lanczos) Deflate(x []float64) {
	if lz.z == nil {
		return
	}
	for range 2 {
		c := dense.Dot(x, lz.z)
		for i := range x {
			x[i] -= c * lz.z[i]
		}
	}
}

// Steps returns the number of steps taken.
func (lz *Lanczos) Steps() int { return len(lz.Alpha) }

// Step runs one Lanczos step: w = A v − β_{j−1} v_{j−1} − α_j v_j (with
// one local reorthogonalisation against v_j), β_j = ‖w‖, and shifts the
// vectors. The vector updates are fused and run over fixed blocks on
// the worker pool, with reductions summed in block order, so the result
// does not depend on the number of goroutines.
func (lz *Lanczos) Step() error {
	if err := lz.apply(lz.w, lz.v); err != nil {
		return err
	}
	w, v, prev := lz.w, lz.v, lz.prev
	var bm float64
	if k := len(lz.Beta); k > 0 {
		bm = lz.Beta[k-1]
	}
	a := lz.reduce(func(lo, hi int) (s float64) {
		for i := lo; i < hi; i++ {
			w[i] -= bm * prev[i]
			s += w[i] * v[i]
		}
		return s
	})
	c := lz.reduce(func(lo, hi int) (s float64) {
		for i := lo; i < hi; i++ {
			w[i] -= a * v[i]
			s += w[i] * v[i]
		}
		return s
	})
	nn := lz.reduce(func(lo, hi int) (s float64) {
		for i := lo; i < hi; i++ {
			w[i] -= c * v[i]
			s += w[i] * w[i]
		}
		return s
	})
	if lz.z != nil {
		lz.Deflate(w)
		nn = dense.Dot(w, w)
	}
	b := math.Sqrt(nn)
	lz.Alpha = append(lz.Alpha, a+c)
	lz.parts = append(lz.parts, [2]float64{a, c})
	lz.Beta = append(lz.Beta, b)
	if !(b > 0) {
		lz.Done = true
		return nil
	}
	lz.prev, lz.v, lz.w = v, w, prev
	lz.reduce(func(lo, hi int) float64 {
		for i := lo; i < hi; i++ {
			w[i] /= b
		}
		return 0
	})
	return nil
}

// reduce runs fn over the fixed row blocks of the vectors in parallel
// and returns the sum of its per-block results in block order.
func (lz *Lanczos) reduce(fn func(lo, hi int) float64) float64 {
	n := len(lz.v)
	nb := lapmat.NumBlocks(n)
	if cap(lz.part) < nb {
		lz.part = make([]float64, nb)
	}
	part := lz.part[:nb]
	lapmat.ParallelBlocks(nb, func(b0, b1 int) {
		for i := b0; i < b1; i++ {
			lo, hi := lapmat.BlockRows(i, n)
			part[i] = fn(lo, hi)
		}
	})
	var s float64
	for _, x := range part {
		s += x
	}
	return s
}

// RitzTop returns the largest eigenvalue of the tridiagonal T_k of the
// steps so far (NaN if the tridiagonal eigensolver fails).
func (lz *Lanczos) RitzTop() float64 { return lz.ritzTopOf(lz.Steps()) }

// Christoffel returns K_k(x) = Σ_{j=0}^{k} p_j(x)² for the normalised
// Lanczos polynomials p_0 = 1, β_j p_j = (x − α_j) p_{j−1} − β_{j−1} p_{j−2},
// for which v_{j+1} = p_j(A) v_1 in exact arithmetic; it stops (and
// returns a value > limit) as soon as the partial sum passes limit.
// With β_k = 0 it returns +Inf off the roots. The bound it gives on the
// largest eigenvalue is derived in spec throttlers.md §12.8.
func (lz *Lanczos) Christoffel(x, limit float64) float64 {
	pm, p := 0.0, 1.0
	sum := 1.0
	for j, a := range lz.Alpha {
		var bm float64
		if j > 0 {
			bm = lz.Beta[j-1]
		}
		num := (x-a)*p - bm*pm
		if !(lz.Beta[j] > 0) {
			return math.Inf(1)
		}
		pm, p = p, num/lz.Beta[j]
		sum += p * p
		if sum > limit {
			return sum
		}
	}
	return sum
}

// UpperBound returns the largest x in [theta, hi] with K_k(x) ≤ limit,
// by bisection (K_k increases on [θ_k, ∞), θ_k the largest Ritz value),
// and hi itself when K_k(hi) ≤ limit.
func (lz *Lanczos) UpperBound(theta, hi, limit float64) float64 {
	if lz.Christoffel(hi, limit) <= limit {
		return hi
	}
	lo := theta
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if lz.Christoffel(mid, limit) <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// ritzTopOf returns the largest eigenvalue of the leading k × k block
// T_k (NaN if the tridiagonal eigensolver fails).
func (lz *Lanczos) ritzTopOf(k int) float64 {
	d := append([]float64(nil), lz.Alpha[:k]...)
	e := append([]float64(nil), lz.Beta[:k-1]...)
	if !(gonum.Implementation{}).Dsterf(k, d, e) {
		return math.NaN()
	}
	return d[k-1]
}

// RitzCoefficients returns the unit eigenvector s of the leading k × k
// block T_k for its eigenvalue theta, by inverse iteration with partial
// pivoting.
func (lz *Lanczos) RitzCoefficients(k int, theta float64) []float64 {
	s := make([]float64, k)
	for i := range s {
		s[i] = 1
	}
	shift := theta + 1e-14*math.Max(math.Abs(theta), 1e-300)
	impl := gonum.Implementation{}
	for range 3 {
		dl := append([]float64(nil), lz.Beta[:k-1]...)
		du := append([]float64(nil), lz.Beta[:k-1]...)
		d := make([]float64, k)
		for i := range d {
			d[i] = lz.Alpha[i] - shift
		}
		if !impl.Dgtsv(k, 1, dl, d, du, s, 1) {
			break // exactly singular: s is already an eigenvector
		}
		dense.Normalize(s)
	}
	return s
}

// RitzVector regenerates the Lanczos basis from the same start (a
// second pass of len(s) − 1 operator applications, in its own storage,
// so the first pass can resume) and returns y = Σ_j s_j v_j. It stops
// early once the coefficients left have norm below tail (their
// contribution to a Rayleigh quotient is of order tail² ‖A‖).
func (lz *Lanczos) RitzVector(s []float64, tail float64) ([]float64, error) {
	n := len(lz.v)
	rest := make([]float64, len(s)+1)
	for j := len(s) - 1; j >= 0; j-- {
		rest[j] = rest[j+1] + s[j]*s[j]
	}
	y := make([]float64, n)
	prev, v, w := make([]float64, n), make([]float64, n), make([]float64, n)
	lz.start(v)
	dense.Axpy(y, s[0], v)
	for j := 0; j+1 < len(s) && math.Sqrt(rest[j+1]) >= tail; j++ {
		if err := lz.apply(w, v); err != nil {
			return nil, err
		}
		var bm float64
		if j > 0 {
			bm = lz.Beta[j-1]
		}
		a, c := lz.parts[j][0], lz.parts[j][1]
		lz.reduce(func(lo, hi int) float64 { // the same operations as Step
			for i := lo; i < hi; i++ {
				w[i] = ((w[i] - bm*prev[i]) - a*v[i]) - c*v[i]
			}
			return 0
		})
		lz.Deflate(w)
		b, sj := lz.Beta[j], s[j+1]
		lz.reduce(func(lo, hi int) float64 {
			for i := lo; i < hi; i++ {
				w[i] /= b
				y[i] += sj * w[i]
			}
			return 0
		})
		prev, v, w = v, w, prev
	}
	return y, nil
}
