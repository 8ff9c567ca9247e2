package badarg

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Domain is the set of values a parameter accepts; its complement in the
// standard bad values is what the generators try.
type Domain int

const (
	// Finite accepts every finite value: NaN, +Inf and −Inf are bad.
	Finite Domain = iota
	// NonNegative accepts finite x ≥ 0: −1 is bad too.
	NonNegative
	// Positive accepts finite x > 0: −1 and 0 are bad too.
	Positive
	// Unit accepts x in [0, 1]: −0.5 and 1.5 are bad too.
	Unit
)

// Floats returns the standard bad float64 values outside d.
func (d Domain) Floats() []float64 {
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	switch d {
	case NonNegative:
		bad = append(bad, -1)
	case Positive:
		bad = append(bad, -1, 0)
	case Unit:
		bad = append(bad, -0.5, 1.5)
	}
	return bad
}

// Ints returns the standard bad int values outside d (none for Finite).
func (d Domain) Ints() []int {
	switch d {
	case NonNegative:
		return []int{-1}
	case Positive:
		return []int{-1, 0}
	case Unit:
		return []int{-1, 2}
	}
	return nil
}

// Probe builds the cases of one entry point. Its generators expect the
// documented error Err, with a text naming the input ("x[1] = NaN"), or,
// when Panic is set, a panic. Text, when set, replaces the generated
// text (for an error message that names the input otherwise, such as
// "torus Order = %v"); a %v in it stands for the bad value (or length).
// A panic expects Text alone.
type Probe struct {
	Func  string // the entry point, as Case.Func
	Err   error  // the documented error of a bad input
	Panic bool   // a bad input is documented to panic
	Text  string // the fragment every generated case expects instead
}

// gen is the generated case named label for the bad value v, expecting
// label (or p.Text) in the error.
func (p Probe) gen(label string, v any, call func() error) Case {
	c := Case{Func: p.Func, Name: label, Call: call, Err: p.Err, Panic: p.Panic, Text: label}
	switch {
	case strings.Contains(p.Text, "%v"):
		c.Text = fmt.Sprintf(p.Text, v)
	case p.Text != "" || p.Panic:
		c.Text = p.Text
	}
	return c
}

// Fails is one case by hand: call must return an error wrapping p.Err
// whose message contains text.
func (p Probe) Fails(name, text string, call func() error) Case {
	return Case{Func: p.Func, Name: name, Call: call, Err: p.Err, Text: text}
}

// Panics is one case by hand: call must panic with a value containing
// text.
func (p Probe) Panics(name, text string, call func()) Case {
	return Case{Func: p.Func, Name: name, Call: func() error { call(); return nil }, Panic: true, Text: text}
}

// Scalar probes a float64 parameter with each bad value of d; the error
// must name it: "name = NaN".
func (p Probe) Scalar(name string, d Domain, call func(x float64) error) []Case {
	var cs []Case
	for _, x := range d.Floats() {
		cs = append(cs, p.gen(fmt.Sprintf("%s = %v", name, x), x, func() error { return call(x) }))
	}
	return cs
}

// Int probes an int parameter with each bad value of d; the error must
// name it: "name = -1".
func (p Probe) Int(name string, d Domain, call func(n int) error) []Case {
	var cs []Case
	for _, n := range d.Ints() {
		cs = append(cs, p.gen(fmt.Sprintf("%s = %d", name, n), n, func() error { return call(n) }))
	}
	return cs
}

// Entries probes a []float64 parameter: a copy of good with entry at set
// to each bad value of d; the error must name it: "name[at] = NaN".
func (p Probe) Entries(name string, good []float64, at int, d Domain, call func(x []float64) error) []Case {
	var cs []Case
	for _, v := range d.Floats() {
		x := slices.Clone(good)
		x[at] = v
		cs = append(cs, p.gen(fmt.Sprintf("%s[%d] = %v", name, at, v), v, func() error { return call(x) }))
	}
	return cs
}

// Lengths probes a []float64 parameter whose length must be len(good):
// nil, one entry short and one entry long; the error must name the
// length: "len(name) = 0".
func (p Probe) Lengths(name string, good []float64, call func(x []float64) error) []Case {
	pad := 0.0
	if len(good) > 0 {
		pad = good[len(good)-1]
	}
	cs := []Case{p.gen(fmt.Sprintf("len(%s) = 0", name), 0, func() error { return call(nil) })}
	cs[0].Name = name + " = nil"
	if len(good) > 1 {
		short := slices.Clone(good[:len(good)-1])
		cs = append(cs, p.gen(fmt.Sprintf("len(%s) = %d", name, len(short)), len(short), func() error { return call(short) }))
	}
	long := append(slices.Clone(good), pad)
	return append(cs, p.gen(fmt.Sprintf("len(%s) = %d", name, len(long)), len(long), func() error { return call(long) }))
}

// Slice is Entries and Lengths together.
func (p Probe) Slice(name string, good []float64, at int, d Domain, call func(x []float64) error) []Case {
	return append(p.Entries(name, good, at, d, call), p.Lengths(name, good, call)...)
}

// Fields probes fields of a settings struct S: for each named field (of
// kind float64 or int), a copy of base with that field set to each bad
// value of d; the error must name it: "S.Field = NaN". It panics if S is
// not a struct or a field is missing or of another kind.
func Fields[S any](p Probe, base S, d Domain, call func(s *S) error, fields ...string) []Case {
	typ := reflect.TypeOf(base)
	if typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("badarg: Fields of %v, want a struct", typ))
	}
	var cs []Case
	for _, name := range fields {
		f, ok := typ.FieldByName(name)
		if !ok {
			panic(fmt.Sprintf("badarg: %s has no field %s", typ.Name(), name))
		}
		var vals []any
		switch f.Type.Kind() {
		case reflect.Float64:
			for _, x := range d.Floats() {
				vals = append(vals, x)
			}
		case reflect.Int:
			for _, n := range d.Ints() {
				vals = append(vals, n)
			}
		default:
			panic(fmt.Sprintf("badarg: %s.%s is a %v, want float64 or int", typ.Name(), name, f.Type))
		}
		for _, v := range vals {
			s := base
			reflect.ValueOf(&s).Elem().FieldByIndex(f.Index).Set(reflect.ValueOf(v).Convert(f.Type))
			cs = append(cs, p.gen(fmt.Sprintf("%s.%s = %v", typ.Name(), name, v), v, func() error { return call(&s) }))
		}
	}
	return cs
}
