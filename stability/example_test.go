package stability_test

import (
	"fmt"
	"log"
	"reflect"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/stability"
	"gonum.org/v1/gonum/mat"
)

// The motivating example of the paper (spec §2): node a's poor
// self-correlation drives node b into a locally uncontrollable overload.
func ExampleLaw_Integrate() {
	c := mat.NewDense(2, 2, []float64{0.1, 0.9, 0.3, 0.7})
	nw, _ := anycast.NewNetwork([]float64{1, 1}, c, []float64{0.7, 0.7})
	law, _ := stability.NewLaw(nw, 5)
	tr, err := law.Integrate([]float64{0.5, 0.5}, 50, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	k := tr.Len() - 1
	fmt.Printf("x = (%.4f, %.4f)  S = (%.4f, %.4f)  overload at b = %.4f\n",
		tr.X[k][0], tr.X[k][1], tr.S[k][0], tr.S[k][1], tr.Overload[k][1])
	bad, _ := stability.Uncontrollable(nw, tr.Final(), 1e-6)
	in, _ := stability.InPolytope(nw)
	fmt.Println("uncontrollable nodes:", bad)
	fmt.Println("A in Π_C:", in)
	// Output:
	// x = (1.0000, 0.0000)  S = (0.1000, 0.9000)  overload at b = 0.2000
	// uncontrollable nodes: [1]
	// A in Π_C: false
}

// Linearisation at a vertex: the Jacobian is diagonal there, with one
// rate per node (NodeRates); Eigenvalues holds the same values sorted.
func ExampleLaw_Corner() {
	c := mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5})
	nw, _ := anycast.NewNetwork([]float64{1, 1}, c, []float64{0.7, 0.7})
	law, _ := stability.NewLaw(nw, 1)
	for _, x := range [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		e, _ := law.Corner(x)
		fmt.Printf("%v: λ_a = %.2g, λ_b = %.2g, sorted (%.2g, %.2g) %v uncontrollable=%v\n", x,
			e.NodeRates[0], e.NodeRates[1], real(e.Eigenvalues[0]), real(e.Eigenvalues[1]), e.Class, e.Uncontrollable())
	}
	// Output:
	// [0 0]: λ_a = 0.7, λ_b = 0.7, sorted (0.7, 0.7) unstable uncontrollable=false
	// [1 0]: λ_a = -0.6, λ_b = -0.2, sorted (-0.6, -0.2) stable uncontrollable=true
	// [0 1]: λ_a = 0.2, λ_b = -0.2, sorted (-0.2, 0.2) saddle uncontrollable=false
	// [1 1]: λ_a = -0.1, λ_b = 0.7, sorted (-0.1, 0.7) saddle uncontrollable=false
}

// The logit state keeps the digits x loses near a face: both nodes are
// under-loaded, so x is pushed towards 1 and x_b rounds to exactly 1 once
// z_b passes 37, while z_b keeps growing at the rate β(T_b − S_b) =
// 0.7 − 0.18 = 0.52 of the vertex (spec §5.2 item 1).
func ExampleLaw_IntegrateLogit() {
	c := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.3, 0.7})
	nw, _ := anycast.NewNetwork([]float64{0.2, 0.2}, c, []float64{0.7, 0.7})
	law, _ := stability.NewLaw(nw, 1)
	tr, err := law.IntegrateLogit([]float64{0, 0}, 100, &stability.Settings{Times: []float64{50, 100}, Logits: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, t := range tr.T {
		fmt.Printf("t = %3g: x_b = %.12g, z_b = %.4f\n", t, tr.X[k][1], tr.Z[k][1])
	}
	fmt.Printf("rate of z_b: %.4f\n", (tr.Z[1][1]-tr.Z[0][1])/50)
	// Output:
	// t =  50: x_b = 0.999999999996, z_b = 26.2219
	// t = 100: x_b = 1, z_b = 52.2219
	// rate of z_b: 0.5200
}

// A favourable two-node system controls any demand (spec §5.5).
func ExampleFavorable() {
	c := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.3, 0.7})
	t := []float64{0.7, 0.7}
	nw, _ := anycast.NewNetwork([]float64{100, 100}, c, t)
	ya, yb, _ := stability.TwoNodeInterior(nw)
	fav, _ := stability.Favorable(nw)
	fmt.Println("favourable:", fav)
	fmt.Printf("y* = (%.4g, %.4g)\n", ya, yb)
	law, _ := stability.NewLaw(nw, 1)
	tr, _ := law.Integrate([]float64{0.5, 0.5}, 200, nil)
	x := tr.Final()
	fmt.Printf("x = (%.4g, %.4g), total overload < 1e-6: %v\n", x[0], x[1], tr.Excess[tr.Len()-1] < 1e-6)
	e, _ := law.Snap(x, 1e-9)
	fmt.Println(e.Class)
	// Output:
	// favourable: true
	// y* = (0.56, 0.84)
	// x = (0.0056, 0.0084), total overload < 1e-6: true
	// stable
}

// Classifying all vertices of a 3-node system.
func ExampleLaw_ClassifyCorners() {
	c := mat.NewDense(3, 3, []float64{
		0.1, 0.8, 0.1,
		0.1, 0.8, 0.1,
		0.3, 0.3, 0.4,
	})
	nw, _ := anycast.NewNetwork([]float64{1, 1, 1}, c, []float64{0.7, 0.7, 0.7})
	law, _ := stability.NewLaw(nw, 1)
	cs, _ := law.ClassifyCorners()
	for cl := stability.Stable; cl <= stability.NonHyperbolic; cl++ {
		fmt.Printf("%s: %d\n", cl, cs.Count(cl))
	}
	fmt.Printf("uncontrollable vertices (bit i ⇔ x_i = 1): %03b\n", cs.Uncontrollable)
	// Output:
	// stable: 1
	// unstable: 2
	// saddle: 5
	// non-hyperbolic: 0
	// uncontrollable vertices (bit i ⇔ x_i = 1): [101]
}

// Greedy against optimal on the paper's two-node example with constant
// demand: the greedy law is stuck in the uncontrollable overload of node b.
func ExampleCompare() {
	c := mat.NewDense(2, 2, []float64{0.1, 0.9, 0.3, 0.7})
	nw, _ := anycast.NewNetwork([]float64{1, 1}, c, []float64{0.7, 0.7})
	times := []float64{0, 1, 2, 3}
	demand := [][]float64{{1, 1}, {1, 1}, {1, 1}, {1, 1}}
	cmp, err := stability.Compare(nw, times, demand, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range []stability.Policy{cmp.Greedy, cmp.Optimal} {
		fmt.Printf("%-20s L2 share %.2f  overload %.2f load·h  uncontrollable %.0f h\n",
			p.Name, p.SecondTotal/cmp.DemandTotal, p.ExcessTotal, p.UncontrolledHours)
	}
	// Output:
	// greedy (24)          L2 share 0.50  overload 0.80 load·h  uncontrollable 4 h
	// dual (Algorithm 1)   L2 share 0.55  overload 0.00 load·h  uncontrollable 0 h
}

// Attractors is its starts: start k is Attract on the stream
// loadlab.Stream(seed, k), and GroupAttractors merges the equilibria
// reached. On the seed network of spec §2 with C_ba = 0.3 every start
// ends in the uncontrollable overload x = (1, 0).
func ExampleLaw_Attract() {
	c := mat.NewDense(2, 2, []float64{0.1, 0.9, 0.3, 0.7})
	nw, _ := anycast.NewNetwork([]float64{1, 1}, c, []float64{0.7, 0.7})
	law, _ := stability.NewLaw(nw, 1)
	const seed = 1
	ends := make([]*stability.Equilibrium, 6)
	for k := range ends {
		e, err := law.Attract(200, loadlab.Stream(seed, uint64(k)), nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		ends[k] = e
	}
	found, unresolved := stability.GroupAttractors(ends)
	whole, wholeU, err := law.Attractors(6, 200, seed, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(found[0].X, found[0].Starts, found[0].Uncontrollable(), unresolved)
	fmt.Println("same as Attractors:", reflect.DeepEqual(found, whole) && unresolved == wholeU)
	// Output:
	// [1 0] 6 true 0
	// same as Attractors: true
}

// The greedy heuristic as a deployment runs it: two proxies, each
// overloaded by its own region at x = 1, updated every 0.5 time units
// from exact load measurements. The longest stable period at the
// interior equilibrium x = (½, ½) is 2/0.5 = 4.
func ExampleController() {
	nw, err := anycast.NewNetwork([]float64{2, 2}, mat.NewDense(2, 2, []float64{0.9, 0.1, 0.1, 0.9}), []float64{1, 1})
	if err != nil {
		log.Fatal(err)
	}
	law, err := stability.NewLaw(nw, 1)
	if err != nil {
		log.Fatal(err)
	}
	c := &stability.Controller{Law: law, Period: 0.5}
	run, err := c.Run([]float64{0.9, 0.2}, 60, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("final x = (%.4f, %.4f)\n", run.Final[0], run.Final[1])
	fmt.Printf("overloaded for %.1f of %.0f time units\n", run.OverloadTime, 60*c.Period)
	eq, err := law.Linearize([]float64{0.5, 0.5})
	if err != nil {
		log.Fatal(err)
	}
	lim, err := law.PeriodLimit(eq)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("longest stable period %.3g\n", lim)
	// Output:
	// final x = (0.5000, 0.5000)
	// overloaded for 11.0 of 30 time units
	// longest stable period 4
}
