package stability

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWorkspaceKeepsIntegrationsApart(t *testing.T) {
	// Integrations on laws of different sizes sharing one workspace, in
	// turn and several at once (one takes the matrices it keeps, the
	// others form their own), each give the trajectory of an integration
	// without a workspace; the workspace then holds the matrices of a
	// dense integration, and a trajectory keeps no reference to them.
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
	ws := new(Workspace)
	with := &Settings{Workspace: ws}
	for round := range 2 {
		for k, l := range laws {
			tr, err := l.Integrate(starts[k], 200, with)
			require.NoError(t, err)
			assert.Equal(t, want[k].X, tr.X, "round %d, law %d", round, k)
			assert.Equal(t, want[k].S, tr.S, "round %d, law %d", round, k)
			require.NotNil(t, ws.p.Load(), "round %d, law %d: matrices kept", round, k)
			assert.Equal(t, l.Net.N(), ws.p.Load().op.N(), "round %d, law %d", round, k)
		}
	}
	var wg sync.WaitGroup
	got := make([]*Trajectory, 4*len(laws))
	for g := range got {
		wg.Go(func() {
			k := g % len(laws)
			tr, err := laws[k].Integrate(starts[k], 200, with)
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

func TestLawIsItsFields(t *testing.T) {
	// A copy of a law, and a law built as a literal rather than by NewLaw,
	// integrate exactly as the original; the zero Law is refused with an
	// error naming its missing network.
	rng := rand.New(rand.NewPCG(5, 6))
	l := mustLaw(randomNet(rng, 50, 2, 0.5), 1)
	x0 := randomInterior(rng, 50)
	want, err := l.Integrate(x0, 100, nil)
	require.NoError(t, err)
	copied := *l
	literal := Law{Net: l.Net, Sensitivity: l.Sensitivity}
	for name, c := range map[string]*Law{"copy": &copied, "literal": &literal} {
		tr, err := c.Integrate(x0, 100, &Settings{Workspace: new(Workspace)})
		require.NoError(t, err, name)
		assert.Equal(t, want.X, tr.X, name)
	}
	var zero Law
	_, err = zero.Integrate(x0, 100, nil)
	assert.ErrorContains(t, err, "Law.Net is nil")
}
