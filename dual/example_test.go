package dual_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"gonum.org/v1/gonum/mat"
)

// The three-node network of spec §8 item 23 with quadratic costs: the
// dual algorithm reaches the optimum P* ≈ 0.4319 and the optimal prices.
func ExampleSolve() {
	nw, err := anycast.NewNetwork(
		[]float64{2, 1.5, 1},
		mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2, 0.7}),
		[]float64{0.8, 0.9, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	p, err := dual.Quadratic(nw, 1, 4) // f = ½A(1−x)², h = 2(S−T)₊²
	if err != nil {
		log.Fatal(err)
	}
	res, err := dual.Solve(p, &dual.Settings{Step: 0.05, Tol: 1e-9})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("P* in [%.6f, %.6f], %v (%v rule)\n", res.Best, res.Upper, res.Status, res.Rule)
	fmt.Printf("mu* = %.4f\n", res.BestMu)
	fmt.Printf("x*  = %.4f\n", res.X)
	// Output:
	// P* in [0.431901, 0.431901], Success (Constant rule)
	// mu* = [0.5456 0.1939 0.4635]
	// x*  = [0.5681 0.6549 0.5822]
}

// Warm-starting from the previous optimum after a change of demand, as a
// controller tracking slowly varying load would.
func ExampleSolve_warmStart() {
	c := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.3, 0.7})
	t := []float64{0.7, 0.7}
	solve := func(a, mu0 []float64) *dual.Result {
		nw, err := anycast.NewNetwork(a, c, t)
		if err != nil {
			log.Fatal(err)
		}
		p, err := dual.Quadratic(nw, 1, 10)
		if err != nil {
			log.Fatal(err)
		}
		res, err := dual.Solve(p, &dual.Settings{Mu0: mu0, Step: 0.05, Tol: 1e-8})
		if err != nil {
			log.Fatal(err)
		}
		return res
	}
	cold := solve([]float64{1, 1.2}, nil)
	warm := solve([]float64{1.05, 1.2}, cold.BestMu)
	fresh := solve([]float64{1.05, 1.2}, nil)
	fmt.Printf("same optimum: %.6f %.6f\n", warm.Upper, fresh.Upper)
	fmt.Printf("warm start needs fewer steps: %v\n", warm.Iter < fresh.Iter)
	// Output:
	// same optimum: 0.153755 0.153755
	// warm start needs fewer steps: true
}

// FastControl rates (19) and receptions (20) for spec §8 item 17.
func ExampleRates() {
	nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), []float64{0.7, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	mu := []float64{1, 2}
	r, err := dual.Rates(nil, nw, mu, 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("r = %.4g\n", mat.Formatted(r, mat.Prefix("    ")))
	rec, err := dual.Receptions(nil, nw, r)
	if err != nil {
		log.Fatal(err)
	}
	beta, err := dual.Coupling(nil, nw, mu)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R = %.4g, beta = %.4g\n", rec, beta)
	// Output:
	// r = ⎡   10  5.556⎤
	//     ⎣   36     20⎦
	// R = [19 15], beta = [1.9 1.5]
}

// The Theorem III.3 step for an ε-gap and the step count that reaches it.
func ExampleStep() {
	eps, g, r := 1e-2, 2.6, 1.0
	alpha, err := dual.Step(eps, g)
	if err != nil {
		log.Fatal(err)
	}
	k, err := dual.Iterations(eps, g, r)
	if err != nil {
		log.Fatal(err)
	}
	b, err := dual.Bound(r, alpha, g, k)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("alpha = %.4g, K = %d, bound = %.4g\n", alpha, k, b)
	// Output:
	// alpha = 0.001479, K = 67600, bound = 0.01
}

// The reference primal solver certifies its optimum with a dual value.
func ExamplePrimal() {
	nw, err := anycast.NewNetwork(
		[]float64{2, 1.5, 1},
		mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2, 0.7}),
		[]float64{0.8, 0.9, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	p, err := dual.Quadratic(nw, 1, 4)
	if err != nil {
		log.Fatal(err)
	}
	ref, err := dual.Primal(p, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("P* = %.7f, %v, certified gap < 1e-12: %v\n", ref.Value, ref.Status, ref.Value-ref.Lower < 1e-12)
	fmt.Printf("S* = %.5f\n", ref.S)
	// Output:
	// P* = 0.4319010, Success, certified gap < 1e-12: true
	// S* = [0.93641 0.94847 0.81587]
}

// With LinearX and Overload costs P1 is a linear program, which Primal
// solves exactly by simplex: one node sending at most T = 0.01 to its
// proxy before paying 10 per unit of overload, against 1 per unit sent
// to the second layer, answers x* = 0.01 and pays 0.99.
func ExamplePrimal_linear() {
	nw, err := anycast.NewNetwork([]float64{1}, mat.NewDense(1, 1, []float64{1}), []float64{0.01})
	if err != nil {
		log.Fatal(err)
	}
	p, err := dual.NewProblem(nw, []dual.Cost{dual.LinearX{W: 1, A: 1}}, []dual.Cost{dual.Overload{C: 10, T: 0.01}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	ref, err := dual.Primal(p, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("LP: %v, %v, x* = %.4g, P* = %.4g, μ* = %.4g\n", ref.LP, ref.Status, ref.X[0], ref.Value, ref.Mu[0])
	// Output:
	// LP: true, Success, x* = 0.01, P* = 0.99, μ* = 1
}

// The FastControl trade-off: a 100× longer measurement window sends 100×
// more packets per step and cuts the error of the measured β about 10×.
func ExampleSweep() {
	nw, err := anycast.NewNetwork(
		[]float64{2, 1.5, 1},
		mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2, 0.7}),
		[]float64{0.8, 0.9, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	p, err := dual.Quadratic(nw, 1, 4)
	if err != nil {
		log.Fatal(err)
	}
	pts, err := dual.Sweep(p, dual.FastControl{Gamma: 10}, []float64{0.1, 10}, nil, &dual.Settings{Step: 0.05, MaxIter: 2000}, 4, 1)
	if err != nil {
		log.Fatal(err)
	}
	short, long := pts[0], pts[1]
	// Packets per step follow the μ path, which the noise shifts, so the
	// ratios are printed as ranges (they are 82 and 9 with this seed).
	pr, er := long.Packets/short.Packets, short.BetaErr/long.BetaErr
	fmt.Println("packets ×50–200:", pr > 50 && pr < 200)
	fmt.Println("β error ÷5–20:", er > 5 && er < 20)
	fmt.Println("gap smaller:", long.Gap.Mean < short.Gap.Mean)
	// Output:
	// packets ×50–200: true
	// β error ÷5–20: true
	// gap smaller: true
}

// Per-node weights, with A and T read from the network; default settings
// pick the accelerated rule and stop on the certificate (relative gap
// 10⁻⁶), reporting the optimal point x with its loads S.
func ExampleNewQuadratic() {
	nw, err := anycast.NewNetwork(
		[]float64{2, 1.5, 1},
		mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2, 0.7}),
		[]float64{0.8, 0.9, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	// Node 0's second layer is dear (w = 3), node 2's overload is cheap (c = 1).
	p, err := dual.NewQuadratic(nw, []float64{3, 1, 1}, []float64{4, 4, 1})
	if err != nil {
		log.Fatal(err)
	}
	res, err := dual.Solve(p, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%v, %v rule, relative gap < 1e-6: %v\n", res.Status, res.Rule, res.Gap() < 1e-6*res.Upper)
	fmt.Printf("P* = %.5f\n", res.Upper)
	fmt.Println(res.Guarantee()[:34])
	fmt.Printf("x = %.3f\n", res.X)
	fmt.Printf("S = %.3f\n", res.S)
	ref, err := dual.Primal(p, nil) // the independent reference
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("reference in [Best, Upper]: %v\n", ref.Value >= res.Best-1e-12 && ref.Value <= res.Upper+1e-12)
	// Output:
	// Success, Accelerated rule, relative gap < 1e-6: true
	// P* = 0.64153
	// Accelerated rule (FISTA, backtrack
	// x = [0.722 0.546 0.693]
	// S = [1.100 0.981 0.875]
	// reference in [Best, Upper]: true
}

// A run stopped short returns its partial result with the status and
// ErrNotConverged.
func ExampleSolve_notConverged() {
	nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), []float64{0.7, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	p, err := dual.Quadratic(nw, 1, 10)
	if err != nil {
		log.Fatal(err)
	}
	res, err := dual.Solve(p, &dual.Settings{Step: 1e-3, MaxIter: 10})
	fmt.Println(errors.Is(err, loadlab.ErrNotConverged), res.Status, res.Iter)
	// Output:
	// true IterationLimit 10
}
