package gen

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
)

// RandomConnected returns a connected random weighted graph on n nodes, the
// test graph of choice when a connected sample is needed at any density:
// a random recursive tree on a random order of the nodes (the i-th node
// of the order joins a uniformly chosen earlier one), plus every other
// pair independently with probability p. Weights are uniform in
// [wmin, wmax). It is not G(n, p) conditioned on connectivity (that is
// ErdosRenyi with connected = true); it costs O(n²) time.
//
// It returns an error wrapping loadlab.ErrInvalid for n < 1, p outside
// [0, 1], or weights outside [wgraph.MinWeight, wgraph.MaxWeight] or
// wmin > wmax, and loadlab.ErrTooLarge past the memory budget. It panics
// if src is nil.
func RandomConnected(n int, p, wmin, wmax float64, src rand.Source) (*wgraph.Graph, error) {
	if src == nil {
		panic("gen: RandomConnected: nil rand.Source src")
	}
	if err := checkConnectedArgs("RandomConnected", n, wmin, wmax); err != nil {
		return nil, err
	}
	if !(p >= 0 && p <= 1) {
		return nil, loadlab.Invalid("gen", "RandomConnected: p = %v, want a probability in [0, 1]", p)
	}
	b, err := wgraph.NewBuilder(n)
	if err != nil {
		return nil, err
	}
	rnd := rand.New(src)
	add := pairAdder(b, rnd, wmin, wmax)
	tree := make(map[[2]int]bool, n)
	perm := rnd.Perm(n)
	for i := 1; i < n; i++ {
		u, v := perm[i], perm[rnd.IntN(i)]
		add(u, v)
		tree[[2]int{min(u, v), max(u, v)}] = true
	}
	for u := range n {
		for v := u + 1; v < n; v++ {
			if !tree[[2]int{u, v}] && rnd.Float64() < p {
				add(u, v)
			}
		}
	}
	return b.Build(), nil
}

// RandomConnectedSparse returns a connected random weighted graph on n
// nodes with mean degree deg: a random recursive tree (node v joins a
// uniformly chosen node u < v), plus uniformly random new pairs until the
// graph has ⌊n·deg/2⌋ edges, in O(n·deg) expected time for deg well below
// n − 1. Weights are uniform in [wmin, wmax).
//
// It returns an error wrapping loadlab.ErrInvalid for n < 1, deg outside
// [0, n − 1] or bad weights (as RandomConnected), and loadlab.ErrTooLarge
// past the memory budget. It panics if src is nil.
func RandomConnectedSparse(n int, deg, wmin, wmax float64, src rand.Source) (*wgraph.Graph, error) {
	if src == nil {
		panic("gen: RandomConnectedSparse: nil rand.Source src")
	}
	if err := checkConnectedArgs("RandomConnectedSparse", n, wmin, wmax); err != nil {
		return nil, err
	}
	if !(deg >= 0 && deg <= float64(n-1)) {
		return nil, loadlab.Invalid("gen", "RandomConnectedSparse: deg = %v, want in [0, n − 1 = %d]", deg, n-1)
	}
	m := max(int(float64(n)*deg/2), n-1)
	if err := wgraph.CheckSize("RandomConnectedSparse", n, m); err != nil {
		return nil, err
	}
	b, err := wgraph.NewBuilder(n)
	if err != nil {
		return nil, err
	}
	rnd := rand.New(src)
	add := pairAdder(b, rnd, wmin, wmax)
	has := make(map[[2]int]bool, m)
	for v := 1; v < n; v++ {
		u := rnd.IntN(v)
		add(v, u)
		has[[2]int{u, v}] = true
	}
	for len(has) < m {
		u, v := rnd.IntN(n), rnd.IntN(n)
		if k := [2]int{min(u, v), max(u, v)}; u != v && !has[k] {
			add(u, v)
			has[k] = true
		}
	}
	return b.Build(), nil
}

// pairAdder returns a function that adds {u, v} with a weight drawn
// uniformly from [wmin, wmax). The pairs are distinct and valid by
// construction and the weights are checked up front, so SetEdge cannot
// fail.
func pairAdder(b *wgraph.Builder, rnd *rand.Rand, wmin, wmax float64) func(u, v int) {
	return func(u, v int) {
		if err := b.SetEdge(u, v, wmin+(wmax-wmin)*rnd.Float64()); err != nil {
			panic("gen: " + err.Error())
		}
	}
}

func checkConnectedArgs(name string, n int, wmin, wmax float64) error {
	if err := wgraph.CheckSize(name, n, 0); err != nil {
		return err
	}
	if n < 1 {
		return loadlab.Invalid("gen", "%s: n = %d, want ≥ 1", name, n)
	}
	if !(wmin >= wgraph.MinWeight && wmax <= wgraph.MaxWeight && wmin <= wmax) || math.IsNaN(wmax) {
		return loadlab.Invalid("gen", "%s: weights [%v, %v), want MinWeight ≤ wmin ≤ wmax ≤ MaxWeight", name, wmin, wmax)
	}
	return nil
}
