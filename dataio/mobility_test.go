package dataio

import (
	"io/fs"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const trace2 = "time,user,x,y\n0,7,0,0\n0,3,10,0\n10,7,100,0\n5,3,10,50\n"

// TestMobilityInstance: a hand example. User 7 walks from (0, 0) to
// (100, 0) in 10 s, user 3 from (10, 0) at t = 0 to (10, 50) at t = 5 and
// stays. Routers at (0, 0) and (100, 0); slots of 5 s: t = 0, 5, 10.
// User 7 is at x = 0, 50, 100; user 3 at (10, 0), (10, 50), (10, 50).
func TestMobilityInstance(t *testing.T) {
	m, err := ReadMobility(strings.NewReader(trace2))
	require.NoError(t, err)
	assert.Equal(t, []int{3, 7}, m.Users)
	routers := [][2]float64{{0, 0}, {100, 0}}
	in, err := MobilityInstance(m, routers, 4, &MobilityOptions{Slot: 5, Users: []int{7}})
	require.NoError(t, err)
	require.Equal(t, 3, in.Slots())
	for s, want := range [][]float64{{0, 100}, {50, 50}, {100, 0}} {
		assert.Equal(t, want, in.Row(s), "slot %d", s)
	}
	// Both users: the session's hold costs add. Distances are sums of
	// one or two square roots: 1e-12 relative.
	both, err := MobilityInstance(m, routers, 4, &MobilityOptions{Slot: 5})
	require.NoError(t, err)
	u3 := [][]float64{{10, 90}, {math.Hypot(10, 50), math.Hypot(90, 50)}, {math.Hypot(10, 50), math.Hypot(90, 50)}}
	for s := range 3 {
		for r := range 2 {
			assert.InDelta(t, in.Hold(s, r)+u3[s][r], both.Hold(s, r), 1e-12*both.Hold(s, r))
		}
	}
	// Hop counts: a line of two routers one hop apart; each user costs
	// the hops from its nearest router.
	hops, err := MobilityInstance(m, routers, 4, &MobilityOptions{Slot: 5, Users: []int{7}, Hops: [][]float64{{0, 1}, {1, 0}}})
	require.NoError(t, err)
	for s, want := range [][]float64{{0, 1}, {0, 1}, {1, 0}} { // at x = 50 the tie goes to router 0
		assert.Equal(t, want, hops.Row(s), "slot %d", s)
	}
	// Slots fixes the horizon; the last position holds after the trace.
	long, err := MobilityInstance(m, routers, 4, &MobilityOptions{Slot: 5, Slots: 5, Users: []int{7}})
	require.NoError(t, err)
	assert.Equal(t, []float64{100, 0}, long.Row(4))
	// The instance runs through the package competitive.
	opt, _, err := competitive.Optimum(long)
	require.NoError(t, err)
	// Rows (0, 100), (50, 50), (100, 0) ×3 with C = 4: router 0, then
	// router 1 from slot 1 or 2 (50 paid either way): 4 + 0 + 50 + 4.
	assert.Equal(t, 58.0, opt)
}

// mobilityCases probes the trace reader, its options and the instance
// builder.
func mobilityCases(t *testing.T) []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	read := func(s string) error { _, err := ReadMobility(strings.NewReader(s)); return err }
	p := badarg.Probe{Func: "ReadMobility", Err: inv}
	for _, c := range []struct{ name, text, want string }{
		{"NaN time", "time,user,x,y\nNaN,1,0,0\n", `2: column "time" = "NaN"`},
		{"infinite x", "time,user,x,y\n0,1,Inf,0\n", `column "x"`},
		{"NaN y", "time,user,x,y\n0,1,0,NaN\n", `column "y"`},
		{"fractional user", "time,user,x,y\n0,1.5,0,0\n", `column "user" = "1.5"`},
		{"negative user", "time,user,x,y\n0,-1,0,0\n", `column "user" = "-1"`},
		{"time going back", "time,user,x,y\n5,1,0,0\n0,2,0,0\n3,1,0,0\n", `4: column "time" = "3": user 1's time 3 is not after its previous sample's 5`},
		{"repeated time", "time,user,x,y\n0,1,0,0\n0,1,1,1\n", `3: column "time"`},
		{"extra column", "time,user,x,y,z\n0,1,0,0,0\n", "want exactly the columns time, user, x, y"},
		{"missing column", "time,user,x\n0,1,0\n", "y"},
		{"no samples", "time,user,x,y\n", ""},
		{"not a number", "time,user,x,y\n0,a,0,0\n", "user"},
	} {
		add(p.Fails(c.name, c.want, func() error { return read(c.text) }))
	}
	add(p.Panics("r = nil", "dataio: ReadMobility: r is nil", func() { _, _ = ReadMobility(nil) }))

	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, writeFile(bad, "time,user,x,y\n0,1,0,0\n0,1,1,1\n"))
	add(badarg.Probe{Func: "ReadMobilityFile", Err: inv}.Fails("bad contents", "bad.csv:3:", func() error { _, err := ReadMobilityFile(bad); return err }))
	add(badarg.Probe{Func: "ReadMobilityFile", Err: fs.ErrNotExist}.Fails("missing file", "missing.csv", func() error {
		_, err := ReadMobilityFile(filepath.Join(dir, "missing.csv"))
		return err
	}))

	m := must(ReadMobility(strings.NewReader(trace2)))
	routers := [][2]float64{{0, 0}, {100, 0}}
	build := func(o *MobilityOptions) error { _, err := MobilityInstance(m, routers, 1, o); return err }
	for _, fn := range []string{"MobilityOptions.Validate", "MobilityInstance"} {
		call := func(o *MobilityOptions) error {
			if fn == "MobilityOptions.Validate" {
				return o.Validate()
			}
			return build(o)
		}
		p := badarg.Probe{Func: fn, Err: inv}
		add(badarg.Fields(p, MobilityOptions{}, badarg.NonNegative, call, "Slot", "Slots")...)
		add(p.Fails("Hops not square", "MobilityOptions.Hops[1] has 1 entries", func() error { return call(&MobilityOptions{Hops: [][]float64{{0, 1}, {1}}}) }))
		for _, v := range []float64{-1, nan, inf} {
			add(p.Fails("bad hop", "MobilityOptions.Hops[0][1] = ", func() error { return call(&MobilityOptions{Hops: [][]float64{{0, v}, {1, 0}}}) }))
		}
	}
	p = badarg.Probe{Func: "MobilityInstance", Err: inv}
	add(p.Fails("Hops of the wrong size", "MobilityOptions.Hops is 1 × 1", func() error { return build(&MobilityOptions{Hops: [][]float64{{0}}}) }))
	add(p.Fails("unknown user", "user 5 is not in the trace", func() error { return build(&MobilityOptions{Users: []int{5}}) }))
	add(p.Fails("no routers", "no routers", func() error { _, err := MobilityInstance(m, nil, 1, nil); return err }))
	add(p.Fails("NaN router", "routers[1]", func() error { _, err := MobilityInstance(m, [][2]float64{{0, 0}, {nan, 0}}, 1, nil); return err }))
	add(p.Scalar("C", badarg.NonNegative, func(c float64) error { _, err := MobilityInstance(m, routers, c, nil); return err })...)
	add(p.Fails("a changed trace", "Mobility.Samples[0] (user 3) is empty", func() error {
		_, err := MobilityInstance(&Mobility{Users: []int{3}, Samples: [][]MobilitySample{nil}}, routers, 1, nil)
		return err
	}))
	add(badarg.Probe{Func: "MobilityInstance", Err: loadlab.ErrTooLarge}.Fails("slots beyond memory", "", func() error {
		return build(&MobilityOptions{Slot: 1e-12})
	}))
	add(badarg.Probe{Func: "MobilityInstance"}.Panics("m = nil", "nil trace", func() { _, _ = MobilityInstance(nil, routers, 1, nil) }))
	p = badarg.Probe{Func: "Mobility.Validate", Err: inv}
	for _, c := range []struct {
		name, want string
		m          Mobility
	}{
		{"no users", "0 users", Mobility{}},
		{"ids out of order", "Mobility.Users[1] = 1", Mobility{Users: []int{2, 1}, Samples: [][]MobilitySample{{{}}, {{}}}}},
		{"time going back", "Mobility.Samples[0][1]", Mobility{Users: []int{0}, Samples: [][]MobilitySample{{{Time: 1}, {Time: 1}}}}},
		{"NaN position", "Mobility.Samples[0][0]", Mobility{Users: []int{0}, Samples: [][]MobilitySample{{{X: nan}}}}},
	} {
		add(p.Fails(c.name, c.want, c.m.Validate))
	}
	p = badarg.Probe{Func: "Mobility.At"}
	add(p.Panics("i out of range", "index out of range", func() { m.At(5, 0) }))
	return cs
}
