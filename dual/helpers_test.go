package dual

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab/anycast"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// item13 is the three-node network of spec §8 items 13 and 23.
func item13() *anycast.Network {
	nw, err := anycast.NewNetwork(
		[]float64{2, 1.5, 1},
		mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2, 0.7}),
		[]float64{0.8, 0.9, 0.7})
	if err != nil {
		panic(err)
	}
	return nw
}

// twoNode is the C of spec §8 items 1 and 17.
func twoNode() *anycast.Network {
	nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), []float64{0.7, 0.7})
	if err != nil {
		panic(err)
	}
	return nw
}

// randNetwork draws a dense row-stochastic C (every entry positive, so
// FastControl is defined), demand A ∈ [0, 3) and capacities T such that
// the network is loaded at 40–160% of capacity.
func randNetwork(rng *rand.Rand, n int) *anycast.Network {
	c := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		row := c.RawRowView(j)
		for i := range row {
			row[i] = 0.05 + rng.Float64()
			if i == j {
				row[i] += 2 * rng.Float64() // self-correlation dominates a little
			}
		}
		floats.Scale(1/floats.Sum(row), row)
	}
	a := make([]float64, n)
	for i := range a {
		a[i] = 3 * rng.Float64()
	}
	t := make([]float64, n)
	nw0 := &anycast.Network{A: a, C: c, T: make([]float64, n)}
	ml := nw0.MaxLoads()
	for i := range t {
		t[i] = (0.4 + 1.2*rng.Float64()) * ml[i]
		if t[i] == 0 {
			t[i] = 0.1
		}
	}
	nw, err := anycast.NewNetwork(a, c, t)
	if err != nil {
		panic(err)
	}
	return nw
}

// randProblem mixes the cost families of spec §7 at random. With smooth
// set, only the strictly convex f (QuadraticX) is used, for which the
// primal solver converges fast.
func randProblem(rng *rand.Rand, n int, smooth bool) *Problem {
	nw := randNetwork(rng, n)
	f := make([]Cost, n)
	h := make([]Cost, n)
	for i := range f {
		w := 0.5 + rng.Float64()
		if smooth || rng.IntN(3) > 0 {
			f[i] = QuadraticX{W: w, A: nw.A[i]}
		} else {
			f[i] = LinearX{W: w, A: nw.A[i]}
		}
		switch rng.IntN(3) {
		case 0:
			h[i] = Hinge{C: 1 + 4*rng.Float64(), T: nw.T[i]}
		case 1:
			h[i] = Delay{T: nw.T[i]}
		default:
			h[i] = Exp{Kappa: 1 + 4*rng.Float64(), T: nw.T[i]}
		}
	}
	p, err := NewProblem(nw, f, h, nil)
	if err != nil {
		panic(err)
	}
	return p
}

func randMu(rng *rand.Rand, n int, scale float64) []float64 {
	mu := make([]float64, n)
	for i := range mu {
		if rng.IntN(4) > 0 {
			mu[i] = scale * rng.ExpFloat64()
		}
	}
	return mu
}

// bound, step and iterations are Bound, Step and Iterations for
// arguments known to be valid.
func bound(r, alpha, g float64, k int) float64 { return must(Bound(r, alpha, g, k)) }
func step(eps, g float64) float64              { return must(Step(eps, g)) }
func iterations(eps, g, r float64) int         { return must(Iterations(eps, g, r)) }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// solvePartial runs Solve and accepts a run that stopped short
// (ErrNotConverged with its partial result, Status IterationLimit).
func solvePartial(t *testing.T, p *Problem, s *Settings) *Result {
	t.Helper()
	res, err := Solve(p, s)
	if err != nil {
		require.ErrorIs(t, err, loadlab.ErrNotConverged)
		require.NotNil(t, res)
		require.Equal(t, loadlab.IterationLimit, res.Status)
	}
	return res
}

// objective is Problem.Objective for a point known to be valid.
func objective(p *Problem, x, s []float64) (value, violation float64) {
	v, viol, err := p.Objective(x, s)
	if err != nil {
		panic(err)
	}
	return v, viol
}

// cdnPair returns the synthetic CDN of anycast.GenerateCDN (n nodes, k
// proxies per region, drawn from PCG(seed, stream)), stored sparsely,
// and its dense twin: the pair every entry point must treat alike (to
// rounding).
func cdnPair(t testing.TB, seed, stream uint64, n, k int) (sp, de *anycast.Network) {
	t.Helper()
	sp, err := anycast.GenerateCDN(rand.NewPCG(seed, stream), &anycast.CDNSettings{N: n, K: k})
	require.NoError(t, err)
	de, err = sp.AsDense()
	require.NoError(t, err)
	return sp, de
}
