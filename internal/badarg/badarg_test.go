package badarg

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errBad = errors.New("invalid argument")

// positive follows the contract: an error naming x and its value.
func positive(x float64) error {
	if !(x > 0) || math.IsInf(x, 1) {
		return fmt.Errorf("pkg: x = %v, want > 0: %w", x, errBad)
	}
	return nil
}

// TestCheckOutcomes: Check accepts exactly the documented outcome and
// says how every other one differs.
func TestCheckOutcomes(t *testing.T) {
	other := errors.New("other")
	for _, tc := range []struct {
		name string
		c    Case
		want string // "" when the outcome agrees, else a fragment of Check's report
	}{
		{"documented error", Case{Call: func() error { return positive(-1) }, Err: errBad, Text: "x = -1"}, ""},
		{"error without text", Case{Call: func() error { return positive(-1) }, Err: errBad}, ""},
		{"silent success", Case{Call: func() error { return positive(1) }, Err: errBad}, "silent success"},
		{"another error", Case{Call: func() error { return other }, Err: errBad}, "does not wrap"},
		{"value not named", Case{Call: func() error { return positive(-1) }, Err: errBad, Text: "x = -2"}, "does not contain"},
		{"undocumented panic", Case{Call: func() error { panic("boom") }, Err: errBad}, "undocumented panic: boom"},
		{"panic(nil)", Case{Call: func() error { panic(nil) }, Err: errBad}, "undocumented panic"},
		{"documented panic", Case{Call: func() error { panic("pkg: F: nw is nil") }, Panic: true, Text: "nw is nil"}, ""},
		{"panic with an error value", Case{Call: func() error { panic(other) }, Panic: true, Text: "other"}, ""},
		{"panic naming another argument", Case{Call: func() error { panic("pkg: F: src is nil") }, Panic: true, Text: "nw"}, "does not contain"},
		{"error where a panic is documented", Case{Call: func() error { return positive(-1) }, Panic: true}, "no panic"},
		{"success where a panic is documented", Case{Call: func() error { return nil }, Panic: true}, "no panic"},
		{"no expectation", Case{Call: func() error { return positive(-1) }}, "neither an error nor a panic"},
	} {
		err := tc.c.Check()
		if tc.want == "" {
			assert.NoError(t, err, tc.name)
			continue
		}
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
}

// recorder counts calls and fails as Run's t would.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestRun: Run reports each failing case once, naming its entry point
// and input, and nothing for agreeing cases.
func TestRun(t *testing.T) {
	p := Probe{Func: "F", Err: errBad}
	accepting := func(float64) error { return nil }
	var r recorder
	Run(&r, append(p.Scalar("x", Positive, positive), Probe{Func: "G", Err: errBad}.Scalar("x", Finite, accepting)...))
	require.Len(t, r.errs, 3)
	for i, v := range []string{"NaN", "+Inf", "-Inf"} {
		assert.Contains(t, r.errs[i], "G, x = "+v+": silent success")
	}
}

// TestScalarAndInt: the values outside each domain, the names and the
// expected text.
func TestScalarAndInt(t *testing.T) {
	p := Probe{Func: "F", Err: errBad}
	for _, tc := range []struct {
		d     Domain
		names []string
		ints  []int
	}{
		{Finite, []string{"x = NaN", "x = +Inf", "x = -Inf"}, nil},
		{NonNegative, []string{"x = NaN", "x = +Inf", "x = -Inf", "x = -1"}, []int{-1}},
		{Positive, []string{"x = NaN", "x = +Inf", "x = -Inf", "x = -1", "x = 0"}, []int{-1, 0}},
		{Unit, []string{"x = NaN", "x = +Inf", "x = -Inf", "x = -0.5", "x = 1.5"}, []int{-1, 2}},
	} {
		var got []float64
		cs := p.Scalar("x", tc.d, func(x float64) error { got = append(got, x); return positive(x) })
		var names []string
		for _, c := range cs {
			names = append(names, c.Name)
			assert.Equal(t, c.Name, c.Text)
			assert.Equal(t, "F", c.Func)
			_ = c.Check()
		}
		assert.Equal(t, tc.names, names)
		require.Len(t, got, len(tc.names))
		assert.True(t, math.IsNaN(got[0]))
		var ints []int
		for _, c := range p.Int("n", tc.d, func(n int) error { ints = append(ints, n); return nil }) {
			assert.True(t, strings.HasPrefix(c.Name, "n = "))
			assert.ErrorContains(t, c.Check(), "silent success")
		}
		assert.Equal(t, tc.ints, ints)
	}
}

// TestProbeTextAndPanic: Probe.Text replaces the generated text, and
// Probe.Panic makes every generated case expect a panic containing it.
func TestProbeTextAndPanic(t *testing.T) {
	named := Probe{Func: "NewLaw", Err: errBad, Text: "Law.Sensitivity"}
	for _, c := range named.Scalar("beta", Positive, func(float64) error { return errors.New("x") }) {
		assert.Equal(t, "Law.Sensitivity", c.Text)
		assert.True(t, strings.HasPrefix(c.Name, "beta = "))
	}
	// A %v in Text stands for the bad value.
	for _, c := range (Probe{Func: "NewTorus", Err: errBad, Text: "torus Order = %v"}).Int("n", Positive, func(int) error { return nil }) {
		assert.Contains(t, []string{"torus Order = -1", "torus Order = 0"}, c.Text)
	}
	p := Probe{Func: "Law.Rate", Panic: true}
	lengthPanic := func(x []float64) error {
		if len(x) != 2 {
			panic(fmt.Sprintf("pkg: Rate: len(x) = %d, want 2", len(x)))
		}
		return nil
	}
	cs := p.Lengths("x", []float64{1, 2}, lengthPanic)
	require.Len(t, cs, 3)
	var r recorder
	Run(&r, cs)
	assert.Empty(t, r.errs)
	for _, c := range cs {
		assert.True(t, c.Panic)
		assert.Empty(t, c.Text)
	}
	// A length that is accepted where a panic is documented fails.
	Run(&r, p.Lengths("x", []float64{1}, lengthPanic))
	assert.Len(t, r.errs, 1)
	assert.Contains(t, r.errs[0], "no panic")
}

// TestSlices: Entries changes one entry of a copy, Lengths tries nil,
// one short and one long; good itself is never changed.
func TestSlices(t *testing.T) {
	p := Probe{Func: "F", Err: errBad}
	good := []float64{1, 2, 3}
	var got [][]float64
	record := func(x []float64) error { got = append(got, x); return nil }
	cs := p.Slice("x", good, 1, NonNegative, record)
	for _, c := range cs {
		_ = c.Check()
	}
	assert.Equal(t, []float64{1, 2, 3}, good)
	require.Len(t, got, 7)
	assert.True(t, math.IsNaN(got[0][1]))
	assert.Equal(t, []float64{1, -1, 3}, got[3])
	assert.Nil(t, got[4])
	assert.Equal(t, []float64{1, 2}, got[5])
	assert.Equal(t, []float64{1, 2, 3, 3}, got[6])
	var texts []string
	for _, c := range cs {
		texts = append(texts, c.Text)
	}
	assert.Equal(t, []string{"x[1] = NaN", "x[1] = +Inf", "x[1] = -Inf", "x[1] = -1", "len(x) = 0", "len(x) = 2", "len(x) = 4"}, texts)
	// A one-entry slice: nil is the only shorter length.
	one := p.Lengths("y", []float64{5}, record)
	assert.Len(t, one, 2)
	assert.Equal(t, "len(y) = 2", one[1].Text)
}

type settings struct {
	Step  float64
	Iters int
	Name  string
}

// validate follows the contract for settings.
func (s *settings) validate() error {
	if !(s.Step >= 0) || math.IsInf(s.Step, 0) {
		return fmt.Errorf("pkg: settings.Step = %v: %w", s.Step, errBad)
	}
	if s.Iters < 0 {
		return fmt.Errorf("pkg: settings.Iters = %d: %w", s.Iters, errBad)
	}
	return nil
}

// TestFields: each named field set to each bad value of its kind, on a
// copy of base, with the error naming Type.Field.
func TestFields(t *testing.T) {
	p := Probe{Func: "settings.Validate", Err: errBad}
	base := settings{Step: 0.5, Iters: 3, Name: "a"}
	var seen []settings
	cs := Fields(p, base, NonNegative, func(s *settings) error { seen = append(seen, *s); return s.validate() }, "Step", "Iters")
	var r recorder
	Run(&r, cs)
	assert.Empty(t, r.errs)
	var texts []string
	for _, c := range cs {
		texts = append(texts, c.Text)
	}
	assert.Equal(t, []string{"settings.Step = NaN", "settings.Step = +Inf", "settings.Step = -Inf", "settings.Step = -1", "settings.Iters = -1"}, texts)
	assert.Equal(t, settings{Step: 0.5, Iters: -1, Name: "a"}, seen[4])
	assert.Equal(t, settings{Step: 0.5, Iters: 3, Name: "a"}, base)
	// A validation that forgets Iters is caught.
	cs = Fields(p, base, NonNegative, func(s *settings) error { s.Iters = 0; return s.validate() }, "Iters")
	r = recorder{}
	Run(&r, cs)
	assert.Len(t, r.errs, 1)
	assert.Panics(t, func() { Fields(p, base, Finite, nil, "Missing") })
	assert.Panics(t, func() { Fields(p, base, Finite, nil, "Name") })
	assert.Panics(t, func() { Fields(p, 1.0, Finite, nil, "Step") })
}

// TestEntryPoints reads the fixture package: exported functions and
// methods of exported types, outside test files; accessors without an
// argument or an error result need no probe.
func TestEntryPoints(t *testing.T) {
	eps, err := EntryPoints("testdata/sample")
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{
		"Settings.Validate": true,
		"Scale":             true,
		"Count":             false,
		"Load":              true,
		"Box.Put":           true,
		"Box.Len":           false,
		"Err.Error":         false,
		"Err.Unwrap":        false,
	}, eps)
	_, err = EntryPoints("testdata/missing")
	assert.Error(t, err)
}

// TestUncovered: every entry point that needs a probe has one or an
// exemption with a reason; stale names are reported too.
func TestUncovered(t *testing.T) {
	cases := []Case{{Func: "Scale"}, {Func: "Settings.Validate"}, {Func: "Count"}}
	out, err := Uncovered("testdata/sample", cases, map[string]string{"Load": "reads nothing", "Box.Put": "any value is valid"})
	require.NoError(t, err)
	assert.Empty(t, out)
	out, err = Uncovered("testdata/sample", append(cases[:1], Case{Func: "Gone"}), map[string]string{"Load": " ", "Scale": "x", "Old": "y"})
	require.NoError(t, err)
	want := []string{
		"Box.Put: not probed and not exempt",
		"Gone: probed but not an exported entry point",
		"Load: exempt without a reason",
		"Old: exempt but not an exported entry point",
		"Scale: both probed and exempt",
		"Settings.Validate: not probed and not exempt",
	}
	assert.Equal(t, want, out)
	assert.True(t, slices.IsSorted(out))
}
