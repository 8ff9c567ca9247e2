package dual

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewQuadraticReadsNetwork: NewQuadratic takes A_i and T_i from the
// network, Quadratic is NewQuadratic with equal weights, and a network
// changed after construction is caught by Validate.
func TestNewQuadraticReadsNetwork(t *testing.T) {
	nw := item13()
	p, err := NewQuadratic(nw, []float64{1, 2, 3}, []float64{4, 5, 6})
	require.NoError(t, err)
	for i := range 3 {
		assert.Equal(t, QuadraticX{W: float64(i + 1), A: nw.A[i]}, p.F[i])
		assert.Equal(t, Hinge{C: float64(i + 4), T: nw.T[i]}, p.H[i])
	}
	// The same weights everywhere is Quadratic.
	q := must(Quadratic(nw, 1, 4))
	r := must(NewQuadratic(nw, []float64{1, 1, 1}, []float64{4, 4, 4}))
	assert.Equal(t, q.F, r.F)
	assert.Equal(t, q.H, r.H)
	// Changing A in the network after construction is caught.
	nw.A[0] = 3
	assert.ErrorContains(t, p.Validate(), "F[0] has A = 2 but Net.A[0] = 3")
}

// TestNewProblemCaps: nil SMax is the largest load (Cᵀ A)_i, and a cost
// with a barrier (Delay) lowers S̄_i to it.
func TestNewProblemCaps(t *testing.T) {
	nw := item13()
	f := []Cost{QuadraticX{1, 2}, QuadraticX{1, 1.5}, QuadraticX{1, 1}}
	h := []Cost{Hinge{4, 0.8}, Hinge{4, 0.9}, Hinge{4, 0.7}}
	p, err := NewProblem(nw, f, []Cost{Delay{0.8}, h[1], h[2]}, nil)
	require.NoError(t, err)
	assert.Equal(t, 0.8, p.SMax[0])
	assert.Equal(t, nw.MaxLoads()[1], p.SMax[1])
}

// TestCouplingAndReduced: valid data gives the numbers of spec §8 item
// 13's network (bad data: validate_test.go).
func TestCouplingAndReduced(t *testing.T) {
	p := must(Quadratic(item13(), 1, 4))
	beta, err := Coupling(nil, p.Net, []float64{1, 0, 0})
	require.NoError(t, err)
	assert.Equal(t, []float64{0.6, 0.2, 0.1}, beta)
	v, err := p.Reduced(make([]float64, 3))
	require.NoError(t, err)
	// f(0) = A/2, h(0) = 0: a sum of three halves, exact but for one
	// rounding of 4.5 (4.4e-16 relative).
	assert.InDelta(t, 0.5*(2+1.5+1), v, 1e-15)
}
