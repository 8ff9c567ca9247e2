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
	f := func(x float64) float64 { return x * x }
	for _, c := range [][3]float64{{1, 0, 1e-3}, {0, 1, -1}, {0, math.Inf(1), 1}, {math.NaN(), 1, 1}, {0, 1, math.NaN()}} {
		cs = append(cs, badarg.Probe{Func: "Golden"}.Panics(fmt.Sprintf("%v", c), "solve: Golden", func() { Golden(f, c[0], c[1], c[2]) }))
	}
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Record.Stop": "any status: the first one recorded is kept",
		"Record.Err":  "a package name and a format: any text",
	})
}
