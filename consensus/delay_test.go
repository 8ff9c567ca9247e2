package consensus

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// delayGraphs are the small graphs of the brute-force checks: a path, a
// weighted triangle, a cycle, a star and two random weighted graphs.
func delayGraphs() map[string]*wgraph.Graph {
	return map[string]*wgraph.Graph{
		"path5":    path5(),
		"triangle": weightedTriangle(),
		"cycle6":   mustGraph(gen.Cycle(6)),
		"star5":    mustGraph(gen.Star(5)),
		"random6":  randomGraph(6, 0.5, rand.NewPCG(3, 4)),
		"random7":  randomGraph(7, 0.4, rand.NewPCG(5, 6)),
	}
}

// delayedCompanion returns the companion matrix of the delayed dispersion
// z(k) = (y(k), …, y(k−τ)), y(k+1) = M_n y(k) − γ L y(k−τ): the first
// block row is [M_n, 0, …, 0, −γL] (for τ = 0: M_n − γL), the others
// shift. M_n in place of I sends the conserved direction 1 to 0, so the
// spectral radius is that of the dispersion modes.
func delayedCompanion(g *wgraph.Graph, gamma float64, tau int) *mat.Dense {
	n := g.Order()
	l, err := g.Laplacian()
	must(err)
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

func spectralRadius(a *mat.Dense) float64 {
	var e mat.Eigen
	if !e.Factorize(a, mat.EigenNone) {
		panic("eigen failed")
	}
	var r float64
	for _, v := range e.Values(nil) {
		r = max(r, cmplx.Abs(v))
	}
	return r
}

// TestDelayLimitCompanion checks the stability limit a*(τ) =
// 2 sin(π/(2(2τ+1))) (spec deployed §2.2) by brute force: the spectral
// radius of the full delayed system's companion matrix is below 1 at
// γ = (1 − 10⁻³) a*(τ)/λ_n and above 1 at (1 + 10⁻³) a*(τ)/λ_n, for
// τ = 0..4 on six graphs, and DelayStability agrees. The crossing root
// moves through the unit circle with nonzero speed, so a 10⁻³ relative
// step in γ moves |z| by ~10⁻⁴ or more, far above the eigensolver's
// error (~10⁻¹³).
func TestDelayLimitCompanion(t *testing.T) {
	for name, g := range delayGraphs() {
		s := spectralOf(t, g)
		for tau := range 5 {
			lim, err := s.DelayStabilityBound(tau)
			require.NoError(t, err)
			for _, f := range []float64{1 - 1e-3, 1 + 1e-3} {
				gamma := f * lim
				r := spectralRadius(delayedCompanion(g, gamma, tau))
				_, serr := DelayStability(&Throttler{Graph: g, Gamma: gamma}, tau)
				if f < 1 {
					require.Less(t, r, 1.0, "%s τ=%d γ=%v", name, tau, gamma)
					require.NoError(t, serr, "%s τ=%d", name, tau)
				} else {
					require.Greater(t, r, 1.0, "%s τ=%d γ=%v", name, tau, gamma)
					require.ErrorIs(t, serr, ErrUnstable, "%s τ=%d", name, tau)
				}
			}
		}
	}
}

// TestDelayLimitScalar checks a*(τ) against the roots of the scalar
// characteristic polynomial z^{τ+1} − z^τ + a (its companion matrix) on
// both sides, for τ = 0..12, and on grids that every a in (0, a*) is
// stable and every a in (a*, 4] unstable (spec deployed §2.2).
func TestDelayLimitScalar(t *testing.T) {
	radius := func(a float64, tau int) float64 {
		k := tau + 1
		c := mat.NewDense(k, k, nil)
		c.Set(0, 0, 1)
		c.Set(0, tau, c.At(0, tau)-a)
		for i := 1; i < k; i++ {
			c.Set(i, i-1, 1)
		}
		return spectralRadius(c)
	}
	for tau := range 13 {
		lim, err := DelayLimit(tau)
		require.NoError(t, err)
		require.Less(t, radius(lim*(1-1e-4), tau), 1.0, "τ=%d", tau)
		require.Greater(t, radius(lim*(1+1e-4), tau), 1.0, "τ=%d", tau)
		for i := 1; i < 50; i++ {
			require.Less(t, radius(lim*float64(i)/50, tau), 1.0, "τ=%d a=%v", tau, lim*float64(i)/50)
			// Past the limit no root comes back inside: unstable up to a = 4.
			a := lim + (4-lim)*float64(i)/50
			require.Greater(t, radius(a, tau), 1.0, "τ=%d a=%v", tau, a)
		}
	}
	require.InDelta(t, 2, delayLimit(0), 1e-15)
	require.InDelta(t, 1, delayLimit(1), 1e-15)
}

// TestRhoDelayTau0 checks that τ = 0 reproduces the delay-free ρ₁, ρ₂,
// ρ₂T (spec throttlers §4.4) to near working precision: both are
// compensated sums of terms with a few roundings each, so 1e-12
// relative.
func TestRhoDelayTau0(t *testing.T) {
	for name, g := range delayGraphs() {
		s := spectralOf(t, g)
		for _, f := range []float64{0.1, 0.5, 0.9, 0.99} {
			gamma := f * s.StabilityBound()
			for _, tr := range []Traffic{Case1, Case2, Case2T} {
				want, err := s.Rho(tr, gamma, 1.3)
				require.NoError(t, err)
				got, err := s.RhoDelay(tr, 0, gamma, 1.3)
				require.NoError(t, err)
				require.InEpsilon(t, want, got, 1e-12, "%s %v γ=%v", name, tr, gamma)
				top, err := RhoDelay(&Throttler{Graph: g, Gamma: gamma}, tr, 0, 1.3)
				require.NoError(t, err)
				want2, err := Rho(&Throttler{Graph: g, Gamma: gamma}, tr, 1.3)
				require.NoError(t, err)
				require.InEpsilon(t, want2, top, 1e-11, "%s %v γ=%v", name, tr, gamma)
			}
		}
	}
}

// TestModeVarianceTau1 checks R at τ = 1 against the AR(2) closed form
// V(a) = (1 + a)/((1 − a) a (2 + a)) (spec deployed §2.3), and R(0) =
// ¼ + τ/2, to 1e-13 relative (a 3×3 solve).
func TestModeVarianceTau1(t *testing.T) {
	w := newModeWork(1)
	for _, a := range []float64{1e-6, 0.01, 0.3, 0.7, 0.99} {
		r, _, ok := w.r(a)
		require.True(t, ok)
		want := (1 + a) / ((1 - a) * a * (2 + a))
		require.InEpsilon(t, want, 1/(2*a)+r, 1e-13, "a=%v", a)
	}
	for tau := range 8 {
		r, _, ok := newModeWork(tau).r(0)
		require.True(t, ok)
		require.InDelta(t, 0.25+float64(tau)/2, r, 1e-13)
	}
}

// TestModeVarianceConvex checks on a grid that V_τ(a) = 1/(2a) + R_τ(a)
// is convex on (0, a*(τ)) for τ = 0..8, the property GammaH2Delay's
// bisection relies on (spec deployed §2.4), and that R' agrees with a
// central difference (step 1e-6 a*: truncation ~1e-12 R”', rounding
// ~1e-10 R/1e-6; tolerance 1e-5 relative).
func TestModeVarianceConvex(t *testing.T) {
	for tau := range 9 {
		w := newModeWork(tau)
		lim := delayLimit(tau)
		v := func(a float64) float64 { r, _, _ := w.r(a); return 1/(2*a) + r }
		const pts = 400
		h := lim / pts
		for i := 2; i < pts-1; i++ {
			a := h * float64(i)
			second := v(a-h) - 2*v(a) + v(a+h)
			require.Greater(t, second, 0.0, "τ=%d a=%v", tau, a)
			_, dr, _ := w.r(a)
			e := 1e-6 * lim
			ra, _, _ := w.r(a + e)
			rb, _, _ := w.r(a - e)
			require.InDelta(t, (ra-rb)/(2*e), dr, 1e-5*max(1, math.Abs(dr)), "τ=%d a=%v", tau, a)
		}
	}
}

// augmentedLyapunov returns ρ of traffic t under delay τ (σ = 1) by a
// direct solve of the augmented n(τ+1)-dimensional Lyapunov equation
// S = A S Aᵀ + Q with Lyapunov (spec deployed §2.3): A the delayed
// companion matrix; Case 2: Q = M_n in block (0, 0) and ρ₂ = tr S₀₀;
// Case 1: Q = γ² L² there and ρ₁ = (n − 1) + tr S₀₀.
func augmentedLyapunov(t *testing.T, g *wgraph.Graph, tr Traffic, gamma float64, tau int) float64 {
	t.Helper()
	n := g.Order()
	a := delayedCompanion(g, gamma, tau)
	N := n * (tau + 1)
	q := mat.NewSymDense(N, nil)
	l, err := g.Laplacian()
	require.NoError(t, err)
	var l2 mat.Dense
	l2.Mul(l, l)
	for i := range n {
		for j := i; j < n; j++ {
			if tr == Case1 {
				q.SetSym(i, j, gamma*gamma*l2.At(i, j))
			} else {
				m := -1 / float64(n)
				if i == j {
					m++
				}
				q.SetSym(i, j, m)
			}
		}
	}
	s, err := Lyapunov(a, q)
	require.NoError(t, err)
	var tr0 float64
	for i := range n {
		tr0 += s.At(i, i)
	}
	if tr == Case1 {
		return float64(n-1) + tr0
	}
	return tr0
}

// TestRhoDelayLyapunov checks RhoDelay against a direct Lyapunov solve of
// the augmented system on small graphs, τ = 1..3, at 30 %, 70 % and
// 95 % of the delayed limit. The direct solve is backward stable with
// error ~ κ(I − A⊗A) ε ≲ 10⁻¹⁰ relative here; tolerance 1e-8.
func TestRhoDelayLyapunov(t *testing.T) {
	for name, g := range delayGraphs() {
		if g.Order() > 6 {
			continue
		}
		s := spectralOf(t, g)
		for tau := 1; tau <= 3; tau++ {
			lim, _ := s.DelayStabilityBound(tau)
			for _, f := range []float64{0.3, 0.7, 0.95} {
				gamma := f * lim
				for _, tr := range []Traffic{Case1, Case2} {
					got, err := s.RhoDelay(tr, tau, gamma, 1)
					require.NoError(t, err)
					want := augmentedLyapunov(t, g, tr, gamma, tau)
					require.InEpsilon(t, want, got, 1e-8, "%s τ=%d %v γ=%v", name, tau, tr, gamma)
				}
			}
		}
	}
}

// simulateDelayed runs the delayed throttler's dispersion for steps
// after burn steps, Case 2 (p(k+1) = p(k) − γ L p(k−τ) + v(k)) or Case 1
// (x(k+1) = x(k) + γ L p(k−τ), p = v − x), from zero, and returns the
// batch means of ‖M_n p‖²: the brute-force reference of spec deployed
// §2.1.
func simulateDelayed(g *wgraph.Graph, tr Traffic, gamma float64, tau, burn, batches, per int, src rand.Source) []float64 {
	n := g.Order()
	rng := rand.New(src)
	hist := make([][]float64, tau+1) // ring of p (Case 2) or x (Case 1)
	for i := range hist {
		hist[i] = make([]float64, n)
	}
	ps := make([][]float64, tau+1) // Case 1: the measures p = v − x
	for i := range ps {
		ps[i] = make([]float64, n)
	}
	lp, next, v := make([]float64, n), make([]float64, n), make([]float64, n)
	out := make([]float64, 0, batches)
	var acc float64
	for k := 0; k < burn+batches*per; k++ {
		cur := hist[k%(tau+1)]
		old := (k + 1) % (tau + 1) // slot of time k − τ
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		var disp []float64
		if tr == Case2 {
			g.LaplacianMulVec(lp, hist[old])
			for i := range next {
				next[i] = cur[i] - gamma*lp[i] + v[i]
			}
			disp = cur
		} else {
			pk := ps[k%(tau+1)]
			for i := range pk {
				pk[i] = v[i] - cur[i]
			}
			g.LaplacianMulVec(lp, ps[old])
			for i := range next {
				next[i] = cur[i] + gamma*lp[i]
			}
			disp = pk
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
		copy(hist[(k+1)%(tau+1)], next)
	}
	return out
}

// TestRhoDelaySimulation checks RhoDelay against a long simulation of
// the delayed recursion: 40 batch means of 5000 steps each (far longer
// than the slowest mode's correlation time, ~1/(γλ₂) ≈ 20 steps, so
// the batch means are nearly independent); the exact value must lie in
// the mean ± 4 standard errors (a false failure has probability
// ≈ 10⁻⁴ per case under the t law).
func TestRhoDelaySimulation(t *testing.T) {
	g := path5()
	s := spectralOf(t, g)
	for tau := 1; tau <= 3; tau++ {
		lim, _ := s.DelayStabilityBound(tau)
		gamma := 0.6 * lim
		for _, tr := range []Traffic{Case1, Case2} {
			want, err := s.RhoDelay(tr, tau, gamma, 1)
			require.NoError(t, err)
			e := mc.Estimate(simulateDelayed(g, tr, gamma, tau, 2000, 40, 5000, rand.NewPCG(uint64(tau), uint64(tr))))
			require.InDelta(t, want, e.Mean, 4*e.StdErr, "τ=%d %v: exact %v, simulated %v ± %v", tau, tr, want, e.Mean, e.StdErr)
		}
	}
}

// TestGammaH2Delay checks γ*_H2(τ) (spec deployed §2.4): τ = 0 equals
// Spectral.GammaH2 (both bisect to the last bit a root of the same
// derivative, so 1e-9 relative); for τ > 0 it lies inside the stable
// range and ρ₂ is larger at (1 ± 10⁻³) γ* (a minimum), and the delayed
// optimum is shorter than the delay-free one.
func TestGammaH2Delay(t *testing.T) {
	for name, g := range delayGraphs() {
		s := spectralOf(t, g)
		g0, r0, err := s.GammaH2(1)
		require.NoError(t, err)
		gd, rd, err := s.GammaH2Delay(0, 1)
		require.NoError(t, err)
		require.InEpsilon(t, g0, gd, 1e-9, name)
		require.InEpsilon(t, r0, rd, 1e-12, name)
		prev := g0
		for tau := 1; tau <= 4; tau++ {
			gs, rs, err := s.GammaH2Delay(tau, 1)
			require.NoError(t, err)
			lim, _ := s.DelayStabilityBound(tau)
			require.Less(t, gs, lim)
			for _, f := range []float64{1 - 1e-3, 1 + 1e-3} {
				r, err := s.RhoDelay(Case2, tau, f*gs, 1)
				require.NoError(t, err)
				require.Greater(t, r, rs, "%s τ=%d", name, tau)
			}
			require.Less(t, gs, prev, "%s τ=%d", name, tau)
			prev = gs
		}
	}
}

// TestRhoDelayErrors checks the stability errors of the exact functions:
// γ past the delayed limit is ErrUnstable with +Inf.
func TestRhoDelayErrors(t *testing.T) {
	s := spectralOf(t, path5())
	lim, _ := s.DelayStabilityBound(2)
	r, err := s.RhoDelay(Case2, 2, 1.01*lim, 1)
	require.True(t, errors.Is(err, ErrUnstable))
	require.True(t, math.IsInf(r, 1))
	r, err = RhoDelay(&Throttler{Graph: path5(), Gamma: lim}, Case1, 2, 1)
	require.ErrorIs(t, err, ErrUnstable)
	require.True(t, math.IsInf(r, 1))
}

// TestNodalRhoDelay checks the nodal values under delay (spec deployed
// §2.3) against the diagonal of the augmented Lyapunov solution's newest
// block (Case 2, τ = 2; 1e-8 as TestRhoDelayLyapunov), their sum against
// RhoDelay (1e-12), and τ = 0 against Spectral.NodalRho (1e-12).
func TestNodalRhoDelay(t *testing.T) {
	for name, g := range delayGraphs() {
		if g.Order() > 6 {
			continue
		}
		s := spectralOf(t, g)
		lim, _ := s.DelayStabilityBound(2)
		gamma := 0.6 * lim
		nod, err := s.NodalRhoDelay(nil, Case2, 2, gamma, 1)
		require.NoError(t, err)
		n := g.Order()
		a := delayedCompanion(g, gamma, 2)
		q := mat.NewSymDense(n*3, nil)
		for i := range n {
			for j := i; j < n; j++ {
				m := -1 / float64(n)
				if i == j {
					m++
				}
				q.SetSym(i, j, m)
			}
		}
		sl, err := Lyapunov(a, q)
		require.NoError(t, err)
		var sum float64
		for j := range n {
			require.InEpsilon(t, sl.At(j, j), nod[j], 1e-8, "%s node %d", name, j)
			sum += nod[j]
		}
		rho, err := s.RhoDelay(Case2, 2, gamma, 1)
		require.NoError(t, err)
		require.InEpsilon(t, rho, sum, 1e-12, name)
		for _, tr := range []Traffic{Case1, Case2, Case2T} {
			want, err := s.NodalRho(nil, tr, gamma, 1)
			require.NoError(t, err)
			got, err := s.NodalRhoDelay(nil, tr, 0, gamma, 1)
			require.NoError(t, err)
			for j := range want {
				require.InEpsilon(t, want[j], got[j], 1e-12, "%s %v node %d", name, tr, j)
			}
		}
	}
}
