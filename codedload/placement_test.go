package codedload

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlacementSlotsAndLookups(t *testing.T) {
	tor := &Torus{Side: 20}
	p, _ := ZipfPMF(50, 0.8)
	zipf := NewAlias(p)
	for _, c := range []Config{
		{Topology: tor, Files: 50, Cache: 3, Strategy: Coded, Ell: 5},
		{Topology: tor, Files: 50, Cache: 3, Strategy: Coded, Ell: 5, Placement: Uniform},
		{Topology: tor, Files: 50, Cache: 3, Strategy: Coded, Ell: 5, ChunkCap: 2},
		{Topology: tor, Files: 50, Cache: 3},
		{Topology: tor, Files: 50, Cache: 3, Placement: Uniform},
	} {
		pl := place(&c, zipf, rand.New(rand.NewPCG(1, 2)))
		n := tor.Order()
		var slots int64
		for s := 0; s < n; s++ {
			for i := pl.off[s]; i < pl.off[s+1]; i++ {
				slots += int64(pl.cnt[i])
				if i > pl.off[s] {
					require.Less(t, pl.file[i-1], pl.file[i], "files sorted and distinct")
				}
			}
		}
		var total int64
		for _, x := range pl.total {
			total += x
		}
		assert.Equal(t, slots, total)
		switch {
		case c.Strategy == Coded && c.ChunkCap == 0:
			// Every one of the M·ℓ slots of every server holds a chunk.
			assert.Equal(t, int64(n*c.Cache*c.Ell), slots)
		case c.Strategy != Coded:
			assert.LessOrEqual(t, slots, int64(n*c.Cache)) // sets: duplicates merged
		}
		if c.Placement == Uniform {
			for f, x := range pl.total {
				assert.GreaterOrEqual(t, x, int64(c.ell()), "file %d dealt at least ℓ times", f)
			}
		}
		// The bitset look-up must agree with the sorted lists, which are
		// used alone when K·n is too large for bitsets.
		require.NotNil(t, pl.has)
		bare := *pl
		bare.has, bare.multi = nil, nil
		for v := int32(0); v < int32(n); v++ {
			for k := int32(0); k < 50; k++ {
				require.Equal(t, bare.count(v, k), pl.count(v, k))
			}
		}
		// Holder lists: each holder once, in increasing order.
		for k, hs := range pl.holderLists() {
			var want []int32
			for v := int32(0); v < int32(n); v++ {
				if pl.count(v, int32(k)) > 0 {
					want = append(want, v)
				}
			}
			require.Equal(t, want, hs)
		}
	}
}
