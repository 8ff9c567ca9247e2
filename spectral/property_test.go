package spectral

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// propCase is a random weighted graph with its eigendecomposition and the
// tolerance its conditioning allows.
type propCase struct {
	name string
	g    *wgraph.Graph
	vals []float64
	vecs *mat.Dense
	// tol is the relative accuracy to expect of L†-derived quantities:
	// a backward-stable Cholesky solve of A = L + αJ/n has relative
	// error about κ(A)·n·ε, and the eigendecomposition about
	// ‖L‖/λ₂·n·ε, where κ(A) = max(λ_n, α)/min(λ₂, α). Factor 8 covers
	// the constants of both bounds.
	tol float64
}

func propCases(t *testing.T) []propCase {
	var cs []propCase
	for i, tc := range []struct {
		n      int
		p      float64
		spread float64
	}{
		{2, 1, 10}, {3, 1, 10}, {5, 0.6, 10}, {8, 0.5, 10}, {12, 0.4, 10},
		{20, 0.3, 10}, {30, 0.2, 10}, {30, 0.9, 100}, {60, 0.1, 10}, {60, 0.5, 1000},
	} {
		g := graphtest.RandomWeighted(t, tc.n, tc.p, tc.spread, graphtest.PCG(uint64(100+i)))
		var es mat.EigenSym
		require.True(t, es.Factorize(graphtest.Must(g.Laplacian()), true))
		var vecs mat.Dense
		es.VectorsTo(&vecs)
		vals := es.Values(nil)
		n := g.Order()
		alpha := 0.0
		for u := range n {
			alpha += g.WeightedDegree(u) / float64(n)
		}
		kappa := math.Max(vals[n-1], alpha) / math.Min(vals[1], alpha)
		cs = append(cs, propCase{
			name: fmt.Sprintf("n=%d p=%v spread=%v", tc.n, tc.p, tc.spread),
			g:    g, vals: vals, vecs: &vecs,
			tol: 8 * kappa * float64(n) * eps,
		})
	}
	return cs
}

func TestFosterTheorem(t *testing.T) {
	// Foster: Σ_edges w_e R_e = n − 1 (the w_e R_e are the leverage
	// scores of the edges, whose sum is rank L = n − 1).
	for _, c := range propCases(t) {
		r, err := NewResistance(c.g)
		require.NoError(t, err)
		var s float64
		for _, e := range c.g.Edges() {
			s += e.W * r.Between(e.U, e.V)
		}
		n := float64(c.g.Order())
		assert.InEpsilon(t, n-1, s, c.tol, c.name)
	}
}

func TestResistanceIsMetric(t *testing.T) {
	for _, c := range propCases(t) {
		rm, err := ResistanceMatrix(c.g)
		require.NoError(t, err)
		n := c.g.Order()
		var top float64
		for u := range n {
			for v := range n {
				top = math.Max(top, rm.At(u, v))
			}
		}
		slack := c.tol * top // absolute error of any entry
		for u := range n {
			assert.Zero(t, rm.At(u, u), c.name)
			for v := u + 1; v < n; v++ {
				ruv := rm.At(u, v)
				require.Greater(t, ruv, 0.0, c.name)
				for w := range n {
					require.LessOrEqual(t, ruv, rm.At(u, w)+rm.At(w, v)+slack,
						"%s: triangle inequality at (%d, %d, %d)", c.name, u, v, w)
				}
			}
		}
	}
}

func TestKirchhoffIdentities(t *testing.T) {
	// K_f = Σ_{u<v} R_uv = n tr L† = n Σ_{i≥2} 1/λ_i (spec §2, §9).
	for _, c := range propCases(t) {
		n := c.g.Order()
		k, err := KirchhoffIndex(c.g)
		require.NoError(t, err)
		p, err := PseudoInverse(c.g)
		require.NoError(t, err)
		rm, err := ResistanceMatrix(c.g)
		require.NoError(t, err)
		var tr, pairs float64
		for u := range n {
			tr += p.At(u, u)
			for v := u + 1; v < n; v++ {
				pairs += rm.At(u, v)
			}
		}
		assert.InEpsilon(t, k, float64(n)*tr, c.tol, "%s n tr L†", c.name)
		assert.InEpsilon(t, k, pairs, c.tol, "%s Σ R_uv", c.name)
		assert.InEpsilon(t, k, graphtest.Must(KirchhoffFromSpectrum(c.vals)), c.tol, "%s n Σ 1/λ", c.name)
		r, err := NewResistance(c.g)
		require.NoError(t, err)
		assert.Equal(t, k, r.Kirchhoff(), c.name)
	}
}

func TestPseudoInverseIdentities(t *testing.T) {
	for _, c := range propCases(t) {
		n := c.g.Order()
		p, err := PseudoInverse(c.g)
		require.NoError(t, err)
		// L L† = I − J/n: entries of order 1 computed as products of L
		// (norm λ_n) and L† (norm 1/λ₂), so absolute error ≈ κ n ε.
		var prod mat.Dense
		prod.Mul(graphtest.Must(c.g.Laplacian()), p)
		for i := range n {
			for j := range n {
				want := -1 / float64(n)
				if i == j {
					want++
				}
				require.InDelta(t, want, prod.At(i, j), c.tol, "%s (LL†)[%d][%d]", c.name, i, j)
			}
		}
		// L† = Σ_{i≥2} u_i u_iᵀ / λ_i (spec §2, the check of spec §9):
		// absolute error relative to ‖L†‖ = 1/λ₂.
		for a := range n {
			for b := range n {
				var s float64
				for i := 1; i < n; i++ {
					s += c.vecs.At(a, i) * c.vecs.At(b, i) / c.vals[i]
				}
				require.InDelta(t, s, p.At(a, b), c.tol/c.vals[1], "%s L†[%d][%d]", c.name, a, b)
			}
		}
		// L† 1 = 0, to the same absolute accuracy times n.
		for a := range n {
			var s float64
			for b := range n {
				s += p.At(a, b)
			}
			require.InDelta(t, 0, s, float64(n)*c.tol/c.vals[1], c.name)
		}
	}
}

func TestResistanceMethodsAgree(t *testing.T) {
	// Between, EffectiveResistance, Matrix, PseudoInverse and the
	// eigenvector formula R_uv = Σ_{i≥2} (x_i(u) − x_i(v))²/λ_i.
	for _, c := range propCases(t) {
		n := c.g.Order()
		r, err := NewResistance(c.g)
		require.NoError(t, err)
		rm := r.Matrix()
		p := r.PseudoInverse()
		diag := r.PseudoInverseDiag(nil)
		for u := range n {
			assert.InDelta(t, p.At(u, u), diag[u], c.tol/c.vals[1], c.name)
			for v := range n {
				b := r.Between(u, v)
				assert.Equal(t, b, r.Between(v, u), c.name)
				if u == v {
					assert.Zero(t, b)
					continue
				}
				var spec float64
				for i := 1; i < n; i++ {
					d := c.vecs.At(u, i) - c.vecs.At(v, i)
					spec += d * d / c.vals[i]
				}
				// R_uv = bᵀL†b ≤ ‖b‖²/λ₂ = 2/λ₂ (b = e_u − e_v): an
				// error of tol relative to ‖L†‖ = 1/λ₂ in each entry is
				// at most 2·tol/λ₂ absolute, for every method.
				abs := 2 * c.tol / c.vals[1]
				assert.InDelta(t, spec, b, abs, "%s Between(%d, %d)", c.name, u, v)
				assert.InDelta(t, b, rm.At(u, v), abs, "%s Matrix", c.name)
				assert.InDelta(t, b, p.At(u, u)+p.At(v, v)-2*p.At(u, v), abs, "%s L†", c.name)
				if u < 3 {
					e, err := EffectiveResistance(c.g, u, v)
					require.NoError(t, err)
					assert.InDelta(t, b, e, abs, "%s EffectiveResistance", c.name)
				}
			}
		}
	}
}

func TestRayleighMonotonicity(t *testing.T) {
	// Raising one conductance never raises any R_uv; lowering never
	// lowers one. Allowed violation: the absolute error tol/λ₂ of each
	// matrix (λ₂ only grows when a weight is raised).
	rnd := rand.New(graphtest.PCG(77))
	for _, c := range propCases(t) {
		before, err := ResistanceMatrix(c.g)
		require.NoError(t, err)
		es := c.g.Edges()
		for range 3 {
			e := es[rnd.IntN(len(es))]
			b := c.g.Builder()
			require.NoError(t, b.SetEdge(e.U, e.V, e.W*(1+3*rnd.Float64())))
			h := b.Build()
			after, err := ResistanceMatrix(h)
			require.NoError(t, err)
			slack := 2 * c.tol / c.vals[1]
			n := c.g.Order()
			var drop float64
			for u := range n {
				for v := range n {
					require.LessOrEqual(t, after.At(u, v), before.At(u, v)+slack, "%s (%d, %d)", c.name, u, v)
					drop = math.Max(drop, before.At(u, v)-after.At(u, v))
				}
			}
			// R_{e} itself strictly drops (the test can fail).
			assert.Less(t, after.At(e.U, e.V), before.At(e.U, e.V), c.name)
			assert.Greater(t, drop, 0.0)
		}
	}
}

func TestResistanceScaling(t *testing.T) {
	// R(cG) = R(G)/c: the shift α = mean degree scales with the weights,
	// so the factorisation stays as accurate at c = 1e±100 as at c = 1.
	g := graphtest.RandomWeighted(t, 25, 0.3, 10, graphtest.PCG(5))
	ref, err := ResistanceMatrix(g)
	require.NoError(t, err)
	k0, err := KirchhoffIndex(g)
	require.NoError(t, err)
	for _, c := range []float64{1e-100, 1e-8, 1e8, 1e100} {
		h := graphtest.Reweight(t, g, func(e wgraph.Edge) float64 { return e.W * c })
		rm, err := ResistanceMatrix(h)
		require.NoError(t, err)
		// Scaling by c changes every operation's rounding only by the
		// rounding of the scaled weights (one ulp each); 1e-12 relative
		// covers κ·n·ε for this graph (κ ≈ 1e2).
		for u := range 25 {
			for v := range 25 {
				assert.InDelta(t, ref.At(u, v), rm.At(u, v)*c, 1e-12*ref.At(u, v)+1e-300, "c=%g", c)
			}
		}
		k, err := KirchhoffIndex(h)
		require.NoError(t, err)
		assert.InEpsilon(t, k0, k*c, 1e-12, "c=%g", c)
	}
}

func TestAlgebraicConnectivity(t *testing.T) {
	// λ₂ and the Fiedler vector against the full eigendecomposition, on
	// the families (repeated λ₂ for cycles, tori, hypercubes, stars,
	// complete graphs) and on the random weighted graphs. The vector is
	// checked by its residual ‖L f − λ₂ f‖ ≤ 64 n ε ‖L‖ (the acceptance
	// test of the inverse iteration, which also holds for the fallback),
	// norm 1 and orthogonality to the constants.
	var gs []*wgraph.Graph
	var names []string
	for _, f := range families() {
		if f.g.Order() >= 2 && f.g.Order() <= 100 {
			gs, names = append(gs, f.g), append(names, f.name)
		}
	}
	for _, c := range propCases(t) {
		gs, names = append(gs, c.g), append(names, c.name)
	}
	fallbacks := 0
	for k, g := range gs {
		n := g.Order()
		l2, f, err := AlgebraicConnectivity(g)
		require.NoError(t, err)
		ev, err := Spectrum(g)
		require.NoError(t, err)
		require.Equal(t, ev[1], l2, names[k])
		lmax := ev[n-1]
		require.InDelta(t, 1, mat.Norm(f, 2), 1e-14, names[k])
		require.InDelta(t, 0, mat.Sum(f), 64*float64(n)*eps, names[k])
		var lf mat.VecDense
		lf.MulVec(graphtest.Must(g.Laplacian()), f)
		lf.AddScaledVec(&lf, -l2, f)
		require.LessOrEqual(t, mat.Norm(&lf, 2), 64*float64(n)*eps*lmax, names[k])
		if fiedler(graphtest.Must(g.Laplacian()), l2, lmax) == nil {
			fallbacks++
		}
	}
	t.Logf("%d graphs, %d needed the full eigendecomposition", len(gs), fallbacks)
	assert.Less(t, fallbacks, len(gs)/10, "inverse iteration should rarely fail")
	// A disconnected graph: λ₂ = 0 and a vector of the null space, to the
	// same 64 n ε ‖L‖ (‖L‖ = 4 here).
	g := graphtest.GraphOf(t, 4, wgraph.Edge{U: 0, V: 1, W: 1}, wgraph.Edge{U: 2, V: 3, W: 2})
	l2, f, err := AlgebraicConnectivity(g)
	require.NoError(t, err)
	tol := 64 * 4 * eps * 4
	assert.InDelta(t, 0, l2, tol)
	var lf mat.VecDense
	lf.MulVec(graphtest.Must(g.Laplacian()), f)
	assert.InDelta(t, 0, mat.Norm(&lf, 2), tol)
}
