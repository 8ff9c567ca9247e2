package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestSecondMomentPerfect checks that without loss and with every server
// ticking (q = 0, π = 1) the second-moment recursion gives RhoDelay
// (spec deployed §2.6 reduces to §2.3) for τ = 0..3 and all traffic
// cases: two exact routes (pairwise cross-covariances and the eigenbasis
// transform against the per-mode solve), 1e-9 relative.
func TestSecondMomentPerfect(t *testing.T) {
	for name, g := range delayGraphs() {
		s := spectralOf(t, g)
		for tau := range 4 {
			lim, _ := s.DelayStabilityBound(tau)
			th := &Throttler{Graph: g, Gamma: 0.7 * lim}
			for _, tr := range []Traffic{Case1, Case2, Case2T} {
				want, err := s.RhoDelay(tr, tau, th.Gamma, 1.2)
				require.NoError(t, err)
				got, err := SecondMomentRho(th, tr, tau, 1.2, 0, 1)
				require.NoError(t, err, "%s τ=%d %v", name, tau, tr)
				require.InEpsilon(t, want, got.Rho, 1e-9, "%s τ=%d %v", name, tau, tr)
				require.Equal(t, 1.0, got.MeanRate)
			}
		}
	}
}

// TestCrossCovarianceDiagonal checks that the pair system with a_i = a_j
// gives the single mode's V_τ(a) = 1/(2a) + R_τ(a) (spec deployed §2.3,
// §2.6): two different linear systems for the same number, 1e-11.
func TestCrossCovarianceDiagonal(t *testing.T) {
	for tau := range 6 {
		cw, w := newCrossWork(tau), newModeWork(tau)
		lim := delayLimit(tau)
		for _, f := range []float64{0.01, 0.3, 0.9} {
			a := f * lim
			v, ok := cw.solve(a, a)
			require.True(t, ok)
			r, _, _ := w.r(a)
			require.InEpsilon(t, 1/(2*a)+r, v, 1e-11, "τ=%d a=%v", tau, a)
		}
	}
}

// lossyOutcomes enumerates every outcome of one step of the lossy,
// asynchronous exchange (spec deployed §2.6) on g: each link delivered
// with probability 1 − q, each server ticking with probability π, a
// link applied iff delivered and both its ends tick. It returns the
// random Laplacians with their probabilities (2^{m+n} outcomes).
func lossyOutcomes(g *wgraph.Graph, q, pi float64) ([]*mat.Dense, []float64) {
	n, edges := g.Order(), g.Edges()
	m := len(edges)
	var ls []*mat.Dense
	var ps []float64
	for mask := 0; mask < 1<<(m+n); mask++ {
		p := 1.0
		l := mat.NewDense(n, n, nil)
		tick := func(u int) bool { return mask>>(m+u)&1 == 1 }
		for u := range n {
			if tick(u) {
				p *= pi
			} else {
				p *= 1 - pi
			}
		}
		for i, e := range edges {
			del := mask>>i&1 == 1
			if del {
				p *= 1 - q
			} else {
				p *= q
			}
			if del && tick(e.U) && tick(e.V) {
				l.Set(e.U, e.U, l.At(e.U, e.U)+e.W)
				l.Set(e.V, e.V, l.At(e.V, e.V)+e.W)
				l.Set(e.U, e.V, l.At(e.U, e.V)-e.W)
				l.Set(e.V, e.U, l.At(e.V, e.U)-e.W)
			}
		}
		if p > 0 {
			ls, ps = append(ls, l), append(ps, p)
		}
	}
	return ls, ps
}

// bruteSecondMoment returns ρ (σ = 1) and the spectral radius of the
// second-moment operator 𝒯(S) = E[A S Aᵀ] of the augmented dispersion
// (A the delayed companion with the random Laplacian), built by
// enumerating every outcome: an independent reference for spec deployed
// §2.6, the stationary S from the dense N²×N² system.
func bruteSecondMoment(g *wgraph.Graph, tr Traffic, gamma float64, tau int, q, pi float64) (rho, radius float64) {
	n := g.Order()
	N := n * (tau + 1)
	ls, ps := lossyOutcomes(g, q, pi)
	op := mat.NewDense(N*N, N*N, nil)
	qn := mat.NewDense(N, N, nil)
	for k, l := range ls {
		a := delayedCompanionL(l, gamma, tau)
		var kr mat.Dense
		kr.Kronecker(a, a)
		op.Add(op, scaledDense(ps[k], &kr))
		for i := range n {
			for j := range n {
				if tr == Case1 {
					var l2 mat.Dense
					l2.Mul(l, l)
					qn.Set(i, j, qn.At(i, j)+ps[k]*gamma*gamma*l2.At(i, j))
				} else if k == 0 {
					m := -1 / float64(n)
					if i == j {
						m++
					}
					qn.Set(i, j, m)
				}
			}
		}
	}
	var e mat.Eigen
	if !e.Factorize(op, mat.EigenNone) {
		panic("eigen")
	}
	for _, v := range e.Values(nil) {
		radius = max(radius, math.Hypot(real(v), imag(v)))
	}
	sys := mat.NewDense(N*N, N*N, nil)
	for i := range N * N {
		sys.Set(i, i, 1)
	}
	sys.Sub(sys, op)
	b := mat.NewVecDense(N*N, nil)
	for i := range N {
		for j := range N {
			b.SetVec(i*N+j, qn.At(i, j))
		}
	}
	var x mat.VecDense
	if err := x.SolveVec(sys, b); err != nil {
		return math.Inf(1), radius
	}
	for i := range n {
		rho += x.AtVec(i*N + i)
	}
	if tr == Case1 {
		rho += float64(n - 1)
	}
	return rho, radius
}

func scaledDense(f float64, a *mat.Dense) *mat.Dense {
	var s mat.Dense
	s.Scale(f, a)
	return &s
}

// delayedCompanionL is delayedCompanion for a given Laplacian matrix.
func delayedCompanionL(l *mat.Dense, gamma float64, tau int) *mat.Dense {
	n, _ := l.Dims()
	N := n * (tau + 1)
	a := mat.NewDense(N, N, nil)
	c := 1 / float64(n)
	for i := range n {
		for j := range n {
			m := -c
			if i == j {
				m++
			}
			a.Set(i, j, a.At(i, j)+m)
			a.Set(i, tau*n+j, a.At(i, tau*n+j)-gamma*l.At(i, j))
		}
	}
	for b := 1; b <= tau; b++ {
		for i := range n {
			a.Set(b*n+i, (b-1)*n+i, 1)
		}
	}
	return a
}

// TestSecondMomentBruteForce checks SecondMomentRho against the
// second-moment operator built by enumerating all 2^{m+n} outcomes of a
// step on a weighted triangle and a 4-node path (3 links each), τ = 0..2,
// heavy loss and slow ticking, at γ from 20 % to 95 % of the mean
// dynamics' limit: where the brute-force operator has spectral radius
// < 1 − 10⁻³ both give the same ρ (two dense solves, 1e-7 relative);
// where it is > 1 + 10⁻³ SecondMomentRho reports ErrUnstable (the
// regular-splitting equivalence of spec deployed §2.6); and both sides
// occur.
func TestSecondMomentBruteForce(t *testing.T) {
	graphs := map[string]*wgraph.Graph{"triangle": weightedTriangle(), "path4": mustGraph(gen.Path(4))}
	var stableSeen, unstableSeen int
	for name, g := range graphs {
		s := spectralOf(t, g)
		for tau := range 3 {
			for _, qp := range [][2]float64{{0.5, 1}, {0.3, 0.5}, {0.7, 0.8}} {
				m := (1 - qp[0]) * qp[1] * (2 - qp[1])
				lim, _ := s.DelayStabilityBound(tau)
				for _, f := range []float64{0.2, 0.5, 0.8, 0.95} {
					th := &Throttler{Graph: g, Gamma: f * lim / m}
					for _, tr := range []Traffic{Case1, Case2} {
						want, radius := bruteSecondMoment(g, tr, th.Gamma, tau, qp[0], qp[1])
						got, err := SecondMomentRho(th, tr, tau, 1, qp[0], qp[1])
						switch {
						case radius < 1-1e-3:
							stableSeen++
							require.NoError(t, err, "%s τ=%d q,π=%v f=%v %v (radius %v)", name, tau, qp, f, tr, radius)
							require.InEpsilon(t, want, got.Rho, 1e-7, "%s τ=%d q,π=%v f=%v %v", name, tau, qp, f, tr)
						case radius > 1+1e-3:
							unstableSeen++
							require.ErrorIs(t, err, ErrUnstable, "%s τ=%d q,π=%v f=%v %v (radius %v)", name, tau, qp, f, tr, radius)
						}
					}
				}
			}
		}
	}
	require.Positive(t, stableSeen)
	require.Positive(t, unstableSeen)
}

// simulateLossy runs the lossy asynchronous delayed throttler (spec
// deployed §2.6) for Case 2 or Case 1 from zero and returns batch means
// of ‖M_n p‖²: the Monte Carlo reference, drawing each link's delivery
// and each server's tick every step.
func simulateLossy(g *wgraph.Graph, tr Traffic, gamma float64, tau int, q, pi float64, burn, batches, per int, src rand.Source) []float64 {
	n, edges := g.Order(), g.Edges()
	rng := rand.New(src)
	ring := make([][]float64, tau+1) // Case 2: p; Case 1: x
	ps := make([][]float64, tau+1)   // Case 1: p = v − x
	for i := range ring {
		ring[i], ps[i] = make([]float64, n), make([]float64, n)
	}
	next, v := make([]float64, n), make([]float64, n)
	tick := make([]bool, n)
	out := make([]float64, 0, batches)
	var acc float64
	for k := 0; k < burn+batches*per; k++ {
		cur, old := ring[k%(tau+1)], (k+1)%(tau+1)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		for u := range tick {
			tick[u] = rng.Float64() < pi
		}
		var delayed, disp []float64
		if tr == Case2 {
			delayed, disp = ring[old], cur
			for i := range next {
				next[i] = cur[i] + v[i]
			}
		} else {
			pk := ps[k%(tau+1)]
			for i := range pk {
				pk[i] = v[i] - cur[i]
			}
			delayed, disp = ps[old], pk
			copy(next, cur)
		}
		sign := -1.0 // Case 2 tracks p = r − x, whose update is −γLp
		if tr == Case1 {
			sign = 1
		}
		for _, e := range edges {
			if rng.Float64() < q || !(tick[e.U] && tick[e.V]) {
				continue
			}
			f := sign * gamma * e.W * (delayed[e.U] - delayed[e.V])
			next[e.U] += f
			next[e.V] -= f
		}
		if k >= burn {
			var mean, ss float64
			for _, x := range disp {
				mean += x / float64(n)
			}
			for _, x := range disp {
				ss += (x - mean) * (x - mean)
			}
			acc += ss
			if (k-burn+1)%per == 0 {
				out = append(out, acc/float64(per))
				acc = 0
			}
		}
		copy(ring[(k+1)%(tau+1)], next)
	}
	return out
}

// TestSecondMomentMonteCarlo checks SecondMomentRho against a Monte
// Carlo of the same lossy asynchronous model on a 5-node path and a
// random 6-node graph: 40 batch means of 5000 steps (the slowest mode
// decorrelates in ≲ 50 steps here), the exact value within 4 standard
// errors (false failure ≈ 10⁻⁴ per case).
func TestSecondMomentMonteCarlo(t *testing.T) {
	graphs := map[string]*wgraph.Graph{"path5": path5(), "random6": randomGraph(6, 0.5, rand.NewPCG(3, 4))}
	for name, g := range graphs {
		s := spectralOf(t, g)
		for _, tau := range []int{1, 2} {
			q, pi := 0.2, 0.7
			m := (1 - q) * pi * (2 - pi)
			lim, _ := s.DelayStabilityBound(tau)
			th := &Throttler{Graph: g, Gamma: 0.5 * lim / m}
			for _, tr := range []Traffic{Case1, Case2} {
				want, err := SecondMomentRho(th, tr, tau, 1, q, pi)
				require.NoError(t, err)
				e := mc.Estimate(simulateLossy(g, tr, th.Gamma, tau, q, pi, 2000, 40, 5000, rand.NewPCG(uint64(tau), uint64(tr))))
				require.InDelta(t, want.Rho, e.Mean, 4*e.StdErr, "%s τ=%d %v: exact %v, simulated %v ± %v", name, tau, tr, want.Rho, e.Mean, e.StdErr)
			}
		}
	}
}
