package spectral

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/laplacian"
)

// Constants of the Lanczos brackets.
const (
	// eigenSolveTol is the relative residual of the solves behind the λ₂
	// bracket.
	eigenSolveTol = 1e-10
	// roundingSlack multiplies k η (k steps, η the relative error of one
	// operator application) in the margin added to the probabilistic
	// bound for the perturbation of the recurrence (spec throttlers.md
	// §12.8).
	roundingSlack = 10
	// floorWidth is the relative width below which a threshold is left
	// undecided: the rounding of the operator dominates there.
	floorWidth = 1e-10
	// directMaxRatio is the largest estimated ratio h/λ₂ (h ≥ λ_max) for
	// which λ₂ is bracketed by Lanczos on h I − S itself rather than on
	// S⁺ with solves: the steps of the direct route grow like √(h/λ₂),
	// while a solve costs tens of operator applications.
	directMaxRatio = 30
	// directProbe is the number of direct steps after which the ratio is
	// first judged.
	directProbe = 24
)

// sphereTail returns s = π δ²/(2(N − 1)), for which a unit vector drawn
// uniformly from the sphere of an N-dimensional space has squared
// component c² < s along a fixed unit vector with probability at most δ:
// c² ~ Beta(½, (N − 1)/2), whose density is at most x^{−1/2}/B(½, (N−1)/2),
// so P[c² < s] ≤ 2√s/B(½, (N − 1)/2) ≤ √(2(N − 1)s/π) by Wendel's
// inequality Γ(N/2)/Γ((N − 1)/2) ≤ √((N − 1)/2). An eigenspace of
// dimension > 1 only makes the component larger.
func sphereTail(dim int, delta float64) float64 {
	return math.Pi * delta * delta / (2 * float64(max(dim-1, 1)))
}

// nextCheck returns the step of the next convergence check after k.
func nextCheck(k int) int { return k + max(8, k/16) }

// ritzPoint is the largest Ritz value after k steps.
type ritzPoint struct {
	k     int
	theta float64
}

// advance runs Lanczos steps, checking at the steps of nextCheck, until
// check returns true, an invariant subspace is reached, or maxSteps
// steps are done. It records the largest Ritz value of every check in
// hist and returns the last.
func advance(lz *lanczos.Lanczos, hist *[]ritzPoint, maxSteps int, fn string, check func(k int, theta float64) bool) (float64, error) {
	next := 8
	if h := *hist; len(h) > 0 {
		next = nextCheck(h[len(h)-1].k)
	}
	for {
		if err := lz.Step(); err != nil {
			return 0, err
		}
		k := lz.Steps()
		if k < next && !lz.Done && k < maxSteps {
			continue
		}
		next = nextCheck(k)
		theta := lz.RitzTop()
		if !(theta > 0) {
			return 0, loadlab.Wrap(loadlab.ErrNotConverged, "spectral", "%s: the tridiagonal eigensolver failed after %d Lanczos steps (θ = %v)", fn, k, theta)
		}
		*hist = append(*hist, ritzPoint{k, theta})
		if check(k, theta) || lz.Done || k >= maxSteps {
			return theta, nil
		}
	}
}

// earliest returns the first recorded point whose Ritz value is at
// least theta (the last point if none is).
func earliest(hist []ritzPoint, theta float64) ritzPoint {
	for _, p := range hist {
		if p.theta >= theta {
			return p
		}
	}
	return hist[len(hist)-1]
}

// lanczosMax refines b by Lanczos on S (step 4 of LambdaMaxBracket): Hi
// from the Christoffel bound at every check, Lo from the Rayleigh
// quotient of the Ritz vector of the earliest check whose Ritz value is
// within a twentieth of the requested width of the last one (a second
// pass of that many steps). When Lo misses the width, the first pass
// resumes with a tighter stopping rule, twice at most.
func (op *operator) lanczosMax(b Bracket, c eigenConfig) (Bracket, error) {
	n := op.g.Order()
	lz := lanczos.New(n, func(dst, src []float64) error { op.mul(dst, src); return nil }, nil, c.seed)
	hi0, tail := b.Hi, sphereTail(n, c.delta)
	var hist []ritzPoint
	factor := 0.9
	check := func(k int, theta float64) bool {
		// The ghost allowance k (spec throttlers.md §12.8) divides the tail.
		up := lz.UpperBound(theta, hi0, float64(k)/tail) * (1 + roundingSlack*float64(k)*op.rel)
		b.Cert, b.Steps, b.Est = CertLanczos, k, theta
		if up < b.Hi {
			b.Hi, b.Delta = up, c.delta
		}
		return maxDone(b, theta*(1-roundingSlack*float64(k)*op.rel), factor, c)
	}
	for range 3 {
		theta, err := advance(lz, &hist, c.maxSteps, "LambdaMaxBracket", check)
		if err != nil {
			return b, err
		}
		if c.t > 0 && b.Hi < c.t {
			break // a decision by Hi needs no Lo
		}
		target := theta * (1 - 0.05*c.width)
		if c.t > 0 {
			target = max(c.t, theta*(1-1e-12))
		}
		p := earliest(hist, target)
		y, err := lz.RitzVector(lz.RitzCoefficients(p.k, p.theta), math.Sqrt(0.01*c.width))
		if err != nil {
			return b, err
		}
		b.Lo = max(b.Lo, op.newQuotient(op.sqVector(y)).lower())
		if decided(b, c.t) || b.Hi-b.Lo <= c.width*b.Lo || lz.Done || lz.Steps() >= c.maxSteps {
			break
		}
		factor /= 2
	}
	return b.finish(c), nil
}

// finish clamps the estimate into the bracket and sets the status:
// Success when the threshold is decided or the width met.
func (b Bracket) finish(c eigenConfig) Bracket {
	b.Est = min(max(b.Est, b.Lo), b.Hi)
	b.Status = loadlab.IterationLimit
	if decided(b, c.t) || b.Hi-b.Lo <= c.width*b.Lo {
		b.Status = loadlab.Success
	}
	return b
}

// maxDone reports whether the λ_max refinement can stop, with low the
// provisional lower bound (the largest Ritz value less its margin).
func maxDone(b Bracket, low, factor float64, c eigenConfig) bool {
	if c.t > 0 {
		return b.Hi < c.t || low >= c.t || b.Hi-low <= floorWidth*low
	}
	return b.Hi-low <= factor*c.width*low
}

// nullVector returns the unit null vector Q^{−1/2}1/‖Q^{−1/2}1‖ of S.
func (op *operator) nullVector() []float64 {
	z := make([]float64, op.g.Order())
	for i := range z {
		z[i] = 1
		if op.sq != nil {
			z[i] = 1 / op.sq[i]
		}
	}
	dense.Normalize(z)
	return z
}

// pinvApply applies S⁺ on the complement of the null vector by Laplacian
// solves: for b ⊥ Q^{−1/2}1, S x = b is L (Q^{1/2} x) = Q^{−1/2} b, so
// x = Q^{−1/2} L⁺ Q^{−1/2} b up to the null direction, which the
// Lanczos step projects out. It records the largest relative residual.
type pinvApply struct {
	op     *operator
	solver *laplacian.Solver
	tmp    []float64
	maxRes float64
}

func (p *pinvApply) apply(dst, src []float64) error {
	rhs := src
	if p.op.sq != nil {
		for i, v := range src {
			p.tmp[i] = v / p.op.sq[i]
		}
		rhs = p.tmp
	}
	res, err := p.solver.Solve(dst, rhs)
	if err != nil {
		return err
	}
	p.maxRes = max(p.maxRes, res.Residual)
	if p.op.sq != nil {
		for i := range dst {
			dst[i] /= p.op.sq[i]
		}
	}
	return nil
}

// eta returns the relative error of one application of S⁺: with
// ‖L u − b'‖ ≤ r ‖b'‖, ‖x − S⁺b‖ ≤ ‖S⁺‖ ‖S x − b‖ ≤ r √(q_max/q_min) ‖S⁺‖ ‖b‖.
func (p *pinvApply) eta() float64 {
	ratio := 1.0
	if p.op.q != nil {
		lo, hi := math.Inf(1), 0.0
		for _, v := range p.op.q {
			lo, hi = min(lo, v), max(hi, v)
		}
		ratio = math.Sqrt(hi / lo)
	}
	return p.maxRes*ratio + p.op.rel
}

// lanczos2Direct brackets λ₂ by Lanczos on A = h I − S on the
// complement of z, h ≥ λ_max(S) a deterministic bound, so that
// λ_max(A) = h − λ₂ there: Lo = h − (the Christoffel bound on λ_max(A)),
// Hi the Rayleigh quotient of S at the Ritz vector. It gives up (ok =
// false) as soon as the estimated ratio h/λ₂ passes directMaxRatio,
// after directProbe steps or later.
func (op *operator) lanczos2Direct(z []float64, h float64, c eigenConfig) (b Bracket, vec []float64, ok bool, err error) {
	n := op.g.Order()
	apply := func(dst, src []float64) error {
		op.mul(dst, src)
		for i, x := range src {
			dst[i] = h*x - dst[i]
		}
		return nil
	}
	lz := lanczos.New(n, apply, z, c.seed)
	b = Bracket{Hi: op.fiedlerBound(z), Cert: CertLanczos, Delta: c.delta}
	tail := sphereTail(n-1, c.delta)
	var hist []ritzPoint
	factor, ratio := 0.9, 0.0
	check := func(k int, theta float64) bool {
		slack := roundingSlack * float64(k) * 2 * op.rel * h // A's absolute rounding
		b.Lo = max(b.Lo, h-lz.UpperBound(theta, h, float64(k)/tail)-slack)
		b.Steps, b.Est = k, h-theta
		if ratio = h / max(h-theta, 0x1p-1000); k >= directProbe && ratio > directMaxRatio {
			return true
		}
		return twoDone(b, h-theta+slack, factor, c)
	}
	for range 3 {
		theta, err := advance(lz, &hist, c.maxSteps, "Lambda2Bracket", check)
		if err != nil || ratio > directMaxRatio {
			return b, nil, false, err
		}
		if c.t > 0 && b.Lo >= c.t {
			break
		}
		p := earliest(hist, theta*(1-0.05*c.width/ratio))
		y, err := lz.RitzVector(lz.RitzCoefficients(p.k, p.theta), math.Sqrt(0.01*c.width/ratio))
		if err != nil {
			return b, nil, false, err
		}
		vec = op.sqVector(y)
		b.Hi = min(b.Hi, op.newQuotient(vec).upperOnComplement())
		if decided(b, c.t) || b.Hi-b.Lo <= c.width*b.Lo || lz.Done || lz.Steps() >= c.maxSteps {
			break
		}
		factor /= 2
	}
	return b.finish(c), vec, true, nil
}

// lanczos2 brackets λ₂ by Lanczos on S⁺ on the complement of z (step 2
// of Lambda2Bracket): Lo from the Christoffel bound on λ_max(S⁺) = 1/λ₂,
// Hi from the Rayleigh quotient of S at x = S⁺y, y the Ritz vector of
// the earliest check within a twentieth of the width (one inverse
// iteration step, which damps the Ritz vector's components along the
// large eigenvalues of S). Resumes as lanczosMax does.
func (op *operator) lanczos2(z []float64, c eigenConfig) (Bracket, []float64, error) {
	n := op.g.Order()
	solver, err := laplacian.NewSolver(op.g, &laplacian.Settings{Tol: eigenSolveTol}, rand.NewPCG(c.seed[1], c.seed[0]))
	if err != nil {
		return Bracket{}, nil, err
	}
	pa := &pinvApply{op: op, solver: solver}
	if op.sq != nil {
		pa.tmp = make([]float64, n)
	}
	lz := lanczos.New(n, pa.apply, z, c.seed)
	b := Bracket{Hi: op.fiedlerBound(z), Cert: CertLanczos, Delta: c.delta}
	tail := sphereTail(n-1, c.delta)
	var hist []ritzPoint
	var vec []float64
	factor := 0.9
	check := func(k int, theta float64) bool {
		margin := roundingSlack * float64(k) * pa.eta()
		b.Lo = max(b.Lo, (1-margin)/upperBoundOpen(lz, theta, float64(k)/tail))
		b.Steps, b.Est = k, 1/theta
		return twoDone(b, (1+margin)/theta, factor, c)
	}
	for range 3 {
		theta, err := advance(lz, &hist, c.maxSteps, "Lambda2Bracket", check)
		if err != nil {
			return b, nil, err
		}
		if c.t > 0 && b.Lo >= c.t {
			break // a decision by Lo needs no Hi
		}
		p := earliest(hist, theta*(1-0.05*c.width))
		if c.t > 0 {
			p = earliest(hist, max(1/c.t, theta*(1-1e-12)))
		}
		y, err := lz.RitzVector(lz.RitzCoefficients(p.k, p.theta), 0)
		if err != nil {
			return b, nil, err
		}
		x := make([]float64, n)
		if err := pa.apply(x, y); err != nil {
			return b, nil, err
		}
		lz.Deflate(x)
		vec = op.sqVector(x)
		b.Hi = min(b.Hi, op.newQuotient(vec).upperOnComplement())
		if decided(b, c.t) || b.Hi-b.Lo <= c.width*b.Lo || lz.Done || lz.Steps() >= c.maxSteps {
			break
		}
		factor /= 2
	}
	return b.finish(c), vec, nil
}

// twoDone reports whether the λ₂ refinement can stop, with high the
// provisional upper bound (1/θ widened).
func twoDone(b Bracket, high, factor float64, c eigenConfig) bool {
	if c.t > 0 {
		return b.Lo >= c.t || high < c.t || high-b.Lo <= floorWidth*b.Lo
	}
	return high-b.Lo <= factor*c.width*b.Lo
}

// upperBoundOpen is lanczos.Lanczos.UpperBound without a known upper
// end: it doubles from 2θ until the Christoffel function passes limit.
func upperBoundOpen(lz *lanczos.Lanczos, theta, limit float64) float64 {
	hi := 2 * theta
	for range 1100 {
		if lz.Christoffel(hi, limit) > limit {
			break
		}
		hi *= 2
	}
	return lz.UpperBound(theta, hi, limit)
}

// fiedlerBound returns a deterministic upper bound on λ₂(S): the
// Rayleigh quotient of e_u projected off the null vector z,
// S_uu/(1 − z_u²), minimised over u, rounded up.
func (op *operator) fiedlerBound(z []float64) float64 {
	best := math.Inf(1)
	for u, d := range op.diag {
		if den := 1 - z[u]*z[u]; den > 0 {
			best = min(best, d/den)
		}
	}
	return best * (1 + gammaK(op.g.Order()+8))
}
