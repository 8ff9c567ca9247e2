package cholesky_test

import (
	"fmt"

	"github.com/loadlab/loadlab/cholesky"
)

// The grounded Laplacian of the path 0–1–2–3 (node 3 removed): its
// inverse's diagonal holds each node's effective resistance to node 3,
// and its (i, j) entry the length of the common part of their paths to
// it.
func Example() {
	a := &cholesky.Matrix{
		N:   3,
		Ptr: []int{0, 2, 5, 7},
		Ind: []int{0, 1, 0, 1, 2, 1, 2},
		Val: []float64{1, -1, -1, 2, -1, -1, 2},
	}
	sym, err := cholesky.Analyze(a, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := sym.Factor(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	z := f.Inverse()
	fmt.Printf("resistances to node 3: %.4g\n", z.Diag(nil))
	x01, _ := z.At(0, 1)
	fmt.Printf("(A⁻¹)₀₁ = %.4g\n", x01)
	fmt.Printf("solve A x = (1, 0, 0): %.4g\n", f.Solve(nil, []float64{1, 0, 0}))
	rep := f.Report()
	fmt.Printf("factor entries %d, A's lower triangle %d\n", rep.Factor, rep.NonZeros)
	// Output:
	// resistances to node 3: [3 2 1]
	// (A⁻¹)₀₁ = 2
	// solve A x = (1, 0, 0): [3 2 1]
	// factor entries 5, A's lower triangle 5
}

// A loop of solves with one factor: SolveTo writes into the caller's
// vectors and allocates nothing. Each right side e_i − e_3 of the path
// 0–1–2–3 grounded at node 3 gives the resistances to node 3 along
// column i of A⁻¹.
func ExampleFactor_SolveTo() {
	a := &cholesky.Matrix{
		N:   3,
		Ptr: []int{0, 2, 5, 7},
		Ind: []int{0, 1, 0, 1, 2, 1, 2},
		Val: []float64{1, -1, -1, 2, -1, -1, 2},
	}
	sym, err := cholesky.Analyze(a, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := sym.Factor(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, x, work := make([]float64, 3), make([]float64, 3), make([]float64, 3)
	for i := range 3 {
		b[i] = 1
		f.SolveTo(x, b, work)
		b[i] = 0
		fmt.Printf("A⁻¹ e_%d = %.4g\n", i, x)
	}
	// The same pattern with other values reuses the analysis: the path's
	// middle link doubled.
	a.Val = []float64{1, -1, -1, 3, -2, -2, 3}
	if f, err = sym.Factor(a); err != nil {
		fmt.Println(err)
		return
	}
	b[0] = 1
	f.SolveTo(x, b, work)
	fmt.Printf("reweighted: A⁻¹ e_0 = %.4g\n", x)
	// Output:
	// A⁻¹ e_0 = [3 2 1]
	// A⁻¹ e_1 = [2 2 1]
	// A⁻¹ e_2 = [1 1 1]
	// reweighted: A⁻¹ e_0 = [2.5 1.5 1]
}

// Relaxed supernodes on the 20 × 20 grid's Laplacian plus the identity:
// the default merges small supernodes into their parents and stores some
// explicit zeros; RelaxOff keeps the fundamental supernodes. The
// factor's own entries and the results are the same (to rounding).
func ExampleSettings_relax() {
	const side = 20
	n := side * side
	a := &cholesky.Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		r, c := i/side, i%side
		for _, j := range []int{i - side, i - 1, i, i + 1, i + side} {
			switch {
			case j == i:
				a.Ind, a.Val = append(a.Ind, i), append(a.Val, 5)
			case j >= 0 && j < n && (j/side == r || j%side == c):
				a.Ind, a.Val = append(a.Ind, j), append(a.Val, -1)
			}
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	for _, relax := range []int{0, cholesky.RelaxOff} {
		sym, err := cholesky.Analyze(a, &cholesky.Settings{Ordering: cholesky.NestedDissection, Relax: relax})
		if err != nil {
			fmt.Println(err)
			return
		}
		f, err := sym.Factor(a)
		if err != nil {
			fmt.Println(err)
			return
		}
		rep := f.Report()
		fmt.Printf("Relax %d: L %d entries, %d stored; tr A⁻¹ = %.10f\n", relax, rep.Factor, rep.Stored, f.Inverse().Trace())
	}
	// Output:
	// Relax 0: L 3792 entries, 5376 stored; tr A⁻¹ = 99.8917765545
	// Relax 1: L 3792 entries, 3792 stored; tr A⁻¹ = 99.8917765545
}
