package gen_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

func TestRandomConnected(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		for _, p := range []float64{0, 0.05, 0.5} {
			g, err := gen.RandomConnected(40, p, 0.5, 2, rand.NewPCG(seed, 1))
			if err != nil {
				t.Fatal(err)
			}
			checkRandomConnected(t, g, 40, 0.5, 2)
			if p == 0 && g.Size() != 39 {
				t.Errorf("p = 0: %d edges, want the tree's 39", g.Size())
			}
		}
		g, err := gen.RandomConnectedSparse(100, 4, 1, 1, rand.NewPCG(seed, 2))
		if err != nil {
			t.Fatal(err)
		}
		checkRandomConnected(t, g, 100, 1, 1)
		if g.Size() != 200 {
			t.Errorf("mean degree 4 on 100 nodes: %d edges, want 200", g.Size())
		}
	}
	for _, c := range []struct {
		n         int
		p, lo, hi float64
		sparse    bool
		deg       float64
	}{
		{0, 0.1, 1, 1, false, 0}, {5, 1.5, 1, 1, false, 0}, {5, 0.1, 2, 1, false, 0}, {5, 0.1, 0, 1, false, 0},
		{5, 0, 1, 1, true, 5}, {5, 0, 1, 1, true, -1},
	} {
		var err error
		if c.sparse {
			_, err = gen.RandomConnectedSparse(c.n, c.deg, c.lo, c.hi, rand.NewPCG(1, 1))
		} else {
			_, err = gen.RandomConnected(c.n, c.p, c.lo, c.hi, rand.NewPCG(1, 1))
		}
		if !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", c, err)
		}
	}
}

func checkRandomConnected(t *testing.T, g *wgraph.Graph, n int, lo, hi float64) {
	t.Helper()
	if g.Order() != n || !wgraph.IsConnected(g) {
		t.Fatalf("order %d (want %d), connected %v", g.Order(), n, wgraph.IsConnected(g))
	}
	for _, e := range g.Edges() {
		if e.W < lo || e.W > hi {
			t.Fatalf("weight %v outside [%v, %v]", e.W, lo, hi)
		}
	}
}
