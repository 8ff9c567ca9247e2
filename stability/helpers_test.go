package stability

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab/anycast"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// cbas are the values of the unknown C_ba the spec's checks loop over
// (spec §8 preamble: every claim holds for C_ba ∈ [0, 0.6)).
var cbas = []float64{0, 0.1, 0.3, 0.5, 0.59}

// seedNet is the motivating two-node example (spec §2, §8): A = (1, 1),
// T = (0.7, 0.7), C = [[0.1 0.9] [C_ba 1−C_ba]].
func seedNet(cba float64) *anycast.Network {
	nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, cba, 1 - cba}), []float64{0.7, 0.7})
	if err != nil {
		panic(err)
	}
	return nw
}

// favC is the favourable two-node matrix of spec §8 item 10.
var favC = mat.NewDense(2, 2, []float64{0.8, 0.2, 0.3, 0.7})

func mustLaw(nw *anycast.Network, beta float64) *Law {
	l, err := NewLaw(nw, beta)
	if err != nil {
		panic(err)
	}
	return l
}

// randomC returns a random row-stochastic N×N matrix whose diagonal gets
// an extra weight selfWeight (0 for none).
func randomC(rng *rand.Rand, n int, selfWeight float64) *mat.Dense {
	c := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		row := c.RawRowView(j)
		for i := range row {
			row[i] = rng.Float64()
		}
		row[j] += selfWeight * float64(n)
		floats.Scale(1/floats.Sum(row), row)
	}
	return c
}

// randomNet returns a random network with A_j ∈ [0, amax), T_i ∈ [0.2, 1.2).
func randomNet(rng *rand.Rand, n int, amax, selfWeight float64) *anycast.Network {
	a := make([]float64, n)
	t := make([]float64, n)
	for i := range a {
		a[i] = amax * rng.Float64()
		t[i] = 0.2 + rng.Float64()
	}
	nw, err := anycast.NewNetwork(a, randomC(rng, n, selfWeight), t)
	if err != nil {
		panic(err)
	}
	return nw
}

// randomInterior returns a point of (0.01, 0.99)^N.
func randomInterior(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 0.01 + 0.98*rng.Float64()
	}
	return x
}

// scaleInto scales nw.A by a factor so that the tightest inequality of Π_C
// has slack fraction 1 − f of T_i (f ∈ (0, 1] puts A inside Π_C).
func scaleInto(nw *anycast.Network, f float64) {
	slack := must(PolytopeSlack(nw))
	worst := 0.0
	for i, s := range slack {
		inflow := nw.T[i] - s // Σ_{j≠i} C_ji A_j
		worst = max(worst, inflow/nw.T[i])
	}
	if worst > 0 {
		floats.Scale(f/worst, nw.A)
	}
}

// must returns v and panics on err: for calls on networks the test has
// just validated.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// twoNode returns the two-node network with C = c, capacities t and unit
// demand (the demand is not used by the two-node functions).
func twoNode(c mat.Matrix, t []float64) *anycast.Network {
	return must(anycast.NewNetwork([]float64{1, 1}, c, t))
}

// sortedFloats returns a sorted copy of v.
func sortedFloats(v []float64) []float64 {
	out := append([]float64(nil), v...)
	sort.Float64s(out)
	return out
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
