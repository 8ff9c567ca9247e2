package solve

import (
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
)

// TestValidate: a field of Armijo outside its domain is a programmer
// error, a documented panic of Search.
func TestValidate(t *testing.T) {
	trial := func(x float64) (float64, float64, bool) { return 1 - x, x, true }
	var cs []badarg.Case
	for _, a := range []Armijo{
		{C: -1}, {C: 1}, {C: math.NaN()},
		{Shrink: 1}, {Shrink: -0.5}, {Shrink: math.NaN()},
		{Init: -1}, {Init: math.Inf(1)}, {Init: math.NaN()},
		{MaxTrial: -1},
	} {
		cs = append(cs, badarg.Probe{Func: "Armijo.Search"}.Panics(fmt.Sprintf("%+v", a), "", func() { a.Search(1, trial) }))
	}
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Record.Stop": "any status: the first one recorded is kept",
		"Record.Err":  "a package name and a format: any text",
	})
}
