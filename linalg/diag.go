package linalg

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultDiagRelAcc is the per-node relative accuracy of the diagonal
// estimators when TraceSettings.RelAcc is zero: 1 % at 95 %, as for the
// trace estimators. Plain probe values would have relative spread of
// order one per node (the off-diagonal mass of its row against the
// diagonal entry: about 10⁴ probes for 1 %); the Chebyshev control
// variate (diagcv.go) removes all but the part of the row that a
// polynomial of L cannot fit, so on graphs whose spectrum a low-degree
// polynomial covers well (expanders) the minimum of probes suffices. On
// graphs with many small eigenvalues (tori, paths) it does not, and
// the estimators stop early with ErrNotConverged when the probes
// projected for RelAcc exceed MaxProbes.
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

// NodalH2Estimate holds per-node stochastic estimates of the nodal H2
// measures ρ₁,j and ρ₂,j at σ = 1 (spec throttlers.md §4.3; ρ₂T,j = γρ₂,j).
type NodalH2Estimate struct {
	Rho1, Rho2 DiagEstimate
	LambdaMax  Bracket // proven bracket of λ_n, checked against 2/γ
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
func diagSettings(set *TraceSettings) (TraceSettings, SolverSettings) {
	ts, solver := set.resolved()
	if set == nil || set.RelAcc == 0 {
		ts.RelAcc = DefaultDiagRelAcc
	}
	return ts, solver
}

// EstimatePinvDiag estimates the diagonal of L†, the nodal resistance
// (Σ_u R_ju = n L†_jj + tr L†, spec throttlers.md §2), by the stochastic
// diagonal estimator of Bekas, Kokiopoulou and Saad (Appl. Numer. Math.
// 57, 2007) with a Chebyshev control variate (diagcv.go): for Rademacher
// probes q_k, z_kj = q_kj (L† q_k − p(L) P q_k)_j + (P p(L) P)_jj has mean
// L†_jj for any polynomial p, and variance Σ_{i≠j} (L† − P p(L) P)_ij²
// independently over k; p is the degree-K Chebyshev interpolant of 1/λ
// on [a, b] ⊇ most of the spectrum, and (P p(L) P)_jj is exact from local
// moments. Each node's interval is the 95 % Student-t interval of its K
// probe values (mean ± t_{K−1} s_j/√K, s_j their sample standard
// deviation), so it covers L†_jj at about 95 % (tested over seeds and
// nodes). Probes (one solve each, tolerance as for EstimateKirchhoff) are
// added until the largest relative half-width over the nodes is ≤ RelAcc
// (default DefaultDiagRelAcc, 1 %) after MinProbes; from MinProbes on,
// when the probes that RelAcc would take, K (hw/RelAcc)², exceed
// MaxProbes, it stops at once. Errors are those of EstimateKirchhoff,
// with the partial estimate on ErrNotConverged; ErrTooLarge when the
// per-node accumulators and moments do not fit. It panics if g or src is
// nil.
func EstimatePinvDiag(g *Graph, set *TraceSettings, src rand.Source) (DiagEstimate, error) {
	if g == nil || src == nil {
		panic("linalg: EstimatePinvDiag: nil graph or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return DiagEstimate{}, err
	}
	ts, solverSet := diagSettings(set)
	if err := size.Check("linalg", "EstimatePinvDiag: nodes", g.Order(), 8*14); err != nil {
		return DiagEstimate{}, err
	}
	s, err := NewLaplacianSolver(g, &solverSet, src)
	if err != nil {
		return DiagEstimate{}, err
	}
	br, err := lambdaMaxBounds(g)
	if err != nil {
		return DiagEstimate{}, err
	}
	rng := rand.New(src)
	cv, err := newChebCV(g, s.op, br.Hi, rng.Uint64())
	if err != nil {
		return DiagEstimate{}, err
	}
	return pinvDiagProbes(s, cv, ts, rng)
}

// pinvDiagProbes runs the probes of EstimatePinvDiag.
func pinvDiagProbes(s *LaplacianSolver, cv *chebCV, ts TraceSettings, rng *rand.Rand) (DiagEstimate, error) {
	n := s.op.n
	cf := [][]float64{cv.coeffs(func(x float64) float64 { return 1 / x })}
	d := cv.diag(cf[0])
	q, x, pq := make([]float64, n), make([]float64, n), make([]float64, n)
	px, w := [][]float64{make([]float64, n)}, newCVApply(n)
	// The pilot: until MinProbes both the control-variate and the plain
	// values are kept, then the one with the smaller largest relative
	// half-width goes on (the control variate is unbiased for any p, but a
	// p that fits badly would add variance).
	cvAcc, plain := newDiagAcc(n), newDiagAcc(n)
	acc := &cvAcc
	pilot, useCV := true, true
	iters := 0
	degree := func() int { return cv.k * b2i(useCV) }
	for acc.k < ts.MaxProbes {
		rademacher(q, rng)
		res, err := s.Solve(x, q)
		iters += res.Iterations
		if err != nil {
			out, err := diagPartial(*acc, iters, err)
			out.Degree = degree()
			return out, err
		}
		if useCV {
			projectOut(pq, q)
			cv.apply(px, cf, pq, s.op, w)
			cvAcc.add(func(j int) float64 { return q[j]*(x[j]-px[0][j]) + d[j] })
		}
		if pilot || !useCV {
			plain.add(func(j int) float64 { return q[j] * x[j] })
		}
		if pilot && plain.k >= ts.MinProbes {
			pilot = false
			if !(cvAcc.maxRelHW() <= plain.maxRelHW()) { // NaN too
				acc, useCV = &plain, false
			} else {
				plain = diagAcc{}
			}
		}
		if st, stop := diagStop(acc.k, ts, acc); stop {
			out := acc.result()
			out.Iterations, out.Status, out.Degree = iters, st, degree()
			return out, diagErr(out, st, ts, "EstimatePinvDiag")
		}
	}
	out := acc.result()
	out.Iterations, out.Status, out.Degree = iters, loadlab.IterationLimit, degree()
	return out, diagErr(out, out.Status, ts, "EstimatePinvDiag")
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// projectOut sets dst = P q = q − mean(q).
func projectOut(dst, q []float64) {
	var m float64
	for _, v := range q {
		m += v
	}
	m /= float64(len(q))
	for i, v := range q {
		dst[i] = v - m
	}
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
// half-width reached and, when it stopped early, the probes RelAcc would
// take.
func diagErr(out DiagEstimate, st loadlab.Status, ts TraceSettings, fn string) error {
	if st == loadlab.Success {
		return nil
	}
	need := float64(out.Probes) * (out.MaxRelHW / ts.RelAcc) * (out.MaxRelHW / ts.RelAcc)
	return loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "%s: largest relative half-width %.3g > RelAcc = %.3g after %d probes (about %.3g probes would be needed; MaxProbes = %d)", fn, out.MaxRelHW, ts.RelAcc, out.Probes, need, ts.MaxProbes)
}

// diagPartial returns the estimate so far after a failed solve.
func diagPartial(acc diagAcc, iters int, err error) (DiagEstimate, error) {
	out := acc.result()
	out.Iterations, out.Status = iters, loadlab.Failure
	if errors.Is(err, loadlab.ErrNotConverged) {
		out.Status = loadlab.IterationLimit
	}
	return out, err
}

// EstimateNodalH2 estimates the nodal H2 measures (spec throttlers.md
// §4.3, σ = 1)
//
//	ρ₁,j = 2 (P Q P)_jj,   ρ₂,j = ½ [L†_jj/γ + (P Q P)_jj],   Q = (2I − γL)⁻¹
//
// (P the projection onto 1⊥; the partial fractions of EstimateH2, node
// by node) with the diagonal estimator of EstimatePinvDiag and its
// Chebyshev control variates, one for 1/λ and one for 1/(2 − γλ) on the
// same local moments: per probe q, y = L† q by a Laplacian solve and
// x = Q P q by conjugate gradients on the well-conditioned 2I − γL, and
// the per-node values 2 u_j and ½ (v_j/γ + u_j) with
// u_j = (Pq)_j (x − p₂(L)Pq)_j + (P p₂(L) P)_jj and
// v_j = q_j (y − p₁(L)Pq)_j + (P p₁(L) P)_jj, whose means are ρ₁,j and
// ρ₂,j. Each node's interval is the Student-t interval of its own probe
// values. Probes are added until both largest relative half-widths are
// ≤ RelAcc (default DefaultDiagRelAcc, 1 %), or stop early as in
// EstimatePinvDiag. γ is checked against the proven bracket of λ_n as
// in EstimateH2 (ErrUnstable, ErrIllConditioned). Other errors are those
// of EstimatePinvDiag. It panics if g or src is nil.
func EstimateNodalH2(g *Graph, gamma float64, set *TraceSettings, src rand.Source) (NodalH2Estimate, error) {
	if g == nil || src == nil {
		panic("linalg: EstimateNodalH2: nil graph or rand.Source")
	}
	var out NodalH2Estimate
	if err := set.Validate(); err != nil {
		return out, err
	}
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return out, loadlab.Invalid("linalg", "EstimateNodalH2: gamma = %v, want > 0 and finite", gamma)
	}
	ts, solverSet := diagSettings(set)
	if err := size.Check("linalg", "EstimateNodalH2: nodes", g.Order(), 8*24); err != nil {
		return out, err
	}
	s, err := NewLaplacianSolver(g, &solverSet, src)
	if err != nil {
		return out, err
	}
	if out.LambdaMax, err = h2Stable(g, gamma); err != nil {
		return out, err
	}
	rng := rand.New(src)
	cv, err := newChebCV(g, s.op, out.LambdaMax.Hi, rng.Uint64())
	if err != nil {
		return out, err
	}
	return nodalH2Probes(out, s, cv, gamma, ts, rng)
}

// nodalH2Probes runs the probes of EstimateNodalH2.
func nodalH2Probes(out NodalH2Estimate, s *LaplacianSolver, cv *chebCV, gamma float64, ts TraceSettings, rng *rand.Rand) (NodalH2Estimate, error) {
	n := s.op.n
	sh := newShiftedCG(s.op, gamma, s.set.Tol, s.set.MaxIter)
	cf := [][]float64{
		cv.coeffs(func(x float64) float64 { return 1 / x }),
		cv.coeffs(func(x float64) float64 { return 1 / (2 - gamma*x) })}
	d1, d2 := cv.diag(cf[0]), cv.diag(cf[1])
	q, x, y := make([]float64, n), make([]float64, n), make([]float64, n)
	px, w := [][]float64{make([]float64, n), make([]float64, n)}, newCVApply(n)
	// The pilot of EstimatePinvDiag, on both measures together.
	c1, c2 := newDiagAcc(n), newDiagAcc(n)
	p1, p2 := newDiagAcc(n), newDiagAcc(n)
	a1, a2 := &c1, &c2
	pilot, useCV := true, true
	iters := 0
	finish := func(st loadlab.Status, err error) (NodalH2Estimate, error) {
		out.Rho1, out.Rho2 = a1.result(), a2.result()
		out.Rho1.Iterations, out.Rho2.Iterations = iters, iters
		out.Rho1.Degree, out.Rho2.Degree = cv.k*b2i(useCV), cv.k*b2i(useCV)
		if errors.Is(err, loadlab.ErrNotConverged) && st == loadlab.Failure {
			st = loadlab.IterationLimit
		}
		out.Rho1.Status, out.Rho2.Status = st, st
		return out, err
	}
	for a2.k < ts.MaxProbes {
		rademacher(q, rng)
		res, err := s.Solve(y, q)
		iters += res.Iterations
		if err != nil {
			return finish(loadlab.Failure, err)
		}
		it, err := sh.solve(x, q)
		iters += it
		if err != nil {
			return finish(loadlab.Failure, err)
		}
		// sh.pq = P q; E[(Pq)_j (A Pq)_j] = (P A P)_jj since E[Pq qᵀP] = P,
		// and E[q_j (B q)_j] = B_jj.
		if useCV {
			cv.apply(px, cf, sh.pq, s.op, w)
			c1.add(func(j int) float64 { return 2 * (sh.pq[j]*(x[j]-px[1][j]) + d2[j]) })
			c2.add(func(j int) float64 {
				return ((q[j]*(y[j]-px[0][j])+d1[j])/gamma + sh.pq[j]*(x[j]-px[1][j]) + d2[j]) / 2
			})
		}
		if pilot || !useCV {
			p1.add(func(j int) float64 { return 2 * sh.pq[j] * x[j] })
			p2.add(func(j int) float64 { return (q[j]*y[j]/gamma + sh.pq[j]*x[j]) / 2 })
		}
		if pilot && p2.k >= ts.MinProbes {
			pilot = false
			if !(max(c1.maxRelHW(), c2.maxRelHW()) <= max(p1.maxRelHW(), p2.maxRelHW())) { // NaN too
				a1, a2, useCV = &p1, &p2, false
			} else {
				p1, p2 = diagAcc{}, diagAcc{}
			}
		}
		if st, stop := diagStop(a2.k, ts, a1, a2); stop {
			out, _ = finish(st, nil)
			if st == loadlab.Success {
				return out, nil
			}
			return out, loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimateNodalH2: largest relative half-widths %.3g (ρ₁), %.3g (ρ₂) > RelAcc = %.3g after %d probes (MaxProbes = %d)", out.Rho1.MaxRelHW, out.Rho2.MaxRelHW, ts.RelAcc, out.Rho2.Probes, ts.MaxProbes)
		}
	}
	out, _ = finish(loadlab.IterationLimit, nil)
	return out, loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimateNodalH2: largest relative half-widths %.3g (ρ₁), %.3g (ρ₂) > RelAcc = %.3g after %d probes", out.Rho1.MaxRelHW, out.Rho2.MaxRelHW, ts.RelAcc, out.Rho2.Probes)
}
