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
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Mul":     "reports a negative factor or an overflow in ok, as documented",
		"Product": "reports a negative factor or an overflow in ok, as documented",
	})
}
