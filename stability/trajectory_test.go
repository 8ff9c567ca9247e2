package stability

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/ode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Integration that stops short follows the contract: the partial
// trajectory, its Status and an error that is both ode.ErrMaxSteps and
// loadlab.ErrNotConverged.
func TestIntegrateStopShort(t *testing.T) {
	l := mustLaw(seedNet(0.3), 1)
	tr, err := l.Integrate([]float64{0.5, 0.5}, 100, &Settings{MaxSteps: 3, AbsTol: 1e-12, RelTol: 1e-12})
	require.ErrorIs(t, err, ode.ErrMaxSteps)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.NotNil(t, tr)
	assert.Equal(t, loadlab.IterationLimit, tr.Status)
	assert.Equal(t, 0.0, tr.T[0])
	tr, err = l.Integrate([]float64{0.5, 0.5}, 100, nil)
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, tr.Status)
	assert.Equal(t, 100.0, tr.T[tr.Len()-1])
}

// Zero settings are the ode defaults, bit for bit (bad fields:
// validate_test.go).
func TestIntegrateSettings(t *testing.T) {
	l := mustLaw(seedNet(0.1), 3)
	def, err := l.Integrate([]float64{0.3, 0.6}, 5, nil)
	require.NoError(t, err)
	explicit, err := l.Integrate([]float64{0.3, 0.6}, 5, &Settings{AbsTol: ode.DefaultTol, RelTol: ode.DefaultTol, MaxSteps: ode.DefaultMaxSteps})
	require.NoError(t, err)
	assert.Equal(t, def.X, explicit.X)
	assert.Equal(t, def.T, explicit.T)
	// Zero tolerances alone are the documented default 1e-8.
	zero, err := l.Integrate([]float64{0.3, 0.6}, 5, &Settings{})
	require.NoError(t, err)
	tols, err := l.Integrate([]float64{0.3, 0.6}, 5, &Settings{AbsTol: 1e-8, RelTol: 1e-8})
	require.NoError(t, err)
	assert.Equal(t, def.X, zero.X)
	assert.Equal(t, tols.X, zero.X)
}

// The logit state: IntegrateLogit from logit(x0) is Integrate from x0, Z
// is the logit of X where X resolves it, and a start closer to the face
// than float64 resolves in x integrates from its exact logit.
func TestLogits(t *testing.T) {
	l := mustLaw(seedNet(0.3), 2)
	x0 := []float64{0.3, 0.6}
	set := &Settings{Logits: true}
	a, err := l.Integrate(x0, 40, set)
	require.NoError(t, err)
	b, err := l.IntegrateLogit([]float64{logit(0.3), logit(0.6)}, 40, set)
	require.NoError(t, err)
	assert.Equal(t, a.X, b.X)
	assert.Equal(t, a.Z, b.Z)
	for k := range a.T {
		for i, x := range a.X[k] {
			if x > 1e-3 && x < 1-1e-3 {
				// logit has condition number 1/(1 − x) ≤ 1e3 there:
				// 1e3 ulps of relative error at most.
				assert.InDelta(t, logit(x), a.Z[k][i], 1e-12*math.Max(1, math.Abs(a.Z[k][i])))
			}
		}
	}
	// At the end x_a → 1 and x_b → 0 linearly in the logit: Z resolves
	// what X cannot.
	z := a.Z[a.Len()-1]
	assert.Greater(t, z[0], 37.0)
	assert.Equal(t, 1.0, a.Final()[0])
	// Faces are frozen: −Inf and +Inf stay.
	c, err := l.IntegrateLogit([]float64{math.Inf(-1), math.Inf(1)}, 5, set)
	require.NoError(t, err)
	assert.Equal(t, []float64{math.Inf(-1), math.Inf(1)}, c.Z[c.Len()-1])
	assert.Equal(t, []float64{0, 1}, c.Final())
	// Without Logits no Z is recorded.
	d, err := l.Integrate(x0, 1, nil)
	require.NoError(t, err)
	assert.Nil(t, d.Z)
	// Direct mode reports the logit of its clamped state.
	e, err := l.IntegrateLogit([]float64{0, 0}, 1, &Settings{Direct: true, Logits: true})
	require.NoError(t, err)
	assert.Equal(t, 0.0, e.Z[0][0])
}
