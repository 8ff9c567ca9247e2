package mobility

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file pin the defects of issue 11 in the package
// (docs/conventions.md §§2, 3, 5, 6): each failed before its fix with a
// crash of the whole process, an out-of-memory crash, a hang or an
// unnamed error.

// TestCompareMisuse: before the fix a nil scenario, a nil Contender.New
// or a New that returns nil panicked inside a worker goroutine and
// killed the process with GOMAXPROCS ≥ 2. Now the first two are
// documented panics on the caller's goroutine, the third an error, and
// any other panic of a worker is re-raised on the caller.
func TestCompareMisuse(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	good := Baselines()[:1]
	assert.PanicsWithValue(t, "mobility: Compare: scenario sc is nil", func() { _, _ = Compare(nil, good, 4, 1, 0) })
	// A nil New is a bad field: an error naming it (it was a panic).
	_, err := Compare(Mesh{Grid: 2, Slots: 10}, append(good, Contender{Name: "broken"}), 4, 1, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, `cs[1].New ("broken") is nil`)
	none := Contender{"none", func(*Scene, rand.Source) competitive.Online { return nil }}
	_, err = Compare(Mesh{Grid: 2, Slots: 10}, []Contender{none}, 4, 1, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, `contender "none": New returned nil`)
	boom := Contender{"boom", func(*Scene, rand.Source) competitive.Online { panic("boom") }}
	var got any
	func() {
		defer func() { got = recover() }()
		_, _ = Compare(Mesh{Grid: 2, Slots: 10}, []Contender{boom}, 8, 1, 0)
	}()
	var pe *mc.PanicError
	require.True(t, errors.As(asError(got), &pe), "recovered %T %v", got, got)
	assert.Equal(t, "boom", pe.Value)
	_, err = Compare(Mesh{Grid: 2, Slots: 10}, good, 0, 1, 0)
	assert.ErrorContains(t, err, "runs = 0")
	_, err = Compare(Mesh{Grid: 2, Slots: 10}, good, math.MaxInt, 1, 0)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}

func asError(v any) error {
	err, _ := v.(error)
	return err
}

// TestSettingsNamed: errors name the settings field (before: "speed"
// for Mesh.Speed) and wrap ErrInvalid.
func TestSettingsNamed(t *testing.T) {
	cases := []struct {
		sc  interface{ Validate() error }
		msg string
	}{
		{Mesh{Speed: math.NaN()}, "Mesh.Speed = NaN"},
		{Mesh{Speed: -1}, "Mesh.Speed = -1"},
		{Mesh{Setup: math.Inf(1)}, "Mesh.Setup = +Inf"},
		{Mesh{Grid: -1}, "Mesh.Grid = -1"},
		{Mesh{Slots: -2}, "Mesh.Slots = -2"},
		{ChatRoom{Users: math.NaN()}, "ChatRoom.Users = NaN"},
		{ChatRoom{Stay: -1}, "ChatRoom.Stay = -1"},
		{ChatRoom{Setup: math.Inf(1)}, "ChatRoom.Setup = +Inf"},
		{ChatRoom{Grid: -3}, "ChatRoom.Grid = -3"},
	}
	for _, c := range cases {
		err := c.sc.Validate()
		assert.ErrorIs(t, err, loadlab.ErrInvalid, c.msg)
		assert.ErrorContains(t, err, c.msg)
		_, _, err = c.sc.(Scenario).Sample(mc.Source(1))
		assert.ErrorContains(t, err, c.msg, "Sample validates too")
	}
	assert.NoError(t, Mesh{}.Validate())
	assert.NoError(t, ChatRoom{}.Validate())
}

// TestSizesTooLarge: sizes that would exhaust memory or take hours are
// ErrTooLarge before anything is allocated (before: fatal out-of-memory
// crashes).
func TestSizesTooLarge(t *testing.T) {
	for _, sc := range []Scenario{
		Mesh{Grid: 1 << 20}, Mesh{Grid: 1 << 32}, Mesh{Slots: 1 << 40}, Mesh{Grid: math.MaxInt},
		Mesh{Speed: 1e12},              // 10⁹ m per slot in a 1 km square: 10¹³ way-points
		ChatRoom{Users: 1e9},           // 10⁹ users
		ChatRoom{Stay: 1e-9},           // 3·10¹² arrivals
		ChatRoom{Users: 1e5, Grid: 25}, // 2·10¹¹ distances
		ChatRoom{Grid: 1 << 32}, ChatRoom{Slots: 1 << 40},
	} {
		_, _, err := sc.Sample(mc.Source(1))
		assert.ErrorIs(t, err, loadlab.ErrTooLarge, "%+v", sc)
	}
	for _, c := range []struct {
		side, speed float64
		T           int
	}{{1000, 10, 1 << 40}, {1000, 10, math.MaxInt}, {1, 1e12, 1 << 20}, {1e-300, 1e300, 1}} {
		_, err := RandomWaypoint(c.side, c.speed, c.T, mc.Source(1))
		assert.ErrorIs(t, err, loadlab.ErrTooLarge, "%+v", c)
	}
	_, err := Mesh{}.Routers()
	assert.NoError(t, err)
	_, err = Mesh{Grid: 1 << 32}.Routers()
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}

// TestHugeWalk: with side = speed = 10¹⁵⁵ dx² + dy² overflowed, the
// position became NaN and the way-point loop never ended (before). Now
// the walk stays in the square, moves at most speed per slot, and every
// distance is finite.
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
	// Dist does not overflow.
	assert.InDelta(t, math.Sqrt2*1e200, Point{}.Dist(Point{1e200, 1e200}), 1e186)
	assert.Equal(t, 5.0, Point{}.Dist(Point{3, 4}))
}

// TestNilSources: a nil rand.Source is a documented panic naming the
// argument (before: a nil-pointer panic deep inside, or none until the
// source was used).
func TestNilSources(t *testing.T) {
	assert.PanicsWithValue(t, "mobility: RandomWaypoint: src is nil", func() { _, _ = RandomWaypoint(1, 1, 1, nil) })
	assert.PanicsWithValue(t, "mobility: Mesh.Sample: src is nil", func() { _, _, _ = Mesh{}.Sample(nil) })
	assert.PanicsWithValue(t, "mobility: ChatRoom.Sample: src is nil", func() { _, _, _ = ChatRoom{}.Sample(nil) })
	_, sc, err := Mesh{Grid: 2, Slots: 20}.Sample(mc.Source(1))
	require.NoError(t, err)
	assert.PanicsWithValue(t, "mobility: TargetForecast: src is nil", func() { _, _ = TargetForecast(sc, 0, nil) })
	assert.PanicsWithValue(t, "mobility: DirectionForecast: scene sc is nil", func() { _, _ = DirectionForecast(nil, 0, mc.Source(1)) })
	// A scene without a walk is a bad field: an error naming it (it was
	// a panic).
	_, err = DirectionForecast(&Scene{}, 0, mc.Source(1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "Scene.Walk")
}

// TestNoiseValidated: a NaN, negative or infinite noise was read as
// "exact" (before); now it is an error naming it.
func TestNoiseValidated(t *testing.T) {
	_, sc, err := Mesh{Grid: 2, Slots: 20}.Sample(mc.Source(1))
	require.NoError(t, err)
	for _, noise := range []float64{math.NaN(), -1, math.Inf(1)} {
		_, err := TargetForecast(sc, noise, mc.Source(1))
		assert.ErrorIs(t, err, loadlab.ErrInvalid)
		_, err = DirectionForecast(sc, noise, mc.Source(1))
		assert.ErrorIs(t, err, loadlab.ErrInvalid)
		_, err = Compare(Mesh{Grid: 2, Slots: 20}, []Contender{TargetAware(5, noise)}, 2, 1, 0)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "noise %v", noise)
		assert.ErrorContains(t, err, "Target-Aware(5): noise = ")
	}
}
