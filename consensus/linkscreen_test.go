package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// screenCase is a 300-node random 6-regular graph, 12 of its candidates
// within two hops, the dense L† and Q = (2I − γL)⁻¹ at γ = 0.15 (γλ_n ≈
// 1.57, about γ*_H2 λ_n of such graphs), and λ_n.
type screenCase struct {
	g       *wgraph.Graph
	gy      *wgraph.Graph // the graph whose edges the plain resistance sketch Y takes
	cands   []wgraph.Edge
	lp, q   *mat.Dense
	gamma   float64
	lmax    float64
	pl      localPlan
	n, rows int
}

func newScreenCase(t *testing.T) *screenCase {
	t.Helper()
	g := graphtest.Must(gen.RandomRegular(300, 6, rand.NewPCG(3, 1)))
	all := graphtest.Must(Candidates(g, 2))
	var cands []wgraph.Edge
	for i := 0; i < len(all); i += len(all) / 12 {
		cands = append(cands, all[i])
	}
	pl, fits, err := screenPlan(g)
	require.NoError(t, err)
	require.True(t, fits)
	require.Equal(t, 3, pl.h)
	n := g.Order()
	lp, err := spectral.PseudoInverse(g)
	require.NoError(t, err)
	l, err := g.Laplacian()
	require.NoError(t, err)
	var es mat.EigenSym
	require.True(t, es.Factorize(mat.NewSymDense(n, mat.DenseCopyOf(l).RawMatrix().Data), false))
	lmax := es.Values(nil)[n-1]
	const gamma = 0.15
	a := mat.NewDense(n, n, nil)
	a.Scale(-gamma, l)
	for i := range n {
		a.Set(i, i, a.At(i, i)+2)
	}
	var q mat.Dense
	require.NoError(t, q.Inverse(a))
	return &screenCase{g: g, gy: g, cands: cands, lp: mat.DenseCopyOf(lp), q: &q, gamma: gamma, lmax: lmax, pl: pl, n: n, rows: 8}
}

// runs returns the screening state of one sketch draw with the control
// variate and without (the resistance sketch Y and the old β), both on
// the same Rademacher rows, the ρ₂ sketch sharing Z's rows.
func (sc *screenCase) runs(t *testing.T, rng *rand.Rand) (cv, plain *linkRun) {
	n, m := sc.n, sc.rows
	s := 1 / math.Sqrt(float64(m))
	qs := mat.NewDense(n, m, nil)
	for i := range n {
		for j := range m {
			qs.Set(i, j, s*rademacher(rng))
		}
	}
	yq := mat.NewDense(n, m, nil) // Bᵀ W^{1/2} Q'ᵀ
	for _, e := range sc.gy.Edges() {
		for j := range m {
			v := math.Sqrt(e.W) * s * rademacher(rng)
			yq.Set(e.U, j, yq.At(e.U, j)+v)
			yq.Set(e.V, j, yq.At(e.V, j)-v)
		}
	}
	var zt, zq, yt mat.Dense
	zt.Mul(sc.lp, qs)
	zq.Mul(sc.q, qs)
	yt.Mul(sc.lp, yq)
	br := spectral.Bracket{Lo: sc.lmax, Est: sc.lmax, Hi: sc.lmax * (1 + 1e-6)}
	rho := func() *rhoSketch {
		return &rhoSketch{gamma: sc.gamma, lmax: br, invMu: 1 / (2 - sc.gamma*br.Hi), s: qs.RawMatrix().Data, zq: zq.RawMatrix().Data}
	}
	cv = &linkRun{g: sc.g, n: n, cands: sc.cands, m: m, zt: zt.RawMatrix().Data, rho: rho(),
		scv: &screenCV{pl: sc.pl, m: m, qs: qs.RawMatrix().Data}}
	require.NoError(t, cv.startScreenCV())
	require.NotNil(t, cv.rho.cq)
	plain = &linkRun{g: sc.g, n: n, cands: sc.cands, m: m, my: m, zt: zt.RawMatrix().Data, yt: yt.RawMatrix().Data, rho: rho()}
	return cv, plain
}

// exact returns ‖L†b‖², R, ‖Qb‖² and β of candidate i from the dense
// matrices.
func (sc *screenCase) exact(i int) [4]float64 {
	c := sc.cands[i]
	var out [4]float64
	for k, a := range []*mat.Dense{sc.lp, sc.q} {
		var sq float64
		for j := range sc.n {
			d := a.At(j, c.U) - a.At(j, c.V)
			sq += d * d
		}
		out[2*k], out[2*k+1] = sq, a.At(c.U, c.U)+a.At(c.V, c.V)-2*a.At(c.U, c.V)
	}
	return out
}

// screenedAll returns the four screened quantities of candidate i.
func screenedAll(r *linkRun, i int) [4]float64 {
	zb := make([]float64, r.m)
	sq, res := r.screened(i, zb)
	sqQ, beta := r.rhoScreened(r.rho, i)
	return [4]float64{sq, res, sqQ, beta}
}

// The screening control variate (spec §13.13, §13.16, "Screening
// control variate") against dense values over 300 sketch draws of 8
// rows: its four estimates are unbiased — each sample mean within 4
// standard errors of the exact value (48 such checks; a 4σ miss of a
// mean of 300 independent draws has probability about 6·10⁻⁵ each, the
// draws are fixed by the seed) — and their variance, summed over the
// candidates, is below a quarter of the plain sketches' (measured
// ratios 0.02 for ‖L†b‖², 0.004 for R, 10⁻³ for the Q parts on a
// 1500-node graph; the ratio of two sample variances of 300 draws is
// known to about 12 %). The clamps of the score are not applied here
// (‖L†b‖² and R are clamped at 0, which these draws never reach).
func TestScreenCVUnbiased(t *testing.T) {
	checkScreenCV(t, newScreenCase(t))
}

// After links are added the sketches are those of L_k† and Q_k (the
// rank-one updates keep Z = Q L_k† exact) while the corrections stay
// the input graph's: the estimates stay unbiased, their variance now
// also carrying ‖(L_k† − p(L))b‖ (two links of weight 1 added among the
// candidates within two hops, the same checks).
func TestScreenCVUnbiasedAfterLinks(t *testing.T) {
	sc := newScreenCase(t)
	all := graphtest.Must(Candidates(sc.g, 2))
	b := sc.g.Builder()
	for _, e := range []wgraph.Edge{all[1], all[len(all)/2+1]} {
		mustSet(b, e.U, e.V, 1)
	}
	g1 := b.Build()
	lp, err := spectral.PseudoInverse(g1)
	require.NoError(t, err)
	l, err := g1.Laplacian()
	require.NoError(t, err)
	a := mat.NewDense(sc.n, sc.n, nil)
	a.Scale(-sc.gamma, l)
	for i := range sc.n {
		a.Set(i, i, a.At(i, i)+2)
	}
	var q mat.Dense
	require.NoError(t, q.Inverse(a))
	sc.lp, sc.q, sc.gy = mat.DenseCopyOf(lp), &q, g1
	checkScreenCV(t, sc)
}

// checkScreenCV runs the draws of sc and checks the means and variances
// (TestScreenCVUnbiased).
func checkScreenCV(t *testing.T, sc *screenCase) {
	t.Helper()
	const draws = 300
	nc := len(sc.cands)
	sum, sum2, psum2 := make([][4]float64, nc), make([][4]float64, nc), make([][4]float64, nc)
	psum := make([][4]float64, nc)
	rng := rand.New(rand.NewPCG(7, 7))
	for range draws {
		cv, plain := sc.runs(t, rng)
		for i := range nc {
			a, p := screenedAll(cv, i), screenedAll(plain, i)
			for k := range 4 {
				sum[i][k] += a[k]
				sum2[i][k] += a[k] * a[k]
				psum[i][k] += p[k]
				psum2[i][k] += p[k] * p[k]
			}
		}
	}
	var varCV, varPlain [4]float64
	names := [4]string{"‖L†b‖²", "R", "‖Qb‖²", "β"}
	for i := range nc {
		ex := sc.exact(i)
		for k := range 4 {
			mean := sum[i][k] / draws
			v := (sum2[i][k] - draws*mean*mean) / (draws - 1)
			pm := psum[i][k] / draws
			varCV[k] += v
			varPlain[k] += (psum2[i][k] - draws*pm*pm) / (draws - 1)
			assert.InDelta(t, ex[k], mean, 4*math.Sqrt(v/draws)+1e-12*ex[k], "candidate %d, %s", i, names[k])
		}
	}
	for k := range 4 {
		t.Logf("%s: variance with the control variate / without = %.3g", names[k], varCV[k]/varPlain[k])
		assert.Less(t, varCV[k], varPlain[k]/4, names[k])
	}
}

// The cycles of LinkRho2Star take q(L)'s corrections from the stored
// moments (float32): they agree with the pass that computes them from
// the moments directly (LinkRho2's) to float32 rounding of moments of
// size ≤ 2 times coefficients of size about 1 (1e-5 absolute).
func TestScreenCVCycle(t *testing.T) {
	sc := newScreenCase(t)
	cv, _ := sc.runs(t, rand.New(rand.NewPCG(8, 8)))
	st := *cv
	st.scv = &screenCV{pl: sc.pl, m: cv.m, qs: cv.scv.qs}
	st.rho, st.star = nil, &starSketch{}
	require.NoError(t, st.startScreenCV())
	rs := *cv.rho
	rs.cq, rs.cb = nil, nil
	st.cycleCV(&rs)
	require.NotNil(t, rs.cq)
	for i := range sc.cands {
		assert.InDelta(t, cv.rho.cq[i], rs.cq[i], 1e-5)
		assert.InDelta(t, cv.rho.cb[i], rs.cb[i], 1e-5)
		assert.InDelta(t, cv.scv.cz[i], st.scv.cz[i], 1e-7)
	}
}

// The control variate runs where the polynomials converge: not on a
// torus (slow mixing), and not for q(L) when the pole 2/γ lies at the
// spectrum's edge.
func TestScreenCVWhere(t *testing.T) {
	_, fits, err := screenPlan(graphtest.Must(gen.Torus(20, 20)))
	require.NoError(t, err)
	assert.False(t, fits)
	sc := newScreenCase(t)
	assert.NotNil(t, qCoef(sc.pl, sc.gamma, sc.lmax))
	assert.Nil(t, qCoef(sc.pl, 1.999/sc.lmax, sc.lmax))
	assert.Nil(t, qCoef(sc.pl, 2.1/sc.lmax, sc.lmax))
}
