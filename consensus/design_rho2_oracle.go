package consensus

import (
	"errors"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// errRho2Unstable marks weights outside the stable set (γλ_n ≥ 2, or
// not certified below 2) where the design starts.
var errRho2Unstable = errors.New("consensus: unstable weights")

// rho2Parts are the pieces of ρ₂ and of its gradient at w (spec
// §13.14): a = tr L†, q2 = tr_{1⊥} Q with Q = (2I − γL)⁻¹, s_e =
// ‖L†b_e‖² and t_e = ‖Q b_e‖² (the oracle's buffers), exact or of a
// fixed sketch.
type rho2Parts struct {
	a, q2 float64
	s, t  []float64
}

// value returns ρ₂ = ½(a/γ + q2) (spec §4.4, σ = 1).
func (r rho2Parts) value(gamma float64) float64 { return 0.5 * (r.a/gamma + r.q2) }

// grad writes ∂ρ₂/∂w_e = ½(−s_e/γ + γ t_e) into g.
func (r rho2Parts) grad(g []float64, gamma float64) {
	for i := range g {
		g[i] = 0.5 * (-r.s[i]/gamma + gamma*r.t[i])
	}
}

// rho2Oracle evaluates the parts at w; ok is false outside the domain
// (disconnected, or not certified stable).
type rho2Oracle interface {
	eval(w []float64) (r rho2Parts, ok bool, err error)
	solves() int
	shiftedSolves() int
}

// denseRho2Oracle evaluates the parts exactly from the inverses of
// L + αJ/n and 2I − γL (spec §12.7).
type denseRho2Oracle struct {
	p          TraceWeightProblem
	gamma      float64
	l, a       *mat.SymDense
	kinv, qinv mat.SymDense
	ch         dense.SPDFactor
	s, t       []float64
}

func newDenseRho2Oracle(p TraceWeightProblem, gamma float64) *denseRho2Oracle {
	n, m := p.Nodes, len(p.Links)
	return &denseRho2Oracle{p: p, gamma: gamma, l: mat.NewSymDense(n, nil), a: mat.NewSymDense(n, nil),
		s: make([]float64, m), t: make([]float64, m)}
}

func (o *denseRho2Oracle) solves() int        { return 0 }
func (o *denseRho2Oracle) shiftedSolves() int { return 0 }

func (o *denseRho2Oracle) eval(w []float64) (rho2Parts, bool, error) {
	if !wgraph.IsConnected(o.p.graph(w)) {
		return rho2Parts{}, false, nil
	}
	raw := o.l.RawSymmetric()
	clear(raw.Data)
	for i, lk := range o.p.Links {
		u, v := min(lk.U, lk.V), max(lk.U, lk.V)
		raw.Data[u*raw.Stride+u] += w[i]
		raw.Data[v*raw.Stride+v] += w[i]
		raw.Data[u*raw.Stride+v] -= w[i]
	}
	dense.Shift(o.a, o.l, 2, o.gamma) // 2I − γL: positive definite iff stable
	if o.ch.Factorize(o.a) != nil {
		return rho2Parts{}, false, nil
	}
	o.ch.InverseTo(&o.qinv)
	alpha := dense.Lift(o.a, o.l)
	if o.ch.Factorize(o.a) != nil {
		return rho2Parts{}, false, nil
	}
	o.ch.InverseTo(&o.kinv)
	r := rho2Parts{a: mat.Trace(&o.kinv) - 1/alpha, q2: mat.Trace(&o.qinv) - 0.5, s: o.s, t: o.t}
	for i, lk := range o.p.Links {
		o.s[i], _ = normB(&o.kinv, lk.U, lk.V)
		o.t[i], _ = normB(&o.qinv, lk.U, lk.V)
	}
	return r, true, nil
}

// sketchRho2Oracle evaluates the parts of a fixed sketch: the trace
// oracle's â and ŝ, and q̂2 = (1/k) Σ_j q_jᵀ y_j, t̂_e = (1/k) Σ_j
// (b_eᵀ y_j)² with y_j = Q P q_j from warm-started conjugate gradients
// on 2I − γL, after a stability check by spectral.LambdaMaxBracket
// with threshold 2/γ.
type sketchRho2Oracle struct {
	tr      *sketchTraceOracle
	gamma   float64
	tol     float64
	y       [][]float64 // the columns' last Q P q_j
	q, t    []float64
	cg      *shiftedCG
	nshift  int
	lastBr  spectral.Bracket
	bracket func(g *wgraph.Graph) (spectral.Bracket, error)
}

func newSketchRho2Oracle(p TraceWeightProblem, gamma float64, set ScaleDesignSettings, seed uint64) *sketchRho2Oracle {
	n := p.Nodes
	o := &sketchRho2Oracle{tr: newSketchTraceOracle(p, set, seed), gamma: gamma, tol: set.solverSettings().Tol,
		y: make([][]float64, set.Probes), q: make([]float64, n), t: make([]float64, len(p.Links))}
	for j := range o.y {
		o.y[j] = make([]float64, n)
	}
	o.bracket = func(g *wgraph.Graph) (spectral.Bracket, error) { return stableBracket(g, gamma, seed) }
	return o
}

// stableBracket brackets λ_n(L) against the threshold 2/γ.
func stableBracket(g *wgraph.Graph, gamma float64, seed uint64) (spectral.Bracket, error) {
	br, err := spectral.LambdaMaxBracket(g, &spectral.EigenSettings{Threshold: 2 / gamma, Src: loadlab.Stream(seed, 5)})
	if errors.Is(err, loadlab.ErrNotConverged) {
		return br, nil // undecided: not certified stable
	}
	return br, err
}

func (o *sketchRho2Oracle) solves() int        { return o.tr.solves() }
func (o *sketchRho2Oracle) shiftedSolves() int { return o.nshift }

func (o *sketchRho2Oracle) eval(w []float64) (rho2Parts, bool, error) {
	g := o.tr.p.graph(w)
	if !wgraph.IsConnected(g) {
		return rho2Parts{}, false, nil
	}
	br, err := o.bracket(g)
	if err != nil {
		return rho2Parts{}, false, err
	}
	if !(br.Hi < 2/o.gamma) {
		return rho2Parts{}, false, nil
	}
	o.lastBr = br
	a, s, ok, err := o.tr.eval(w)
	if err != nil || !ok {
		return rho2Parts{}, ok, err
	}
	op := laplacian.NewOperator(g)
	if o.cg == nil {
		o.cg = rho2CG(op, o.gamma, o.tol)
	}
	o.cg.op = op
	clear(o.t)
	var q2 float64
	for j, y := range o.y {
		gaussian(o.q, o.tr.seed, 1, j)
		it, err := o.cg.solveFrom(y, o.q)
		if err != nil {
			return rho2Parts{}, false, err
		}
		if it > 0 {
			o.nshift++
		}
		q2 += dense.Dot(o.q, y)
		accumulateEdges(o.t, o.tr.p.Links, y)
	}
	k := float64(len(o.y))
	for i := range o.t {
		o.t[i] /= k
	}
	return rho2Parts{a: a, q2: q2 / k, s: s, t: o.t}, true, nil
}

// rho2CG returns the warm-started solver of 2I − γL of the ρ₂ designs
// (on op, which the caller replaces as the weights change).
func rho2CG(op *laplacian.Operator, gamma, tol float64) *shiftedCG {
	c := newShiftedCG(op, gamma, tol, 20000)
	c.who = "DesignRho2AtScale"
	return c
}

// rho2Envelope turns the certificate's sketch sums into the bound's
// inputs (spec §13.14): s_e ≤ ŝ_e/(1 − ε) and t_e ≥ max(t̂_e/(1 + ε), ½)
// (Q ⪰ ½ I on 1⊥ and ‖b_e‖² = 2).
func rho2Envelope(s, t []float64, k int, eps float64) {
	for i := range s {
		s[i] /= float64(k) * (1 - eps)
		t[i] = max(t[i]/(float64(k)*(1+eps)), 0.5)
	}
}

// sparseRho2Oracle evaluates the parts exactly where sparse Cholesky
// factors fit (spec §13.14, as §13.12's sparse path): a and s from the
// trace oracle's factor of the grounded L(w), q2 = tr Q − ½ from the
// selected inverse of the factor of 2I − γL(w) (whose existence is the
// stability certificate, as on the dense path) and t_e = ‖Q b_e‖² from
// one solve per link.
type sparseRho2Oracle struct {
	tr     *sparseTraceOracle
	gamma  float64
	t      []float64
	nshift int
	sl     *spectral.ShiftedLaplacian // every link's pattern, analysed on first use
}

func newSparseRho2Oracle(p TraceWeightProblem, gamma float64) *sparseRho2Oracle {
	return &sparseRho2Oracle{tr: newSparseTraceOracle(p, 0), gamma: gamma, t: make([]float64, len(p.Links))}
}

func (o *sparseRho2Oracle) solves() int        { return o.tr.solves() }
func (o *sparseRho2Oracle) shiftedSolves() int { return o.nshift }

func (o *sparseRho2Oracle) eval(w []float64) (rho2Parts, bool, error) {
	p := o.tr.p
	g := p.graph(w)
	if !wgraph.IsConnected(g) {
		return rho2Parts{}, false, nil
	}
	if o.sl == nil {
		sl, err := spectral.NewShiftedLaplacian(p.graph(unitWeights(len(p.Links))), nil)
		if err != nil {
			return rho2Parts{}, false, err
		}
		if sl.Path() != spectral.Sparse {
			return rho2Parts{}, false, loadlab.TooLarge("consensus", "DesignRho2AtScale: the factor of 2I − γL(w) does not pay off (%v)", sl.Report())
		}
		o.sl = sl
	}
	f, err := o.sl.FactorGraph(g, 2, -o.gamma)
	if errors.Is(err, loadlab.ErrIllConditioned) {
		return rho2Parts{}, false, nil // 2I − γL not positive definite: unstable
	}
	if err != nil {
		return rho2Parts{}, false, err
	}
	a, s, ok, err := o.tr.eval(w)
	if !ok || err != nil {
		return rho2Parts{}, false, err
	}
	n := p.Nodes
	const chunk = 64
	par.For((len(p.Links)+chunk-1)/chunk, 0, func(c int) {
		b, x, work := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := c * chunk; i < min((c+1)*chunk, len(p.Links)); i++ {
			lk := p.Links[i]
			b[lk.U], b[lk.V] = 1, -1
			f.SolveTo(x, b, work)
			o.t[i] = dense.Dot(x, x)
			b[lk.U], b[lk.V] = 0, 0
		}
	})
	o.nshift += len(p.Links)
	return rho2Parts{a: a, q2: f.Inverse().Trace() - 0.5, s: s, t: o.t}, true, nil
}
