package ode_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/ode"
)

// The logistic equation y' = y(1 − y) from y(0) = 0.1, compared with its
// closed form 1/(1 + 9e^{−t}).
func ExampleSolve() {
	f := func(dy []float64, _ float64, y []float64) { dy[0] = y[0] * (1 - y[0]) }
	res, err := ode.Solve(f, 0, []float64{0.1}, []float64{1, 5, 10}, &ode.Settings{AbsTol: 1e-10, RelTol: 1e-10})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, t := range res.T {
		fmt.Printf("t=%2g  y=%.8f  exact=%.8f\n", t, res.Y[k][0], 1/(1+9*math.Exp(-t)))
	}
	// Output:
	// t= 1  y=0.23196932  exact=0.23196932
	// t= 5  y=0.94282562  exact=0.94282562
	// t=10  y=0.99959157  exact=0.99959157
}

// Stepping by hand and reading the dense output between steps.
func ExampleDormandPrince() {
	// Harmonic oscillator y'' = −y as a first-order system.
	f := func(dy []float64, _ float64, y []float64) { dy[0], dy[1] = y[1], -y[0] }
	d, _ := ode.NewDormandPrince(f, 0, []float64{1, 0}, &ode.Settings{AbsTol: 1e-9, RelTol: 1e-9})
	for d.Time() < math.Pi {
		if err := d.Step(math.Pi); err != nil {
			fmt.Println(err)
			return
		}
	}
	mid := d.Interpolate(nil, (d.PrevTime()+d.Time())/2)
	fmt.Printf("y(π) = (%.6f, %.6f)\n", d.State()[0], d.State()[1]+0)
	fmt.Println("interpolation error < 1e-8:", math.Abs(mid[0]-math.Cos((d.PrevTime()+d.Time())/2)) < 1e-8)
	// Output:
	// y(π) = (-1.000000, 0.000000)
	// interpolation error < 1e-8: true
}

// Fixed-step RK4 hitting the output times exactly.
func ExampleSolveRK4() {
	f := func(dy []float64, _ float64, y []float64) { dy[0] = -2 * y[0] }
	res, _ := ode.SolveRK4(f, 0, []float64{1}, []float64{0.5, 1}, 0.01, nil)
	fmt.Printf("%.8f %.8f\n", res.Y[1][0], math.Exp(-2))
	// Output:
	// 0.13533528 0.13533528
}

// Every accepted step, for drawing a trajectory at the resolution the
// tolerance needs, and the Status of the result.
func ExampleSolveSteps() {
	f := func(dy []float64, _ float64, y []float64) { dy[0] = y[0] * (1 - y[0]) }
	res, err := ode.SolveSteps(f, 0, []float64{0.1}, 10, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	last := len(res.T) - 1
	fmt.Printf("one sample per step: %v, t from %g to %g, y(10) = %.6f (exact %.6f), %v\n",
		len(res.T) == res.Stats.Accepted+1, res.T[0], res.T[last], res.Y[last][0], 1/(1+9*math.Exp(-10)), res.Status)
	// Output:
	// one sample per step: true, t from 0 to 10, y(10) = 0.999592 (exact 0.999592), Success
}

// A stop short returns the part computed so far, with an error that is
// both ode.ErrMaxSteps and loadlab.ErrNotConverged.
func ExampleSolve_stepBudget() {
	osc := func(dy []float64, _ float64, y []float64) { dy[0], dy[1] = y[1], -y[0] }
	res, err := ode.Solve(osc, 0, []float64{1, 0}, []float64{1, 1000}, &ode.Settings{MaxSteps: 50})
	fmt.Println(errors.Is(err, ode.ErrMaxSteps), errors.Is(err, loadlab.ErrNotConverged), res.Status)
	fmt.Printf("reached: t = %v, y = %.6f\n", res.T, res.Y[0][0])
	// Output:
	// true true IterationLimit
	// reached: t = [1], y = 0.540302
}
