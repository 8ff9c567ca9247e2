package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// spreadWeights returns g with independent weights 10^U(−spread/2, spread/2).
func spreadWeights(t testing.TB, g *Graph, spread float64, rng *rand.Rand) *Graph {
	t.Helper()
	return reweight(t, g, func(Edge) float64 { return math.Pow(10, spread*(rng.Float64()-0.5)) })
}

// sparseWeighted returns a connected G(n, p) graph with weights spanning
// spread decades.
func sparseWeighted(t testing.TB, n int, p, spread float64, seed uint64) *Graph {
	t.Helper()
	g, err := ErdosRenyi(n, p, true, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	return spreadWeights(t, g, spread, rand.New(rand.NewPCG(seed, 2)))
}
