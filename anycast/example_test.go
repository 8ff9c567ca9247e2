package anycast_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/loadlab/loadlab/anycast"
	"gonum.org/v1/gonum/mat"
)

// The load equation of spec §8 item 1: two nodes, each answering its DNS
// demand with the primary layer with probability x_j.
func ExampleNetwork_Loads() {
	nw, err := anycast.NewNetwork(
		[]float64{1, 1}, // A: DNS demand per node
		mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), // C[j][i] = C_ji
		[]float64{0.7, 0.7}, // T: proxy capacities
	)
	if err != nil {
		log.Fatal(err)
	}
	s := nw.Loads(nil, []float64{0.3, 0.8})
	fmt.Printf("S = %.4g, total %.4g, max loads %.4g\n", s, s[0]+s[1], nw.MaxLoads())
	// Output:
	// S = [0.43 0.67], total 1.1, max loads [0.6 1.4]
}

// Bad input comes back as an error naming the entry.
func ExampleNewNetwork() {
	_, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.8, 0.5, 0.5}), []float64{0.7, 0.7})
	fmt.Println(err)
	// Output:
	// anycast: row 0 of C sums to 0.9, want 1 (tolerance 1e-09): invalid argument
}

// A synthetic 1000-node CDN: every DNS region splits its traffic over its
// 10 nearest proxies, so C has 10 entries per row, each row summing to 1.
func ExampleGenerateCDN() {
	nw, err := anycast.GenerateCDN(rand.NewPCG(1, 2), &anycast.CDNSettings{N: 1000, K: 10})
	if err != nil {
		log.Fatal(err)
	}
	cols, vals := nw.Row(0)
	var sum float64
	for _, v := range vals {
		sum += v
	}
	fmt.Printf("nnz = %d, row 0: %d proxies, sum %.12f\n", nw.NNZ(), len(cols), sum)
	// Output:
	// nnz = 10000, row 0: 10 proxies, sum 1.000000000000
}

// A generated CDN stores C sparsely; AsDense gives its dense twin, on
// which the loads are the same up to the order of the sums.
func ExampleNetwork_AsDense() {
	sp, err := anycast.GenerateCDN(rand.NewPCG(1, 2), &anycast.CDNSettings{N: 50, K: 5})
	if err != nil {
		log.Fatal(err)
	}
	de, err := sp.AsDense()
	if err != nil {
		log.Fatal(err)
	}
	x := make([]float64, 50)
	for i := range x {
		x[i] = 0.5
	}
	a, b := sp.Loads(nil, x), de.Loads(nil, x)
	fmt.Println("sparse:", sp.Sparse != nil, "dense:", de.C != nil)
	fmt.Printf("S_0 = %.6g and %.6g\n", a[0], b[0])
	// Output:
	// sparse: true dense: true
	// S_0 = 0.178118 and 0.178118
}

// Nodes held at exactly x_j = 1 (settled) enter every load as a constant:
// Reduced sums their columns of B once and reads the other columns only.
func ExampleReduced() {
	nw, err := anycast.NewNetwork(
		[]float64{1, 2, 1},
		mat.NewDense(3, 3, []float64{0.5, 0.5, 0, 0, 0.5, 0.5, 0.25, 0.25, 0.5}),
		[]float64{1, 1, 1},
	)
	if err != nil {
		log.Fatal(err)
	}
	op, err := nw.LoadOp()
	if err != nil {
		log.Fatal(err)
	}
	x := []float64{1, 0.5, 1} // nodes 0 and 2 settled at 1
	var r anycast.Reduced
	r.Reduce(op, []bool{true, false, true})
	xf := make([]float64, r.Cols()) // the states of the free columns, in node order (zero padding after)
	for j, v := range x {
		if k := r.Rank(j); k >= 0 {
			xf[k] = v
		}
	}
	s := make([]float64, 3)
	r.MulRows(s, xf, 0, 3)
	fmt.Printf("free columns %d, S = %.4g, B x = %.4g\n", r.Free(), s, op.Mul(nil, x))
	// Output:
	// free columns 1, S = [0.75 1.25 1], B x = [0.75 1.25 1]
}
