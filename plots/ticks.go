package plots

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab"
	"gonum.org/v1/plot"
)

// TickKind says where a Ticker puts its ticks.
type TickKind int

const (
	// Linear ticks are evenly spaced at a step of 1, 2 or 5 × 10ᵏ,
	// about five of them labelled. New puts them on both axes.
	Linear TickKind = iota
	// Log chooses for a log axis by the span of the data: Decades over
	// more than two decades, OneTwoFive over less, every integer
	// multiple of a power of ten where that gives fewer than two labels,
	// and Linear ticks when even that does. LogX and LogY put it on the
	// axis.
	Log
	// Decades labels the powers of ten (every second or third one when
	// the axis spans more than seven decades), with unlabelled minor
	// ticks at the integer multiples in between.
	Decades
	// OneTwoFive labels 1, 2 and 5 × 10ᵏ, with unlabelled minor ticks
	// at the other integer multiples.
	OneTwoFive
	// PowersOfTwo labels 2ᵏ (every second one when there are more than
	// eight), for axes of sizes that double.
	PowersOfTwo
)

// Ticker is a plot.Ticker whose every label is the exact value of its
// tick: a label parses (ParseTickLabel) to the float64 the tick stands
// at. gonum's default ticker rounds its labels ("1.1" on a tick at 1.08);
// this one puts the ticks where round labels are. All labels of an axis
// share one format: plain decimals while every labelled value lies in
// [10⁻⁴, 10⁶), otherwise powers of ten written as m×10ᵉ.
type Ticker struct {
	Kind TickKind
}

// Ticks implements plot.Ticker. A range that is not finite or has
// min > max has no ticks. It panics if Kind is not a TickKind constant.
func (t Ticker) Ticks(min, max float64) []plot.Tick {
	if !(min <= max) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	var ds []decTick
	switch t.Kind {
	case Linear:
		ds = linearTicks(min, max)
	case Log:
		ds = autoLogTicks(min, max)
	case Decades:
		ds = logTicks(min, max, decadeLabels)
	case OneTwoFive:
		ds = logTicks(min, max, oneTwoFiveLabels)
	case PowersOfTwo:
		ds = powerOfTwoTicks(min, max)
	default:
		panic(fmt.Sprintf("plots: unknown TickKind %d", t.Kind))
	}
	return formatTicks(ds)
}

// decTick is a tick at the decimal m × 10^e, labelled or minor.
type decTick struct {
	m       int64
	e       int
	labeled bool
}

func (d decTick) value() float64 {
	v, err := strconv.ParseFloat(strconv.FormatInt(d.m, 10)+"e"+strconv.Itoa(d.e), 64)
	if err != nil {
		panic(err) // an integer and an exponent always parse
	}
	return v
}

// linearTicks returns ticks at every multiple of the 1-2-5 step that
// gives four to ten ticks over [min, max].
func linearTicks(min, max float64) []decTick {
	span := max - min
	if span == 0 {
		span = math.Max(math.Abs(min), 1)
	}
	e := int(math.Floor(math.Log10(span / 5)))
	var s int64 = 1
	for _, c := range []int64{1, 2, 5, 10} {
		s = c
		if span/(float64(c)*math.Pow(10, float64(e))) <= 7.5 {
			break
		}
	}
	if s == 10 {
		s, e = 1, e+1
	}
	step := float64(s) * math.Pow(10, float64(e))
	// Forgive rounding of an end that lies on a tick, relative to its size.
	a, b := min/step, max/step
	lo, hi := int64(math.Ceil(a-1e-9*math.Abs(a))), int64(math.Floor(b+1e-9*math.Abs(b)))
	var ds []decTick
	for k := lo; k <= hi; k++ {
		ds = append(ds, decTick{m: k * s, e: e, labeled: true})
	}
	return ds
}

// decadeLabels and oneTwoFiveLabels say which mantissas 1–9 a log
// ticker labels.
func decadeLabels(m int64) bool     { return m == 1 }
func oneTwoFiveLabels(m int64) bool { return m == 1 || m == 2 || m == 5 }
func everyLabel(int64) bool         { return true }

// logTicks returns ticks at m × 10^e for m = 1…9 within [min, max],
// labelled where label(m) holds; over more than seven decades only the
// decades are ticked, every step-th labelled.
func logTicks(lo, hi float64, label func(int64) bool) []decTick {
	if lo <= 0 {
		return nil
	}
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	step := max(1, (e1-e0+6)/7)
	var ds []decTick
	for e := e0; e <= e1; e++ {
		for m := int64(1); m <= 9; m++ {
			d := decTick{m: m, e: e, labeled: label(m)}
			if step > 1 && m > 1 {
				break
			}
			if step > 1 {
				d.labeled = (e-e0)%step == 0
			}
			if v := d.value(); v >= lo*(1-1e-12) && v <= hi*(1+1e-12) {
				ds = append(ds, d)
			}
		}
	}
	return ds
}

// autoLogTicks implements the Log kind.
func autoLogTicks(min, max float64) []decTick {
	if min <= 0 {
		return linearTicks(min, max)
	}
	span := math.Log10(max / min)
	var ds []decTick
	switch {
	case span > 2:
		ds = logTicks(min, max, decadeLabels)
	default:
		// 1, 2 and 5 × 10ᵏ; every integer multiple only when that
		// gives fewer than two labels, as their labels crowd a narrow
		// panel (600700800900 between 500 and 1000).
		if ds = logTicks(min, max, oneTwoFiveLabels); countLabels(ds) < 2 {
			ds = logTicks(min, max, everyLabel)
		}
	}
	if countLabels(ds) < 2 {
		return linearTicks(min, max)
	}
	return ds
}

func countLabels(ds []decTick) int {
	n := 0
	for _, d := range ds {
		if d.labeled {
			n++
		}
	}
	return n
}

// powerOfTwoTicks returns ticks at 2ᵏ within [min, max].
func powerOfTwoTicks(min, max float64) []decTick {
	var ds []decTick
	for k := 0; k < 62; k++ {
		v := int64(1) << k
		if float64(v) < min*(1-1e-12) {
			continue
		}
		if float64(v) > max*(1+1e-12) {
			break
		}
		ds = append(ds, decTick{m: v, labeled: true})
	}
	if len(ds) > 8 {
		for i := range ds {
			ds[i].labeled = i%2 == 0
		}
	}
	return ds
}

// formatTicks labels the ticks in one format for the whole axis.
func formatTicks(ds []decTick) []plot.Tick {
	plain := true
	for _, d := range ds {
		if v := math.Abs(d.value()); d.labeled && v != 0 && (v < 1e-4 || v >= 1e6) {
			plain = false
		}
	}
	ts := make([]plot.Tick, len(ds))
	for i, d := range ds {
		v := d.value()
		ts[i].Value = v
		if d.labeled {
			ts[i].Label = formatTick(v, plain)
		}
	}
	return ts
}

// formatTick writes v as a plain decimal or as m×10^{e} (rich text, see
// Text), with the typographic minus sign.
func formatTick(v float64, plain bool) string {
	var s string
	if plain || v == 0 {
		s = strconv.FormatFloat(v, 'f', -1, 64)
	} else {
		f := strconv.FormatFloat(v, 'e', -1, 64) // "-2.5e+06"
		mant, exp, _ := strings.Cut(f, "e")
		n, err := strconv.Atoi(exp)
		if err != nil {
			panic(err) // strconv writes a valid exponent
		}
		s = "10^{" + strconv.Itoa(n) + "}"
		switch mant {
		case "1":
		case "-1":
			s = "-" + s
		default:
			s = mant + "×" + s
		}
	}
	return strings.ReplaceAll(s, "-", "−")
}

// ParseTickLabel returns the number a tick label written by Ticker
// stands for: a plain decimal ("0.25", "−3") or a power of ten in the
// rich-text form "10^{−6}" or "2.5×10^{6}". Tests use it to check that
// every label of a figure equals its tick's value. It returns an error
// wrapping loadlab.ErrInvalid, naming the label, for any other text.
func ParseTickLabel(label string) (float64, error) {
	s := strings.ReplaceAll(strings.TrimSpace(label), "−", "-")
	mant, pow, sci := strings.Cut(s, "10^{")
	if !sci {
		return parseTick(label, s)
	}
	exp, ok := strings.CutSuffix(pow, "}")
	if !ok {
		return 0, loadlab.Invalid("plots", "tick label %q: unclosed exponent", label)
	}
	switch mant {
	case "":
		mant = "1"
	case "-":
		mant = "-1"
	default:
		var found bool
		if mant, found = strings.CutSuffix(mant, "×"); !found {
			return 0, loadlab.Invalid("plots", "tick label %q: expected m×10^{e}", label)
		}
	}
	return parseTick(label, mant+"e"+exp)
}

// parseTick parses s, the number of the tick label label.
func parseTick(label, s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, loadlab.Invalid("plots", "tick label %q: not a number", label)
	}
	return v, nil
}

// XTicks and YTicks put a Ticker of the given kind on an axis. They
// must follow LogX or LogY in New's options, which set the Log kind.
// They panic if k is not one of the TickKind constants.
func XTicks(k TickKind) Option {
	checkKind("XTicks", k)
	return func(p *plot.Plot) { p.X.Tick.Marker = Ticker{Kind: k} }
}

// YTicks: see XTicks.
func YTicks(k TickKind) Option {
	checkKind("YTicks", k)
	return func(p *plot.Plot) { p.Y.Tick.Marker = Ticker{Kind: k} }
}

// checkKind panics, naming fn, if k is not a TickKind constant.
func checkKind(fn string, k TickKind) {
	if k < Linear || k > PowersOfTwo {
		panic(fmt.Sprintf("plots: %s: unknown TickKind %d", fn, k))
	}
}

// Categories labels the positions 0, 1, … of a categorical axis (grouped
// bars) with names. Its labels are names, not values; CheckTickLabels
// skips axes that carry it.
type Categories []string

// Ticks implements plot.Ticker.
func (c Categories) Ticks(min, max float64) []plot.Tick {
	ts := make([]plot.Tick, len(c))
	for i, name := range c {
		ts[i] = plot.Tick{Value: float64(i), Label: name}
	}
	return ts
}

// NominalX labels the x positions 0, 1, … of p with names (as
// plot.NominalX does, but with a Categories ticker). It panics if p is
// nil.
func NominalX(p *plot.Plot, names ...string) {
	mustPlot("NominalX", p)
	p.NominalX(names...)
	p.X.Tick.Marker = Categories(names)
}

// CheckTickLabels checks that every tick label of every plot drawn by d
// is the exact value of its tick, and reports the first that is not.
// Call it after drawing (Save), when the axis ranges are final.
// Categorical axes (Categories) are skipped; hidden axes have no labels.
func CheckTickLabels(d Drawer) error {
	for i, p := range PlotsOf(d) {
		for _, ax := range []struct {
			name string
			a    *plot.Axis
		}{{"x", &p.X}, {"y", &p.Y}} {
			if err := checkAxis(ax.a); err != nil {
				return fmt.Errorf("plot %d (%q), %s axis: %w", i, p.Title.Text, ax.name, err)
			}
		}
	}
	return nil
}

func checkAxis(a *plot.Axis) error {
	if _, cat := a.Tick.Marker.(Categories); cat || a.Tick.Marker == nil {
		return nil
	}
	for _, t := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if t.Label == "" {
			continue
		}
		v, err := ParseTickLabel(t.Label)
		if err != nil {
			return err
		}
		// Labels carry the shortest decimal of the value, so the parsed
		// label is the value itself; 1e-12 only forgives a ticker that
		// rounds at twelve significant digits.
		if math.Abs(v-t.Value) > 1e-12*math.Max(math.Abs(t.Value), 1e-300) {
			return fmt.Errorf("tick at %v labelled %q", t.Value, t.Label)
		}
	}
	return nil
}
