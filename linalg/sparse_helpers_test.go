package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fromEdgesT builds a graph from edges and fails the test on an error.
func fromEdgesT(t testing.TB, n int, edges []Edge) *Graph {
	t.Helper()
	g := NewGraph(n)
	for _, e := range edges {
		if err := g.SetEdge(e.U, e.V, e.W); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// reweight returns g with independent weights 10^U(−spread/2, spread/2).
func reweight(t testing.TB, g *Graph, spread float64, rng *rand.Rand) *Graph {
	t.Helper()
	es := g.Edges()
	for i := range es {
		es[i].W = math.Pow(10, spread*(rng.Float64()-0.5))
	}
	return fromEdgesT(t, g.Order(), es)
}

// sparseWeighted returns a connected G(n, p) graph with weights spanning
// spread decades.
func sparseWeighted(t testing.TB, n int, p, spread float64, seed uint64) *Graph {
	t.Helper()
	g, err := ErdosRenyi(n, p, true, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	return reweight(t, g, spread, rand.New(rand.NewPCG(seed, 2)))
}
