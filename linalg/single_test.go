package linalg

import (
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A single node is a connected graph with L = [0]: L† = 0, no edges, a
// Kirchhoff index and dispersions of exactly 0. The sparse entry points
// once panicked on it (index out of range in the solver's matrix copy),
// and the trace estimators, once fixed, never stopped (0/0 relative
// width).
func TestSingleNodeSparse(t *testing.T) {
	g := must(NewBuilder(1)).Build()
	s, err := NewLaplacianSolver(g, nil, pcg(1))
	require.NoError(t, err)
	x := []float64{7}
	res, err := s.Solve(x, []float64{0})
	require.NoError(t, err)
	assert.Equal(t, []float64{0}, x)
	assert.Equal(t, loadlab.Success, res.Status)

	k, err := EstimateKirchhoff(g, nil, pcg(2))
	require.NoError(t, err)
	assert.Equal(t, 0.0, k.Estimate.Mean)
	assert.Equal(t, loadlab.Success, k.Status)

	h, err := EstimateH2(g, 0.5, nil, pcg(3))
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, h.Status)
	assert.Equal(t, 0.0, h.Rho1.Mean)
	assert.Equal(t, 0.0, h.Rho2.Mean)

	rs, err := NewResistanceSketch(g, nil, pcg(4))
	require.NoError(t, err)
	assert.Equal(t, 0.0, rs.Between(0, 0))
	er, err := ApproxEdgeResistances(g, nil, pcg(5))
	require.NoError(t, err)
	assert.Empty(t, er.R)
}
