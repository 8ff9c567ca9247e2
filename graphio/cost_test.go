package graphio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
)

// costCase is a file for one reader, with the nodes, edges and label
// bytes of the graph it holds.
type costCase struct {
	src                  []byte
	nodes, edges, labels int
}

// costFile writes a graph of n nodes and m edges in a reader's format:
// a perfect matching for m = n/2 (n/2 components, each with its list),
// else a random spanning tree plus random pairs. Labels are "n<i>", or
// numbers.
func costFile(format string, n, m int, numeric bool, seed uint64) costCase {
	r := rand.New(rand.NewPCG(seed, 7))
	seen := map[[2]int]bool{}
	var es []wgraph.Edge
	for len(es) < m {
		u, v := r.IntN(n), r.IntN(n)
		switch {
		case m == n/2:
			u, v = 2*len(es), 2*len(es)+1
		case len(es) < n-1:
			u, v = len(es)+1, r.IntN(len(es)+1)
		}
		if u == v || seen[[2]int{min(u, v), max(u, v)}] {
			continue
		}
		seen[[2]int{min(u, v), max(u, v)}] = true
		es = append(es, wgraph.Edge{U: u, V: v, W: 1 + r.Float64()})
	}
	g, err := wgraph.FromEdges(n, es)
	if err != nil {
		panic(err)
	}
	labels := make([]string, n)
	lb := 0
	for i := range labels {
		labels[i] = "n" + fmt.Sprint(i)
		if numeric || format == "mtx" {
			labels[i] = fmt.Sprint(i + 1)
		}
		lb += len(labels[i])
	}
	var b bytes.Buffer
	switch format {
	case "edgelist":
		err = WriteEdgeList(&b, g, labels)
	case "graphml":
		err = WriteGraphML(&b, g, labels)
	case "mtx":
		err = WriteMatrixMarket(&b, g)
	case "dot":
		b.WriteString("graph {\n")
		for _, e := range g.Edges() {
			fmt.Fprintf(&b, "%s -- %s [weight=%.6f]\n", labels[e.U], labels[e.V], e.W)
		}
		b.WriteString("}\n")
	}
	if err != nil {
		panic(err)
	}
	return costCase{src: b.Bytes(), nodes: n, edges: g.Size(), labels: lb}
}

var costReaders = map[string]struct {
	read func(io.Reader, *Options) (*Data, error)
	cost readCost
}{
	"edgelist": {ReadEdgeList, costEdgeList},
	"graphml":  {ReadGraphML, costGraphML},
	"dot":      {ReadDOT, costDOT},
	"mtx":      {ReadMatrixMarket, costMatrixMarket},
}

// measure returns the bytes a read of c allocates.
func measure(t *testing.T, format string, c costCase, o *Options) float64 {
	t.Helper()
	var err error
	a := allocated(func() { _, err = costReaders[format].read(bytes.NewReader(c.src), o) })
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return float64(a)
}

// guard is the memory the guards of cost.go assume for a read of c.
func guard(format string, c costCase) float64 {
	k := costReaders[format].cost
	g := costFixed + c.nodes*k.node + c.labels + c.edges*k.edge
	if format == "dot" {
		g += len(c.src) * costDOTByte
	}
	return float64(g)
}

// TestReaderCost measures what each reader allocates per node and per
// edge (runtime.MemStats.TotalAlloc), from two files of the same nodes
// with ½ and 8 edges a node, and fails if a figure of cost.go, which the
// memory guards use, is below the measurement, or if a read allocates
// more than the guards assume: the guards cannot fall behind the code.
func TestReaderCost(t *testing.T) {
	if testing.Short() {
		t.Skip("reads files of 10⁵ edges")
	}
	const n = 1 << 14
	for _, format := range []string{"edgelist", "graphml", "dot", "mtx"} {
		k := costReaders[format].cost
		for _, numeric := range []bool{true, false} {
			if numeric && format == "mtx" {
				continue // Matrix Market labels are numbers either way
			}
			o := &Options{Duplicates: SumDuplicates}
			sparse := costFile(format, n, n/2, numeric, 1)
			dense := costFile(format, n, 8*n, numeric, 2)
			a, b := measure(t, format, sparse, o), measure(t, format, dense, o)
			for _, c := range []struct {
				costCase
				got float64
			}{{sparse, a}, {dense, b}} {
				if g := guard(format, c.costCase); c.got > g {
					t.Errorf("%s, %d nodes, %d edges: allocated %.0f bytes, the guards assume %.0f", format, c.nodes, c.edges, c.got, g)
				}
			}
			if format == "dot" {
				// Nodes, edges and bytes of source grow together: the
				// cost a byte is what the node and edge figures leave.
				perByte := (b - guard(format, dense) + float64(len(dense.src)*costDOTByte)) / float64(len(dense.src))
				t.Logf("dot (numeric labels %v): %.1f B a byte of source (guard: %d)", numeric, perByte, costDOTByte)
				if perByte > costDOTByte {
					t.Errorf("dot: measured %.1f B a byte of source; the guard assumes %d", perByte, costDOTByte)
				}
				continue
			}
			perEdge := (b - a) / float64(dense.edges-sparse.edges)
			perNode := (a - perEdge*float64(sparse.edges) - float64(sparse.labels)) / n
			t.Logf("%s (numeric labels %v): %.1f B a node, %.1f B an edge (guards: %d, %d)", format, numeric, perNode, perEdge, k.node, k.edge)
			if perNode > float64(k.node) || perEdge > float64(k.edge) {
				t.Errorf("%s: measured %.1f B a node and %.1f B an edge; the guards assume %d and %d", format, perNode, perEdge, k.node, k.edge)
			}
		}
	}
}

// Isolated nodes, which only Matrix Market can declare in bulk, cost no
// more than costNode each.
func TestReaderCostIsolated(t *testing.T) {
	const n = 1 << 18
	src := fmt.Sprintf("%s%d %d 1\n2 1 1\n", mtxSym, n, n)
	var err error
	a := allocated(func() { _, err = ReadMatrixMarket(strings.NewReader(src), &Options{MaxIsolated: n}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mtx: %.1f B an isolated node", float64(a)/n)
	if guard := costFixed + n*(costMatrixMarket.node+labelDigits); a > uint64(guard) {
		t.Errorf("%d isolated nodes: allocated %d bytes, guard %d", n, a, guard)
	}
}

// With a small budget, an endless edge list fails with ErrTooLarge once
// the guard's figure reaches the budget, having allocated no more than
// the budget (guards: a read limited only by the machine's memory).
func TestMemoryGuard(t *testing.T) {
	defer func(b int) { budget = b }(budget)
	budget = 64 << 20
	var err error
	a := allocated(func() { _, err = ReadEdgeList(&endless{}, nil) })
	if !errors.Is(err, loadlab.ErrTooLarge) || !strings.Contains(err.Error(), "64 MiB memory budget") {
		t.Fatalf("endless edge list under a 64 MiB budget: %v, want ErrTooLarge", err)
	}
	if a > uint64(budget) {
		t.Errorf("allocated %d bytes, more than the %d budget", a, budget)
	}
	// A Matrix Market size line that needs more than the budget.
	_, err = ReadMatrixMarket(strings.NewReader(mtxSym+"100000 100000 100000\n"), nil)
	if !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("10⁵ nodes and entries under a 64 MiB budget: %v, want ErrTooLarge", err)
	}
}

// One line can name the largest number kept in the slice store of
// numbered labels: the fixed cost covers it.
func TestReaderCostNumberedLabel(t *testing.T) {
	src := fmt.Sprintf("0 %d 1\n", 1<<20-1)
	var err error
	a := allocated(func() { _, err = ReadEdgeList(strings.NewReader(src), nil) })
	if err != nil {
		t.Fatal(err)
	}
	if g := guard("edgelist", costCase{nodes: 2, edges: 1, labels: len(src)}); float64(a) > g {
		t.Errorf("one edge to node %d: allocated %d bytes, the guards assume %.0f", 1<<20-1, a, g)
	}
}

// endless is an edge list of a path 0–1–2–… that never ends.
type endless struct {
	k    int
	rest []byte
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(e.rest) == 0 {
			e.rest = fmt.Appendf(e.rest[:0], "%d %d 1\n", e.k, e.k+1)
			e.k++
		}
		c := copy(p[n:], e.rest)
		e.rest, n = e.rest[c:], n+c
	}
	return n, nil
}
