package competitive

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file pin the defects of issue 11 (docs/conventions.md
// §§1, 5, 7): each failed before its fix, with a wrapped integer, a
// panic, an out-of-memory crash or a silent wrong number.

// TestSizesOverflow: sizes whose products wrap or exceed memory are
// refused with ErrTooLarge before anything is allocated. Before the fix
// NewInstanceFlat(1<<62, 4, nil, 1) was accepted (T·k wrapped to 0) and
// OptimumCost then panicked; Trap and Cruel wrapped and ran out of
// memory or panicked in makeslice; Lookahead allocated Window·k floats.
func TestSizesOverflow(t *testing.T) {
	_, err := NewInstanceFlat(1<<62, 4, nil, 1)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "T·k = 4611686018427387904·4")
	for _, c := range []struct{ C, n int }{{1 << 40, 1 << 40}, {math.MaxInt, 1}, {1 << 31, 1 << 10}, {1, math.MaxInt / 2}} {
		_, err := Trap(c.C, c.n)
		assert.ErrorIs(t, err, loadlab.ErrTooLarge, "Trap(%d, %d)", c.C, c.n)
	}
	for _, c := range []struct{ k, T int }{{3, 1 << 62}, {1 << 40, 1 << 40}, {2, 1 << 40}} {
		_, _, err := Cruel(NewDTrack(RoundRobin), c.k, c.T, 1, 1)
		assert.ErrorIs(t, err, loadlab.ErrTooLarge, "Cruel(k = %d, T = %d)", c.k, c.T)
		_, err = CruelRatio(&WFA{}, c.k, c.T, 1, 1)
		assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	}
	for _, w := range []int{1 << 40, math.MaxInt} {
		err := (&Lookahead{Window: w}).Reset(4, 1)
		assert.ErrorIs(t, err, loadlab.ErrTooLarge, "Window = %d", w)
	}
	for _, alg := range []Online{NewDTrack(RoundRobin), NewCTrack(), &WFA{}, &Lookahead{}} {
		assert.ErrorIs(t, alg.Reset(1<<60, 1), loadlab.ErrTooLarge, "%T with k = 2⁶⁰", alg)
	}
	var o Optimal
	assert.ErrorIs(t, o.Reset(1<<60, 1, NoServer, true), loadlab.ErrTooLarge)
	require.NoError(t, o.Reset(3, 1, NoServer, true))
	assert.ErrorIs(t, o.Grow(1<<62), loadlab.ErrTooLarge)
	assert.ErrorIs(t, o.Grow(math.MaxInt), loadlab.ErrTooLarge)
	require.NoError(t, o.Grow(10))
	// NewInstance with rows that share storage: T·k values need not
	// exist, so the copy is checked too.
	row := make([]float64, 1<<20)
	rows := make([][]float64, 1<<21) // 2⁴¹ values, 16 TiB
	for i := range rows {
		rows[i] = row
	}
	_, err = NewInstance(rows, 1)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}

// TestCostOverflow: hold costs and C whose schedule costs overflow
// float64 are refused; before, they gave OPT = +Inf and ratios NaN.
func TestCostOverflow(t *testing.T) {
	big := math.MaxFloat64 / 1.5 // 2·big overflows
	_, err := NewInstance([][]float64{{big / 2, 1}, {big / 2, 1}}, 1)
	assert.NoError(t, err, "C·T + Σ max h = 2 + big is finite")
	// The rule is conservative: OPT = 3 + C is finite here, but a
	// schedule on server 0 costs +Inf, and so could an online one.
	_, err = NewInstance([][]float64{{big, 1}, {big, 1}}, 1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "overflows float64")
	in, err := NewInstance([][]float64{{1}, {1}}, 1)
	require.NoError(t, err)
	_, err = in.WithSetup(big)
	assert.ErrorContains(t, err, "overflows float64")
	_, _, err = Cruel(NewDTrack(RoundRobin), 2, 10, 1, big)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	var o Optimal
	require.NoError(t, o.Reset(1, 1, NoServer, false))
	require.NoError(t, o.Push([]float64{big}))
	assert.ErrorContains(t, o.Push([]float64{big}), "overflows float64")
	assert.Equal(t, big+1, o.Cost(), "the refused row changed nothing")
}

// TestPushValidates: Optimal.Push validates every row (contract §7).
// Before the fix rows {NaN, 1} then {1, −5} were used and gave Cost() =
// −3.
func TestPushValidates(t *testing.T) {
	for _, trace := range []bool{false, true} {
		var o Optimal
		require.NoError(t, o.Reset(2, 1, NoServer, trace))
		inf := math.Inf(1)
		bad := []struct {
			row []float64
			msg string
		}{
			{[]float64{math.NaN(), 1}, "row[0] = NaN at slot 0"},
			{[]float64{1, -5}, "row[1] = -5 at slot 0"},
			{[]float64{inf, 0}, "row[0] = +Inf at slot 0"},
			{[]float64{1}, "len(row) = 1 at slot 0, want k = 2"},
			{[]float64{1, 2, 3}, "len(row) = 3"},
		}
		for _, b := range bad {
			err := o.Push(b.row)
			assert.ErrorIs(t, err, loadlab.ErrInvalid)
			assert.ErrorContains(t, err, b.msg)
		}
		assert.Equal(t, 0, o.Slots(), "refused rows are not counted")
		require.NoError(t, o.Push([]float64{0, 5}))
		assert.ErrorContains(t, o.Push([]float64{-1, 0}), "row[0] = -1 at slot 1")
		require.NoError(t, o.Push([]float64{5, 0}))
		assert.Equal(t, 2.0, o.Cost(), "OPT of (0,5), (5,0) with C = 1: C on 0, then move")
		if trace {
			assert.Equal(t, []int{0, 1}, o.Schedule(nil))
		}
	}
	assert.PanicsWithValue(t, "competitive: Optimal.Push before Reset", func() { _ = new(Optimal).Push([]float64{1}) })
}

// TestStepValidates: every online algorithm's Step refuses a bad row
// with an error naming the index and value and leaves its state as it
// was, so that the rest of the run equals a run without the bad row.
func TestStepValidates(t *testing.T) {
	in := fixtureByName(t, "H")
	algs := map[string]func() Online{
		"DTrack-RR": func() Online { return NewDTrack(RoundRobin) },
		"DTrack-B":  func() Online { return NewDTrack(Backward) },
		"WFA":       func() Online { return &WFA{} },
		"Marking":   func() Online { return &Marking{Src: newRand(9)} },
		"Lookahead": func() Online { return &Lookahead{Window: 2, Forecaster: Oracle{in}} },
	}
	bad := [][]float64{{math.NaN(), 1, 1}, {1, -1, 1}, {1, 1, math.Inf(1)}, {1, 1}}
	for name, mk := range algs {
		want, err := Run(mk(), in)
		require.NoError(t, err, name)
		alg := mk()
		require.NoError(t, alg.Reset(in.Servers(), in.Setup()))
		for s := range in.Slots() {
			for _, b := range bad {
				_, err := alg.Step(b)
				require.ErrorIs(t, err, loadlab.ErrInvalid, "%s slot %d row %v", name, s, b)
			}
			assert.Equal(t, want[s], mustStep(t, alg, in.Row(s)), "%s slot %d", name, s)
		}
		assert.Panics(t, func() { _, _ = mk().Step(bad[0][:0]) }, "%s: Step before Reset", name)
		assert.Panics(t, func() { _, _ = mk().Step(bad[0]) }, "%s: Step before Reset", name)
		assert.Panics(t, func() { _, _ = NewCTrack().Step(nil) }, "CTrack.Step before Reset")
	}
	// CTrack reads, and so validates, only the values it needs: the
	// current server's in a stay slot, the scanned ones in a move.
	c := NewCTrack()
	require.NoError(t, c.Reset(3, 10))
	_, err := c.Step([]float64{1, math.NaN(), 2})
	assert.ErrorContains(t, err, "hold[1] = NaN", "first slot: the whole row")
	assert.Equal(t, 0, mustStep(t, c, []float64{1, 2, 3}))
	assert.Equal(t, 0, mustStep(t, c, []float64{1, -1, math.Inf(1)}), "stay slot: only hold[0] is read")
	_, err = c.Step([]float64{math.NaN(), 1, 1})
	assert.ErrorContains(t, err, "hold[0] = NaN")
	_, err = c.Step([]float64{20, math.Inf(1), 1})
	assert.ErrorContains(t, err, "hold[1] = +Inf", "the move scans server 1")
	_, err = c.Step([]float64{1, 2})
	assert.ErrorContains(t, err, "len(hold) = 2")
	assert.Equal(t, 2, mustStep(t, c, []float64{20, 11, 1}), "state unchanged by the refused rows: H = 2, scan skips 1")
	d := NewDTrack(RoundRobin)
	require.NoError(t, d.Reset(3, 1))
	_, err = d.Step([]float64{1, math.NaN(), 2})
	assert.EqualError(t, err, "competitive: DTrack.Step: hold[1] = NaN, want finite and ≥ 0: invalid argument")
}

// badForecast predicts a NaN cost, or more slots than asked for.
type badForecast struct{ tooMany bool }

func (b badForecast) Forecast(dst []float64, t, w int) (int, bool) {
	if b.tooMany {
		return w + 1, true
	}
	dst[0] = math.NaN()
	return 1, true
}

// TestLookaheadBadForecast: a forecaster's bad output is an error of
// Step, not a panic (before: panic for L > Window; a NaN was planned
// with).
func TestLookaheadBadForecast(t *testing.T) {
	in := fixtureByName(t, "A")
	for _, f := range []badForecast{{false}, {true}} {
		_, err := Run(&Lookahead{Window: 3, Forecaster: f}, in)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "%+v", f)
	}
	// Oracle after the end of its instance predicts nothing.
	dst := make([]float64, 4)
	L, ok := Oracle{in}.Forecast(dst, in.Slots()+3, 2)
	assert.Equal(t, 0, L)
	assert.True(t, ok)
	// An Oracle without an instance is a bad field: Lookahead.Reset
	// names it (it was a panic inside Step), and Forecast itself, which
	// has no error result, panics.
	err := (&Lookahead{Window: 2, Forecaster: Oracle{}}).Reset(2, 1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "Oracle.In")
	assert.Panics(t, func() { Oracle{}.Forecast(dst, 0, 2) })
}

// TestCruelRatioDegenerate: with C = 0, ε = 1, T = 1 both costs are 0,
// and the ratio is 1 by Ratio's convention (before: NaN). CruelBound
// stays finite when (T−1)ε overflows (before: NaN) and validates its
// arguments.
func TestCruelRatioDegenerate(t *testing.T) {
	for _, alg := range []Online{NewDTrack(RoundRobin), &WFA{}, NewCTrack()} {
		for _, k := range []int{1, 2, 3} {
			r, err := CruelRatio(alg, k, 1, 0, 1)
			require.NoError(t, err)
			assert.Equal(t, 1.0, r, "%T k = %d", alg, k)
			r, err = CruelRatio(alg, k, 5, 0, 0)
			require.NoError(t, err)
			assert.Equal(t, 1.0, r, "%T k = %d, C = ε = 0", alg, k)
		}
	}
	// C = 0, ε = 1, k = 1: every slot after the first costs 1 to
	// everybody, so ALG = OPT = T − 1.
	r, err := CruelRatio(&WFA{}, 1, 5, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, 1.0, r)
	b, err := CruelBound(3, 1, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, 1.0, b, "T = 1, C = 0: both 0")
	b, err = CruelBound(3, 11, 1, math.MaxFloat64/20)
	require.NoError(t, err)
	// k(C+x)/(kC+x) with x = 10·MaxFloat64/20: 3(1 + x)/(3 + x) = 3
	// to rounding.
	assert.InDelta(t, 3, b, 1e-12)
	b, err = CruelBound(3, 3000, 1, 1)
	require.NoError(t, err)
	assert.InDelta(t, 3*3000.0/3002, b, 1e-15, "k(C+(T−1)ε)/(kC+(T−1)ε) = 3·3000/3002")
	for _, c := range []struct {
		k, T   int
		C, eps float64
	}{{0, 2, 1, 1}, {2, 0, 1, 1}, {2, 2, math.NaN(), 1}, {2, 2, 1, -1}, {2, 2, 1, math.Inf(1)}} {
		_, err := CruelBound(c.k, c.T, c.C, c.eps)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "%+v", c)
	}
}

// TestPerformanceRatio: the conventions of Ratio, and bad costs refused.
func TestPerformanceRatio(t *testing.T) {
	for _, c := range [][3]float64{{6, 3, 2}, {0, 0, 1}, {1, 0, math.Inf(1)}} {
		r, err := PerformanceRatio(c[0], c[1])
		require.NoError(t, err)
		assert.Equal(t, c[2], r, "%v/%v", c[0], c[1])
	}
	for _, c := range [][2]float64{{math.NaN(), 1}, {1, -1}, {math.Inf(1), 1}, {1, math.NaN()}} {
		_, err := PerformanceRatio(c[0], c[1])
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "%v/%v", c[0], c[1])
	}
}

// TestErrorsNamed: every error of the package wraps a named error.
func TestErrorsNamed(t *testing.T) {
	_, err1 := NewInstance(nil, 1)
	_, err2 := NewInstance([][]float64{{1, 2}, {1}}, 1)
	_, err3 := Trap(0, 1)
	_, _, err4 := Cruel(&WFA{}, 2, 0, 1, 1)
	err5 := (&DTrack{Alpha: math.NaN()}).Reset(2, 1)
	err6 := (&CTrack{Alpha: -1}).Reset(2, 1)
	_, err7 := Run(&wild{}, fixtureByName(t, "A"))
	for i, err := range []error{err1, err2, err3, err4, err5, err6, err7} {
		assert.True(t, errors.Is(err, loadlab.ErrInvalid), "error %d: %v", i+1, err)
	}
	assert.ErrorContains(t, err5, "DTrack.Alpha = NaN")
	// The parameter structs validate on their own too (contract §3).
	assert.NoError(t, NewDTrack(Backward).Validate())
	assert.ErrorContains(t, (&DTrack{Alpha: 1, Beta: 2}).Validate(), "DTrack.Beta = 2")
	assert.ErrorContains(t, (&DTrack{Alpha: 1, Policy: 7}).Validate(), "DTrack.Policy = 7")
	assert.NoError(t, NewCTrack().Validate())
	assert.ErrorContains(t, (&CTrack{Alpha: math.Inf(1)}).Validate(), "CTrack.Alpha = +Inf")
	assert.NoError(t, (&Lookahead{Window: 3}).Validate())
	assert.ErrorContains(t, (&Lookahead{Window: -1}).Validate(), "Lookahead.Window = -1")
	assert.ErrorContains(t, err6, "CTrack.Alpha = -1")
}

// TestPushNegativeZero: −0 is a valid hold cost (−0 ≥ 0), also next to
// positive values, where the fast bit-pattern check defers to the exact
// one and the overflow check must still see the largest value.
func TestPushNegativeZero(t *testing.T) {
	negz := math.Copysign(0, -1)
	var o Optimal
	require.NoError(t, o.Reset(2, 1, NoServer, true))
	require.NoError(t, o.Push([]float64{negz, 3}))
	require.NoError(t, o.Push([]float64{3, negz}))
	assert.Equal(t, 2.0, o.Cost())
	big := math.MaxFloat64 / 1.5
	require.NoError(t, o.Reset(2, 1, NoServer, false))
	require.NoError(t, o.Push([]float64{big, big}))
	assert.ErrorContains(t, o.Push([]float64{negz, big}), "overflows float64", "M + C + max h with a −0 in the row")
	assert.Equal(t, big+1, o.Cost())
}

// TestFieldsChangedAfterReset: the exported parameters are read at
// Reset; changing them mid-run takes effect at the next Reset instead of
// corrupting the run (before: a larger Lookahead.Window sliced past the
// forecast buffer and panicked, a NaN DTrack.Alpha silently disabled the
// trigger).
func TestFieldsChangedAfterReset(t *testing.T) {
	in := fixtureByName(t, "C")
	la := &Lookahead{Window: 1, Forecaster: Oracle{in}}
	want, err := Run(&Lookahead{Window: 1, Forecaster: Oracle{in}}, in)
	require.NoError(t, err)
	require.NoError(t, la.Reset(in.Servers(), in.Setup()))
	la.Window = 1000
	for s := range in.Slots() {
		assert.Equal(t, want[s], mustStep(t, la, in.Row(s)))
	}
	d := NewDTrack(RoundRobin)
	want, err = Run(NewDTrack(RoundRobin), in)
	require.NoError(t, err)
	require.NoError(t, d.Reset(in.Servers(), in.Setup()))
	d.Alpha, d.Policy, d.Beta = math.NaN(), Policy(9), math.NaN()
	for s := range in.Slots() {
		assert.Equal(t, want[s], mustStep(t, d, in.Row(s)))
	}
	assert.Error(t, d.Reset(in.Servers(), in.Setup()), "the next Reset sees the change")
	c := NewCTrack()
	want, err = Run(NewCTrack(), in)
	require.NoError(t, err)
	require.NoError(t, c.Reset(in.Servers(), in.Setup()))
	c.Alpha, c.Cyclic = -1, true
	for s := range in.Slots() {
		assert.Equal(t, want[s], mustStep(t, c, in.Row(s)))
	}
}

// TestStepBeforeReset: the documented panic names the misuse.
func TestStepBeforeReset(t *testing.T) {
	for name, alg := range map[string]Online{"DTrack": NewDTrack(RoundRobin), "WFA": &WFA{}, "CTrack": NewCTrack(), "Marking": &Marking{Src: newRand(1)}, "Lookahead": &Lookahead{}} {
		for _, row := range [][]float64{nil, {1, 2}} {
			assert.PanicsWithValue(t, "competitive: "+name+".Step before Reset", func() { _, _ = alg.Step(row) }, "%s row %v", name, row)
		}
	}
}
