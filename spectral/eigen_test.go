package spectral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// denseScaledSpectrum returns the ascending spectrum of Q^{1/2} L Q^{1/2}
// by the dense eigensolver, the reference for the brackets.
func denseScaledSpectrum(t *testing.T, g *wgraph.Graph, q []float64) []float64 {
	a, err := newOperator(g, q).dense("test")
	require.NoError(t, err)
	var es mat.EigenSym
	require.True(t, es.Factorize(a, false))
	return es.Values(nil)
}

// bracketCase is a graph on which the brackets are checked, with the
// relative error of the dense reference (backward-stable eigensolver:
// ~n ε ‖S‖; 1e-12 ‖S‖ covers n ≤ 1000 with a wide margin).
type bracketCase struct {
	name string
	g    *wgraph.Graph
	q    []float64
}

func bracketCases(t *testing.T) []bracketCase {
	var cs []bracketCase
	for i, n := range []int{12, 90, 420, 520} {
		src := rand.NewPCG(uint64(i), 77)
		g := graphtest.RandomWeighted(t, n, math.Min(1, 8/float64(n)), 10, src)
		cs = append(cs, bracketCase{name: "ER weighted", g: g})
		q := make([]float64, n)
		rnd := rand.New(src)
		for u := range q {
			q[u] = 0.2 + rnd.Float64()
		}
		cs = append(cs, bracketCase{name: "ER weighted, scaled", g: g, q: q})
	}
	cs = append(cs, bracketCase{name: "path 450", g: graphtest.Must(gen.Path(450))},
		bracketCase{name: "cycle 500", g: graphtest.Must(gen.Cycle(500))},
		bracketCase{name: "hypercube 9", g: graphtest.Must(gen.Hypercube(9))},
		bracketCase{name: "complete 40", g: graphtest.Must(gen.Complete(40))})
	return cs
}

// TestLambdaMaxBracket checks that the bracket holds the dense λ_max on
// random weighted graphs (with and without a diagonal scaling) and on
// closed-form families, with and without a threshold, that a threshold
// 1e-7 away is decided up to 3000 nodes, and that without one the width
// meets the default request.
func TestLambdaMaxBracket(t *testing.T) {
	for _, c := range bracketCases(t) {
		ev := denseScaledSpectrum(t, c.g, c.q)
		lam := ev[len(ev)-1]
		tol := 1e-12 * lam // the reference's own error
		for _, th := range []float64{0, 0.5 * lam, lam * (1 - 1e-7), lam * (1 + 1e-7), 2 * lam} {
			b, err := LambdaMaxBracket(c.g, &EigenSettings{Scale: c.q, Threshold: th})
			require.NoError(t, err)
			assert.LessOrEqual(t, b.Lo, lam+tol, "%s t=%v %v", c.name, th, b)
			assert.GreaterOrEqual(t, b.Hi, lam-tol, "%s t=%v %v", c.name, th, b)
			assert.True(t, b.Lo <= b.Est && b.Est <= b.Hi, "%s: Est outside %v", c.name, b)
			assert.Equal(t, loadlab.Success, b.Status)
			if th == 0 {
				assert.LessOrEqual(t, b.Width(), defaultRelWidth*b.Lo, "%s %v", c.name, b)
			} else if math.Abs(th-lam) > 1e-8*lam {
				assert.True(t, decided(b, th), "%s t=%v undecided %v", c.name, th, b)
			}
		}
	}
	// Closed forms: λ_max(C_n) = 4 for even n, λ_max(K_n) = n,
	// λ_max(Q_d) = 2d (spec §9).
	for _, c := range []struct {
		g    *wgraph.Graph
		want float64
	}{{graphtest.Must(gen.Cycle(1000)), 4}, {graphtest.Must(gen.Complete(30)), 30}, {graphtest.Must(gen.Hypercube(10)), 20}} {
		b, err := LambdaMaxBracket(c.g, nil)
		require.NoError(t, err)
		assert.True(t, b.Lo <= c.want*(1+1e-12) && c.want*(1-1e-12) <= b.Hi, "%v ∌ %v", b, c.want)
	}
}

// TestLambda2Bracket checks that the bracket holds the dense λ₂ on the
// same graphs with the requested width and a positive lower bound.
func TestLambda2Bracket(t *testing.T) {
	for _, c := range bracketCases(t) {
		ev := denseScaledSpectrum(t, c.g, c.q)
		l2 := ev[1]
		tol := 1e-12 * ev[len(ev)-1] // absolute error of the reference
		b, err := Lambda2Bracket(c.g, &EigenSettings{Scale: c.q})
		require.NoError(t, err, c.name)
		assert.LessOrEqual(t, b.Lo, l2+tol, "%s %v", c.name, b)
		assert.GreaterOrEqual(t, b.Hi, l2-tol, "%s %v", c.name, b)
		assert.Greater(t, b.Lo, 0.0, "%s %v", c.name, b)
		assert.LessOrEqual(t, b.Width(), defaultRelWidth*b.Lo+tol, "%s %v", c.name, b)
	}
	// λ₂(P_n) = 4 sin²(π/(2n)) (spec §9), small against ‖L‖ = 4.
	b, err := Lambda2Bracket(graphtest.Must(gen.Path(600)), nil)
	require.NoError(t, err)
	want := graphtest.Must(PathSpectrum(600))[1]
	assert.True(t, b.Lo <= want*(1+1e-9) && want*(1-1e-9) <= b.Hi, "%v ∌ %v", b, want)
	// Disconnected: exactly 0.
	g := graphtest.GraphOf(t, 4, wgraph.Edge{U: 0, V: 1, W: 1})
	b, err = Lambda2Bracket(g, nil)
	require.NoError(t, err)
	assert.Equal(t, Bracket{Cert: CertBounds, Status: loadlab.Success}, b)
}

// TestEigenSettingsValidate checks that bad settings are errors naming
// the field.
func TestEigenSettingsValidate(t *testing.T) {
	g := graphtest.Must(gen.Path(3))
	for _, s := range []*EigenSettings{
		{Scale: []float64{1, 1}},
		{Scale: []float64{1, -1, 1}},
		{Scale: []float64{1, math.NaN(), 1}},
		{Threshold: -1},
		{Threshold: math.Inf(1)},
		{RelWidth: -1e-3},
		{RelWidth: math.NaN()},
		{Delta: 1},
		{Delta: -0.1},
		{Delta: math.NaN()},
		{MaxSteps: -1},
	} {
		_, err := LambdaMaxBracket(g, s)
		require.ErrorIs(t, err, loadlab.ErrInvalid)
		assert.Contains(t, err.Error(), "EigenSettings.")
		_, err = Lambda2Bracket(g, s)
		require.ErrorIs(t, err, loadlab.ErrInvalid)
	}
}

// TestSymEigenTinyWeights: gonum's eigensolver panics ("insufficient
// length of a") on a Laplacian whose entries are all ≲ 1e-122; SymEigen
// scales by a power of two first, so it returns the exactly rescaled
// spectrum, and the brackets built on it hold it.
func TestSymEigenTinyWeights(t *testing.T) {
	const w = 1e-130
	g := graphtest.GraphOf(t, 5, wgraph.Edge{U: 0, V: 1, W: w}, wgraph.Edge{U: 1, V: 2, W: w}, wgraph.Edge{U: 2, V: 3, W: w}, wgraph.Edge{U: 3, V: 4, W: w})
	ev, vecs, err := SymEigen(graphtest.Must(g.Laplacian()), true)
	require.NoError(t, err)
	want := graphtest.Must(PathSpectrum(5))
	for i := range ev {
		// Backward-stable eigensolver: ~n ε ‖L‖ absolute, here 1e-14 w.
		assert.InDelta(t, w*want[i], ev[i], 1e-14*w, "λ_%d", i+1)
	}
	r, c := vecs.Dims()
	assert.Equal(t, [2]int{5, 5}, [2]int{r, c})
	b, err := LambdaMaxBracket(g, nil)
	require.NoError(t, err)
	assert.True(t, b.Lo <= w*want[4]*(1+1e-12) && w*want[4]*(1-1e-12) <= b.Hi, "%v", b)
	b, err = Lambda2Bracket(g, nil)
	require.NoError(t, err)
	assert.True(t, b.Lo <= w*want[1]*(1+1e-12) && w*want[1]*(1-1e-12) <= b.Hi, "%v", b)
	_, _, err = SymEigen(mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}), false)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
}
