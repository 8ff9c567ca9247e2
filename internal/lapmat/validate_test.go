package lapmat

import (
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestValidate drives the entry points of lapmat that take data from
// outside the sparse kernels: a nil graph and a negative length are
// documented panics, and New reports a graph it cannot renumber (no
// nodes, disconnected) by a nil matrix for the caller to name. The
// kernels (products, gather and scatter over a matrix's N rows) run on
// lengths and row ranges that their callers, laplacian's Operator and
// Solver and the Lanczos blocks, check before every call: they are
// exempt, with that reason.
func TestValidate(t *testing.T) {
	cs := []badarg.Case{
		badarg.Probe{Func: "New"}.Panics("g = nil", "lapmat: New: nil graph g", func() { _, _ = New(nil) }),
		badarg.Probe{Func: "HugeFloats"}.Panics("n = -1", "len out of range", func() { HugeFloats(-1) }),
	}
	badarg.Run(t, cs)
	for name, g := range map[string]*wgraph.Graph{
		"no nodes":       &wgraph.Graph{},
		"two components": graphtest.Must(wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}})),
	} {
		if m, err := New(g); m != nil || err != nil {
			t.Errorf("New(%s) = %v, %v: want nil, nil", name, m, err)
		}
	}
	if m, err := New(graphtest.Must(gen.Path(3))); m == nil || err != nil {
		t.Errorf("New(path) = %v, %v: want a matrix", m, err)
	}
	const kernel = "a kernel of the sparse products: its callers check the lengths and row ranges before every call"
	badarg.Coverage(t, ".", cs, map[string]string{
		"Matrix.Rows":      kernel,
		"Matrix.RowsBlock": kernel,
		"Matrix.Span":      kernel,
		"Matrix.Gather":    kernel,
		"Matrix.Scatter":   kernel,
		"NumBlocks":        "arithmetic on a row count",
		"BlockRows":        "arithmetic on a block index and a row count",
		"ParallelBlocks":   "forwards to internal/par's Blocks, which runs fn on the blocks [0, nb)",
		"AdviseHuge":       "advice on the caller's own allocation: any length is accepted, below 4 MiB a no-op",
	})
}
