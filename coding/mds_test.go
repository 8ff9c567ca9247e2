package coding

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMDSRoundTrip: any ℓ of the n chunks decode (every ℓ-subset for a
// small code, random losses of n − ℓ chunks for larger ones), the first ℓ
// chunks are the source, and ℓ − 1 chunks are an error wrapping
// ErrRankDeficient.
func TestMDSRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, c := range [][3]int{{3, 6, 100}, {14, 28, 4096}, {1, 1, 7}, {100, 256, 65}} {
		ell, n, sz := c[0], c[1], c[2]
		m, err := NewMDS(ell, n)
		require.NoError(t, err)
		assert.Equal(t, ell, m.Ell())
		assert.Equal(t, n, m.N())
		source := randBytes(rng, ell, sz)
		chunks, err := m.Encode(source)
		require.NoError(t, err)
		require.Len(t, chunks, n)
		assert.Equal(t, source, chunks[:ell])
		for trial := range 20 {
			keep := rng.Perm(n)[:ell]
			got := make([][]byte, n)
			for _, i := range keep {
				got[i] = chunks[i]
			}
			dec, err := m.Decode(got)
			require.NoError(t, err)
			require.Equal(t, source, dec, "%v, trial %d", c, trial)
			if ell > 1 {
				got[keep[0]] = nil
				_, err = m.Decode(got)
				require.ErrorIs(t, err, ErrRankDeficient)
			}
		}
	}
}

// TestMDSEverySubset decodes a (4, 7) code from each of its 35 4-subsets.
func TestMDSEverySubset(t *testing.T) {
	m, err := NewMDS(4, 7)
	require.NoError(t, err)
	source := randBytes(rand.New(rand.NewPCG(1, 1)), 4, 33)
	chunks, err := m.Encode(source)
	require.NoError(t, err)
	count := 0
	for mask := range 1 << 7 {
		if popcount(mask) != 4 {
			continue
		}
		got := make([][]byte, 7)
		for i := range 7 {
			if mask&(1<<i) != 0 {
				got[i] = chunks[i]
			}
		}
		dec, err := m.Decode(got)
		require.NoError(t, err)
		require.Equal(t, source, dec)
		count++
	}
	assert.Equal(t, 35, count)
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}
