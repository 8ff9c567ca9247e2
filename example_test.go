package loadlab_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// Run r of a Monte Carlo study draws from its own stream, so the same
// seed path gives the same draws in any process and on any goroutine.
func ExampleStream() {
	a := rand.New(loadlab.Stream(42, 3))
	b := rand.New(loadlab.Stream(42, 3))
	c := rand.New(loadlab.Stream(42, 4))
	x, y, z := a.Float64(), b.Float64(), c.Float64()
	fmt.Println(x == y, x == z)
	// Output: true false
}

// A precision asks an estimate for a 95 % half-width instead of a run
// count; Met is the half-width half of the stopping rule.
func ExamplePrecision() {
	p := loadlab.Precision{Rel: 0.01} // ±1 % of the mean
	narrow := loadlab.Estimate{Mean: 10, Lo: 9.95, Hi: 10.05, N: 200}
	wide := loadlab.Estimate{Mean: 10, Lo: 9.5, Hi: 10.5, N: 20}
	fmt.Println(p.Met(narrow), p.Met(wide), p.Cap())
	fmt.Println(loadlab.Precision{Rel: -1}.Validate())
	// Output:
	// true false 10000
	// loadlab: Precision.Rel = -1, want finite and ≥ 0 (0: no relative target): invalid argument
}

// Every error of the module wraps one of the named errors of this
// package, so a caller tests the kind with errors.Is.
func ExampleInvalid() {
	err := loadlab.Invalid("mypkg", "Settings.Tol = %g, want > 0", -1.0)
	fmt.Println(err)
	fmt.Println(errors.Is(err, loadlab.ErrInvalid), errors.Is(err, loadlab.ErrTooLarge))
	// Output:
	// mypkg: Settings.Tol = -1, want > 0: invalid argument
	// true false
}
