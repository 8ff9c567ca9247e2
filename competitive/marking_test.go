package competitive

import (
	"fmt"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func harmonic(k int) float64 {
	h := 0.0
	for i := 1; i <= k; i++ {
		h += 1 / float64(i)
	}
	return h
}

// TestMarkingExpectedBound checks E[cost] ≤ 2H_k·OPT on fixed
// (oblivious) instances: random ones, and the adaptive adversary's
// sequence built against DTrack-RR, which is oblivious for Marking.
func TestMarkingExpectedBound(t *testing.T) {
	rng := newRand(9)
	var ins []*Instance
	for i := range 60 {
		k, T := 2+rng.IntN(5), 20+rng.IntN(60)
		C := []float64{1, 2, 5, 8}[rng.IntN(4)]
		ins = append(ins, randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(8))))
	}
	for k := 2; k <= 6; k++ {
		in, _, err := Cruel(NewDTrack(RoundRobin), k, 400, 2, 1)
		require.NoError(t, err)
		ins = append(ins, in)
	}
	const runs = 200
	for i, in := range ins {
		opt := OptimumCost(in)
		costs := make([]float64, runs)
		for r := range costs {
			c, err := RunCost(&Marking{Src: mc.Source(10, uint64(i), uint64(r))}, in)
			require.NoError(t, err)
			require.LessOrEqual(t, opt, c+tol)
			costs[r] = c
		}
		s := mc.Summarize(costs)
		// The mean of 200 runs exceeds its expectation by more than 4
		// standard errors with probability < 1e-4.
		bound := 2 * harmonic(in.Servers()) * opt
		require.LessOrEqual(t, s.Mean, bound+4*s.StdErr, fmt.Sprintf("instance %d (k=%d)", i, in.Servers()))
	}
}

func TestMarkingBasics(t *testing.T) {
	// A nil Src is a bad field (docs/conventions.md §2): an error naming
	// it, from Validate and from Reset (guards: a panic).
	err := (&Marking{}).Reset(2, 1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "Marking.Src")
	assert.ErrorIs(t, (&Marking{}).Validate(), loadlab.ErrInvalid)
	a := &Marking{Src: mc.Source(1)}
	require.NoError(t, a.Reset(3, 2))
	// Every server saturated even after a new phase: take the cheapest.
	assert.Equal(t, 1, mustStep(t, a, []float64{9, 3, 4}))
	// C = 0 with a free server: must go there.
	in := fixtureByName(t, "A")
	zero, _ := in.WithSetup(0)
	for r := range 20 {
		c, err := RunCost(&Marking{Src: mc.Source(2, uint64(r))}, zero)
		require.NoError(t, err)
		assert.Equal(t, OptimumCost(zero), c)
	}
	// Same source, same schedule.
	x, _ := Run(&Marking{Src: mc.Source(3)}, in)
	y, _ := Run(&Marking{Src: mc.Source(3)}, in)
	assert.Equal(t, x, y)
}
