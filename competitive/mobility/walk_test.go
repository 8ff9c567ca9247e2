package mobility

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRandomWaypoint checks the geometry of a walk: it stays in the
// square, moves exactly Speed per slot in a straight line towards
// Way[Leg[t]] while the leg does not change, and never moves further
// than Speed.
func TestRandomWaypoint(t *testing.T) {
	w, err := RandomWaypoint(1000, 10, 5000, mc.Source(1))
	require.NoError(t, err)
	assert.Greater(t, len(w.Way), 20) // ≈ 5·10⁴ m / 521 m mean leg
	for s, p := range w.Pos {
		require.True(t, p.X >= 0 && p.X <= 1000 && p.Y >= 0 && p.Y <= 1000, "slot %d at %v", s, p)
		if s == 0 {
			continue
		}
		q := w.Pos[s-1]
		step := p.Dist(q)
		// 1e-9 m: rounding of a few hundred additions of 10 m steps.
		require.LessOrEqual(t, step, 10+1e-9, "slot %d", s)
		if w.Leg[s] == w.Leg[s-1] {
			require.InDelta(t, 10, step, 1e-9, "slot %d", s)
			target := w.Way[w.Leg[s]]
			require.InDelta(t, q.Dist(target)-10, p.Dist(target), 1e-9, "slot %d heads for its way-point", s)
		}
	}
}

// TestHugeWalk: with side = speed = 10¹⁵⁵, where dx² + dy² overflows,
// the walk stays in the square, moves at most speed per slot, and every
// distance is finite (guards: a NaN position, an endless way-point loop).
func TestHugeWalk(t *testing.T) {
	for _, c := range [][2]float64{{1e155, 1e155}, {1e300, 1e299}, {math.MaxFloat64, math.MaxFloat64 / 4}, {1e155, 1}} {
		side, speed := c[0], c[1]
		w, err := RandomWaypoint(side, speed, 200, mc.Source(3))
		require.NoError(t, err, "side %v speed %v", side, speed)
		for s, p := range w.Pos {
			require.True(t, p.X >= 0 && p.X <= side && p.Y >= 0 && p.Y <= side, "slot %d at %v", s, p)
			if s > 0 {
				// Relative 1e-12: a step is a few roundings of speed.
				require.LessOrEqual(t, p.Dist(w.Pos[s-1]), speed*(1+1e-12), "slot %d", s)
			}
		}
		assert.Less(t, len(w.Way), 2000, "the way-point loop is bounded")
	}
	// The rescaling is exact: a walk 2⁶⁰⁰ times larger is the same walk
	// times 2⁶⁰⁰, bit for bit.
	f := math.Ldexp(1, 600)
	a, err := RandomWaypoint(1000, 10, 500, mc.Source(4))
	require.NoError(t, err)
	b, err := RandomWaypoint(1000*f, 10*f, 500, mc.Source(4))
	require.NoError(t, err)
	for s := range a.Pos {
		require.Equal(t, Point{a.Pos[s].X * f, a.Pos[s].Y * f}, b.Pos[s], "slot %d", s)
	}
	require.Equal(t, a.Leg, b.Leg)
	// Dist does not overflow: √2·1e200 to within 1e186, a relative 1e-14
	// (math.Hypot is correct to an ulp or two).
	assert.InDelta(t, math.Sqrt2*1e200, Point{}.Dist(Point{1e200, 1e200}), 1e186)
	assert.Equal(t, 5.0, Point{}.Dist(Point{3, 4}))
}
