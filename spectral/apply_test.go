package spectral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// TestResistanceApply checks x = L† b on both paths by what defines it:
// L x = P b (P = I − J/n) and 1ᵀx = 0, with b not orthogonal to 1; on
// the dense path also against the product with PseudoInverse. The
// residual is relative to ‖L‖₁‖x‖ + ‖b‖, so 1e-10 allows the condition
// (κ ≤ 10⁴ on these graphs) times a few hundred roundings.
func TestResistanceApply(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *wgraph.Graph
		path Path
	}{
		{"weighted random 40", graphtest.RandomWeighted(t, 40, 0.5, 3, graphtest.PCG(3)), Dense},
		{"grid 50×50", graphtest.Must(gen.Grid(50, 50)), Sparse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewResistance(tc.g)
			require.NoError(t, err)
			require.Equal(t, tc.path, r.Path())
			n := tc.g.Order()
			rng := rand.New(rand.NewPCG(7, 7))
			b := make([]float64, n)
			for i := range b {
				b[i] = rng.NormFloat64() + 1
			}
			x := r.Apply(nil, b)
			lx := make([]float64, n)
			var lnorm float64
			for u := range n {
				lnorm = max(lnorm, 2*tc.g.WeightedDegree(u))
				for k, v := range tc.g.Neighbors(u) {
					w := tc.g.Weights(u)[k]
					lx[u] += w * (x[u] - x[v])
				}
			}
			mean := dense.Sum(b) / float64(n)
			scale := lnorm*math.Sqrt(dense.Dot(x, x)) + math.Sqrt(dense.Dot(b, b))
			for u := range n {
				require.InDelta(t, b[u]-mean, lx[u], 1e-10*scale, "node %d", u)
			}
			require.InDelta(t, 0, dense.Sum(x), 1e-10*scale)
			same := append([]float64(nil), b...)
			r.Apply(same, same)
			require.Equal(t, x, same, "dst aliasing b")
			checkApplyTo(t, r, b, x)
			if tc.path == Dense { // after the aliasing check: PseudoInverse inverts the factor, changing the rounding
				p := r.PseudoInverse()
				for u := range n {
					var s float64
					for v := range n {
						s += p.At(u, v) * b[v]
					}
					require.InDelta(t, s, x[u], 1e-10*scale)
				}
			}
		})
	}
}

// checkApplyTo checks that ApplyTo gives Apply's x bit for bit, into a
// fresh dst and with dst = b, allocating nothing, and on the sparse path
// that both are the allocating computation they replace: the grounded
// right side solved by Factor.Solve, padded and centred.
func checkApplyTo(t *testing.T, r *Resistance, b, x []float64) {
	t.Helper()
	n := len(b)
	got, work := make([]float64, n), make([]float64, n+1) // a longer work is allowed
	r.ApplyTo(got, b, work)
	require.Equal(t, x, got, "ApplyTo")
	same := append([]float64(nil), b...)
	r.ApplyTo(same, same, work[:n])
	require.Equal(t, x, same, "ApplyTo, dst aliasing b")
	allocs := testing.AllocsPerRun(10, func() { r.ApplyTo(got, b, work) })
	require.Zero(t, allocs, "ApplyTo allocates")
	if r.sp == nil {
		return
	}
	mean := dense.Sum(b) / float64(n)
	rhs := make([]float64, 0, n-1)
	for u := range n {
		if r.sp.sub(u) >= 0 {
			rhs = append(rhs, b[u]-mean)
		}
	}
	want := r.sp.pad(r.sp.f.Solve(nil, rhs))
	c := dense.Sum(want) / float64(n)
	for i := range want {
		want[i] -= c
	}
	require.Equal(t, want, x, "Apply against the allocating solve")
}
