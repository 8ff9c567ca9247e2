package wgraph_test

import (
	"encoding/json"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGraphJSON: MarshalJSON writes order and edges, UnmarshalJSON reads
// them back, and a document FromEdges would refuse is ErrInvalid.
func TestGraphJSON(t *testing.T) {
	g, err := wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 3, W: 0.5}, {U: 2, V: 3, W: 1e-9}})
	require.NoError(t, err)
	b, err := json.Marshal(g)
	require.NoError(t, err)
	assert.Equal(t, `{"order":4,"edges":[[0,1,2],[1,3,0.5],[2,3,1e-9]]}`, string(b))
	var h wgraph.Graph
	require.NoError(t, json.Unmarshal(b, &h))
	assert.Equal(t, g.Edges(), h.Edges(), "round trip")
	assert.Equal(t, 4, h.Order())
	for _, bad := range []string{`{"order":2,"edges":[[0,0.5,1]]}`, `{"order":2,"edges":[[0,1,-1]]}`, `{"order":2,"edges":[[0,5,1]]}`, `[1]`} {
		assert.ErrorIs(t, json.Unmarshal([]byte(bad), &h), loadlab.ErrInvalid, bad)
	}
}
