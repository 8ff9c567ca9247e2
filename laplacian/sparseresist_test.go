package laplacian

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
)

// Two complete graphs K_a joined by one bridge of conductance 1e-12
// between x ∈ A and y ∈ B. The bridge is a cut edge, so R_xy = 1e12, and
// for u ∈ A∖{x}, v ∈ B∖{y}: R_uv = 2/a + 1e12 + 2/a and R_ux = 2/a
// (K_a has R = 2/a between any two nodes).
func TestResistanceTinyBridge(t *testing.T) {
	const a, bridge = 40, 1e-12
	var es []wgraph.Edge
	for i := range a {
		for j := i + 1; j < a; j++ {
			es = append(es, wgraph.Edge{U: i, V: j, W: 1}, wgraph.Edge{U: a + i, V: a + j, W: 1})
		}
	}
	es = append(es, wgraph.Edge{U: 0, V: a, W: bridge})
	g := graphtest.GraphOf(t, 2*a, es...)
	for _, pc := range preconditioners {
		s, err := NewSolver(g, &Settings{Preconditioner: pc}, rand.NewPCG(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			u, v int
			want float64
		}{{0, a, 1 / bridge}, {1, a + 1, 1/bridge + 4.0/a}, {1, 0, 2.0 / a}, {a + 3, a + 5, 2.0 / a}}
		for i, c := range cases {
			got, res, err := s.Resistance(c.u, c.v)
			// Within a cluster no current crosses the bridge, x = L† b is
			// O(1) and the solve meets Tol = 1e-10, so R is right to ~1e-10.
			// Across it x ≈ ±5e11, whose ulp (6e-5) floors the residual near
			// 1e-3: the solve may stop Stagnated, but R = x_u − x_v is then
			// right to ~1e-16 relative (6e-5 absolute on 1e12).
			cross := i < 2
			if err != nil && !(cross && errors.Is(err, loadlab.ErrNotConverged) && res.Status == loadlab.Stagnated) {
				t.Errorf("%v: R(%d, %d): %v", pc, c.u, c.v, err)
			}
			if math.Abs(got-c.want) > 1e-9*c.want {
				t.Errorf("%v: R(%d, %d) = %.12g, want %.12g (%+v)", pc, c.u, c.v, got, c.want, res)
			}
		}
	}
}
