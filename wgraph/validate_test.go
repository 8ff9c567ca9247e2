package wgraph_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// path3 is the path 0 –1– 1 –2– 2.
func path3() *wgraph.Graph {
	g, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 2}})
	if err != nil {
		panic(err)
	}
	return g
}

// badWeights are the weights outside [MinWeight, MaxWeight] beyond the
// standard bad values of badarg.Positive.
var badWeights = []float64{wgraph.MinWeight / 2, wgraph.MaxWeight * 2}

// weightCases probes a weight of edge {0, 1} through call: NaN, ±Inf,
// negative, zero and the values just outside [MinWeight, MaxWeight].
func weightCases(fn, text string, call func(w float64) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv, Text: text}
	cs := p.Scalar("w", badarg.Positive, call)
	for _, w := range badWeights {
		cs = append(cs, p.Fails(fmt.Sprintf("w = %v", w), fmt.Sprintf(text, w), func() error { return call(w) }))
	}
	return cs
}

// constructorCases probes the constructors: negative and too large
// sizes, nodes out of range, self-loops, repeated edges, bad weights and
// nil arguments.
func constructorCases() []badarg.Case {
	var cs []badarg.Case
	p := badarg.Probe{Func: "NewBuilder", Err: inv}
	cs = append(cs, p.Int("n", badarg.NonNegative, func(n int) error { _, err := wgraph.NewBuilder(n); return err })...)
	cs = append(cs, badarg.Probe{Func: "NewBuilder", Err: tooLarge}.Fails("n = 2^31", "n = 2147483648", func() error {
		_, err := wgraph.NewBuilder(wgraph.MaxOrder + 1)
		return err
	}))

	p = badarg.Probe{Func: "CheckSize", Err: inv}
	cs = append(cs, p.Int("n", badarg.NonNegative, func(n int) error { return wgraph.CheckSize("f", n, 0) })...)
	cs = append(cs, p.Int("m", badarg.NonNegative, func(m int) error { return wgraph.CheckSize("f", 4, m) })...)
	cs = append(cs, badarg.Probe{Func: "CheckSize", Err: tooLarge}.Fails("m > MaxEdges", "edges", func() error {
		return wgraph.CheckSize("f", 4, wgraph.MaxEdges+1)
	}))

	fromEdges := func(n int, es ...wgraph.Edge) error { _, err := wgraph.FromEdges(n, es); return err }
	p = badarg.Probe{Func: "FromEdges", Err: inv}
	cs = append(cs, p.Int("n", badarg.NonNegative, func(n int) error { return fromEdges(n) })...)
	cs = append(cs, weightCases("FromEdges", "weight of edge {0, 1} = %v", func(w float64) error {
		return fromEdges(3, wgraph.Edge{U: 0, V: 1, W: w})
	})...)
	cs = append(cs,
		p.Fails("edges[1].V = 3", "edges[1]: wgraph: node v = 3", func() error { return fromEdges(3, wgraph.Edge{U: 0, V: 1, W: 1}, wgraph.Edge{U: 1, V: 3, W: 1}) }),
		p.Fails("edges[0].U = -1", "node u = -1", func() error { return fromEdges(3, wgraph.Edge{U: -1, V: 1, W: 1}) }),
		p.Fails("a self-loop", "self-loop at node 2", func() error { return fromEdges(3, wgraph.Edge{U: 2, V: 2, W: 1}) }),
		p.Fails("a repeated edge", "edges[1] = {1, 0} repeats edges[0]", func() error {
			return fromEdges(3, wgraph.Edge{U: 0, V: 1, W: 1}, wgraph.Edge{U: 1, V: 0, W: 2})
		}),
		badarg.Probe{Func: "FromEdges", Err: tooLarge}.Fails("n = 2^40", "n = 1099511627776", func() error { return fromEdges(1 << 40) }),
	)

	fromPairs := func(n int, us, vs []int32) error { _, err := wgraph.FromPairs(n, us, vs); return err }
	p = badarg.Probe{Func: "FromPairs", Err: inv}
	cs = append(cs, p.Int("n", badarg.NonNegative, func(n int) error { return fromPairs(n, nil, nil) })...)
	cs = append(cs,
		p.Fails("pair 1 = {1, 3}", "pair 1 = {1, 3}", func() error { return fromPairs(3, []int32{0, 1}, []int32{1, 3}) }),
		p.Fails("pair 0 = {-1, 1}", "pair 0 = {-1, 1}", func() error { return fromPairs(3, []int32{-1}, []int32{1}) }),
		p.Fails("pair 0 = {2, 2}", "pair 0 = {2, 2}", func() error { return fromPairs(3, []int32{2}, []int32{2}) }),
		p.Fails("a repeated pair", "1 of the 2 pairs repeat", func() error { return fromPairs(3, []int32{0, 1}, []int32{1, 0}) }),
		p.Panics("len(us) ≠ len(vs)", "len(us) = 2, len(vs) = 1", func() { _ = fromPairs(3, []int32{0, 1}, []int32{1}) }),
	)
	return append(cs, matrixCases()...)
}

// asymmetric is a user implementation of mat.Symmetric that is not
// symmetric: entry (0, 1) is 1, entry (1, 0) is 2.
type asymmetric struct{}

func (asymmetric) Dims() (int, int)  { return 2, 2 }
func (asymmetric) SymmetricDim() int { return 2 }
func (a asymmetric) T() mat.Matrix   { return a }
func (asymmetric) At(i, j int) float64 {
	switch {
	case i == 0 && j == 1:
		return 1
	case i == 1 && j == 0:
		return 2
	}
	return 0
}

// matrixCases probes FromAdjacency, FromMatrix and FromUndirected.
func matrixCases() []badarg.Case {
	var cs []badarg.Case
	fromAdj := func(a mat.Symmetric) error { _, err := wgraph.FromAdjacency(a); return err }
	fromMat := func(a mat.Matrix) error { _, err := wgraph.FromMatrix(a); return err }
	// A zero entry is no edge: only NaN, ±Inf, negative and out-of-range
	// weights are bad.
	for _, w := range append([]float64{nan, inf, -inf, -1}, badWeights...) {
		text := fmt.Sprintf("adjacency[0][1] = %v", w)
		a := mat.NewSymDense(2, []float64{0, w, w, 0})
		cs = append(cs,
			badarg.Probe{Func: "FromAdjacency", Err: inv}.Fails(text, text, func() error { return fromAdj(a) }),
			badarg.Probe{Func: "FromMatrix", Err: inv}.Fails(text, text, func() error { return fromMat(a) }),
		)
	}
	p := badarg.Probe{Func: "FromAdjacency", Err: inv}
	cs = append(cs,
		p.Fails("a self-loop", "adjacency[1][1] = 3: self-loops", func() error { return fromAdj(mat.NewSymDense(2, []float64{0, 1, 1, 3})) }),
		p.Fails("asymmetric", "[0][1] = 1 but [1][0] = 2", func() error { return fromAdj(asymmetric{}) }),
		p.Panics("a = nil", "wgraph: FromAdjacency: nil matrix a", func() { _ = fromAdj(nil) }),
	)
	p = badarg.Probe{Func: "FromMatrix", Err: inv}
	cs = append(cs,
		p.Fails("2×3", "2×3, not square", func() error { return fromMat(mat.NewDense(2, 3, nil)) }),
		p.Fails("asymmetric", "[0][1] = 1 but [1][0] = 2", func() error { return fromMat(mat.NewDense(2, 2, []float64{0, 1, 2, 0})) }),
		p.Panics("a = nil", "wgraph: FromMatrix: nil matrix a", func() { _ = fromMat(nil) }),
	)
	fromUnd := func(w float64) error {
		gg := simple.NewWeightedUndirectedGraph(0, 0)
		gg.SetWeightedEdge(gg.NewWeightedEdge(simple.Node(7), simple.Node(3), w))
		_, _, err := wgraph.FromUndirected(gg)
		return err
	}
	p = badarg.Probe{Func: "FromUndirected", Err: inv}
	cs = append(cs, weightCases("FromUndirected", "weight of edge {0, 1} = %v", fromUnd)...)
	cs = append(cs,
		p.Fails("a self-loop", "self-loop at node ID 1", func() error { _, _, err := wgraph.FromUndirected(loopGraph{}); return err }),
		p.Fails("a stray neighbour", "node ID 5", func() error { _, _, err := wgraph.FromUndirected(strayGraph{}); return err }),
		p.Panics("gr = nil", "wgraph: FromUndirected: nil graph gr", func() { _, _, _ = wgraph.FromUndirected(nil) }),
	)
	return cs
}

// graphCases probes the methods of Graph and Builder and the functions
// that take a graph: nodes out of range and a nil graph are documented
// panics; bad weights, bad JSON and a Laplacian beyond the memory budget
// are errors.
func graphCases() []badarg.Case {
	g := path3()
	var nilG *wgraph.Graph
	var cs []badarg.Case
	for name, f := range map[string]func(g *wgraph.Graph, u int){
		"Graph.Degree":         func(g *wgraph.Graph, u int) { g.Degree(u) },
		"Graph.Neighbors":      func(g *wgraph.Graph, u int) { g.Neighbors(u) },
		"Graph.Weights":        func(g *wgraph.Graph, u int) { g.Weights(u) },
		"Graph.WeightedDegree": func(g *wgraph.Graph, u int) { g.WeightedDegree(u) },
		"Graph.Weight":         func(g *wgraph.Graph, u int) { g.Weight(0, u) },
		"Graph.HasEdge":        func(g *wgraph.Graph, u int) { g.HasEdge(u, 0) },
	} {
		p := badarg.Probe{Func: name}
		cs = append(cs,
			p.Panics("u = -1", "", func() { f(g, -1) }),
			p.Panics("u = 3", "", func() { f(g, 3) }),
			p.Panics("g = nil", "", func() { f(nilG, 0) }),
		)
	}
	cs = append(cs, badarg.Probe{Func: "Graph.Weight"}.Panics("v = 3", "Weight(0, 3) out of range [0, 3)", func() { g.Weight(0, 3) }))

	lmv := badarg.Probe{Func: "Graph.LaplacianMulVec", Panic: true, Text: "wgraph: LaplacianMulVec: len(dst)"}
	cs = append(cs, lmv.Lengths("dst", []float64{1, 2, 3}, func(dst []float64) error { g.LaplacianMulVec(dst, make([]float64, 3)); return nil })...)
	cs = append(cs, lmv.Lengths("x", []float64{1, 2, 3}, func(x []float64) error { g.LaplacianMulVec(make([]float64, 3), x); return nil })...)

	cs = append(cs,
		badarg.Probe{Func: "Graph.Laplacian", Err: tooLarge}.Fails("n = 2^20", "1048576", func() error {
			h, err := wgraph.FromEdges(1<<20, nil)
			if err != nil {
				return err
			}
			_, err = h.Laplacian()
			return err
		}),
		badarg.Probe{Func: "Graph.Laplacian"}.Panics("g = nil", "", func() { _, _ = nilG.Laplacian() }),
		badarg.Probe{Func: "Graph.MarshalJSON"}.Panics("g = nil", "", func() { _, _ = nilG.MarshalJSON() }),
	)
	un := badarg.Probe{Func: "Graph.UnmarshalJSON", Err: inv}
	for _, c := range []struct{ doc, text string }{
		{`[1]`, "Graph JSON"},
		{`{"order":-1,"edges":[]}`, "n = -1"},
		{`{"order":2,"edges":[[0,0.5,1]]}`, "node indices must be integers"},
		{`{"order":2,"edges":[[0,1e300,1]]}`, "node indices must be integers"},
		{`{"order":2,"edges":[[0,5,1]]}`, "node v = 5"},
		{`{"order":2,"edges":[[0,1,-1]]}`, "weight of edge {0, 1} = -1"},
		{`{"order":2,"edges":[[0,1,0]]}`, "weight of edge {0, 1} = 0"},
		{`{"order":2,"edges":[[0,1,1e300]]}`, "weight of edge {0, 1} = 1e+300"},
		{`{"order":3,"edges":[[0,1,1],[1,0,1]]}`, "repeats edges[0]"},
	} {
		cs = append(cs, un.Fails(c.doc, c.text, func() error { var h wgraph.Graph; return h.UnmarshalJSON([]byte(c.doc)) }))
	}
	cs = append(cs, badarg.Probe{Func: "Graph.UnmarshalJSON", Err: tooLarge}.Fails("order = 2^40", "n = 1099511627776", func() error {
		var h wgraph.Graph
		return h.UnmarshalJSON([]byte(`{"order":1099511627776,"edges":[]}`))
	}))

	b, err := wgraph.NewBuilder(3)
	if err != nil {
		panic(err)
	}
	cs = append(cs, weightCases("Builder.SetEdge", "weight of edge {2, 1} = %v", func(w float64) error { return b.SetEdge(2, 1, w) })...)
	p := badarg.Probe{Func: "Builder.SetEdge", Err: inv}
	cs = append(cs,
		p.Fails("u = -1", "node u = -1 out of range [0, 3)", func() error { return b.SetEdge(-1, 1, 1) }),
		p.Fails("v = 3", "node v = 3 out of range [0, 3)", func() error { return b.SetEdge(0, 3, 1) }),
		p.Fails("u = v", "self-loop at node 1", func() error { return b.SetEdge(1, 1, 1) }),
	)
	return append(cs, connectivityCases()...)
}

// connectivityCases probes BFS and the connectivity functions.
func connectivityCases() []badarg.Case {
	g := path3()
	s := wgraph.NewBFS(g)
	cs := []badarg.Case{
		badarg.Probe{Func: "NewBFS"}.Panics("g = nil", "wgraph: NewBFS: nil graph g", func() { wgraph.NewBFS(nil) }),
		badarg.Probe{Func: "IsConnected"}.Panics("g = nil", "wgraph: IsConnected: nil graph g", func() { wgraph.IsConnected(nil) }),
		badarg.Probe{Func: "Components"}.Panics("g = nil", "wgraph: Components: nil graph g", func() { wgraph.Components(nil) }),
		badarg.Probe{Func: "CheckConnected"}.Panics("g = nil", "wgraph: CheckConnected: nil graph g", func() { _ = wgraph.CheckConnected(nil) }),
		badarg.Probe{Func: "CheckConnected", Err: inv}.Fails("no nodes", "graph has no nodes", func() error { return wgraph.CheckConnected(&wgraph.Graph{}) }),
		badarg.Probe{Func: "CheckConnected", Err: loadlab.ErrDisconnected}.Fails("two components", "node 2 is not reachable", func() error {
			h, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}})
			if err != nil {
				return err
			}
			return wgraph.CheckConnected(h)
		}),
		badarg.Probe{Func: "BFS.Start"}.Panics("u = 3", "BFS.Start(3): node out of range [0, 3)", func() { s.Start(3) }),
		badarg.Probe{Func: "BFS.Start"}.Panics("u = -1", "BFS.Start(-1)", func() { s.Start(-1) }),
		badarg.Probe{Func: "BFS.Dist"}.Panics("before Start", "BFS.Next before Start", func() { wgraph.NewBFS(g).Dist(1) }),
		badarg.Probe{Func: "BFS.Dist"}.Panics("v = 3", "BFS.Dist(3): node out of range", func() { s.Start(0); s.Dist(3) }),
		badarg.Probe{Func: "BFS.Distances"}.Panics("src = 3", "BFS.Start(3)", func() { s.Distances(3, make([]int32, 3)) }),
	}
	for _, n := range []int{0, 2, 4} {
		cs = append(cs, badarg.Probe{Func: "BFS.Distances"}.Panics(fmt.Sprintf("len(dst) = %d", n), fmt.Sprintf("len(dst) = %d, want 3", n), func() {
			var dst []int32
			if n > 0 {
				dst = make([]int32, n)
			}
			s.Distances(0, dst)
		}))
	}
	return cs
}

// TestValidate drives every exported entry point of wgraph with bad
// sizes, nodes, weights, lengths, documents and nil arguments: each gives
// the documented error, naming the input, or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(constructorCases(), graphCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}
