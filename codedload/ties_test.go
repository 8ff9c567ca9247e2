package codedload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab/internal/mc"
)

func TestTieListOrderByHand(t *testing.T) {
	// Path 0–1–2–3–4; Uniform placement dealt the pairs (file 2, file 1,
	// file 3, file 0) to servers 0, 1, 2, 3, so server 3's copy of file 0
	// heads the reference simulator's holder list; server 1 got two copies
	// of file 0 and server 3 one more in the fill. From origin 2 both lie
	// at distance 1.
	g, _ := NewGrid(1, 5)
	hand := func() *placement {
		pl := handPlacement(4, []map[int32]int32{{2: 1}, {1: 1, 0: 2}, {3: 1}, {0: 2}, {}})
		pl.dealt = []int32{2, 1, 3, 0}
		return pl
	}
	serve := func(s Strategy, ties TieRule) []int32 {
		cfg := &Config{Topology: g, Files: 4, Cache: 3, Strategy: s, Ties: ties, Placement: Uniform}
		sim := newSim(cfg, hand(), nil)
		sim.serve(2, 0)
		return sim.load
	}
	// Nearest replica: the lowest index is server 1, the list's first
	// holder server 3.
	assert.Equal(t, []int32{0, 1, 0, 0, 0}, serve(NearestReplica{}, TieLowest))
	assert.Equal(t, []int32{0, 0, 0, 1, 0}, serve(NearestReplica{}, TieListOrder))
	// Coded ℓ = 2: the list is (server 3 dealt, server 1, server 1,
	// server 3 fill), so one chunk each; by index both from server 1.
	assert.Equal(t, []int32{0, 2, 0, 0, 0}, serve(Coded{Ell: 2}, TieLowest))
	assert.Equal(t, []int32{0, 1, 0, 1, 0}, serve(Coded{Ell: 2}, TieListOrder))
	// ℓ = 3 takes server 3's dealt copy, then server 1's two.
	assert.Equal(t, []int32{0, 2, 0, 1, 0}, serve(Coded{Ell: 3}, TieListOrder))
	// Two choices (b): the first candidate is the list's nearest holder.
	sim := newSim(&Config{Topology: g, Files: 4, Cache: 3, Strategy: TwoChoiceGlobal{}, Ties: TieListOrder, Placement: Uniform}, hand(), nil)
	sim.firstShell(2, 0)
	assert.Equal(t, int32(3), sim.pickOne(sim.buf, 0).v)
}

func TestTieListOrderIsLowestOnIndexOrderedLists(t *testing.T) {
	// Proportional and Full placements list the holders of a file by
	// server index, so TieListOrder chooses exactly the copies TieLowest
	// does: identical loads for the same seed (spec §5; the simulator's
	// nearest-replica numbers).
	for _, pk := range []PlacementKind{Proportional, Full} {
		for _, st := range []Strategy{NearestReplica{}, Coded{Ell: 5}, Coded{Ell: 5, ChunkCap: 2}} {
			cfg := Config{Topology: mustTorus(t, 400), Files: 30, Cache: 2, Gamma: 0.8, Strategy: st, Placement: pk, KeepLoads: true}
			cfg.Ties = TieLowest
			a, err := Run(cfg, mc.Source(9))
			require.NoError(t, err)
			cfg.Ties = TieListOrder
			b, err := Run(cfg, mc.Source(9))
			require.NoError(t, err)
			assert.Equal(t, a.Loads, b.Loads, "%v %v", pk, st)
			assert.Equal(t, a.ChunkHops, b.ChunkHops)
		}
	}
}

func TestTieListOrderUniformPlacement(t *testing.T) {
	// On a Uniform placement the rules differ, but both serve every
	// request with ℓ nearest copies: same cost (the threshold distance
	// does not depend on the tie rule), loads differ.
	cfg := Config{Topology: mustTorus(t, 400), Files: 100, Cache: 2, Strategy: Coded{Ell: 6}, Placement: Uniform, KeepLoads: true}
	cfg.Ties = TieLowest
	a, err := Run(cfg, mc.Source(4))
	require.NoError(t, err)
	cfg.Ties = TieListOrder
	b, err := Run(cfg, mc.Source(4))
	require.NoError(t, err)
	assert.Equal(t, a.ChunkHops, b.ChunkHops)
	assert.NotEqual(t, a.Loads, b.Loads)
	assert.Equal(t, "list order", TieListOrder.String())
}
