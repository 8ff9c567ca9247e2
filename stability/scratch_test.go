package stability

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeptScratchKeepsIntegrationsApart(t *testing.T) {
	// Repeated integrations on laws of different sizes, in turn and
	// several at once on one law (one takes the matrices the law keeps,
	// the others form their own), each give the trajectory of a first
	// integration, and a trajectory keeps no reference to the load matrix.
	rng := rand.New(rand.NewPCG(3, 4))
	laws := []*Law{mustLaw(randomNet(rng, 64, 2, 0.5), 1), mustLaw(randomNet(rng, 100, 2, 0.5), 1), mustLaw(randomNet(rng, 40, 2, 0.5), 1)}
	starts := make([][]float64, len(laws))
	want := make([]*Trajectory, len(laws))
	for k, l := range laws {
		starts[k] = randomInterior(rng, l.Net.N())
		tr, err := l.Integrate(starts[k], 200, nil)
		require.NoError(t, err)
		assert.Nil(t, tr.op, "law %d: trajectory holds the load matrix", k)
		want[k] = tr
	}
	for round := range 2 {
		for k, l := range laws {
			tr, err := l.Integrate(starts[k], 200, nil)
			require.NoError(t, err)
			assert.Equal(t, want[k].X, tr.X, "round %d, law %d", round, k)
			assert.Equal(t, want[k].S, tr.S, "round %d, law %d", round, k)
		}
	}
	var wg sync.WaitGroup
	got := make([]*Trajectory, 4*len(laws))
	for g := range got {
		wg.Go(func() {
			k := g % len(laws)
			tr, err := laws[k].Integrate(starts[k], 200, nil)
			if err == nil {
				got[g] = tr
			}
		})
	}
	wg.Wait()
	for g, tr := range got {
		k := g % len(laws)
		require.NotNil(t, tr, "goroutine %d", g)
		assert.Equal(t, want[k].X, tr.X, "goroutine %d, law %d", g, k)
		assert.Equal(t, want[k].S, tr.S, "goroutine %d, law %d", g, k)
	}
}
