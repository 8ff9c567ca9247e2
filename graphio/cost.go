package graphio

import (
	"fmt"

	"github.com/loadlab/loadlab/internal/size"
)

// budget is the memory a read may use: the package-wide budget
// size.MaxBytes (docs/conventions.md §5); a variable so that tests can
// check the guard with a small one.
var budget = size.MaxBytes

// readCost is the memory a reader spends per node (besides its label's
// text) and per edge, in bytes.
type readCost struct{ node, edge int }

// The memory each reader spends, counted as every byte it allocates
// (runtime.MemStats.TotalAlloc: growth copies, the decoder's tokens and
// the temporaries of the graph build count, garbage or not, so the
// guards err on the side of refusing). TestReaderCost measures each
// reader on generated files and fails if a figure here is below the
// measurement; the figures carry a margin of about a quarter over it.
var (
	// Edge list: the label's header and index entry, the CSR offsets,
	// the breadth-first search and the component lists a node; the
	// collected edge and its line, the CSR arrays and the duplicate
	// check an edge.
	costEdgeList = readCost{node: 288, edge: 208}
	// GraphML: the edge list's, plus the XML decoder's tokens.
	costGraphML = readCost{node: 768, edge: 1200}
	// DOT: the edge list's, plus the recorded nodes and lines; the
	// document and gonum's syntax tree are charged per byte of source
	// (costDOTByte), since a read holds them in full before the first
	// edge.
	costDOT = readCost{node: 288, edge: 384}
	// Matrix Market: a node's label is cut from one string of all of
	// them (labelDigits bytes each at most); an entry is its value and
	// index before it becomes an edge.
	costMatrixMarket = readCost{node: 192, edge: 416}
)

const (
	costDOTByte = 80
	// costFixed: memory of a read whatever the file's size: buffers, and
	// the slice that finds numbered labels below 2^20 (4 bytes a number,
	// grown by doubling), which one line can fill.
	costFixed = 16 << 20
)

// defaultMaxIsolated is the default of Options.MaxIsolated.
const defaultMaxIsolated = 1 << 20

// checkMemory returns an error wrapping loadlab.ErrTooLarge, naming the
// line, if a graph of nodes and edges (with the labels read so far)
// would exceed the memory budget.
func (c *collector) checkMemory(line, nodes, edges int) error {
	if need := costFixed + c.base + nodes*c.cost.node + c.labelBytes + edges*c.cost.edge; need > budget {
		return &ParseError{Line: line, Msg: fmt.Sprintf("%d nodes and %d edges need more than the %s memory budget", nodes, edges, bytesText(budget)), Err: errTooLarge}
	}
	return nil
}

// bytesText writes a byte count in GiB, MiB or bytes.
func bytesText(b int) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%d B", b)
}
