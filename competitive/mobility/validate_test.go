package mobility

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
)

// scenarioCases probes the fields of Mesh and ChatRoom through Validate,
// Sample and Routers, sizes beyond memory, and a nil source.
func scenarioCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	for _, fn := range []string{"Mesh.Validate", "Mesh.Sample", "Mesh.Routers"} {
		call := func(m *Mesh) error {
			switch fn {
			case "Mesh.Validate":
				return m.Validate()
			case "Mesh.Sample":
				_, _, err := m.Sample(mc.Source(1))
				return err
			}
			_, err := m.Routers()
			return err
		}
		add(badarg.Fields(badarg.Probe{Func: fn, Err: inv}, Mesh{}, badarg.NonNegative, call, "Grid", "Slots", "Speed", "Setup")...)
	}
	for _, fn := range []string{"ChatRoom.Validate", "ChatRoom.Sample"} {
		call := func(c *ChatRoom) error {
			if fn == "ChatRoom.Validate" {
				return c.Validate()
			}
			_, _, err := c.Sample(mc.Source(1))
			return err
		}
		add(badarg.Fields(badarg.Probe{Func: fn, Err: inv}, ChatRoom{}, badarg.NonNegative, call, "Grid", "Users", "Stay", "Slots", "Setup")...)
	}
	// Sizes that would exhaust memory or take hours.
	for _, sc := range []Scenario{
		Mesh{Grid: 1 << 20}, Mesh{Grid: 1 << 32}, Mesh{Slots: 1 << 40}, Mesh{Grid: math.MaxInt},
		Mesh{Speed: 1e12},              // 10⁹ m per slot in a 1 km square: 10¹³ way-points
		ChatRoom{Users: 1e9},           // 10⁹ users
		ChatRoom{Stay: 1e-9},           // 3·10¹² arrivals
		ChatRoom{Users: 1e5, Grid: 25}, // 2·10¹¹ distances
		ChatRoom{Grid: 1 << 32}, ChatRoom{Slots: 1 << 40},
	} {
		fn := "Mesh.Sample"
		if _, ok := sc.(ChatRoom); ok {
			fn = "ChatRoom.Sample"
		}
		add(badarg.Probe{Func: fn, Err: tooLarge}.Fails("beyond memory", "", func() error { _, _, err := sc.Sample(mc.Source(1)); return err }))
	}
	add(badarg.Probe{Func: "Mesh.Routers", Err: tooLarge}.Fails("Grid = 2^32", "", func() error { _, err := Mesh{Grid: 1 << 32}.Routers(); return err }))
	add(badarg.Probe{Func: "Mesh.Sample"}.Panics("src = nil", "mobility: Mesh.Sample: src is nil", func() { _, _, _ = Mesh{}.Sample(nil) }))
	add(badarg.Probe{Func: "ChatRoom.Sample"}.Panics("src = nil", "mobility: ChatRoom.Sample: src is nil", func() { _, _, _ = ChatRoom{}.Sample(nil) }))
	return cs
}

// walkCases probes RandomWaypoint.
func walkCases() []badarg.Case {
	p := badarg.Probe{Func: "RandomWaypoint", Err: inv}
	call := func(side, speed float64, T int) error {
		_, err := RandomWaypoint(side, speed, T, mc.Source(1))
		return err
	}
	cs := p.Scalar("side", badarg.Positive, func(x float64) error { return call(x, 1, 5) })
	cs = append(cs, p.Scalar("speed", badarg.Positive, func(x float64) error { return call(1, x, 5) })...)
	cs = append(cs, p.Int("T", badarg.Positive, func(T int) error { return call(1, 1, T) })...)
	for _, c := range []struct {
		side, speed float64
		T           int
	}{{1000, 10, 1 << 40}, {1000, 10, math.MaxInt}, {1, 1e12, 1 << 20}, {1e-300, 1e300, 1}} {
		cs = append(cs, badarg.Probe{Func: "RandomWaypoint", Err: tooLarge}.Fails("walk beyond memory", "", func() error { return call(c.side, c.speed, c.T) }))
	}
	return append(cs, p.Panics("src = nil", "mobility: RandomWaypoint: src is nil", func() { _, _ = RandomWaypoint(1, 1, 1, nil) }))
}

// forecastCases probes the forecasters and the contenders built on them:
// a bad noise is an error naming it, a scene without a walk is a bad
// field, a nil scene or source a panic naming it.
func forecastCases(sc *Scene) []badarg.Case {
	var cs []badarg.Case
	for name, f := range map[string]func(*Scene, float64, rand.Source) (competitive.Forecaster, error){
		"TargetForecast":    TargetForecast,
		"DirectionForecast": DirectionForecast,
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Scalar("noise", badarg.NonNegative, func(x float64) error { _, err := f(sc, x, mc.Source(1)); return err })...)
		cs = append(cs,
			p.Fails("Scene.Walk = nil", "Scene.Walk is nil", func() error { _, err := f(&Scene{}, 0, mc.Source(1)); return err }),
			p.Panics("sc = nil", "mobility: "+name+": scene sc is nil", func() { _, _ = f(nil, 0, mc.Source(1)) }),
			p.Panics("src = nil", "mobility: "+name+": src is nil", func() { _, _ = f(sc, 0, nil) }),
		)
	}
	// The contenders report a bad window or noise from every run.
	mesh := Mesh{Grid: 2, Slots: 20}
	for name, f := range map[string]func(int, float64) Contender{"TargetAware": TargetAware, "DirectionAware": DirectionAware} {
		run := func(c Contender) error { _, err := Compare(mesh, []Contender{c}, 2, 1, 0); return err }
		p := badarg.Probe{Func: name, Err: inv, Text: f(5, 0).Name + ": noise = "}
		cs = append(cs, p.Scalar("noise", badarg.NonNegative, func(x float64) error { return run(f(5, x)) })...)
		// The window is the Lookahead's, and named so.
		p.Text = "Lookahead.Window = -1"
		cs = append(cs, p.Int("window", badarg.NonNegative, func(w int) error { return run(f(w, 0)) })...)
	}
	return cs
}

// compareCases probes Compare and Play: runs, contenders
// with a nil or failing New, a nil scenario.
func compareCases() []badarg.Case {
	mesh := Mesh{Grid: 2, Slots: 10}
	good := Baselines()[:1]
	none := Contender{"none", func(*Scene, rand.Source) competitive.Online { return nil }}
	var cs []badarg.Case
	for _, name := range []string{"Compare", "CompareWith", "Play"} {
		run := func(sc Scenario, c []Contender) error {
			switch name {
			case "Compare":
				_, err := Compare(sc, c, 4, 1, 0)
				return err
			case "CompareWith":
				_, err := CompareWith(sc, c, 4, 1, 0, &CompareSettings{Precision: loadlab.Precision{Rel: 0.1}})
				return err
			}
			_, _, err := Play(sc, c, 1, 0, 0)
			return err
		}
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs,
			// A nil New is a bad field: an error naming it.
			p.Fails("cs[1].New = nil", `cs[1].New ("broken") is nil`, func() error { return run(mesh, append(good, Contender{Name: "broken"})) }),
			p.Fails("New returns nil", `contender "none": New returned nil`, func() error { return run(mesh, []Contender{none}) }),
			p.Fails("a bad scenario field", "Mesh.Speed = NaN", func() error { return run(Mesh{Speed: math.NaN()}, good) }),
			p.Panics("sc = nil", "scenario sc is nil", func() { _ = run(nil, good) }),
		)
	}
	p := badarg.Probe{Func: "Compare", Err: inv}
	cs = append(cs, p.Int("runs", badarg.Positive, func(n int) error { _, err := Compare(mesh, good, n, 1, 0); return err })...)
	cs = append(cs, badarg.Probe{Func: "Compare", Err: tooLarge}.Fails("runs = MaxInt", "", func() error { _, err := Compare(mesh, good, math.MaxInt, 1, 0); return err }))
	cs = append(cs, badarg.Probe{Func: "Compare"}.Panics("sc = nil", "mobility: Compare: scenario sc is nil", func() { _, _ = Compare(nil, good, 4, 1, 0) }))
	return append(cs, compareWithCases(mesh, good)...)
}

// compareWithCases probes CompareWith's runs and settings: a bad
// Workers or Precision field named through CompareSettings, a pilot
// above the cap, a cap too large to hold.
func compareWithCases(mesh Mesh, good []Contender) []badarg.Case {
	prec := &CompareSettings{Precision: loadlab.Precision{Rel: 0.1}}
	p := badarg.Probe{Func: "CompareWith", Err: inv}
	cs := p.Int("runs", badarg.Positive, func(n int) error { _, err := CompareWith(mesh, good, n, 1, 0, prec); return err })
	cs = append(cs,
		p.Fails("pilot above MaxRuns", "CompareWith: runs = 30 (the pilot), above Precision.MaxRuns = 20", func() error {
			_, err := CompareWith(mesh, good, 30, 1, 0, &CompareSettings{Precision: loadlab.Precision{Rel: 0.1, MaxRuns: 20}})
			return err
		}),
		badarg.Probe{Func: "CompareWith", Err: tooLarge}.Fails("MaxRuns = MaxInt", "CompareWith: runs·(contenders+1)", func() error {
			_, err := CompareWith(mesh, good, 4, 1, 0, &CompareSettings{Precision: loadlab.Precision{Rel: 0.1, MaxRuns: math.MaxInt}})
			return err
		}),
		badarg.Probe{Func: "CompareWith"}.Panics("sc = nil", "mobility: CompareWith: scenario sc is nil", func() { _, _ = CompareWith(nil, good, 4, 1, 0, nil) }),
	)
	for _, fn := range []string{"CompareSettings.Validate", "CompareWith"} {
		call := func(s *CompareSettings) error {
			if fn == "CompareWith" {
				_, err := CompareWith(mesh, good, 4, 1, 0, s)
				return err
			}
			return s.Validate()
		}
		p := badarg.Probe{Func: fn, Err: inv}
		cs = append(cs, badarg.Fields(p, CompareSettings{}, badarg.NonNegative, call, "Workers")...)
		cs = append(cs, badarg.Fields(p, loadlab.Precision{Rel: 0.1}, badarg.NonNegative, func(q *loadlab.Precision) error {
			return call(&CompareSettings{Precision: *q})
		}, "Rel", "Abs", "MaxRuns", "Batch")...)
	}
	return cs
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative, zero, nil and oversized inputs: each gives the
// documented error, naming the input, or the documented panic.
func TestValidate(t *testing.T) {
	_, sc, err := Mesh{Grid: 2, Slots: 20}.Sample(mc.Source(1))
	require.NoError(t, err)
	cs := slices.Concat(scenarioCases(), walkCases(), forecastCases(sc), compareCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Point.Dist": "arithmetic on any two points: a NaN or infinite coordinate gives the distance IEEE arithmetic gives",
	})
}

// TestValidDefaults: zero scenarios are the documented defaults and
// valid.
func TestValidDefaults(t *testing.T) {
	assert.NoError(t, Mesh{}.Validate())
	assert.NoError(t, ChatRoom{}.Validate())
	_, err := Mesh{}.Routers()
	assert.NoError(t, err)
}
