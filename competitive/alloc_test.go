package competitive

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStepAllocs checks that the per-slot work of every online
// algorithm allocates nothing once warmed up.
func TestStepAllocs(t *testing.T) {
	in := randomInstance(newRand(8), realCost, 70, 64, 3, 10)
	algs := map[string]Online{
		"DTrack-RR":    NewDTrack(RoundRobin),
		"DTrack-F":     NewDTrack(Forward),
		"DTrack-B":     &DTrack{Policy: Backward, Alpha: 1},
		"CTrack":       NewCTrack(),
		"WFA":          &WFA{},
		"Lookahead":    &Lookahead{Window: 5, Forecaster: Oracle{in}},
		"NeverMigrate": &NeverMigrate{},
	}
	for name, alg := range algs {
		_, err := RunCost(alg, in) // warm up the workspaces
		require.NoError(t, err)
		allocs := testing.AllocsPerRun(10, func() { RunCost(alg, in) })
		assert.Zero(t, allocs, name)
	}
	// Marking's Reset wraps its source in a rand.Rand (one allocation per
	// input); its slots must allocate nothing.
	m := &Marking{Src: newRand(9)}
	require.NoError(t, m.Reset(in.Servers(), in.Setup()))
	steps := func() {
		for s := range in.Slots() {
			_, _ = m.Step(in.Row(s))
		}
	}
	steps()
	assert.Zero(t, testing.AllocsPerRun(10, steps), "Marking")
}
