package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBlockedUpdate checks that the blocked gather of large graphs
// performs the same floating-point operations in the same order as the
// direct loop: bitwise identical limits for 1, 2 and 3 workers and
// several block sizes (1 to 5000/2^4 blocks), on a weighted graph with
// a hub of 2000 neighbours (so the pass-2 ranges are unequal in nodes)
// and on a 10-node cycle (fewer nodes than pass-2 ranges, so most
// ranges are empty).
func TestBlockedUpdate(t *testing.T) {
	const n = 5000
	g := sparseRandom(n, 6, mc.Source(40))
	b := g.Builder()
	for v := 1; v <= 2000; v++ {
		must(b.SetEdge(0, v, 0.75))
	}
	hub := b.Build()
	cycle, err := gen.Cycle(10)
	require.NoError(t, err)
	for _, g := range []*wgraph.Graph{hub, cycle} {
		n := g.Order()
		rnd := rand.New(mc.Source(41))
		p := make([]float64, n)
		hi0 := make([]float64, n)
		lo0 := make([]float64, n)
		for i := range p {
			p[i] = rnd.NormFloat64()
			hi0[i] = 100 + rnd.Float64()
			lo0[i] = 1e-15 * rnd.NormFloat64()
		}
		f, err := newFlows(g, 0.05)
		require.NoError(t, err)
		require.Nil(t, f.blk, "blocked gather on a %d-node graph, want only from %d nodes", n, gatherNodes)
		wantHi, wantLo := append([]float64(nil), hi0...), append([]float64(nil), lo0...)
		f.applyDirect(wantHi, wantLo, p, 0, n)
		for _, shift := range []uint{0, 1, 4, 9, 13} {
			f.blk = newBlocks(f.off, f.adj, blockShift(n, shift))
			for _, workers := range []int{1, 2, 3} {
				hi := append([]float64(nil), hi0...)
				lo := append([]float64(nil), lo0...)
				f.applyBlocked(hi, lo, p, workers)
				require.Equal(t, wantHi, hi, "n %d, shift %d, workers %d: blocked against direct, hi", n, shift, workers)
				require.Equal(t, wantLo, lo, "n %d, shift %d, workers %d: blocked against direct, lo", n, shift, workers)
			}
		}
	}
}

// TestBlockShift checks the block size: at most maxBlocks blocks, and
// the requested size when that suffices.
func TestBlockShift(t *testing.T) {
	for _, c := range []struct {
		n    int
		s    uint
		want uint
	}{
		{1, 0, 0}, {256, 0, 0}, {257, 0, 1}, {1 << 20, 15, 15}, {1<<23 + 1, 15, 16}, {1 << 31, 15, 23},
	} {
		assert.Equal(t, c.want, blockShift(c.n, c.s), "blockShift(%d, %d)", c.n, c.s)
	}
}

// TestUniformWeightUpdate checks the single-product path of graphs whose
// weights are all equal (flows.mask = 0): the direct and the blocked
// update give bitwise the limits of the per-entry path, which stores the
// same γ w at every entry, on a unit-weight random regular graph and on
// a cycle of weight 0.3.
func TestUniformWeightUpdate(t *testing.T) {
	reg, err := gen.RandomRegular(3000, 6, mc.Source(42))
	require.NoError(t, err)
	cb := newBuilder(50)
	for u := range 50 {
		must(cb.SetEdge(u, (u+1)%50, 0.3))
	}
	for _, g := range []*wgraph.Graph{reg, cb.Build()} {
		n := g.Order()
		f, err := newFlows(g, 0.07)
		require.NoError(t, err)
		require.True(t, f.mask == 0 && len(f.gw) == 1, "n %d: mask %d, %d products, want the single-product path", n, f.mask, len(f.gw))
		ref := *f
		ref.gw, ref.mask = make([]float64, len(f.adj)), -1
		for e := range ref.gw {
			ref.gw[e] = f.gw[0]
		}
		rnd := rand.New(mc.Source(43))
		p, hi0, lo0 := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range p {
			p[i] = rnd.NormFloat64()
			hi0[i] = 100 + rnd.Float64()
			lo0[i] = 1e-15 * rnd.NormFloat64()
		}
		wantHi, wantLo := append([]float64(nil), hi0...), append([]float64(nil), lo0...)
		ref.applyDirect(wantHi, wantLo, p, 0, n)
		for _, blocked := range []bool{false, true} {
			hi, lo := append([]float64(nil), hi0...), append([]float64(nil), lo0...)
			if blocked {
				f.blk = newBlocks(f.off, f.adj, blockShift(n, 6))
				f.applyBlocked(hi, lo, p, 2)
			} else {
				f.applyDirect(hi, lo, p, 0, n)
			}
			require.Equal(t, wantHi, hi, "n %d, blocked %v: against the per-entry path, hi", n, blocked)
			require.Equal(t, wantLo, lo, "n %d, blocked %v: against the per-entry path, lo", n, blocked)
		}
	}
}
