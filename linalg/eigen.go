package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// Bracket is an interval [Lo, Hi] proven to contain an eigenvalue, with
// Est the best estimate found inside it. "Proven" means: the bounds come
// from theorems (Rayleigh quotients, Cauchy interlacing, norm bounds,
// Sylvester's law of inertia) applied to computed quantities, each
// widened by a bound on its rounding error.
type Bracket struct {
	Lo, Est, Hi float64
}

// Contains reports whether x lies in [Lo, Hi].
func (b Bracket) Contains(x float64) bool { return b.Lo <= x && x <= b.Hi }

// Width returns Hi − Lo.
func (b Bracket) Width() float64 { return b.Hi - b.Lo }

// String formats the bracket as "λ ∈ [Lo, Hi] (≈ Est)".
func (b Bracket) String() string {
	return fmt.Sprintf("[%.10g, %.10g] (≈ %.10g)", b.Lo, b.Hi, b.Est)
}

// EigenSettings tune LambdaMaxBracket and Lambda2Bracket; nil means the
// defaults.
type EigenSettings struct {
	// Scale holds q_u > 0 for every node: the operator is then
	// S = Q^{1/2} L Q^{1/2}, Q = diag(q), which has the spectrum of L Q
	// (the linearised throttler of consensus, spec throttlers.md §8). Nil
	// means q = 1, S = L.
	Scale []float64
	// Threshold, when positive, is the value the caller must compare the
	// eigenvalue with: refinement stops as soon as the bracket lies
	// wholly above or below it, and the Cholesky decision (see
	// LambdaMaxBracket) tests it directly. Zero means refine as far as
	// the method allows.
	Threshold float64
}

// Sizes of the eigenvalue methods.
const (
	denseEigenMax = 400  // dense eigenvalues up to this order
	denseCholMax  = 3000 // dense Cholesky decisions up to this order
	lanczosMax    = 320  // Lanczos steps at most
	lanczosChunk  = 40   // steps between convergence checks
	perronIters   = 60   // power steps for the Collatz–Wielandt bound
)

// Validate checks the settings against a graph of n nodes: Scale nil or
// of length n with finite positive entries, Threshold finite and ≥ 0.
func (s *EigenSettings) Validate(n int) error {
	if s == nil {
		return nil
	}
	if s.Scale != nil && len(s.Scale) != n {
		return loadlab.Invalid("linalg", "EigenSettings.Scale has length %d, want %d", len(s.Scale), n)
	}
	for i, q := range s.Scale {
		if !(q > 0) || math.IsInf(q, 1) {
			return loadlab.Invalid("linalg", "EigenSettings.Scale[%d] = %v, want finite and > 0", i, q)
		}
	}
	if !(s.Threshold >= 0) || math.IsInf(s.Threshold, 1) {
		return loadlab.Invalid("linalg", "EigenSettings.Threshold = %v, want finite and ≥ 0", s.Threshold)
	}
	return nil
}

// fields returns Scale and Threshold (nil and 0 for nil settings).
func (s *EigenSettings) fields() (q []float64, t float64) {
	if s == nil {
		return nil, 0
	}
	return s.Scale, s.Threshold
}

// operator is S = Q^{1/2} L Q^{1/2} with its diagonal and the rounding
// scale of its row sums.
type operator struct {
	g    *Graph
	sq   []float64 // √q, nil for q = 1
	diag []float64 // S_uu = q_u d_u
	tmp  []float64
	// rel bounds the relative rounding error of a row sum of |S| x with
	// x > 0: (max degree + 2) additions at ε each, doubled.
	rel float64
}

func newOperator(g *Graph, q []float64) *operator {
	n := g.Order()
	op := &operator{g: g, diag: make([]float64, n), tmp: make([]float64, n)}
	if q != nil {
		op.sq = make([]float64, n)
		for i, v := range q {
			op.sq[i] = math.Sqrt(v)
		}
	}
	maxDeg := 0
	for u := range n {
		op.diag[u] = g.WeightedDegree(u)
		if q != nil {
			op.diag[u] *= q[u]
		}
		maxDeg = max(maxDeg, len(g.Neighbors(u)))
	}
	op.rel = 4 * float64(maxDeg+2) * 0x1p-53
	return op
}

// mul computes dst = S v.
func (op *operator) mul(dst, v []float64) {
	if op.sq == nil {
		op.g.LaplacianMulVec(dst, v)
		return
	}
	for i := range v {
		op.tmp[i] = op.sq[i] * v[i]
	}
	op.g.LaplacianMulVec(dst, op.tmp)
	for i := range dst {
		dst[i] *= op.sq[i]
	}
}

// dense returns S as a dense matrix.
func (op *operator) dense() *mat.SymDense {
	l := op.g.laplacian() // n ≤ denseCholMax: every caller is behind that bound
	if op.sq == nil {
		return l
	}
	raw := l.RawSymmetric()
	for i := range raw.N {
		row := raw.Data[i*raw.Stride : (i+1)*raw.Stride]
		for j := i; j < raw.N; j++ {
			row[j] *= op.sq[i] * op.sq[j]
		}
	}
	return l
}

// edgeBounds returns a lower bound (the largest diagonal entry, a
// Rayleigh quotient) and an upper bound on λ_max(S). The upper bound:
// the nonzero spectrum of L Q = B W Bᵀ Q is that of W Bᵀ Q B (B the
// incidence matrix, W the link weights), whose row e = {u, v} has
// absolute sum q_u d_u + q_v d_v, so λ_max ≤ max_{u~v} (q_u d_u + q_v d_v)
// by the row-sum norm: the weighted, scaled form of Anderson and
// Morley's bound (Linear and Multilinear Algebra 18, 141–145, 1985).
func (op *operator) edgeBounds() (lo, hi float64) {
	for u, du := range op.diag {
		lo = max(lo, du)
		for _, v := range op.g.Neighbors(u) {
			hi = max(hi, du+op.diag[int(v)])
		}
	}
	return lo * (1 - op.rel), hi * (1 + op.rel)
}

// perronBound returns a Collatz–Wielandt upper bound on λ_max(S):
// λ_max(S) ≤ ρ(|S|) (|S| = Q^{1/2}(D + A)Q^{1/2} dominates S entrywise),
// and ρ(|S|) ≤ max_i (|S| x)_i / x_i for every positive x; power steps on
// |S| drive x toward its Perron vector (exact for bipartite graphs). It
// stops early once the bound is below stop.
func (op *operator) perronBound(stop float64) float64 {
	g, n := op.g, op.g.Order()
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	best := math.Inf(1)
	for range perronIters {
		var ratio, norm float64
		for u := range n {
			s := op.diag[u] * x[u]
			ws := g.Weights(u)
			for i, v := range g.Neighbors(u) {
				w := ws[i]
				if op.sq != nil {
					w *= op.sq[u] * op.sq[int(v)]
				}
				s += w * x[int(v)]
			}
			y[u] = s
			ratio = max(ratio, s/x[u])
			norm = max(norm, s)
		}
		best = min(best, ratio*(1+op.rel))
		if best < stop || !(norm > 0) {
			break
		}
		for i := range x {
			x[i] = y[i] / norm
			if !(x[i] > 0) { // underflow: x must stay positive
				x[i] = math.SmallestNonzeroFloat64
			}
		}
	}
	return best
}

// spdBelow reports whether c I − S is numerically positive definite
// (its Cholesky factorisation succeeds), that is c > λ_max(S) up to the
// factorisation's backward error (Sylvester's law of inertia).
func (op *operator) spdBelow(c float64) bool {
	a := op.dense()
	Shift(a, a, c, 1)
	var f SPDFactor
	return f.Factorize(a) == nil
}

// LambdaMaxBracket returns a proven bracket of the largest eigenvalue of
// the Laplacian of g (or of S = Q^{1/2} L Q^{1/2}, see EigenSettings.Scale).
// It starts from cheap bounds and refines only while they leave the
// question open (with a Threshold t, while t lies inside the bracket):
//
//  1. Bounds in O(m): Lo = max_u S_uu (a Rayleigh quotient) and the edge
//     bound Hi = max_{u~v} (S_uu + S_vv) (see edgeBounds).
//  2. Up to 400 nodes: dense eigenvalues. The symmetric eigensolver is
//     backward stable, with error a modest multiple of n ε ‖S‖; the
//     bracket is the value ± 1e-12 Hi.
//  3. Collatz–Wielandt: Hi = min(Hi, max_i (|S|x)_i/x_i) after power
//     steps on |S|.
//  4. Lanczos with full reorthogonalisation (at most 320 steps from a
//     fixed random start, so the result is deterministic): the largest
//     Ritz value θ is ≤ λ_max by Cauchy interlacing, up to rounding of
//     order k ε ‖S‖; Lo = max(Lo, θ − 1e-10 Hi).
//  5. With a Threshold t and up to 3000 nodes: a Cholesky factorisation
//     of c I − S succeeds iff c > λ_max, up to a backward error
//     m = 1e-9 (t + Hi) (Higham, Accuracy and Stability of Numerical
//     Algorithms, Thm 10.3, with n ≤ 3000). Success at c = t − 2m proves
//     Hi = t − m < t; failure, then failure at c = t + m, proves Lo = t;
//     failure then success leaves the narrow bracket [t − 3m, t + 2m].
//
// Above 3000 nodes, a t inside the bracket of steps 1–4 stays there: the
// caller must treat it as undecided. It returns an error wrapping
// loadlab.ErrInvalid for bad settings. It panics if g is nil.
func LambdaMaxBracket(g *Graph, s *EigenSettings) (Bracket, error) {
	if g == nil {
		panic("linalg: LambdaMaxBracket: g is nil")
	}
	n := g.Order()
	if err := s.Validate(n); err != nil {
		return Bracket{}, err
	}
	q, t := s.fields()
	op := newOperator(g, q)
	lo, hi := op.edgeBounds()
	b := Bracket{Lo: lo, Est: hi, Hi: hi}
	if n <= 1 || hi == 0 || decided(b, t) {
		return b, nil
	}
	if n <= denseEigenMax {
		return op.denseMax(hi)
	}
	b.Hi = min(b.Hi, op.perronBound(t))
	b.Est = b.Hi
	if decided(b, t) {
		return b, nil
	}
	b = op.lanczosMax(b, t)
	if decided(b, t) || t == 0 || n > denseCholMax {
		return b, nil
	}
	return op.choleskyDecide(b, t), nil
}

// decided reports whether a threshold t > 0 lies outside b.
func decided(b Bracket, t float64) bool {
	return t > 0 && (b.Hi < t || b.Lo >= t)
}

// denseValues returns the ascending dense spectrum of S.
func (op *operator) denseValues(fn string) ([]float64, error) {
	ev, _, err := SymEigen(op.dense(), false)
	if err != nil {
		return nil, fmt.Errorf("linalg: %s: %w", fn, err)
	}
	return ev, nil
}

// SymEigen returns the eigenvalues of the symmetric matrix a in
// ascending order and, if vectors is set, the orthonormal eigenvectors
// as the columns of a matrix, in the same order. It factors a copy of a
// scaled by a power of two that brings its largest entry into [½, 1):
// the scaling is exact, so the eigenvalues are exactly those of the
// scaled matrix rescaled, and it keeps gonum's eigensolver away from its
// own rescaling of tiny or huge matrices, which panics ("insufficient
// length") when every entry is below about 1e-122. a is not modified.
// It returns an error wrapping loadlab.ErrIllConditioned if the
// eigensolver does not converge, or loadlab.ErrInvalid if a has a NaN or
// infinite entry.
func SymEigen(a *mat.SymDense, vectors bool) ([]float64, *mat.Dense, error) {
	n := a.SymmetricDim()
	raw := a.RawSymmetric()
	var big float64
	for i := range n {
		for _, x := range raw.Data[i*raw.Stride+i : i*raw.Stride+n] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, nil, loadlab.Invalid("linalg", "SymEigen: entry %v, want finite", x)
			}
			big = max(big, math.Abs(x))
		}
	}
	if n == 0 {
		return nil, nil, nil
	}
	c := mat.NewSymDense(n, nil)
	_, e := math.Frexp(big) // big = f·2^e, f ∈ [½, 1)
	if big == 0 {
		e = 0
	}
	cr := c.RawSymmetric()
	for i := range n {
		src := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		dst := cr.Data[i*cr.Stride+i : i*cr.Stride+n]
		for j, x := range src {
			dst[j] = math.Ldexp(x, -e)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(c, vectors) {
		return nil, nil, loadlab.Wrap(loadlab.ErrIllConditioned, "linalg", "SymEigen: the dense symmetric eigensolver did not converge")
	}
	ev := es.Values(nil)
	for i := range ev {
		ev[i] = math.Ldexp(ev[i], e)
	}
	if !vectors {
		return ev, nil, nil
	}
	var v mat.Dense
	es.VectorsTo(&v)
	return ev, &v, nil
}

// denseMax brackets λ_max from the dense spectrum.
func (op *operator) denseMax(hi float64) (Bracket, error) {
	ev, err := op.denseValues("LambdaMaxBracket")
	if err != nil {
		return Bracket{}, err
	}
	mu := ev[len(ev)-1]
	m := 1e-12 * hi
	return Bracket{Lo: mu - m, Est: mu, Hi: mu + m}, nil
}

// lanczosMax raises b.Lo by Lanczos until θ converges or t is decided.
func (op *operator) lanczosMax(b Bracket, t float64) Bracket {
	n := op.g.Order()
	margin := 1e-10 * b.Hi
	lz := newLanczos(op, nil)
	var theta float64
	for lz.k < min(n, lanczosMax) && !lz.done {
		prev := theta
		_, theta = lz.extend(lanczosChunk)
		b.Lo = max(b.Lo, theta-margin)
		b.Est = min(max(theta, b.Lo), b.Hi)
		if decided(b, t) || lz.done || theta-prev < margin {
			break
		}
	}
	return b
}

// choleskyDecide settles t against λ_max by up to two dense Cholesky
// factorisations (step 5 of LambdaMaxBracket).
func (op *operator) choleskyDecide(b Bracket, t float64) Bracket {
	m := 1e-9 * (t + b.Hi)
	if op.spdBelow(t - 2*m) {
		b.Hi = min(b.Hi, t-m)
	} else if !op.spdBelow(t + m) {
		b.Lo = max(b.Lo, t)
	} else {
		b.Lo, b.Hi = max(b.Lo, t-3*m), min(b.Hi, t+2*m)
	}
	b.Est = min(max(b.Est, b.Lo), b.Hi)
	return b
}

// Lambda2Bracket returns a proven bracket of the second smallest
// eigenvalue of the Laplacian of g (of S = Q^{1/2} L Q^{1/2} with
// EigenSettings.Scale, whose null vector is Q^{−1/2}1): the algebraic
// connectivity. A disconnected graph (or one node) gives [0, 0].
//
//  1. Up to 400 nodes: dense eigenvalues, λ₂ ± 1e-12 ‖S‖ (the absolute
//     backward error of the eigensolver), clamped at 0.
//  2. Above: Lanczos on the complement of the null vector (full
//     reorthogonalisation, at most 320 steps); its smallest Ritz value θ
//     is ≥ λ₂ by Cauchy interlacing up to rounding, so Hi = θ + 1e-10 ‖S‖.
//     Up to 3000 nodes the lower bound comes from Sylvester's law of
//     inertia: S + zzᵀ − c(I − zzᵀ) (z the unit null vector) is positive
//     definite iff λ₂ > c, tested by Cholesky at c = θ/2^k − m for
//     k = 0, 1, …, 8 (m the backward error of LambdaMaxBracket step 5);
//     above 3000 nodes, and when every test fails, Lo = 0.
//
// With a Threshold t the Cholesky tests start at c = t when t < θ. It
// returns an error wrapping loadlab.ErrInvalid for bad settings and
// panics if g is nil.
func Lambda2Bracket(g *Graph, s *EigenSettings) (Bracket, error) {
	if g == nil {
		panic("linalg: Lambda2Bracket: g is nil")
	}
	n := g.Order()
	if err := s.Validate(n); err != nil {
		return Bracket{}, err
	}
	if n <= 1 || !IsConnected(g) {
		return Bracket{}, nil
	}
	q, t := s.fields()
	op := newOperator(g, q)
	_, norm := op.edgeBounds()
	if n <= denseEigenMax {
		ev, err := op.denseValues("Lambda2Bracket")
		if err != nil {
			return Bracket{}, err
		}
		l2 := ev[1]
		m := 1e-12 * norm
		return Bracket{Lo: max(l2-m, 0), Est: max(l2, 0), Hi: l2 + m}, nil
	}
	z := make([]float64, n)
	for i := range z {
		z[i] = 1
		if op.sq != nil {
			z[i] = 1 / op.sq[i]
		}
	}
	normalize(z)
	lz := newLanczos(op, z)
	theta := math.Inf(1)
	for lz.k < min(n-1, lanczosMax) && !lz.done {
		prev := theta
		theta, _ = lz.extend(lanczosChunk)
		if lz.done || prev-theta < 1e-10*norm {
			break
		}
	}
	b := Bracket{Lo: 0, Est: theta, Hi: theta + 1e-10*norm}
	if n > denseCholMax {
		return b, nil
	}
	c := theta
	if t > 0 && t < theta {
		c = t
	}
	m := 1e-9 * (norm + 1)
	for range 9 {
		if op.liftedAbove(z, c-m) {
			b.Lo = max(c-2*m, 0)
			break
		}
		c /= 2
	}
	return b, nil
}

// liftedAbove reports whether S + zzᵀ − c(I − zzᵀ) is numerically
// positive definite, that is λ₂(S) > c up to rounding (z the unit null
// vector of S).
func (op *operator) liftedAbove(z []float64, c float64) bool {
	a := op.dense()
	raw := a.RawSymmetric()
	for i := range raw.N {
		row := raw.Data[i*raw.Stride : (i+1)*raw.Stride]
		for j := i; j < raw.N; j++ {
			row[j] += (1 + c) * z[i] * z[j]
		}
		row[i] -= c
	}
	var f SPDFactor
	return f.Factorize(a) == nil
}

// lanczos is a Lanczos process for S with full reorthogonalisation from
// a fixed random start (deterministic), optionally restricted to the
// complement of a unit vector z.
type lanczos struct {
	op          *operator
	z           []float64   // deflated unit vector, or nil
	vs          [][]float64 // orthonormal basis
	alpha, beta []float64
	v, w        []float64
	k           int
	done        bool // invariant subspace reached
}

func newLanczos(op *operator, z []float64) *lanczos {
	n := op.g.Order()
	src := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, n)
	for i := range v {
		v[i] = src.NormFloat64()
	}
	lz := &lanczos{op: op, z: z, v: v, w: make([]float64, n)}
	lz.deflate(v)
	normalize(v)
	return lz
}

// deflate removes the z component of x (twice, for orthogonality to
// rounding).
func (lz *lanczos) deflate(x []float64) {
	if lz.z == nil {
		return
	}
	for range 2 {
		c := dot(x, lz.z)
		for i := range x {
			x[i] -= c * lz.z[i]
		}
	}
}

// extend runs up to steps more Lanczos steps and returns the smallest
// and the largest Ritz values.
func (lz *lanczos) extend(steps int) (lo, hi float64) {
	n := len(lz.v)
	for s := 0; s < steps && lz.k < n && !lz.done; s++ {
		if lz.k > 0 {
			b := lz.beta[lz.k-1]
			for t := range lz.w {
				lz.v[t] = lz.w[t] / b
			}
		}
		lz.vs = append(lz.vs, append([]float64(nil), lz.v...))
		lz.op.mul(lz.w, lz.v)
		a := dot(lz.w, lz.v)
		lz.alpha = append(lz.alpha, a)
		lz.k++
		// Full reorthogonalisation (twice is enough).
		for range 2 {
			for _, qi := range lz.vs {
				c := dot(lz.w, qi)
				for t := range lz.w {
					lz.w[t] -= c * qi[t]
				}
			}
		}
		lz.deflate(lz.w)
		b := math.Sqrt(dot(lz.w, lz.w))
		if b < 1e-12*math.Abs(a) {
			lz.done = true
			break
		}
		lz.beta = append(lz.beta, b)
	}
	k := lz.k
	d := append([]float64(nil), lz.alpha...)
	e := append([]float64(nil), lz.beta[:k-1]...)
	if !(gonum.Implementation{}).Dsterf(k, d, e) {
		return math.NaN(), math.NaN()
	}
	return d[0], d[k-1]
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
