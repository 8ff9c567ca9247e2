package spectral_test

import (
	"fmt"
	"log"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

func ExampleKirchhoffIndex() {
	// The weighted triangle of spec throttlers.md §9: conductances
	// w01 = 1, w12 = 2, w02 = 3.
	g, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 2}, {U: 0, V: 2, W: 3}})
	if err != nil {
		log.Fatal(err)
	}
	k, err := spectral.KirchhoffIndex(g)
	if err != nil {
		log.Fatal(err)
	}
	r, err := spectral.EffectiveResistance(g, 0, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("K_f = %.4g (12/11), R_01 = %.4g (5/11)\n", k, r)
	// Output:
	// K_f = 1.091 (12/11), R_01 = 0.4545 (5/11)
}

func ExampleNewResistance() {
	// Factor once, then query: the 4×4 torus, which is the hypercube Q_4.
	// Every edge has R = (n−1)/m = 15/32 by Foster's theorem.
	g, err := gen.Torus(4, 4)
	if err != nil {
		log.Fatal(err)
	}
	r, err := spectral.NewResistance(g)
	if err != nil {
		log.Fatal(err)
	}
	kt, err := spectral.TorusKirchhoff(4, 4)
	if err != nil {
		log.Fatal(err)
	}
	kq, err := spectral.HypercubeKirchhoff(4)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("neighbour %.4g, opposite corner %.4g\n", r.Between(0, 1), r.Between(0, 10))
	fmt.Printf("K_f = %.4g, closed forms %.4g and %.4g\n", r.Kirchhoff(), kt, kq)
	// Output:
	// neighbour 0.4688, opposite corner 0.6667
	// K_f = 68.67, closed forms 68.67 and 68.67
}

func ExampleTorusKirchhoff() {
	// Closed forms need no matrix: a million-node torus and a
	// 2^20-node hypercube in microseconds.
	kt, err := spectral.TorusKirchhoff(1000, 1000)
	if err != nil {
		log.Fatal(err)
	}
	kq, err := spectral.HypercubeKirchhoff(20)
	if err != nil {
		log.Fatal(err)
	}
	ev, err := spectral.GridSpectrum(2, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("torus 1000×1000: K_f = %.6g\n", kt)
	fmt.Printf("hypercube Q_20:  K_f = %.6g\n", kq)
	fmt.Printf("grid 2×3 spectrum: %.4g\n", ev)
	// Output:
	// torus 1000×1000: K_f = 1.14817e+12
	// hypercube Q_20:  K_f = 5.82687e+10
	// grid 2×3 spectrum: [0 1 2 3 3 5]
}

func ExampleFamily() {
	// Sweep the families by their size parameter: closed forms for the
	// Kirchhoff index and the algebraic connectivity λ₂.
	for _, f := range spectral.AllFamilies() {
		k := 8
		if f == spectral.HypercubeFamily {
			k = 3
		}
		n, err := f.Order(k)
		if err != nil {
			log.Fatal(err)
		}
		kf, err := f.Kirchhoff(k)
		if err != nil {
			log.Fatal(err)
		}
		ev, err := f.Spectrum(k)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-9s n = %2d  K_f = %7.4g  λ₂ = %.4g\n", f, n, kf, ev[1])
	}
	// Output:
	// path      n =  8  K_f =      84  λ₂ = 0.1522
	// cycle     n =  8  K_f =      42  λ₂ = 0.5858
	// star      n =  8  K_f =      49  λ₂ = 1
	// complete  n =  8  K_f =       7  λ₂ = 8
	// grid      n = 64  K_f =    2590  λ₂ = 0.1522
	// torus     n = 64  K_f =    1554  λ₂ = 0.5858
	// hypercube n =  8  K_f =   19.33  λ₂ = 2
}

func ExampleLambdaMaxBracket() {
	// λ_max(C_10) = 4 (spec §9). Without a threshold the bracket is
	// refined as far as the method allows; with one it stops once the
	// threshold is decided.
	g, err := gen.Cycle(10)
	if err != nil {
		log.Fatal(err)
	}
	b, _ := spectral.LambdaMaxBracket(g, nil)
	fmt.Printf("λ_max ≈ %.6f, bracket holds 4: %v\n", b.Est, b.Contains(4))
	c, _ := spectral.LambdaMaxBracket(g, &spectral.EigenSettings{Threshold: 5})
	fmt.Printf("λ_max < 5 decided by the edge bound: %v (Hi = %.4g)\n", c.Hi < 5, c.Hi)
	// Output:
	// λ_max ≈ 4.000000, bracket holds 4: true
	// λ_max < 5 decided by the edge bound: true (Hi = 4)
}

// The three pairs of members of Zachary's karate club farthest apart in
// effective resistance (spec throttlers.md §12.10): exact, from the
// dense resistance matrix at this size, from pivots and bounds above
// spectral.DenseMaxNodes.
func ExampleTopResistances() {
	g := datasets.Karate().Graph
	top, err := spectral.TopResistances(g, 3)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range top {
		fmt.Printf("%2d–%2d  R = %.4f\n", p.U, p.V, p.R)
	}
	// Output:
	// 11–16  R = 1.8333
	// 11–26  R = 1.8112
	// 11–14  R = 1.7408
}
