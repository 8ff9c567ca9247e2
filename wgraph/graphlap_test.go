package wgraph_test

import (
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
)

// A million-node path is cheap as a graph but its dense Laplacian needs
// 8 TB: an error, not an out-of-memory crash.
func TestLaplacianTooLarge(t *testing.T) {
	g := graphtest.Must(gen.Path(1 << 20))
	l, err := g.Laplacian()
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "1048576")
	assert.Nil(t, l)
}
