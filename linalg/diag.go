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
// estimators when TraceSettings.RelAcc is zero: 10 % at 95 %. A node's
// probe values have relative spread of order one (the off-diagonal mass
// of its row against the diagonal entry), so the 1 % of the trace
// estimators would need about 4·10⁴ probes on every graph, whatever its
// size; 10 % needs about 400.
const DefaultDiagRelAcc = 0.1

// DiagEstimate is a stochastic estimate of a matrix diagonal, one
// estimate per node.
type DiagEstimate struct {
	Diag       []loadlab.Estimate // per node: mean and 95 % Student-t interval over the probes
	Probes     int                // Rademacher probes
	Iterations int                // conjugate-gradient iterations over all solves
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
// 57, 2007): for Rademacher probes q_k, z_kj = q_kj (L† q_k)_j has mean
// L†_jj and variance Σ_{i≠j} (L†_ij)², independently over k. Each node's
// interval is the 95 % Student-t interval of its K probe values (mean ±
// t_{K−1} s_j/√K, s_j their sample standard deviation), so it covers
// L†_jj at about 95 % (tested over seeds and nodes). Probes (one solve
// each, tolerance as for EstimateKirchhoff) are added until the largest
// relative half-width over the nodes is ≤ RelAcc (default
// DefaultDiagRelAcc) after MinProbes. Errors are those of
// EstimateKirchhoff, with the partial estimate on ErrNotConverged;
// ErrTooLarge when the per-node accumulators do not fit. It panics if g
// or src is nil.
func EstimatePinvDiag(g *Graph, set *TraceSettings, src rand.Source) (DiagEstimate, error) {
	if g == nil || src == nil {
		panic("linalg: EstimatePinvDiag: nil graph or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return DiagEstimate{}, err
	}
	ts, solverSet := diagSettings(set)
	if err := size.Check("linalg", "EstimatePinvDiag: nodes", g.Order(), 8*5); err != nil {
		return DiagEstimate{}, err
	}
	s, err := NewLaplacianSolver(g, &solverSet, src)
	if err != nil {
		return DiagEstimate{}, err
	}
	n := g.Order()
	rng := rand.New(src)
	q, x := make([]float64, n), make([]float64, n)
	acc := newDiagAcc(n)
	iters := 0
	for acc.k < ts.MaxProbes {
		rademacher(q, rng)
		res, err := s.Solve(x, q)
		iters += res.Iterations
		if err != nil {
			return diagPartial(acc, iters, err)
		}
		acc.add(func(j int) float64 { return q[j] * x[j] })
		if acc.k >= ts.MinProbes && acc.maxRelHW() <= ts.RelAcc {
			out := acc.result()
			out.Iterations, out.Status = iters, loadlab.Success
			return out, nil
		}
	}
	out := acc.result()
	out.Iterations, out.Status = iters, loadlab.IterationLimit
	return out, loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimatePinvDiag: largest relative half-width %.3g > RelAcc = %.3g after %d probes", out.MaxRelHW, ts.RelAcc, out.Probes)
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
// by node) with the diagonal estimator of EstimatePinvDiag: per probe q,
// y = L† q by a Laplacian solve and x = Q P q by conjugate gradients on
// the well-conditioned 2I − γL, and the per-node values 2 q_j x_j and
// ½ (q_j y_j/γ + q_j x_j), whose means are ρ₁,j and ρ₂,j. Each node's
// interval is the Student-t interval of its own probe values. Probes are
// added until both largest relative half-widths are ≤ RelAcc (default
// DefaultDiagRelAcc). γ is checked against the proven bracket of λ_n as
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
	if err := size.Check("linalg", "EstimateNodalH2: nodes", g.Order(), 8*12); err != nil {
		return out, err
	}
	s, err := NewLaplacianSolver(g, &solverSet, src)
	if err != nil {
		return out, err
	}
	if out.LambdaMax, err = h2Stable(g, gamma); err != nil {
		return out, err
	}
	return nodalH2Probes(out, s, gamma, ts, rand.New(src))
}

// nodalH2Probes runs the probes of EstimateNodalH2.
func nodalH2Probes(out NodalH2Estimate, s *LaplacianSolver, gamma float64, ts TraceSettings, rng *rand.Rand) (NodalH2Estimate, error) {
	n := s.op.n
	sh := newShiftedCG(s.op, gamma, s.set.Tol, s.set.MaxIter)
	q, x, y := make([]float64, n), make([]float64, n), make([]float64, n)
	a1, a2 := newDiagAcc(n), newDiagAcc(n)
	iters := 0
	finish := func(st loadlab.Status, err error) (NodalH2Estimate, error) {
		out.Rho1, out.Rho2 = a1.result(), a2.result()
		out.Rho1.Iterations, out.Rho2.Iterations = iters, iters
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
		// x = Q P q with sh.pq = P q: E[(Pq)_j x_j] = (P Q P)_jj since
		// E[Pq qᵀP] = P; and E[q_j y_j] = L†_jj.
		a1.add(func(j int) float64 { return 2 * sh.pq[j] * x[j] })
		a2.add(func(j int) float64 { return (q[j]*y[j]/gamma + sh.pq[j]*x[j]) / 2 })
		if a2.k >= ts.MinProbes && a1.maxRelHW() <= ts.RelAcc && a2.maxRelHW() <= ts.RelAcc {
			return finish(loadlab.Success, nil)
		}
	}
	out, _ = finish(loadlab.IterationLimit, nil)
	return out, loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimateNodalH2: largest relative half-widths %.3g (ρ₁), %.3g (ρ₂) > RelAcc = %.3g after %d probes", out.Rho1.MaxRelHW, out.Rho2.MaxRelHW, ts.RelAcc, out.Rho2.Probes)
}
