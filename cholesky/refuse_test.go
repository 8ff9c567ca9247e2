package cholesky

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refuseGraphs returns the patterns of the refusal tests: a random
// 6-regular graph (an expander), a torus and a random sparse graph.
func refuseGraphs(t *testing.T, n int) map[string][2][]int {
	t.Helper()
	g, err := gen.RandomRegular(n, 6, rand.NewPCG(3, 1))
	require.NoError(t, err)
	_, rp, ra := csrFromGraph(g, false)
	side := int(math.Sqrt(float64(n)))
	tp, ta := csrFromEdges(side*side, gridEdges(side, side, true))
	sp, sa := csrFromEdges(n, randomEdges(n, 2*n, rand.New(rand.NewPCG(3, 2))))
	return map[string][2][]int{"regular": {rp, ra}, "torus": {tp, ta}, "random": {sp, sa}}
}

// runAMD orders the pattern by AMD to the end, calling each after every
// pivot, and returns the ordering and AMD's own flops count.
func runAMD(n int, ptr, adj []int, each func(a *amd, p int)) ([]int, float64) {
	a := newAMD(n, ptr, adj)
	a.hstart = n
	for i := range n {
		if a.status[i] != amdDense {
			a.left++
		}
	}
	for a.left > 0 {
		p := a.pivot()
		a.eliminate(p)
		a.tally(p)
		if each != nil {
			each(a, p)
		}
	}
	return a.perm, a.flops
}

// TestAMDBoundsAreLowerBounds: after every pivot, the count so far plus
// either bound of tally (the new element's clique, all the live
// elements' disjoint cliques) is at most the count of the whole
// ordering (§6.1), on an expander, a torus and a random graph.
func TestAMDBoundsAreLowerBounds(t *testing.T) {
	for name, g := range refuseGraphs(t, 900) {
		n := len(g[0]) - 1
		var worst [2]float64
		_, total := runAMD(n, g[0], g[1], func(a *amd, p int) {
			worst[0] = max(worst[0], a.flops+cliqueFlops(float64(a.deg[p])))
			worst[1] = max(worst[1], a.flops+a.elementFlops())
		})
		// The bounds and the count are sums of integers below 2⁵³: exact.
		assert.LessOrEqual(t, worst[0], total, "%s: the clique bound", name)
		assert.LessOrEqual(t, worst[1], total, "%s: the elements' bound", name)
		assert.Greater(t, worst[1], total/100, "%s: the elements' bound is far from sharp", name)
	}
}

// TestAMDLimitedRefusesAsTheCount: orderAMDLimited gives up exactly
// when AMD's whole count exceeds the limit, and otherwise returns AMD's
// ordering unchanged: the bounds make the refusal early, never
// different.
func TestAMDLimitedRefusesAsTheCount(t *testing.T) {
	for name, g := range refuseGraphs(t, 2500) {
		n := len(g[0]) - 1
		full, total := runAMD(n, g[0], g[1], nil)
		for _, f := range []float64{0.01, 0.5, 1 - 1e-9, 1 + 1e-9, 2} {
			perm := orderAMDLimited(n, g[0], g[1], f*total)
			if f < 1 {
				assert.Nil(t, perm, "%s: limit %g × the count", name, f)
			} else {
				assert.Equal(t, full, perm, "%s: limit %g × the count", name, f)
			}
		}
	}
}

// TestExpanderRefusal: Analyze refuses the factor of a random 6-regular
// graph with the error it gave before the bounds, and the ordering
// stops long before its end.
func TestExpanderRefusal(t *testing.T) {
	const n = 20000
	g := refuseGraphs(t, n)["regular"]
	a := withDiagonal(n, g[0], g[1])
	const limit = 1e9
	_, err := Analyze(a, &Settings{MaxFlops: limit})
	require.True(t, errors.Is(err, loadlab.ErrTooLarge), "%v", err)
	want := fmt.Sprintf("Analyze: the factor of the %d×%d matrix needs more than %.3g flops (counted while ordering by AMD) > Settings.MaxFlops = %.3g", n, n, 2*limit, limit)
	assert.True(t, strings.Contains(err.Error(), want), "%v", err)
	// Where the ordering stopped: the count alone would have gone on.
	am := newAMD(n, g[0], g[1])
	am.maxFlops, am.hstart, am.left = 2*limit, n, n
	for am.left > 0 {
		p := am.pivot()
		am.eliminate(p)
		if am.tally(p) {
			break
		}
	}
	assert.Greater(t, am.left, 0)
	assert.Less(t, am.flops, 2*limit/10, "the bounds stopped the count late")
}

// withDiagonal returns the matrix of the pattern (ptr, adj) with a full
// diagonal, every value 1 (the values are not read by Analyze).
func withDiagonal(n int, ptr, adj []int) *Matrix {
	a := &Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		row := append([]int{i}, adj[ptr[i]:ptr[i+1]]...)
		slices.Sort(row)
		a.Ind = append(a.Ind, row...)
		a.Ptr[i+1] = len(a.Ind)
	}
	a.Val = make([]float64, len(a.Ind))
	for i := range a.Val {
		a.Val[i] = 1
	}
	return a
}
