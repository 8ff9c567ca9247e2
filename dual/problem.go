package dual

import (
	"errors"
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"gonum.org/v1/gonum/floats"
)

// Problem is an instance of P1 (spec §3):
//
//	minimise Σ_i f_i(x_i) + Σ_i h_i(S_i)
//	subject to Σ_j A_j C_ji x_j ≤ S_i,  0 ≤ x_i ≤ 1,  0 ≤ S_i ≤ S̄_i.
//
// Build it with NewProblem, NewQuadratic or Quadratic. The fields may be
// read; a caller who changes them (or the network's) must call Validate
// again, and Solve, Primal and Eval do so themselves.
type Problem struct {
	Net  *anycast.Network
	F    []Cost    // f_i(x_i): convex, non-increasing on [0, 1]
	H    []Cost    // h_i(S_i): convex, non-decreasing on [0, S̄_i]
	SMax []float64 // S̄_i, the upper end of S_i (see NewProblem)

	quad *quadSpec // set by NewQuadratic: the costs follow the network
}

// NewProblem returns P1 for the network nw with costs f and h. smax gives
// the upper bounds S̄_i on S_i; nil means S̄_i = (Cᵀ A)_i, the largest load
// proxy i can see, which leaves the optimum unchanged (h_i non-decreasing
// makes S_i = S_i^obs ≤ (Cᵀ A)_i optimal) and keeps the super-gradients
// bounded (18). A cost that implements Bounded lowers S̄_i to its Sup.
// S̄_i = +Inf removes the cap; G of (18) is then infinite and Theorem
// III.3 says nothing. It returns the error of Validate for a bad network,
// nil, missing or invalid costs or a negative or NaN S̄_i. It panics if nw
// is nil.
func NewProblem(nw *anycast.Network, f, h []Cost, smax []float64) (*Problem, error) {
	if nw == nil {
		panic("dual: NewProblem with a nil *anycast.Network")
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	n := nw.N()
	if smax == nil {
		smax = nw.MaxLoads()
	} else {
		smax = append([]float64(nil), smax...)
	}
	if len(smax) == n {
		for i, c := range h {
			if b, ok := c.(Bounded); ok && i < n && b.Sup() < smax[i] {
				smax[i] = b.Sup()
			}
		}
	}
	p := &Problem{Net: nw, F: append([]Cost(nil), f...), H: append([]Cost(nil), h...), SMax: smax}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// Validate checks the whole problem, its network included, so that a
// problem whose fields (or whose network's fields) were changed after
// NewProblem is caught before use: the network (anycast's Validate), the
// lengths of F, H and SMax, every cost (non-nil, its own Validate, finite
// values f_i(0), f_i(1), h_i(0) and, for a cost without a barrier, h_i(S̄_i)),
// SMax_i ≥ 0 and not NaN, and that LinearX and QuadraticX costs carry the
// network's A_i (a copy that drifted from the network is an error). A
// problem built by NewQuadratic also checks that its Hinge thresholds are
// the network's T_i. Errors wrap loadlab.ErrInvalid. It panics if p is nil.
func (p *Problem) Validate() error {
	if p == nil {
		panic("dual: Validate on a nil *Problem")
	}
	if p.Net == nil {
		return loadlab.Invalid("dual", "Problem.Net is nil")
	}
	if err := p.Net.Validate(); err != nil {
		return err
	}
	n := p.Net.N()
	for _, l := range []struct {
		name string
		len  int
	}{{"F", len(p.F)}, {"H", len(p.H)}, {"SMax", len(p.SMax)}} {
		if l.len != n {
			return loadlab.Invalid("dual", "len(%s) = %d, want N = %d", l.name, l.len, n)
		}
	}
	for i := 0; i < n; i++ {
		if err := p.validateNode(i); err != nil {
			return err
		}
	}
	return nil
}

// validateNode checks the costs and the cap of node i.
func (p *Problem) validateNode(i int) error {
	f, h, sm := p.F[i], p.H[i], p.SMax[i]
	if f == nil {
		return loadlab.Invalid("dual", "F[%d] is nil", i)
	}
	if h == nil {
		return loadlab.Invalid("dual", "H[%d] is nil", i)
	}
	if !(sm >= 0) {
		return loadlab.Invalid("dual", "SMax[%d] = %v, want ≥ 0", i, sm)
	}
	for _, c := range []struct {
		name string
		cost Cost
	}{{"F", f}, {"H", h}} {
		if v, ok := c.cost.(interface{ Validate() error }); ok {
			if err := v.Validate(); err != nil {
				var pe *paramError
				if errors.As(err, &pe) {
					return loadlab.Invalid("dual", "%s[%d]: %s", c.name, i, pe.msg)
				}
				return loadlab.Invalid("dual", "%s[%d]: %v", c.name, i, err)
			}
		}
	}
	if a, ok := costA(f); ok && a != p.Net.A[i] {
		return loadlab.Invalid("dual", "F[%d] has A = %v but Net.A[%d] = %v: the cost's copy of the demand drifted from the network (rebuild the problem)", i, a, i, p.Net.A[i])
	}
	if p.quad != nil {
		if hg, ok := h.(Hinge); !ok || hg.T != p.Net.T[i] {
			return loadlab.Invalid("dual", "H[%d] = %v but Net.T[%d] = %v: the NewQuadratic cost drifted from the network (rebuild the problem)", i, h, i, p.Net.T[i])
		}
	}
	for _, v := range []struct {
		name string
		val  float64
	}{{"F[%d](0)", f.Value(0)}, {"F[%d](1)", f.Value(1)}, {"H[%d](0)", h.Value(0)}} {
		if math.IsNaN(v.val) || math.IsInf(v.val, 0) {
			return loadlab.Invalid("dual", v.name+" = %v, want a finite cost", i, v.val)
		}
	}
	if _, barrier := h.(Bounded); !barrier && !math.IsInf(sm, 1) {
		if v := h.Value(sm); math.IsNaN(v) || math.IsInf(v, 0) {
			return loadlab.Invalid("dual", "H[%d](SMax[%d] = %v) = %v, want a finite cost on [0, S̄_i]", i, i, sm, v)
		}
	}
	return nil
}

// costA returns the demand A a cost of x carries, for the families that
// define f_i through A_i.
func costA(c Cost) (float64, bool) {
	switch f := c.(type) {
	case LinearX:
		return f.A, true
	case QuadraticX:
		return f.A, true
	}
	return 0, false
}

// NewQuadratic returns P1 with per-node smooth costs read from the
// network (spec §7 rows 2–3):
//
//	f_i(x) = (w_i/2) A_i (1 − x)²,   h_i(S) = (c_i/2) (S − T_i)₊²,
//
// with A_i and T_i taken from nw, so the costs cannot drift from it:
// Validate reports a network whose A or T changed after construction. It
// returns an error wrapping loadlab.ErrInvalid unless len(w) = len(c) = N
// and every w_i, c_i is finite and > 0. It panics if nw is nil.
func NewQuadratic(nw *anycast.Network, w, c []float64) (*Problem, error) {
	if nw == nil {
		panic("dual: NewQuadratic with a nil *anycast.Network")
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	n := nw.N()
	for _, v := range []struct {
		name string
		x    []float64
	}{{"w", w}, {"c", c}} {
		if len(v.x) != n {
			return nil, loadlab.Invalid("dual", "len(%s) = %d, want N = %d", v.name, len(v.x), n)
		}
		for i, x := range v.x {
			if !(x > 0) || math.IsInf(x, 1) {
				return nil, loadlab.Invalid("dual", "%s[%d] = %v, want a finite value > 0", v.name, i, x)
			}
		}
	}
	f := make([]Cost, n)
	h := make([]Cost, n)
	for i := range f {
		f[i] = QuadraticX{W: w[i], A: nw.A[i]}
		h[i] = Hinge{C: c[i], T: nw.T[i]}
	}
	p, err := NewProblem(nw, f, h, nil)
	if err != nil {
		return nil, err
	}
	p.quad = &quadSpec{w: append([]float64(nil), w...), c: append([]float64(nil), c...)}
	return p, nil
}

// quadSpec records the weights of a problem built by NewQuadratic.
type quadSpec struct{ w, c []float64 }

// Quadratic returns NewQuadratic with the same weights w and c at every
// node: f_i(x) = (w/2) A_i (1 − x)² and h_i(S) = (c/2) (S − T_i)₊², the
// smooth cost pair of spec §8 item 23. It returns an error unless w > 0
// and c > 0 are finite. It panics if nw is nil.
func Quadratic(nw *anycast.Network, w, c float64) (*Problem, error) {
	if nw == nil {
		panic("dual: Quadratic with a nil *anycast.Network")
	}
	if !(w > 0) || math.IsInf(w, 1) {
		return nil, loadlab.Invalid("dual", "w = %v, want a finite value > 0", w)
	}
	if !(c > 0) || math.IsInf(c, 1) {
		return nil, loadlab.Invalid("dual", "c = %v, want a finite value > 0", c)
	}
	n := nw.N()
	ws, cs := make([]float64, n), make([]float64, n)
	for i := range ws {
		ws[i], cs[i] = w, c
	}
	return NewQuadratic(nw, ws, cs)
}

// N returns the number of nodes. It panics if p or p.Net is nil.
func (p *Problem) N() int { return p.Net.N() }

// Coupling computes β(μ) = C μ, β_i = Σ_j C_ij μ_j (spec §4.3 eq. (14)),
// into dst and returns it (a new slice if dst is nil), in O(nnz(C)). It
// validates nw and μ: an invalid network, len(mu) ≠ N or a μ_i that is
// negative, NaN or infinite is an error wrapping loadlab.ErrInvalid,
// never a NaN β. The solvers' inner loop uses the
// network's product directly. It panics if nw is nil or a non-nil dst
// has the wrong length.
func Coupling(dst []float64, nw *anycast.Network, mu []float64) ([]float64, error) {
	if nw == nil {
		panic("dual: Coupling with a nil *anycast.Network")
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	n := nw.N()
	if dst != nil && len(dst) != n {
		panic(fmt.Sprintf("dual: Coupling: len(dst) = %d, want %d", len(dst), n))
	}
	if err := checkMu(mu, n); err != nil {
		return nil, err
	}
	return nw.MulC(dst, mu), nil // O(nnz); dense rows by gonum's assembly dot
}

// checkMu validates multipliers: len(mu) = n and every μ_i finite ≥ 0.
func checkMu(mu []float64, n int) error {
	if len(mu) != n {
		return loadlab.Invalid("dual", "len(mu) = %d, want N = %d", len(mu), n)
	}
	for i, v := range mu {
		if !(v >= 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("dual", "mu[%d] = %v, want a finite value ≥ 0", i, v)
		}
	}
	return nil
}

// sMaxSlack is the relative rounding allowed above S̄_i: S^obs(x) and
// (Cᵀ A)_i = S̄_i are sums of the same terms in different orders, so a
// load at x = 1 may exceed S̄_i in its last bits (reduced uses it too).
const sMaxSlack = 1e-12

// checkBox validates a vector of P1 variables: len(v) = n and every
// v_i finite in [0, hi_i(1 + sMaxSlack)] (hi = nil: [0, 1] exactly; an
// infinite hi_i leaves v_i unbounded above but finite).
func checkBox(name string, v []float64, n int, hi []float64) error {
	if len(v) != n {
		return loadlab.Invalid("dual", "len(%s) = %d, want N = %d", name, len(v), n)
	}
	for i, z := range v {
		top := 1.0
		if hi != nil {
			top = hi[i] * (1 + sMaxSlack)
		}
		if !(z >= 0 && z <= top) || math.IsInf(z, 1) {
			return loadlab.Invalid("dual", "%s[%d] = %v, want a finite value in [0, %v]", name, i, z, top)
		}
	}
	return nil
}

// relax solves the sub-problems (13) for given β and μ into x and s and
// returns the Lagrangian value there, which is D(μ) (spec §4.2 eqs.
// (11)–(13)):
//
//	D(μ) = Σ_i [f_i(x_i*) + A_i β_i x_i*] + Σ_i [h_i(S_i*) − μ_i S_i*].
//
// For μ_i < 0 (only the extrapolated points of the accelerated rule) the
// S term is continued with S_i* = S_i*(0⁺): the value h_i(S_i*) − μ_i S_i*
// is linear there with the slope of μ_i = 0⁺, so the continued function is
// concave and its gradient as Lipschitz as on μ ≥ 0 (DERIVED). It is not a
// lower bound on P* at such points.
func (p *Problem) relax(x, s, beta, mu []float64) float64 {
	a := p.Net.A
	var d float64
	for i := range x {
		pr := a[i] * beta[i]
		xi := p.F[i].Tilt(-pr, 0, 1)
		si := p.H[i].Tilt(math.Max(mu[i], 0), 0, p.SMax[i]) // extension to μ < 0: see below
		x[i], s[i] = xi, si
		d += p.F[i].Value(xi) + pr*xi + p.H[i].Value(si) - mu[i]*si
	}
	return d
}

// Point is the dual function and its super-gradient at one μ.
type Point struct {
	Mu   []float64 // μ ≥ 0
	Beta []float64 // β(μ) = C μ (14)
	X, S []float64 // sub-problem solutions x*(μ), S*(μ) (13)
	SObs []float64 // S^obs(x*) = Σ_j A_j C_ji x_j* (16)
	G    []float64 // super-gradient S^obs − S* (16)
	D    float64   // dual value D(μ) (11)
}

// Eval returns D(μ) with its super-gradient and the sub-problem
// solutions. It validates p (Validate) and returns an error wrapping
// loadlab.ErrInvalid for a bad problem, a wrong len(mu), a μ_i that is
// negative, NaN or infinite, or multipliers so large that D(μ) overflows
// (never a NaN value). It panics if p is nil.
func (p *Problem) Eval(mu []float64) (*Point, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p.eval(mu)
}

// eval is Eval for a problem already validated.
func (p *Problem) eval(mu []float64) (*Point, error) {
	n := p.N()
	if err := checkMu(mu, n); err != nil {
		return nil, err
	}
	pt := &Point{
		Mu:   append([]float64(nil), mu...),
		Beta: p.Net.MulC(nil, mu), // (14)
		X:    make([]float64, n),
		S:    make([]float64, n),
		G:    make([]float64, n),
	}
	pt.D = p.relax(pt.X, pt.S, pt.Beta, pt.Mu)
	if math.IsNaN(pt.D) || math.IsInf(pt.D, 0) {
		return nil, loadlab.Invalid("dual", "D(mu) = %v: the dual value overflows at max_i mu_i = %v, want multipliers whose terms A_i β_i and μ_i S_i are finite", pt.D, floats.Max(mu))
	}
	pt.SObs = p.Net.Loads(nil, pt.X)
	for i := range pt.G {
		pt.G[i] = pt.SObs[i] - pt.S[i] // spec §4.4 eq. (16)
	}
	return pt, nil
}

// Objective returns the P1 objective Σ f_i(x_i) + Σ h_i(S_i) and the
// largest constraint violation max_i (S_i^obs(x) − S_i)₊ (constraint (9)).
// It validates p (Validate) and the point: len(x) = len(s) = N, every x_i
// finite in [0, 1] and every S_i finite in [0, S̄_i] (the box constraints
// of P1); otherwise it returns an error wrapping loadlab.ErrInvalid,
// never a NaN value. It panics if p is nil.
func (p *Problem) Objective(x, s []float64) (value, violation float64, err error) {
	if err := p.validatePoint(x); err != nil {
		return 0, 0, err
	}
	if err := checkBox("s", s, p.N(), p.SMax); err != nil {
		return 0, 0, err
	}
	obs := p.Net.Loads(nil, x)
	for i := range x {
		value += p.F[i].Value(x[i]) + p.H[i].Value(s[i])
		violation = math.Max(violation, obs[i]-s[i])
	}
	return value, violation, nil
}

// validatePoint validates p and an x for Objective and Reduced.
func (p *Problem) validatePoint(x []float64) error {
	if p == nil {
		panic("dual: Objective or Reduced on a nil *Problem")
	}
	if err := p.Validate(); err != nil {
		return err
	}
	return checkBox("x", x, p.N(), nil)
}

// Reduced returns P(x) = Σ f_i(x_i) + Σ h_i(S_i^obs(x)), the value of the
// point (x, S^obs(x)): with h non-decreasing it is the best P1 value for
// this x. It is +Inf when S^obs exceeds S̄ or a barrier (the point is
// infeasible, not the data bad). Like Objective it validates p and x
// (len(x) = N, x_i finite in [0, 1]) and returns an error wrapping
// loadlab.ErrInvalid otherwise. It panics if p is nil.
func (p *Problem) Reduced(x []float64) (float64, error) {
	if err := p.validatePoint(x); err != nil {
		return 0, err
	}
	return p.reduced(x, p.Net.Loads(nil, x)), nil
}

// reduced is Reduced for a valid p and x with obs = S^obs(x); it is the
// inner loop of the solvers.
func (p *Problem) reduced(x, obs []float64) float64 {
	var v float64
	for i := range x {
		if obs[i] > p.SMax[i]*(1+sMaxSlack) {
			return math.Inf(1)
		}
		v += p.F[i].Value(x[i]) + p.H[i].Value(obs[i])
	}
	return v
}

// GBound returns G of spec §4.5 eq. (18):
//
//	G² = Σ_i max((Cᵀ A)_i, S̄_i)²,
//
// a bound on ‖S^obs − S*‖₂ valid for every μ ≥ 0, because S^obs_i lies in
// [0, (Cᵀ A)_i] and S_i* in [0, S̄_i]. It is +Inf when some S̄_i is. It
// validates p first and returns the error of Validate. It panics if p is
// nil.
func (p *Problem) GBound() (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	return p.gBound(), nil
}

// gBound is GBound for a valid p.
func (p *Problem) gBound() float64 {
	ml := p.Net.MaxLoads()
	var g2 float64
	for i, m := range ml {
		v := math.Max(m, p.SMax[i])
		g2 += v * v
	}
	return math.Sqrt(g2)
}

// slater evaluates the Slater point x = 0, S = Ŝ(θ) with Ŝ_i = θ S̄_i
// (θ > 0), or Ŝ_i = min(S̄_i, T_i) for θ = 0. It returns P(0, Ŝ) and
// min_i Ŝ_i over the nodes with S̄_i > 0.
func (p *Problem) slater(theta float64) (value, minSlack float64) {
	minSlack = math.Inf(1)
	for i := 0; i < p.N(); i++ {
		value += p.F[i].Value(0)
		si := p.SMax[i]
		if si == 0 {
			// Nothing can reach proxy i: its constraint is 0 ≤ 0 and μ_i
			// does not enter D, so it is left out of the bound.
			value += p.H[i].Value(0)
			continue
		}
		if theta > 0 {
			si *= theta
		} else {
			si = math.Min(si, p.Net.T[i])
		}
		value += p.H[i].Value(si)
		minSlack = math.Min(minSlack, si)
	}
	return value, minSlack
}

// slaterThetas are the Slater points MuBound tries.
var slaterThetas = [...]float64{0, 1, 0.75, 0.5, 0.25}

// MuBound returns a bound on ‖μ*‖₂ for a dual optimum μ*, from a Slater
// point x = 0, S = Ŝ:
//
//	Σ_i μ_i* Ŝ_i ≤ P(0, Ŝ) − D*  ≤  P(0, Ŝ) − lower,
//
// so ‖μ*‖₂ ≤ ‖μ*‖₁ ≤ (P(0, Ŝ) − lower)/min_i Ŝ_i, for any lower ≤ D*
// (for example D(0), or the best dual value found). It takes the best of
// Ŝ_i = min(S̄_i, T_i) and Ŝ_i = θ S̄_i for θ ∈ {1, ¾, ½, ¼}. Components
// with S̄_i = 0 are excluded: μ_i does not enter D there, so μ_i* may be
// taken equal to μ_i(0) (DERIVED, not in the paper).
//
// It validates p and returns an error wrapping loadlab.ErrInvalid for a
// lower that is NaN or infinite, never a NaN bound. It panics if p is
// nil.
func (p *Problem) MuBound(lower float64) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	if math.IsNaN(lower) || math.IsInf(lower, 0) {
		return 0, loadlab.Invalid("dual", "MuBound: lower = %v, want a finite lower bound on D*", lower)
	}
	return p.muBound(lower), nil
}

// muBound is MuBound for a valid p and a finite lower.
func (p *Problem) muBound(lower float64) float64 {
	best := math.Inf(1)
	for _, th := range slaterThetas {
		v, slack := p.slater(th)
		if math.IsInf(slack, 1) {
			return 0
		}
		if math.IsInf(v, 1) || math.IsNaN(v) || slack == 0 {
			continue
		}
		best = math.Min(best, math.Max(0, v-lower)/slack)
	}
	return best
}

// Step returns the constant step α = ε/G² of Theorem III.3 (spec §4.6),
// which makes the asymptotic gap αG²/2 equal ε/2. It returns an error
// wrapping loadlab.ErrInvalid unless ε and G are finite and > 0.
func Step(eps, g float64) (float64, error) {
	if err := positive("eps", eps, "g", g); err != nil {
		return 0, err
	}
	a := eps / (g * g)
	if !(a > 0) || math.IsInf(a, 1) {
		return 0, loadlab.Invalid("dual", "Step: eps/g² = %v/%v² is not a finite positive number", eps, g)
	}
	return a, nil
}

// Iterations returns K = ⌈R² G²/ε²⌉ (at least 1), the number of steps
// after which the Theorem III.3 bound with α = ε/G² is at most ε (spec
// §4.6), where R ≥ 0 bounds ‖μ(0) − μ*‖₂. It returns an error wrapping
// loadlab.ErrInvalid unless ε, G > 0 and R ≥ 0 are finite, and one
// wrapping loadlab.ErrTooLarge if K exceeds 2⁵³ (where a float64 count
// is no longer exact).
func Iterations(eps, g, r float64) (int, error) {
	if err := positive("eps", eps, "g", g); err != nil {
		return 0, err
	}
	if !(r >= 0) || math.IsInf(r, 1) {
		return 0, loadlab.Invalid("dual", "Iterations: r = %v, want a finite value ≥ 0", r)
	}
	k := math.Ceil(r * r * g * g / (eps * eps))
	if !(k <= 1<<53) {
		return 0, loadlab.TooLarge("dual", "Iterations: K = ⌈r²g²/eps²⌉ = %v with eps = %v, g = %v, r = %v", k, eps, g, r)
	}
	return int(math.Max(1, k)), nil
}

// theoremIterations is Iterations for Solve's report, capped at
// math.MaxInt32 instead of failing (K is informative there).
func theoremIterations(eps, g, r float64) int {
	k, err := Iterations(eps, g, r)
	if err != nil || k > math.MaxInt32 {
		return math.MaxInt32
	}
	return k
}

// Bound returns the Theorem III.3 bound on D* − max_{k<K} D(μ(k)) after K
// steps of size α (spec §4.6):
//
//	R²/(2αK) + αG²/2,  R ≥ ‖μ(0) − μ*‖₂.
//
// It returns an error wrapping loadlab.ErrInvalid unless α > 0, G ≥ 0 and
// R ≥ 0 are finite and K ≥ 1.
func Bound(r, alpha, g float64, k int) (float64, error) {
	if err := positive("alpha", alpha); err != nil {
		return 0, err
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"r", r}, {"g", g}} {
		if !(v.x >= 0) || math.IsInf(v.x, 1) {
			return 0, loadlab.Invalid("dual", "Bound: %s = %v, want a finite value ≥ 0", v.name, v.x)
		}
	}
	if k < 1 {
		return 0, loadlab.Invalid("dual", "Bound: k = %d, want ≥ 1", k)
	}
	return r*r/(2*alpha*float64(k)) + alpha*g*g/2, nil
}

// positive checks name/value pairs for finite values > 0.
func positive(nv ...any) error {
	for i := 0; i < len(nv); i += 2 {
		v := nv[i+1].(float64)
		if !(v > 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("dual", "%s = %v, want a finite value > 0", nv[i], v)
		}
	}
	return nil
}

// SmoothBound returns a Lipschitz constant of the dual gradient ∇D(μ) =
// S^obs(x*(Cμ)) − S*(μ) on μ ≥ 0, or +Inf when some cost has no known
// bound (LinearX, Overload and Func have jumps in their sub-problem
// solutions, so D is not smooth). DERIVED: with d_i ≥ |∂x_i*/∂β_i|·A_i
// and t_i ≥ |∂S_i*/∂μ_i|, the Jacobian of ∇D is −Cᵀ diag(d) C − diag(t)
// almost everywhere; Cᵀ diag(d) C is symmetric with non-negative entries
// and row sums Σ_i C_ij d_i (rows of C sum to 1), so its spectral norm is
// at most max_j (Cᵀ d)_j, and
//
//	L ≤ max_j Σ_i C_ij d_i + max_i t_i.
//
// Per family (spec §7): QuadraticX d = A/W (x* = clip(1 − β/W)); Hinge
// t = 1/C (S* = T + μ/C); Delay t = T²/2 (S* = T − √(T/μ) for μ ≥ 1/T,
// slope ½√T μ^(−3/2)); Exp t = e^(κT)/κ² (S* = T + ln(μ/κ)/κ where
// positive, μ ≥ κe^(−κT), slope 1/(κμ)).
//
// It validates p first and returns the error of Validate. It panics if p
// is nil.
func (p *Problem) SmoothBound() (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	return p.smoothBound(), nil
}

// smoothBound is SmoothBound for a valid p.
func (p *Problem) smoothBound() float64 {
	n := p.N()
	d := make([]float64, n) // d_i, then Cᵀd accumulated row by row
	for i := range d {
		if d[i] = xSlope(p.F[i], p.Net.A[i]); math.IsInf(d[i], 1) {
			return math.Inf(1)
		}
	}
	ctd := p.Net.MulCT(nil, d) // (Cᵀd)_j = Σ_i d_i C_ij, O(nnz)
	var ls float64
	for i := 0; i < n; i++ {
		ls = math.Max(ls, sSlope(p.H[i]))
	}
	// (1 + RowSumTol): the rows of C sum to 1 only within RowSumTol.
	return (floats.Max(ctd) + ls) * (1 + anycast.RowSumTol)
}

// xSlope bounds A·|∂x*/∂β| for a cost of x at demand a.
func xSlope(c Cost, a float64) float64 {
	if f, ok := c.(QuadraticX); ok {
		return a / f.W
	}
	if a == 0 {
		return 0 // x does not enter the loads
	}
	return math.Inf(1)
}

// sSlope bounds |∂S*/∂μ| for a cost of S.
func sSlope(c Cost) float64 {
	switch h := c.(type) {
	case Hinge:
		return 1 / h.C
	case Delay:
		return h.T * h.T / 2
	case Exp:
		return math.Exp(h.Kappa*h.T) / (h.Kappa * h.Kappa)
	}
	return math.Inf(1)
}
