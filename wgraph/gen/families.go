package gen

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// The deterministic families below have unit weights. Nodes of grids and
// tori are numbered row-major: node (i, j) is i*cols + j. Each
// constructor returns an error wrapping loadlab.ErrInvalid for a size
// where the family is not a simple graph, and one wrapping
// loadlab.ErrTooLarge when the graph would not fit in memory (checked
// before anything is allocated). Their spectra are in spec throttlers.md
// §12.4.

// Path returns the path 0–1–…–(n−1), n ≥ 1.
func Path(n int) (*wgraph.Graph, error) {
	if err := familySize("Path", "n", n, 1, n, n-1); err != nil {
		return nil, err
	}
	p := newPairs(n - 1)
	for i := 0; i+1 < n; i++ {
		p.add(i, i+1)
	}
	return p.graph(n), nil
}

// Cycle returns the cycle on n ≥ 3 nodes (smaller cycles are not simple
// graphs).
func Cycle(n int) (*wgraph.Graph, error) {
	if err := familySize("Cycle", "n", n, 3, n, n); err != nil {
		return nil, err
	}
	p := newPairs(n)
	for i := range n {
		p.add(i, (i+1)%n)
	}
	return p.graph(n), nil
}

// Complete returns K_n, n ≥ 1.
func Complete(n int) (*wgraph.Graph, error) {
	m, ok := size.Mul(n, n-1)
	if m /= 2; !ok {
		m = -1 // n < 1 or overflow: familySize reports which
	}
	if err := familySize("Complete", "n", n, 1, n, m); err != nil {
		return nil, err
	}
	return complete(n), nil
}

// complete returns K_n without checking its size.
func complete(n int) *wgraph.Graph {
	p := newPairs(n * (n - 1) / 2)
	for u := range n {
		for v := u + 1; v < n; v++ {
			p.add(u, v)
		}
	}
	return p.graph(n)
}

// Star returns the star with hub 0 and leaves 1..n−1, n ≥ 1.
func Star(n int) (*wgraph.Graph, error) {
	if err := familySize("Star", "n", n, 1, n, n-1); err != nil {
		return nil, err
	}
	p := newPairs(n - 1)
	for v := 1; v < n; v++ {
		p.add(0, v)
	}
	return p.graph(n), nil
}

// Grid returns the rows×cols grid (Cartesian product of two paths),
// numbered row-major, rows, cols ≥ 1.
func Grid(rows, cols int) (*wgraph.Graph, error) {
	if _, err := productSize("Grid", rows, cols, 1); err != nil {
		return nil, err
	}
	return lattice(rows, cols, false), nil
}

// Torus returns the rows×cols torus (Cartesian product of two cycles),
// numbered row-major, rows, cols ≥ 3.
func Torus(rows, cols int) (*wgraph.Graph, error) {
	if _, err := productSize("Torus", rows, cols, 3); err != nil {
		return nil, err
	}
	return lattice(rows, cols, true), nil
}

// lattice returns the rows×cols grid, with wrap-around links if wrap is
// set (then rows, cols ≥ 3, so that no link repeats).
func lattice(rows, cols int, wrap bool) *wgraph.Graph {
	p := newPairs(2 * rows * cols)
	for i := range rows {
		for j := range cols {
			u := i*cols + j
			if j+1 < cols || wrap {
				p.add(u, i*cols+(j+1)%cols)
			}
			if i+1 < rows || wrap {
				p.add(u, ((i+1)%rows)*cols+j)
			}
		}
	}
	return p.graph(rows * cols)
}

// MaxHypercubeDim is the largest dimension Hypercube and
// spectral.HypercubeSpectrum accept (2^30 nodes).
const MaxHypercubeDim = 30

// Hypercube returns the d-dimensional hypercube Q_d on 2^d nodes,
// 0 ≤ d ≤ MaxHypercubeDim; u and v are adjacent when their binary labels
// differ in one bit. Beyond d ≈ 26 its d·2^(d−1) edges exceed the memory
// budget (an error wrapping loadlab.ErrTooLarge).
func Hypercube(d int) (*wgraph.Graph, error) {
	if err := checkDim("Hypercube", d); err != nil {
		return nil, err
	}
	n := 1 << d
	if err := wgraph.CheckSize("Hypercube", n, d*n/2); err != nil {
		return nil, err
	}
	p := newPairs(d * n / 2)
	for u := range n {
		for b := range d {
			if v := u ^ (1 << b); u < v {
				p.add(u, v)
			}
		}
	}
	return p.graph(n), nil
}

// checkDim returns an error unless 0 ≤ d ≤ MaxHypercubeDim.
func checkDim(fn string, d int) error {
	if d < 0 || d > MaxHypercubeDim {
		return loadlab.Invalid("gen", "%s: d = %d, want 0 ≤ d ≤ %d", fn, d, MaxHypercubeDim)
	}
	return nil
}

// atLeast returns an error unless v ≥ min.
func atLeast(fn, name string, v, min int) error {
	if v < min {
		return loadlab.Invalid("gen", "%s: %s = %d, want ≥ %d", fn, name, v, min)
	}
	return nil
}

// familySize checks a family's size parameter v ≥ min and that n nodes
// and m edges (m < 0: too many to count) fit in memory.
func familySize(fn, name string, v, min, n, m int) error {
	if err := atLeast(fn, name, v, min); err != nil {
		return err
	}
	if m < 0 || m > wgraph.MaxEdges {
		return loadlab.TooLarge("gen", "%s: %s = %d gives more than %d edges", fn, name, v, wgraph.MaxEdges)
	}
	return wgraph.CheckSize(fn, n, m)
}

// productSize checks rows, cols ≥ min for a grid-like family and returns
// the number of nodes, with about 2 edges per node.
func productSize(fn string, rows, cols, min int) (int, error) {
	if err := atLeast(fn, "rows", rows, min); err != nil {
		return 0, err
	}
	if err := atLeast(fn, "cols", cols, min); err != nil {
		return 0, err
	}
	n, ok := size.Mul(rows, cols)
	if !ok || n > wgraph.MaxOrder {
		return 0, loadlab.TooLarge("gen", "%s: rows×cols = %d×%d, want fewer than 2^31 nodes", fn, rows, cols)
	}
	return n, wgraph.CheckSize(fn, n, 2*n)
}

// pairs collects the distinct, valid edges of a generator.
type pairs struct {
	us, vs []int32
}

// newPairs returns pairs with room for m edges.
func newPairs(m int) *pairs {
	m = max(m, 0)
	return &pairs{us: make([]int32, 0, m), vs: make([]int32, 0, m)}
}

func (p *pairs) add(u, v int) { p.us, p.vs = append(p.us, int32(u)), append(p.vs, int32(v)) }

func (p *pairs) graph(n int) *wgraph.Graph { return fromPairs(n, p.us, p.vs) }
