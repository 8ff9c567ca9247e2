package consensus

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// traceOracle evaluates the objective of the TraceWeightProblem and its
// negative gradient s_e = ‖L(w)† b_e‖² (spec §13.12).
type traceOracle interface {
	// eval returns f(w) and s (the oracle's buffer); ok is false when
	// the links of positive weight do not connect the nodes (f = +∞).
	eval(w []float64) (f float64, s []float64, ok bool, err error)
	// solves returns the Laplacian solves so far.
	solves() int
}

// denseTraceOracle evaluates tr L† and ‖L† b_e‖² exactly from the
// inverse of L + αJ/n (spec §12.7).
type denseTraceOracle struct {
	p    TraceWeightProblem
	l, a *mat.SymDense
	kinv mat.SymDense
	ch   dense.SPDFactor
	s    []float64
}

func newDenseTraceOracle(p TraceWeightProblem) *denseTraceOracle {
	n := p.Nodes
	return &denseTraceOracle{p: p, l: mat.NewSymDense(n, nil), a: mat.NewSymDense(n, nil), s: make([]float64, len(p.Links))}
}

func (o *denseTraceOracle) solves() int { return 0 }

func (o *denseTraceOracle) eval(w []float64) (float64, []float64, bool, error) {
	if !wgraph.IsConnected(o.p.graph(w)) {
		return 0, nil, false, nil
	}
	raw := o.l.RawSymmetric()
	clear(raw.Data)
	for i, lk := range o.p.Links {
		u, v := min(lk.U, lk.V), max(lk.U, lk.V)
		raw.Data[u*raw.Stride+u] += w[i]
		raw.Data[v*raw.Stride+v] += w[i]
		raw.Data[u*raw.Stride+v] -= w[i]
	}
	alpha := dense.Lift(o.a, o.l)
	if o.ch.Factorize(o.a) != nil {
		return 0, nil, false, nil
	}
	o.ch.InverseTo(&o.kinv)
	f := mat.Trace(&o.kinv) - 1/alpha // (L + αJ/n)⁻¹ = L† + J/(αn)
	for i, lk := range o.p.Links {
		o.s[i], _ = normB(&o.kinv, lk.U, lk.V) // J b_e = 0
	}
	return f, o.s, true, nil
}

// sketchTraceOracle evaluates f̂(w) = (1/k) Σ_j q_jᵀ L(w)† q_j and its
// exact negative gradient ŝ_e = (1/k) Σ_j (b_eᵀ L(w)† q_j)² for fixed
// Gaussian columns q_j (drawn from the seed, never stored), each solve
// warm-started from the column's solution at the previous evaluation.
type sketchTraceOracle struct {
	p          TraceWeightProblem
	solver     laplacian.Settings
	seed       uint64
	x          [][]float64 // the columns' last solutions L† q_j
	q, r, d    []float64
	qb, rb, db *mat.Dense // a block of columns, residuals and corrections
	s          []float64
	nsolve     int
	evals      uint64
}

func newSketchTraceOracle(p TraceWeightProblem, set ScaleDesignSettings, seed uint64) *sketchTraceOracle {
	n := p.Nodes
	o := &sketchTraceOracle{p: p, solver: set.solverSettings(), seed: seed, x: make([][]float64, set.Probes),
		q: make([]float64, n), r: make([]float64, n), d: make([]float64, n), s: make([]float64, len(p.Links))}
	for j := range o.x {
		o.x[j] = make([]float64, n)
	}
	return o
}

func (o *sketchTraceOracle) solves() int { return o.nsolve }

// gaussian fills q with independent standard normal entries from the
// stream (seed, kind, j).
func gaussian(q []float64, seed, kind uint64, j int) {
	rng := rand.New(loadlab.Stream(seed, kind, uint64(j)))
	for i := range q {
		q[i] = rng.NormFloat64()
	}
}

func (o *sketchTraceOracle) eval(w []float64) (float64, []float64, bool, error) {
	g := o.p.graph(w)
	if !wgraph.IsConnected(g) {
		return 0, nil, false, nil
	}
	o.evals++
	sv, err := laplacian.NewSolver(g, &o.solver, loadlab.Stream(o.seed, 2, o.evals))
	if err != nil {
		return 0, nil, false, err
	}
	clear(o.s)
	var f float64
	for c0 := 0; c0 < len(o.x); c0 += laplacian.MaxBlockCols {
		cols := o.x[c0:min(c0+laplacian.MaxBlockCols, len(o.x))]
		if err := o.warmBlock(sv, c0, cols); err != nil {
			return 0, nil, false, err
		}
		for j, x := range cols {
			mat.Col(o.q, j, o.qb)
			f += dense.Dot(o.q, x)
			accumulateEdges(o.s, o.p.Links, x)
		}
	}
	k := float64(len(o.x))
	for i := range o.s {
		o.s[i] /= k
	}
	return f / k, o.s, true, nil
}

// warmBlock updates the columns x_j (j = c0, c0 + 1, …) to L† q_j from
// their current values, leaving q_j in o.qb: it solves L d_j = q_j − L x_j
// for all of them in one block (SolveBlock) to the relative residual
// min_j Tol·‖q_j‖/‖q_j − L x_j‖ (so that every x_j + d_j meets Tol relative
// to q_j; a column that already does gets a zero right-hand side), adds
// d_j and centres x_j.
func (o *sketchTraceOracle) warmBlock(sv *laplacian.Solver, c0 int, cols [][]float64) error {
	c := len(cols)
	if o.qb == nil || o.qb.RawMatrix().Cols != c {
		n := o.p.Nodes
		o.qb, o.rb, o.db = mat.NewDense(n, c, nil), mat.NewDense(n, c, nil), mat.NewDense(n, c, nil)
	}
	tol, active := 1.0, 0
	for j, x := range cols {
		gaussian(o.q, o.seed, 1, c0+j)
		o.qb.SetCol(j, o.q)
		sv.Operator().Apply(o.r, x)
		for i := range o.r {
			o.r[i] = o.q[i] - o.r[i]
		}
		if t := o.solver.Tol * centredNorm(o.q) / centredNorm(o.r); t < 1 {
			tol = min(tol, t)
			active++
		} else {
			clear(o.r) // x_j already solves to the tolerance
		}
		o.rb.SetCol(j, o.r)
	}
	if active == 0 {
		return nil
	}
	if err := sv.SetTol(max(tol, 1e-15)); err != nil {
		return err
	}
	if _, err := sv.SolveBlock(o.db, o.rb); err != nil {
		return err
	}
	o.nsolve += active
	for j, x := range cols {
		mat.Col(o.d, j, o.db)
		var mean float64
		for i := range x {
			x[i] += o.d[i]
			mean += x[i]
		}
		mean /= float64(len(x))
		for i := range x {
			x[i] -= mean
		}
	}
	return nil
}

// centredNorm returns the norm of x's projection onto 1⊥.
func centredNorm(x []float64) float64 {
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var s float64
	for _, v := range x {
		s += (v - mean) * (v - mean)
	}
	return math.Sqrt(s)
}

// accumulateEdges adds (x_u − x_v)² to s_e for every link.
func accumulateEdges(s []float64, links []Link, x []float64) {
	for i, l := range links {
		d := x[l.U] - x[l.V]
		s[i] += d * d
	}
}

// sparseTraceOracle evaluates tr L(w)† and ‖L(w)† b_e‖² exactly where a
// sparse Cholesky factor of the grounded Laplacian fits (spec §13.12,
// "exact at real sizes"): each evaluation factors L(w) once
// (spectral.NewResistance), reads tr L† off the selected inverse and
// takes one solve per link, the links split over the workers (each
// value depends on its own link only, so the result does not depend on
// their number).
type sparseTraceOracle struct {
	p       TraceWeightProblem
	workers int
	s       []float64
	nsolve  int
	ra      *spectral.ResistanceAnalysis // every link's pattern, analysed on first use
}

func newSparseTraceOracle(p TraceWeightProblem, workers int) *sparseTraceOracle {
	return &sparseTraceOracle{p: p, workers: workers, s: make([]float64, len(p.Links))}
}

func (o *sparseTraceOracle) solves() int { return o.nsolve }

func (o *sparseTraceOracle) eval(w []float64) (float64, []float64, bool, error) {
	g := o.p.graph(w)
	if !wgraph.IsConnected(g) {
		return 0, nil, false, nil
	}
	if o.ra == nil {
		ra, err := spectral.AnalyzeResistance(o.p.graph(unitWeights(len(o.p.Links))))
		if err != nil {
			return 0, nil, false, err
		}
		o.ra = ra
	}
	r, err := o.ra.Factor(g)
	if errors.Is(err, loadlab.ErrIllConditioned) {
		return 0, nil, false, nil // as the dense oracle treats a failed factorisation
	}
	if err != nil {
		return 0, nil, false, err
	}
	n := o.p.Nodes
	const chunk = 64
	par.For((len(o.p.Links)+chunk-1)/chunk, o.workers, func(c int) {
		b, x, work := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := c * chunk; i < min((c+1)*chunk, len(o.p.Links)); i++ {
			lk := o.p.Links[i]
			b[lk.U], b[lk.V] = 1, -1
			r.ApplyTo(x, b, work)
			o.s[i] = dense.Dot(x, x)
			b[lk.U], b[lk.V] = 0, 0
		}
	})
	o.nsolve += len(o.p.Links)
	return r.Kirchhoff() / float64(n), o.s, true, nil
}

// sparseExact reports whether the links' graph has a sparse Cholesky
// factor that fits (spectral's rule): a pattern check, no numeric work
// beyond what NewShiftedLaplacian's analysis costs.
func (p TraceWeightProblem) sparseExact() bool {
	all := make([]float64, len(p.Links))
	for i := range all {
		all[i] = 1
	}
	sl, err := spectral.NewShiftedLaplacian(p.graph(all), nil)
	return err == nil && sl.Path() == spectral.Sparse
}

// unitWeights returns m weights of 1: the support of every link, which
// the sparse oracles analyse once.
func unitWeights(m int) []float64 {
	w := make([]float64, m)
	for i := range w {
		w[i] = 1
	}
	return w
}
