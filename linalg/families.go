package linalg

import "fmt"

// The deterministic families below have unit weights. Nodes of grids and
// tori are numbered row-major: node (i, j) is i*cols + j. Each
// constructor panics for sizes where the family is not a simple graph,
// as documented; those are programmer errors.

// Path returns the path 0–1–…–(n−1). It panics if n < 1.
func Path(n int) *Graph {
	mustAtLeast("Path", "n", n, 1)
	var p pairs
	for i := 0; i+1 < n; i++ {
		p.add(i, i+1)
	}
	return p.graph(n)
}

// Cycle returns the cycle on n nodes. It panics if n < 3 (smaller
// cycles are not simple graphs).
func Cycle(n int) *Graph {
	mustAtLeast("Cycle", "n", n, 3)
	var p pairs
	for i := range n {
		p.add(i, (i+1)%n)
	}
	return p.graph(n)
}

// Complete returns K_n. It panics if n < 1.
func Complete(n int) *Graph {
	mustAtLeast("Complete", "n", n, 1)
	var p pairs
	for u := range n {
		for v := u + 1; v < n; v++ {
			p.add(u, v)
		}
	}
	return p.graph(n)
}

// Star returns the star with hub 0 and leaves 1..n−1. It panics if n < 1.
func Star(n int) *Graph {
	mustAtLeast("Star", "n", n, 1)
	var p pairs
	for v := 1; v < n; v++ {
		p.add(0, v)
	}
	return p.graph(n)
}

// Grid returns the rows×cols grid (Cartesian product of two paths),
// numbered row-major. It panics if rows < 1 or cols < 1.
func Grid(rows, cols int) *Graph {
	mustAtLeast("Grid", "rows", rows, 1)
	mustAtLeast("Grid", "cols", cols, 1)
	var p pairs
	for i := range rows {
		for j := range cols {
			u := i*cols + j
			if j+1 < cols {
				p.add(u, u+1)
			}
			if i+1 < rows {
				p.add(u, u+cols)
			}
		}
	}
	return p.graph(rows * cols)
}

// Torus returns the rows×cols torus (Cartesian product of two cycles),
// numbered row-major. It panics if rows < 3 or cols < 3.
func Torus(rows, cols int) *Graph {
	mustAtLeast("Torus", "rows", rows, 3)
	mustAtLeast("Torus", "cols", cols, 3)
	var p pairs
	for i := range rows {
		for j := range cols {
			u := i*cols + j
			p.add(u, i*cols+(j+1)%cols)
			p.add(u, ((i+1)%rows)*cols+j)
		}
	}
	return p.graph(rows * cols)
}

// Hypercube returns the d-dimensional hypercube Q_d on 2^d nodes; u and v
// are adjacent when their binary labels differ in one bit. It panics if
// d < 0 or d > 30.
func Hypercube(d int) *Graph {
	mustAtLeast("Hypercube", "d", d, 0)
	if d > 30 {
		panic(fmt.Sprintf("linalg: Hypercube(%d): d > 30", d))
	}
	n := 1 << d
	var p pairs
	for u := range n {
		for b := range d {
			if v := u ^ (1 << b); u < v {
				p.add(u, v)
			}
		}
	}
	return p.graph(n)
}

func mustAtLeast(fn, name string, v, min int) {
	if v < min {
		panic(fmt.Sprintf("linalg: %s: %s = %d, want ≥ %d", fn, name, v, min))
	}
}

// pairs collects distinct, valid edges for the constructors: unit weights
// if only add is used.
type pairs struct {
	us, vs []int32
	ws     []float64
}

func (p *pairs) add(u, v int) { p.us, p.vs = append(p.us, int32(u)), append(p.vs, int32(v)) }

func (p *pairs) addWeighted(u, v int, w float64) {
	p.add(u, v)
	p.ws = append(p.ws, w)
}

func (p *pairs) graph(n int) *Graph { return buildCSR(n, p.us, p.vs, p.ws) }
