package wgraph_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
)

func TestGraphJSON(t *testing.T) {
	g, err := wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 3, W: 0.5}, {U: 2, V: 3, W: 1e-9}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"order":4,"edges":[[0,1,2],[1,3,0.5],[2,3,1e-9]]}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var h wgraph.Graph
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	if h.Order() != 4 || h.Size() != 3 || h.Weight(2, 3) != 1e-9 {
		t.Errorf("round trip: %v", h.Edges())
	}
	for _, bad := range []string{`{"order":2,"edges":[[0,0.5,1]]}`, `{"order":2,"edges":[[0,1,-1]]}`, `{"order":2,"edges":[[0,5,1]]}`, `[1]`} {
		if err := json.Unmarshal([]byte(bad), &h); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
