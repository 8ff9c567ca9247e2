package linalg

import (
	"testing"
)

// graphOf returns the graph on n nodes with the given edges, failing the
// test on an invalid edge.
func graphOf(t testing.TB, n int, edges ...Edge) *Graph {
	t.Helper()
	g, err := FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// reweight returns g with every weight w replaced by f(e) for its edge e.
func reweight(t testing.TB, g *Graph, f func(e Edge) float64) *Graph {
	t.Helper()
	es := g.Edges()
	for i := range es {
		es[i].W = f(es[i])
	}
	return graphOf(t, g.Order(), es...)
}

// must returns v, panicking on a non-nil error: for graphs and closed
// forms whose arguments the test knows to be valid.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
