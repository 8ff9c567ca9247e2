package competitive

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomTree draws a tree metric on k servers: a random parent with a
// lower id after a random relabelling, integer link lengths 0..hi (0
// included: ties), first placement c.
func randomTree(t testing.TB, rng *rand.Rand, k int, hi int, c float64) *Metric {
	t.Helper()
	perm := rng.Perm(k)
	parent, length := make([]int, k), make([]float64, k)
	parent[perm[0]] = -1
	for r := 1; r < k; r++ {
		parent[perm[r]] = perm[rng.IntN(r)]
		length[perm[r]] = float64(rng.IntN(hi + 1))
	}
	init := make([]float64, k)
	for s := range init {
		init[s] = c
	}
	m, err := TreeMetric(parent, length, init)
	require.NoError(t, err)
	return m
}

// TestTreeMetricPaths: the O(k) passes of spec §14.2 against the O(k²)
// product on random trees and lines with integer costs (every sum
// exact): the same optimal cost, a schedule that prices at it, the same
// WFA schedule; and against brute force on tiny trees.
func TestTreeMetricPaths(t *testing.T) {
	rng := newRand(34)
	for i := range 800 {
		k, T := 1+rng.IntN(7), 1+rng.IntN(30)
		C := float64(1 + rng.IntN(4))
		var m *Metric
		if i%2 == 0 {
			m = randomTree(t, rng, k, 4, C)
		} else {
			pos := make([]float64, k)
			for s := range pos {
				pos[s] = float64(rng.IntN(10))
			}
			var err error
			m, err = LineMetric(pos, nil)
			require.NoError(t, err)
			for a := range k {
				for b := range k {
					require.Equal(t, math.Abs(pos[a]-pos[b]), m.Dist(a, b))
				}
			}
		}
		require.NoError(t, m.Violation())
		in := randomInstance(rng, family(i%3), k, T, C, 1+float64(rng.IntN(8))) // integer families
		opt, sched, err := MetricOptimum(in, m)
		require.NoError(t, err)
		want, _, err := MetricOptimum(in, general(m))
		require.NoError(t, err)
		require.Equal(t, want, opt, "instance %d", i)
		require.Equal(t, opt, MetricCost(in, m, sched), "instance %d", i)
		if k <= 3 && T <= 6 {
			require.Equal(t, metricBrute(in, m), opt)
		}
		a, err := RunMetric(&MetricWFA{}, in, m)
		require.NoError(t, err)
		b, err := RunMetric(&MetricWFA{}, in, general(m))
		require.NoError(t, err)
		require.Equal(t, b, a, "instance %d", i)
	}
}

// treeCases probes TreeMetric and LineMetric.
func treeCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "TreeMetric", Err: inv}
	tree := func(parent []int, length []float64) error { _, err := TreeMetric(parent, length, nil); return err }
	p.Text = "TreeMetric: length[1] = "
	add(p.Entries("length", []float64{0, 1, 2}, 1, badarg.NonNegative, func(l []float64) error { return tree([]int{-1, 0, 1}, l) })...)
	p.Text = ""
	add(p.Fails("parent = nil", "k = 0 servers", func() error { return tree(nil, nil) }))
	add(p.Fails("len(length) = 2", "len(length) = 2, want k = 3", func() error { return tree([]int{-1, 0, 1}, []float64{0, 1}) }))
	add(p.Fails("two roots", "want one root", func() error { return tree([]int{-1, -1, 1}, []float64{0, 0, 1}) }))
	add(p.Fails("no root", "want one root", func() error { return tree([]int{1, 2, 0}, []float64{1, 1, 1}) }))
	add(p.Fails("a cycle beside the root", "2 of 4 servers reachable", func() error { return tree([]int{-1, 0, 3, 2}, []float64{0, 1, 1, 1}) }))
	add(p.Fails("parent out of range", "parent[2] = 3", func() error { return tree([]int{-1, 0, 3}, []float64{0, 1, 1}) }))
	add(p.Fails("own parent", "parent[1] = 1", func() error { return tree([]int{-1, 1, 0}, []float64{0, 1, 1}) }))
	add(p.Fails("initial", "len(initial) = 1", func() error { _, err := TreeMetric([]int{-1, 0}, []float64{0, 1}, []float64{1}); return err }))
	p = badarg.Probe{Func: "LineMetric", Err: inv}
	p.Text = "LineMetric: pos[1] = "
	add(p.Entries("pos", []float64{0, 1, 2}, 1, badarg.Finite, func(x []float64) error { _, err := LineMetric(x, nil); return err })...)
	p.Text = ""
	add(p.Fails("pos = nil", "k = 0 servers", func() error { _, err := LineMetric(nil, nil); return err }))
	add(p.Fails("overflow", "overflows float64", func() error { _, err := LineMetric([]float64{-math.MaxFloat64, math.MaxFloat64}, nil); return err }))
	add(p.Fails("initial", "initial[0] = -1", func() error { _, err := LineMetric([]float64{0, 1}, []float64{-1, 0}); return err }))
	return cs
}

// TestTreeMetricShape: a star and a path by hand.
func TestTreeMetricShape(t *testing.T) {
	star, err := TreeMetric([]int{-1, 0, 0, 0}, []float64{0, 1, 2, 3}, nil)
	require.NoError(t, err)
	assert.Equal(t, 5.0, star.Dist(2, 3))
	assert.Equal(t, 3.0, star.Dist(3, 0))
	line, err := LineMetric([]float64{5, -1, 2}, nil)
	require.NoError(t, err)
	assert.Equal(t, 6.0, line.Dist(0, 1))
	assert.Equal(t, 3.0, line.Dist(2, 1))
}
