package size

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
)

// TestValidate: Check refuses a negative count (ErrInvalid) and a count
// beyond the memory budget (ErrTooLarge), naming the quantity.
func TestValidate(t *testing.T) {
	p := badarg.Probe{Func: "Check", Err: loadlab.ErrInvalid, Text: "n = %v"}
	cs := p.Int("count", badarg.NonNegative, func(n int) error { return Check("pkg", "n", n, 8) })
	tl := badarg.Probe{Func: "Check", Err: loadlab.ErrTooLarge, Text: "n = "}
	cs = append(cs,
		tl.Fails("count·bytesPer > MaxBytes", "", func() error { return Check("pkg", "n", MaxBytes/8+1, 8) }),
		tl.Fails("count·bytesPer overflows", "", func() error { return Check("pkg", "n", math.MaxInt, 8) }),
	)
	cd := badarg.Probe{Func: "CheckDense", Err: loadlab.ErrInvalid, Text: "n = %v"}
	cs = append(cs, cd.Int("n", badarg.NonNegative, func(n int) error { return CheckDense("pkg", "f", n, 1) })...)
	cs = append(cs,
		badarg.Probe{Func: "CheckDense", Err: loadlab.ErrTooLarge}.Fails("n = 2^20 (8 TB)", "dense", func() error { return CheckDense("pkg", "f", 1<<20, 1) }),
		badarg.Probe{Func: "CheckDense", Err: loadlab.ErrTooLarge}.Fails("n² overflows", "overflows", func() error { return CheckDense("pkg", "f", 1<<40, 1) }),
	)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Mul":     "reports a negative factor or an overflow in ok, as documented",
		"Product": "reports a negative factor or an overflow in ok, as documented",
	})
}
