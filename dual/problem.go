package dual

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/anycast"
	"gonum.org/v1/gonum/floats"
)

// Problem is an instance of P1 (spec §3):
//
//	minimise Σ_i f_i(x_i) + Σ_i h_i(S_i)
//	subject to Σ_j A_j C_ji x_j ≤ S_i,  0 ≤ x_i ≤ 1,  0 ≤ S_i ≤ S̄_i.
//
// Build it with NewProblem or Quadratic; the fields may be read but a
// caller who changes them must call Validate again.
type Problem struct {
	Net  *anycast.Network
	F    []Cost    // f_i(x_i): convex, non-increasing on [0, 1]
	H    []Cost    // h_i(S_i): convex, non-decreasing on [0, S̄_i]
	SMax []float64 // S̄_i, the upper end of S_i (see NewProblem)
}

// NewProblem returns P1 for the network nw with costs f and h. smax gives
// the upper bounds S̄_i on S_i; nil means S̄_i = (Cᵀ A)_i, the largest load
// proxy i can see, which leaves the optimum unchanged (h_i non-decreasing
// makes S_i = S_i^obs ≤ (Cᵀ A)_i optimal) and keeps the super-gradients
// bounded (18). A cost that implements Bounded lowers S̄_i to its Sup.
// S̄_i = +Inf removes the cap; G of (18) is then infinite and Theorem
// III.3 says nothing. It returns an error for nil or missing costs or a
// negative or NaN S̄_i.
func NewProblem(nw *anycast.Network, f, h []Cost, smax []float64) (*Problem, error) {
	if nw == nil {
		return nil, fmt.Errorf("dual: network is nil")
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

// Validate checks that the problem is consistent.
func (p *Problem) Validate() error {
	n := p.Net.N()
	if len(p.F) != n {
		return fmt.Errorf("dual: len(F) = %d, want N = %d", len(p.F), n)
	}
	if len(p.H) != n {
		return fmt.Errorf("dual: len(H) = %d, want N = %d", len(p.H), n)
	}
	if len(p.SMax) != n {
		return fmt.Errorf("dual: len(SMax) = %d, want N = %d", len(p.SMax), n)
	}
	for i := 0; i < n; i++ {
		if p.F[i] == nil {
			return fmt.Errorf("dual: F[%d] is nil", i)
		}
		if p.H[i] == nil {
			return fmt.Errorf("dual: H[%d] is nil", i)
		}
		if v := p.SMax[i]; !(v >= 0) {
			return fmt.Errorf("dual: SMax[%d] = %v: want ≥ 0", i, v)
		}
	}
	return nil
}

// Quadratic returns P1 with the smooth cost pair used in spec §8 item 23:
// f_i(x) = (w/2) A_i (1 − x)² and h_i(S) = (c/2) (S − T_i)₊². It returns
// an error unless w > 0 and c > 0.
func Quadratic(nw *anycast.Network, w, c float64) (*Problem, error) {
	if !(w > 0) || math.IsInf(w, 1) {
		return nil, fmt.Errorf("dual: w = %v: want a finite value > 0", w)
	}
	if !(c > 0) || math.IsInf(c, 1) {
		return nil, fmt.Errorf("dual: c = %v: want a finite value > 0", c)
	}
	if nw == nil {
		return nil, fmt.Errorf("dual: network is nil")
	}
	n := nw.N()
	f := make([]Cost, n)
	h := make([]Cost, n)
	for i := range f {
		f[i] = QuadraticX{W: w, A: nw.A[i]}
		h[i] = Hinge{C: c, T: nw.T[i]}
	}
	return NewProblem(nw, f, h, nil)
}

// N returns the number of nodes.
func (p *Problem) N() int { return p.Net.N() }

func (p *Problem) check(name string, v []float64) {
	if len(v) != p.N() {
		panic(fmt.Sprintf("dual: len(%s) = %d, want %d", name, len(v), p.N()))
	}
}

// Coupling computes β(μ) = C μ, β_i = Σ_j C_ij μ_j (spec §4.3 eq. (14)),
// into dst and returns it (a new slice if dst is nil). It panics on a
// length mismatch.
func Coupling(dst []float64, nw *anycast.Network, mu []float64) []float64 {
	n := nw.N()
	if len(mu) != n {
		panic(fmt.Sprintf("dual: len(mu) = %d, want %d", len(mu), n))
	}
	if dst == nil {
		dst = make([]float64, n)
	} else if len(dst) != n {
		panic(fmt.Sprintf("dual: len(dst) = %d, want %d", len(dst), n))
	}
	for i := 0; i < n; i++ {
		dst[i] = floats.Dot(nw.C.RawRowView(i), mu) // gonum's assembly kernel
	}
	return dst
}

// relax solves the sub-problems (13) for given β and μ into x and s and
// returns the Lagrangian value there, which is D(μ) (spec §4.2 eqs.
// (11)–(13)):
//
//	D(μ) = Σ_i [f_i(x_i*) + A_i β_i x_i*] + Σ_i [h_i(S_i*) − μ_i S_i*].
func (p *Problem) relax(x, s, beta, mu []float64) float64 {
	a := p.Net.A
	var d float64
	for i := range x {
		pr := a[i] * beta[i]
		xi := p.F[i].Tilt(-pr, 0, 1)
		si := p.H[i].Tilt(mu[i], 0, p.SMax[i])
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
// solutions. It returns an error if some μ_i is negative or NaN.
func (p *Problem) Eval(mu []float64) (*Point, error) {
	n := p.N()
	if len(mu) != n {
		return nil, fmt.Errorf("dual: len(mu) = %d, want %d", len(mu), n)
	}
	for i, v := range mu {
		if !(v >= 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("dual: mu[%d] = %v: want a finite value ≥ 0", i, v)
		}
	}
	pt := &Point{
		Mu:   append([]float64(nil), mu...),
		Beta: Coupling(nil, p.Net, mu),
		X:    make([]float64, n),
		S:    make([]float64, n),
		G:    make([]float64, n),
	}
	pt.D = p.relax(pt.X, pt.S, pt.Beta, pt.Mu)
	pt.SObs = p.Net.Loads(nil, pt.X)
	for i := range pt.G {
		pt.G[i] = pt.SObs[i] - pt.S[i] // spec §4.4 eq. (16)
	}
	return pt, nil
}

// Objective returns the P1 objective Σ f_i(x_i) + Σ h_i(S_i) and the
// largest constraint violation max_i (S_i^obs(x) − S_i)₊ (constraint (9)).
// The box constraints are not checked. It panics on a length mismatch.
func (p *Problem) Objective(x, s []float64) (value, violation float64) {
	p.check("x", x)
	p.check("s", s)
	obs := p.Net.Loads(nil, x)
	for i := range x {
		value += p.F[i].Value(x[i]) + p.H[i].Value(s[i])
		violation = math.Max(violation, obs[i]-s[i])
	}
	return value, violation
}

// Reduced returns P(x) = Σ f_i(x_i) + Σ h_i(S_i^obs(x)), the value of the
// feasible point (x, S^obs(x)): with h non-decreasing it is the best P1
// value for this x. It is +Inf when S^obs exceeds S̄ or a barrier.
func (p *Problem) Reduced(x []float64) float64 {
	p.check("x", x)
	return p.reduced(x, p.Net.Loads(nil, x))
}

func (p *Problem) reduced(x, obs []float64) float64 {
	var v float64
	for i := range x {
		if obs[i] > p.SMax[i]*(1+1e-12) {
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
// [0, (Cᵀ A)_i] and S_i* in [0, S̄_i].
func (p *Problem) GBound() float64 {
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
func (p *Problem) MuBound(lower float64) float64 {
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
// which makes the asymptotic gap αG²/2 equal ε/2.
func Step(eps, g float64) float64 { return eps / (g * g) }

// Iterations returns K = ⌈R² G²/ε²⌉, the number of steps after which the
// Theorem III.3 bound with α = ε/G² is at most ε (spec §4.6), where R
// bounds ‖μ(0) − μ*‖₂.
func Iterations(eps, g, r float64) int {
	k := math.Ceil(r * r * g * g / (eps * eps))
	if k > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(math.Max(1, k))
}

// Bound returns the Theorem III.3 bound on D* − max_{k<K} D(μ(k)) after K
// steps of size α (spec §4.6):
//
//	R²/(2αK) + αG²/2,  R ≥ ‖μ(0) − μ*‖₂.
func Bound(r, alpha, g float64, k int) float64 {
	return r*r/(2*alpha*float64(k)) + alpha*g*g/2
}
