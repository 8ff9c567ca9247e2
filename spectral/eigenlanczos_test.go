package spectral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lanczosGraphs returns random weighted graphs above the dense range
// (n > 400, where the Lanczos brackets run), weights over two decades,
// half of them with a diagonal scaling, and their dense spectra.
func lanczosGraphs(t *testing.T, sizes []int) []bracketCase {
	var cs []bracketCase
	for i, n := range sizes {
		src := rand.NewPCG(uint64(i), 2026)
		g := graphtest.RandomWeighted(t, n, 6/float64(n), 10, src)
		c := bracketCase{name: "ER weighted", g: g}
		if i%2 == 1 {
			rnd := rand.New(src)
			c.q = make([]float64, n)
			for u := range c.q {
				c.q[u] = math.Exp(2*rnd.Float64() - 1)
			}
			c.name += ", scaled"
		}
		cs = append(cs, c)
	}
	return cs
}

// TestLanczosBracketsCover runs both brackets over many random start
// vectors (EigenSettings.Src) on random weighted graphs with n ≤ 2000
// and checks every bracket against the dense eigenvalue: the
// probabilistic end fails with probability ≤ Delta = 1e-10, so over
// these 96 brackets zero failures are expected (any failure is a
// defect), and every bracket meets the requested width.
func TestLanczosBracketsCover(t *testing.T) {
	sizes := []int{420, 520, 700}
	if !testing.Short() {
		sizes = append(sizes, 900, 1200)
	}
	for _, c := range lanczosGraphs(t, sizes) {
		ev := denseScaledSpectrum(t, c.g, c.q)
		l2, ln := ev[1], ev[len(ev)-1]
		tol := 1e-12 * ln // the dense reference's absolute error
		for seed := range uint64(6) {
			for _, width := range []float64{[2]float64{1e-3, 1e-5}[seed%2]} {
				s := &EigenSettings{Scale: c.q, RelWidth: width, Src: rand.NewPCG(seed, 9)}
				b, err := LambdaMaxBracket(c.g, s)
				require.NoError(t, err)
				assert.True(t, b.Lo <= ln+tol && ln-tol <= b.Hi, "%s n=%d seed %d: λ_max = %v ∉ %v", c.name, c.g.Order(), seed, ln, b)
				assert.LessOrEqual(t, b.Width(), width*b.Lo, "%s: width", c.name)
				assert.Equal(t, CertLanczos, b.Cert)
				s.Src = rand.NewPCG(seed, 9)
				b, err = Lambda2Bracket(c.g, s)
				require.NoError(t, err)
				assert.True(t, b.Lo <= l2+tol && l2-tol <= b.Hi, "%s n=%d seed %d: λ₂ = %v ∉ %v", c.name, c.g.Order(), seed, l2, b)
				assert.LessOrEqual(t, b.Width(), width*b.Lo, "%s: width", c.name)
				assert.Equal(t, 1e-10, b.Delta)
			}
		}
	}
}

// TestChristoffelBoundRate tests the probabilistic end where it binds:
// after the first check (8 steps) with Delta = 0.1 the Christoffel bound
// is far from converged, and over 10 graphs × 20 start vectors the
// number of brackets whose Hi lies below the dense λ_max must be
// consistent with a failure probability ≤ 0.1: at most 34 of 200
// (P[Bin(200, 0.1) ≥ 35] ≈ 1e-4). A bound computed without the tail
// probability (Hi ≈ θ) fails every time.
func TestChristoffelBoundRate(t *testing.T) {
	fails, runs := 0, 0
	for gi := range 10 {
		n := 401 + 11*gi
		g := graphtest.RandomWeighted(t, n, 5/float64(n), 10, rand.NewPCG(uint64(gi), 77))
		ev := denseScaledSpectrum(t, g, nil)
		ln := ev[len(ev)-1]
		op := newOperator(g, nil)
		_, hi0 := op.edgeBounds()
		for seed := range uint64(20) {
			// The bound of lanczosMax at its first check.
			lz := lanczos.New(n, func(dst, src []float64) error { op.mul(dst, src); return nil }, nil, [2]uint64{seed, uint64(gi)})
			for range 8 {
				require.NoError(t, lz.Step())
			}
			theta := lz.RitzTop()
			hi := lz.UpperBound(theta, hi0, 8/sphereTail(n, 0.1))
			runs++
			if hi < ln*(1-1e-12) {
				fails++
			}
			assert.LessOrEqual(t, theta, ln*(1+1e-12)) // interlacing
			assert.Less(t, hi, hi0, "the bound is not vacuous")
		}
	}
	t.Logf("%d of %d brackets missed λ_max at δ = 0.1", fails, runs)
	assert.LessOrEqual(t, fails, 34)
}

// TestBracketClosedForms checks the brackets against closed-form
// spectra above the dense range (spec §9): the 40 × 40 torus (λ_max = 8,
// sharp by Collatz–Wielandt since the torus is bipartite and regular;
// λ₂ = 4 sin²(π/40), of multiplicity 4), the 10-cube (λ_max = 20,
// λ₂ = 2, multiplicity 10) and the path on 1000 nodes
// (λ_max = 2 + 2 cos(π/n), λ₂ = 4 sin²(π/(2n))), whose clustered ends
// are the slow case of Lanczos.
func TestBracketClosedForms(t *testing.T) {
	cases := []struct {
		name   string
		g      *wgraph.Graph
		l2, ln float64
	}{
		{"torus 40×40", graphtest.Must(gen.Torus(40, 40)), 4 * math.Pow(math.Sin(math.Pi/40), 2), 8},
		{"hypercube 10", graphtest.Must(gen.Hypercube(10)), 2, 20},
		{"path 1000", graphtest.Must(gen.Path(1000)), 4 * math.Pow(math.Sin(math.Pi/2000), 2), 2 + 2*math.Cos(math.Pi/1000)},
	}
	for _, c := range cases {
		b, err := LambdaMaxBracket(c.g, nil)
		require.NoError(t, err, c.name)
		assert.True(t, b.Lo <= c.ln*(1+1e-13) && c.ln*(1-1e-13) <= b.Hi, "%s: λ_max = %v ∉ %v", c.name, c.ln, b)
		assert.LessOrEqual(t, b.Width(), defaultRelWidth*b.Lo, c.name)
		if c.name != "path 1000" {
			// Regular bipartite: the Collatz–Wielandt bound is exact, so
			// the bracket is deterministic.
			assert.Zero(t, b.Delta, c.name)
		}
		b, err = Lambda2Bracket(c.g, nil)
		require.NoError(t, err, c.name)
		assert.True(t, b.Lo <= c.l2*(1+1e-12) && c.l2*(1-1e-12) <= b.Hi, "%s: λ₂ = %v ∉ %v", c.name, c.l2, b)
		assert.LessOrEqual(t, b.Width(), defaultRelWidth*b.Lo, c.name)
	}
}

// TestBracketMaxSteps: a step budget too small for the width returns
// the bracket reached, Status IterationLimit and ErrNotConverged; the
// bracket still holds λ_max.
func TestBracketMaxSteps(t *testing.T) {
	g := graphtest.Must(gen.Path(1000))
	b, err := LambdaMaxBracket(g, &EigenSettings{MaxSteps: 10, RelWidth: 1e-9})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.IterationLimit, b.Status)
	want := 2 + 2*math.Cos(math.Pi/1000)
	assert.True(t, b.Contains(want), "%v", b)
	b, err = Lambda2Bracket(g, &EigenSettings{MaxSteps: 8, RelWidth: 1e-12})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.IterationLimit, b.Status)
}

// TestBracketTooLarge: the workspace is checked before anything is
// allocated, and the error names the quantity.
func TestBracketTooLarge(t *testing.T) {
	err := checkVectors("LambdaMaxBracket", 1<<40, eigenWorkspace)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.Contains(t, err.Error(), "LambdaMaxBracket")
	assert.Contains(t, err.Error(), "n = 1099511627776")
}

// TestSphereTail checks P[c² < s] ≤ δ for the squared first coordinate
// of a uniform unit vector in dimension N, by simulation at δ = 0.05,
// N = 50: over 20000 draws the count below s must be consistent with a
// rate ≤ 0.05 (≤ 1100, 3.2 σ above 1000).
func TestSphereTail(t *testing.T) {
	const dim, delta, draws = 50, 0.05, 20000
	s := sphereTail(dim, delta)
	rnd := rand.New(rand.NewPCG(4, 4))
	v := make([]float64, dim)
	below := 0
	for range draws {
		for i := range v {
			v[i] = rnd.NormFloat64()
		}
		if v[0]*v[0]/dense.Dot(v, v) < s {
			below++
		}
	}
	assert.LessOrEqual(t, below, 1100)
	// and the bound is not vacuous: the true rate is ≈ 2Φ(√(sN)) − 1.
	assert.Greater(t, below, 500)
}

// The Collatz–Wielandt bound stops at the first step only when that
// step's ratios are all equal (then x = 1 is the Perron vector of |S|):
// on a 6-regular graph the bound is 2d = 12 (to the rounding margin)
// after one step, and on the star K_{1,5}, whose first ratios are 10
// and 2, the power steps must go on to the sharp value λ_max = 6
// (bipartite), well below the first step's 10.
func TestPerronBoundStops(t *testing.T) {
	g, err := gen.RandomRegular(500, 6, rand.NewPCG(1, 1))
	require.NoError(t, err)
	op := newOperator(g, nil)
	b12 := op.perronBound(0, perronIters)
	assert.True(t, b12 >= 12 && b12 <= 12*(1+2*op.rel), "regular: bound %v, want 12", b12)
	b := graphtest.Must(wgraph.NewBuilder(6))
	for v := 1; v < 6; v++ {
		_ = b.SetEdge(0, v, 1)
	}
	star := newOperator(b.Build(), nil)
	got := star.perronBound(0, 200)
	assert.True(t, got >= 6 && got < 6.01, "star: bound %v, want 6 (sharp)", got)
}
