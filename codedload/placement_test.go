package codedload

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlacementSlotsAndLookups(t *testing.T) {
	tor := &Torus{Side: 20}
	p, _ := ZipfPMF(50, 0.8)
	zipf := must(NewAlias(p))
	for _, c := range []Config{
		{Topology: tor, Files: 50, Cache: 3, Strategy: Coded{Ell: 5}},
		{Topology: tor, Files: 50, Cache: 3, Strategy: Coded{Ell: 5}, Placement: Uniform},
		{Topology: tor, Files: 50, Cache: 3, Strategy: Coded{Ell: 5, ChunkCap: 2}},
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
		sp := c.strategy()
		switch {
		case sp.kind == kindCoded && sp.cap == 0:
			// Every one of the M·ℓ slots of every server holds a chunk.
			assert.Equal(t, int64(n*c.Cache*sp.ell), slots)
		case sp.kind != kindCoded:
			assert.LessOrEqual(t, slots, int64(n*c.Cache)) // sets: duplicates merged
		}
		if c.Placement == Uniform {
			for f, x := range pl.total {
				assert.GreaterOrEqual(t, x, int64(sp.ell), "file %d dealt at least ℓ times", f)
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

func TestTorusBallMatchesShellSearch(t *testing.T) {
	// The row-segment scan of two choices (a) must find exactly the
	// holders (with distances) that the shell-by-shell search finds,
	// including balls that wrap around or cover whole rows.
	p, _ := ZipfPMF(7, 0)
	zipf := must(NewAlias(p))
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, side := range []int{2, 3, 4, 5, 9, 10, 70, 131} {
		tor := &Torus{Side: side}
		for _, r := range []int{1, 2, 3, 5, 40, 200} {
			c := Config{Topology: tor, Files: 7, Cache: 2, Strategy: TwoChoice{Radius: r}}
			pl := place(&c, zipf, rnd)
			s := newSim(&c, pl, rnd)
			for range 20 {
				u := int32(rnd.IntN(tor.Order()))
				k := int32(rnd.IntN(7))
				s.buf = s.buf[:0]
				s.torusBall(tor, u, k)
				fast := slices.Clone(s.buf)
				s.buf = s.buf[:0]
				s.ballSearch(u, k)
				slow := slices.Clone(s.buf)
				key := func(a, b cand) int { return int(a.v) - int(b.v) }
				slices.SortFunc(fast, key)
				slices.SortFunc(slow, key)
				require.Equal(t, slow, fast, "side %d r %d u %d k %d", side, r, u, k)
			}
		}
	}
}
