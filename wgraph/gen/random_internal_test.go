package gen

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/wgraph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStegerWormaldNearUniform(t *testing.T) {
	// The Steger–Wormald process (used for d ≥ 5) against exact rejection
	// sampling, both at n = 200, d = 5: the mean number of triangles must
	// agree. Triangle counts are nearly Poisson with mean ≈ (d−1)³/6 ≈ 10.7,
	// so the difference of two means over 300 samples each has standard
	// error ≈ sqrt(2·10.7/300) ≈ 0.27.
	const n, d, draws = 200, 5, 300
	rnd := rand.New(rand.NewPCG(11, 0x5eed))
	var sw, ex []float64
	for range draws {
		g, err := pairing(n, d, false, rnd)
		require.NoError(t, err)
		sw = append(sw, float64(triangles(g)))
		g, err = pairing(n, d, true, rnd)
		require.NoError(t, err)
		ex = append(ex, float64(triangles(g)))
	}
	ms, me := mean(sw), mean(ex)
	t.Logf("triangles: SW %.3f, exact %.3f", ms, me)
	se := math.Sqrt(variance(sw)/draws + variance(ex)/draws)
	assert.InDelta(t, me, ms, zTri*se, "SW %.3g vs exact %.3g", ms, me)
	// Both near the asymptotic (d−1)³/6; loose check (finite-n bias).
	assert.InDelta(t, 64.0/6, me, 2)
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func variance(xs []float64) float64 {
	m, s := mean(xs), 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return s / float64(len(xs)-1)
}

// triangles counts the triangles of g.
func triangles(g *wgraph.Graph) int {
	c := 0
	for _, e := range g.Edges() {
		for _, w := range g.Neighbors(e.U) {
			if int(w) > e.V && g.HasEdge(int(w), e.V) {
				c++
			}
		}
	}
	return c
}

// zTri is the number of standard errors allowed in the Monte Carlo
// comparisons: 5 keeps a correct generator's failure rate below 10⁻⁶.
const zTri = 5
