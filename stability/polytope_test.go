package stability

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Uncontrollable lists the nodes where condition (27) holds beyond tol,
// and an empty list (not nil) where none does.
func TestUncontrollable(t *testing.T) {
	nw := seedNet(0.3)
	bad, err := Uncontrollable(nw, []float64{1, 0}, 1e-6)
	require.NoError(t, err)
	assert.Equal(t, []int{1}, bad)
	bad, err = Uncontrollable(nw, []float64{0, 0}, 0)
	require.NoError(t, err)
	assert.NotNil(t, bad)
	assert.Empty(t, bad)
}
