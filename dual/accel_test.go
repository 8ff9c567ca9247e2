package dual

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAcceleratedOnNonSmoothDualStopsHonestly(t *testing.T) {
	// Forcing the accelerated rule on a piecewise-linear dual (LinearX and
	// Overload), where LBound is +Inf: L stays finite (guards: L clamped to
	// lFloor·LBound = +Inf, a vanishing step and a "stagnated" run); the
	// run either certifies or stops with a status and ErrNotConverged, and
	// [Best, Upper] holds P* (the LP reference is exact).
	rng := rand.New(rand.NewPCG(3, 3))
	nw := randNetwork(rng, 5)
	f, h := make([]Cost, 5), make([]Cost, 5)
	for i := range f {
		f[i] = LinearX{W: 1, A: nw.A[i]}
		h[i] = Overload{C: 3, T: nw.T[i]}
	}
	p := must(NewProblem(nw, f, h, nil))
	assert.True(t, math.IsInf(must(p.SmoothBound()), 1))
	ref := primalRef(t, p)
	res, err := Solve(p, &Settings{Rule: Accelerated, MaxIter: 2000})
	require.NotNil(t, res)
	if err != nil {
		assert.ErrorIs(t, err, loadlab.ErrNotConverged)
	}
	assert.False(t, math.IsInf(res.L, 0) || math.IsNaN(res.L), "L = %v", res.L)
	// The certificate's own rounding: sums of 5 terms of order 1, far
	// below 1e-9 relative.
	slack := 1e-9 * (1 + ref.Value)
	assert.LessOrEqual(t, res.Best, ref.Value+slack)
	assert.GreaterOrEqual(t, res.Upper, ref.Value-slack)
	t.Logf("%v after %d steps, gap %.3g", res.Status, res.Iter, res.Gap())
}
