package estimate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultDiagRelAcc is the per-node relative accuracy of the diagonal
// estimators when TraceSettings.RelAcc is zero: 1 % at 95 %, as for the
// trace estimators. Plain probe values would have relative spread of order
// one per node (the off-diagonal mass of its row against the diagonal
// entry: about 10⁴ probes for 1 %); the Chebyshev control variate (spec
// throttlers.md §12.9) removes all but the part of the row that a
// polynomial of L cannot fit, so on graphs whose spectrum a low-degree
// polynomial covers well (expanders) the minimum of probes suffices. On
// graphs with many small eigenvalues (tori, paths) it does not, and the
// estimators stop early with ErrNotConverged when the probes projected for
// RelAcc exceed MaxProbes.
const DefaultDiagRelAcc = 0.01

// DiagEstimate is a stochastic estimate of a matrix diagonal, one
// estimate per node.
type DiagEstimate struct {
	Diag       []loadlab.Estimate // per node: mean and 95 % Student-t interval over the probes
	Probes     int                // Rademacher probes
	Iterations int                // conjugate-gradient iterations over all solves
	Degree     int                // degree K of the Chebyshev control variate
	MaxRelHW   float64            // largest relative half-width over the nodes
	Status     loadlab.Status     // Success when MaxRelHW ≤ RelAcc, else IterationLimit or Failure
}

// diagAcc accumulates per-node probe values z_kj (Welford's update), from
// which each node's mean and Student-t interval follow.
type diagAcc struct {
	k        int
	mean, m2 []float64
}

func newDiagAcc(n int) diagAcc {
	return diagAcc{mean: make([]float64, n), m2: make([]float64, n)}
}

// add records one probe's values z (the callback gives z_j).
func (d *diagAcc) add(z func(j int) float64) {
	d.k++
	k := float64(d.k)
	for j := range d.mean {
		x := z(j)
		dm := x - d.mean[j]
		d.mean[j] += dm / k
		d.m2[j] += dm * (x - d.mean[j])
	}
}

// tq returns the 97.5 % Student-t quantile with k − 1 degrees of freedom.
func (d *diagAcc) tq() float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(d.k - 1)}.Quantile(0.975)
}

// maxRelHW returns max_j t·se_j/|mean_j| (+Inf with fewer than 2 probes).
func (d *diagAcc) maxRelHW() float64 {
	if d.k < 2 {
		return math.Inf(1)
	}
	q, k := d.tq(), float64(d.k)
	var worst float64
	for j, m := range d.mean {
		se := math.Sqrt(d.m2[j] / (k - 1) / k)
		worst = max(worst, q*se/math.Abs(m))
	}
	return worst
}

// result returns the per-node estimates.
func (d *diagAcc) result() DiagEstimate {
	out := DiagEstimate{Diag: make([]loadlab.Estimate, len(d.mean)), Probes: d.k, MaxRelHW: d.maxRelHW()}
	q, k := math.NaN(), float64(d.k)
	if d.k >= 2 {
		q = d.tq()
	}
	for j, m := range d.mean {
		se := math.Sqrt(d.m2[j] / (k - 1) / k)
		out.Diag[j] = loadlab.Estimate{Mean: m, Lo: m - q*se, Hi: m + q*se, StdErr: se, N: d.k}
	}
	return out
}

// diagSettings resolves the settings of the diagonal estimators (a zero
// RelAcc means DefaultDiagRelAcc).
func diagSettings(set *TraceSettings) (TraceSettings, laplacian.Settings) {
	ts, solver := set.Resolved()
	if set == nil || set.RelAcc == 0 {
		ts.RelAcc = DefaultDiagRelAcc
	}
	return ts, solver
}

// PinvDiag estimates the diagonal of L†, the nodal resistance
// (Σ_u R_ju = n L†_jj + tr L†, spec throttlers.md §2), by the stochastic
// diagonal estimator of Bekas, Kokiopoulou and Saad (Appl. Numer. Math.
// 57, 2007) with a Chebyshev control variate (spec throttlers.md §12.9):
// for Rademacher probes q_k,
//
//	z_kj = q_kj (L† q_k − p(L) P q_k)_j + (P p(L) P)_jj
//
// has mean L†_jj for any polynomial p, and variance
// Σ_{i≠j} (L† − P p(L) P)_ij² independently over k; p is the degree-K
// Chebyshev interpolant of 1/λ on [a, b] ⊇ most of the spectrum, and
// (P p(L) P)_jj is exact from local moments. Each node's interval is the
// 95 % Student-t interval of its K probe values (mean ± t_{K−1} s_j/√K,
// s_j their sample standard deviation), so it covers L†_jj at about 95 %
// (tested over seeds and nodes). Probes (one solve each, tolerance as for Kirchhoff) are
// added until the largest relative half-width over the nodes is ≤ RelAcc
// (default DefaultDiagRelAcc, 1 %) after MinProbes; from MinProbes on,
// when the probes that RelAcc would take, K (hw/RelAcc)², exceed
// MaxProbes, it stops at once. Errors are those of Kirchhoff, with the
// partial estimate on ErrNotConverged; ErrTooLarge when the per-node
// accumulators and moments do not fit. It panics if g or src is nil.
func PinvDiag(g *wgraph.Graph, set *TraceSettings, src rand.Source) (DiagEstimate, error) {
	if g == nil || src == nil {
		panic("estimate: PinvDiag: nil graph or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return DiagEstimate{}, err
	}
	ts, solverSet := diagSettings(set)
	if err := size.Check("estimate", "PinvDiag: nodes", g.Order(), 8*14); err != nil {
		return DiagEstimate{}, err
	}
	s, err := laplacian.NewSolver(g, &solverSet, src)
	if err != nil {
		return DiagEstimate{}, err
	}
	br, err := spectral.LambdaMaxBounds(g)
	if err != nil {
		return DiagEstimate{}, err
	}
	rng := rand.New(src)
	cv, err := newChebCV(g, s.Operator(), br.Hi, rng.Uint64())
	if err != nil {
		return DiagEstimate{}, err
	}
	return pinvDiagProbes(s, cv, ts, rng)
}

// Diagonals estimates the diagonals of the combinations
// Σ_i coef[c][i] f_i(L), one per row c of coef, of the functions of the
// Laplacian in terms, with common Rademacher probes drawn from src and
// the estimator of PinvDiag: per node the Student-t interval of its probe
// values, a Chebyshev control variate per term on [a, lmaxHi] (kept only
// when the first MinProbes probes show it lowers the spread), and the
// stopping rule of PinvDiag over every output. lmaxHi must bound λ_n from
// above (spectral.LambdaMaxBracket's Hi, or 0 for the deterministic
// bounds). Each term's Apply is called once per probe; its iterations are
// summed into every output's Iterations. Errors: ErrInvalid for bad
// settings, a bad lmaxHi or a NaN or infinite entry of coef, and Apply's
// errors, with the partial
// estimates. It panics if g or src is nil, if terms is empty, if a term's
// F or Apply is nil, or if a row of coef has not len(terms) entries.
func Diagonals(g *wgraph.Graph, lmaxHi float64, terms []DiagTerm, coef [][]float64, set *TraceSettings, src rand.Source) ([]DiagEstimate, error) {
	if g == nil || src == nil {
		panic("estimate: Diagonals: nil graph or rand.Source")
	}
	checkTerms(terms, coef)
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if !(lmaxHi >= 0) || math.IsInf(lmaxHi, 1) {
		return nil, loadlab.Invalid("estimate", "Diagonals: lmaxHi = %v, want a finite upper bound on λ_n, or 0", lmaxHi)
	}
	for c, row := range coef {
		for i, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, loadlab.Invalid("estimate", "Diagonals: coef[%d][%d] = %v, want finite", c, i, x)
			}
		}
	}
	if lmaxHi == 0 {
		br, err := spectral.LambdaMaxBounds(g)
		if err != nil {
			return nil, err
		}
		lmaxHi = br.Hi
	}
	ts, _ := diagSettings(set)
	if err := size.Check("estimate", "Diagonals: nodes", g.Order(), 8*(12+3*len(terms)+2*len(coef))); err != nil {
		return nil, err
	}
	rng := rand.New(src)
	op := laplacian.NewOperator(g)
	cv, err := newChebCV(g, op, lmaxHi, rng.Uint64())
	if err != nil {
		return nil, err
	}
	return estimateDiagonals(op, cv, terms, coef, ts, rng, "Diagonals")
}

// checkTerms panics on the programmer errors of Diagonals.
func checkTerms(terms []DiagTerm, coef [][]float64) {
	if len(terms) == 0 {
		panic("estimate: Diagonals: no terms")
	}
	for i, t := range terms {
		if t.F == nil || t.Apply == nil {
			panic(fmt.Sprintf("estimate: Diagonals: terms[%d] has a nil F or Apply", i))
		}
	}
	for c, row := range coef {
		if len(row) != len(terms) {
			panic(fmt.Sprintf("estimate: Diagonals: len(coef[%d]) = %d, want len(terms) = %d", c, len(row), len(terms)))
		}
	}
}

// pinvDiagProbes runs the probes of PinvDiag.
func pinvDiagProbes(s *laplacian.Solver, cv *chebCV, ts TraceSettings, rng *rand.Rand) (DiagEstimate, error) {
	terms := []DiagTerm{{
		F:     func(x float64) float64 { return 1 / x },
		Apply: func(dst, x []float64) (int, error) { res, err := s.Solve(dst, x); return res.Iterations, err },
	}}
	out, err := estimateDiagonals(s.Operator(), cv, terms, [][]float64{{1}}, ts, rng, "PinvDiag")
	return out[0], err
}

// DiagTerm is one function f of the Laplacian whose diagonal enters a
// diagonal estimate (Diagonals). Apply sets dst = f(L) x and returns the
// iterations it took; F is f at an eigenvalue, for the Chebyshev control
// variate; Project says whether the probe enters as q, whose values q_j
// (f(L) q)_j estimate f(L)_jj, or as Pq (P the projection onto 1⊥),
// estimating (P f(L) P)_jj.
type DiagTerm struct {
	F       func(lambda float64) float64
	Apply   func(dst, x []float64) (iterations int, err error)
	Project bool
}

// diagRun is the state of estimateDiagonals: per probe, the values of
// every term, and their combinations (the outputs) accumulated with and,
// during the pilot, without the control variate.
type diagRun struct {
	terms        []DiagTerm
	coef         [][]float64 // output c is Σ_i coef[c][i] · term i
	cv           *chebCV
	cf, d        [][]float64 // control-variate coefficients and exact diagonals per term
	q, pq        []float64
	y, px        [][]float64
	w            *kpm.Work
	cvAcc, plain []diagAcc
	acc          []diagAcc // the accumulators in use
	pilot, useCV bool
	iters        int
}

// estimateDiagonals estimates the diagonals of Σ_i coef[c][i] f_i(L) for
// every output c with common Rademacher probes, by the estimator of
// PinvDiag: per node the Student-t interval of its probe values,
// with a Chebyshev control variate per term (kept only if the pilot
// probes show it helps), until every output's largest relative
// half-width is ≤ RelAcc, or the stopping rule of diagStop.
func estimateDiagonals(op *laplacian.Operator, cv *chebCV, terms []DiagTerm, coef [][]float64, ts TraceSettings, rng *rand.Rand, fn string) ([]DiagEstimate, error) {
	r := newDiagRun(op.Order(), cv, terms, coef)
	for r.acc[0].k < ts.MaxProbes {
		mc.Rademacher(r.q, rng)
		if err := r.probe(op); err != nil {
			st := loadlab.Failure
			if errors.Is(err, loadlab.ErrNotConverged) {
				st = loadlab.IterationLimit
			}
			return r.result(st), err
		}
		r.choose(ts.MinProbes)
		if st, stop := diagStop(r.acc[0].k, ts, r.active()...); stop {
			out := r.result(st)
			return out, diagErr(out, st, ts, fn)
		}
	}
	out := r.result(loadlab.IterationLimit)
	return out, diagErr(out, loadlab.IterationLimit, ts, fn)
}

func newDiagRun(n int, cv *chebCV, terms []DiagTerm, coef [][]float64) *diagRun {
	r := &diagRun{terms: terms, coef: coef, cv: cv, q: make([]float64, n), pq: make([]float64, n),
		w: kpm.NewWork(n), pilot: true, useCV: true}
	for _, t := range terms {
		c := cv.coeffs(t.F)
		r.cf, r.d = append(r.cf, c), append(r.d, cv.diag(c))
		r.y, r.px = append(r.y, make([]float64, n)), append(r.px, make([]float64, n))
	}
	for range coef {
		r.cvAcc, r.plain = append(r.cvAcc, newDiagAcc(n)), append(r.plain, newDiagAcc(n))
	}
	r.acc = r.cvAcc
	return r
}

// active returns the accumulators in use.
func (r *diagRun) active() []*diagAcc {
	out := make([]*diagAcc, len(r.acc))
	for c := range r.acc {
		out[c] = &r.acc[c]
	}
	return out
}

// probe applies every term to the probe in r.q and records its values.
// The pilot: until MinProbes both the control-variate and the plain
// values are kept, then the one with the smaller largest relative
// half-width goes on (the control variate is unbiased for any p, but a p
// that fits badly would add variance).
func (r *diagRun) probe(op *laplacian.Operator) error {
	copy(r.pq, r.q)
	dense.Center(r.pq)
	for i, t := range r.terms {
		it, err := t.Apply(r.y[i], r.left(i))
		r.iters += it
		if err != nil {
			return err
		}
	}
	if r.useCV {
		r.cv.apply(r.px, r.cf, r.pq, op, r.w)
		r.add(r.cvAcc, func(i, j int) float64 { return r.left(i)[j]*(r.y[i][j]-r.px[i][j]) + r.d[i][j] })
	}
	if r.pilot || !r.useCV {
		r.add(r.plain, func(i, j int) float64 { return r.left(i)[j] * r.y[i][j] })
	}
	return nil
}

// choose ends the pilot once it has MinProbes probes.
func (r *diagRun) choose(minProbes int) {
	if !r.pilot || r.plain[0].k < minProbes {
		return
	}
	r.pilot = false
	worst := func(a []diagAcc) float64 {
		w := 0.0
		for c := range a {
			w = max(w, a[c].maxRelHW())
		}
		return w
	}
	if !(worst(r.cvAcc) <= worst(r.plain)) { // NaN too
		r.acc, r.useCV = r.plain, false
	} else {
		r.plain = nil
	}
}

// left returns the vector that multiplies term i's values: Pq or q.
func (r *diagRun) left(i int) []float64 {
	if r.terms[i].Project {
		return r.pq
	}
	return r.q
}

// add records one probe in every output's accumulator, z(i, j) being
// term i's value at node j.
func (r *diagRun) add(accs []diagAcc, z func(i, j int) float64) {
	for c := range accs {
		accs[c].add(func(j int) float64 {
			var s float64
			for i, w := range r.coef[c] {
				if w != 0 {
					s += w * z(i, j)
				}
			}
			return s
		})
	}
}

// result returns every output's estimate with the run's work and status.
func (r *diagRun) result(st loadlab.Status) []DiagEstimate {
	out := make([]DiagEstimate, len(r.acc))
	for c := range r.acc {
		out[c] = r.acc[c].result()
		out[c].Iterations, out[c].Status, out[c].Degree = r.iters, st, r.cv.k*b2i(r.useCV)
	}
	return out
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// diagStop is the stopping rule of the diagonal estimators after k
// probes: Success when every node's relative half-width is ≤ RelAcc
// (from MinProbes on), IterationLimit at MaxProbes or as soon as the
// probes projected for RelAcc, k (hw/RelAcc)², exceed MaxProbes.
func diagStop(k int, ts TraceSettings, accs ...*diagAcc) (loadlab.Status, bool) {
	if k < ts.MinProbes {
		return 0, false
	}
	hw := 0.0
	for _, a := range accs {
		hw = max(hw, a.maxRelHW())
	}
	switch {
	case hw <= ts.RelAcc:
		return loadlab.Success, true
	case k >= ts.MaxProbes || !(float64(k)*(hw/ts.RelAcc)*(hw/ts.RelAcc) <= float64(ts.MaxProbes)): // NaN too
		return loadlab.IterationLimit, true
	}
	return 0, false
}

// diagErr returns nil for Success, else ErrNotConverged naming the
// largest half-width reached over the outputs and the probes RelAcc
// would take.
func diagErr(out []DiagEstimate, st loadlab.Status, ts TraceSettings, fn string) error {
	if st == loadlab.Success {
		return nil
	}
	hw := 0.0
	for _, o := range out {
		hw = max(hw, o.MaxRelHW)
	}
	probes := out[0].Probes
	need := float64(probes) * (hw / ts.RelAcc) * (hw / ts.RelAcc)
	return loadlab.Wrap(loadlab.ErrNotConverged, "estimate", "%s: largest relative half-width %.3g > RelAcc = %.3g after %d probes (about %.3g probes would be needed; MaxProbes = %d)", fn, hw, ts.RelAcc, probes, need, ts.MaxProbes)
}
