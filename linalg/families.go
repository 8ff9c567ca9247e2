package linalg

import "fmt"

// The deterministic families below have unit weights. Nodes of grids and
// tori are numbered row-major: node (i, j) is i*cols + j. Each
// constructor panics for sizes where the family is not a simple graph,
// as documented; those are programmer errors.

// Path returns the path 0–1–…–(n−1). It panics if n < 1.
func Path(n int) *Graph {
	mustAtLeast("Path", "n", n, 1)
	g := NewGraph(n)
	for i := 0; i+1 < n; i++ {
		g.addEdge(i, i+1, 1)
	}
	return g
}

// Cycle returns the cycle on n nodes. It panics if n < 3 (smaller
// cycles are not simple graphs).
func Cycle(n int) *Graph {
	mustAtLeast("Cycle", "n", n, 3)
	g := Path(n)
	g.addEdge(n-1, 0, 1)
	return g
}

// Complete returns K_n. It panics if n < 1.
func Complete(n int) *Graph {
	mustAtLeast("Complete", "n", n, 1)
	g := NewGraph(n)
	for u := range n {
		g.nbr[u] = make([]int, 0, n-1)
		g.wt[u] = make([]float64, 0, n-1)
	}
	for u := range n {
		for v := u + 1; v < n; v++ {
			g.addEdge(u, v, 1)
		}
	}
	return g
}

// Star returns the star with hub 0 and leaves 1..n−1. It panics if n < 1.
func Star(n int) *Graph {
	mustAtLeast("Star", "n", n, 1)
	g := NewGraph(n)
	for v := 1; v < n; v++ {
		g.addEdge(0, v, 1)
	}
	return g
}

// Grid returns the rows×cols grid (Cartesian product of two paths),
// numbered row-major. It panics if rows < 1 or cols < 1.
func Grid(rows, cols int) *Graph {
	mustAtLeast("Grid", "rows", rows, 1)
	mustAtLeast("Grid", "cols", cols, 1)
	g := NewGraph(rows * cols)
	for i := range rows {
		for j := range cols {
			u := i*cols + j
			if j+1 < cols {
				g.addEdge(u, u+1, 1)
			}
			if i+1 < rows {
				g.addEdge(u, u+cols, 1)
			}
		}
	}
	return g
}

// Torus returns the rows×cols torus (Cartesian product of two cycles),
// numbered row-major. It panics if rows < 3 or cols < 3.
func Torus(rows, cols int) *Graph {
	mustAtLeast("Torus", "rows", rows, 3)
	mustAtLeast("Torus", "cols", cols, 3)
	g := NewGraph(rows * cols)
	for i := range rows {
		for j := range cols {
			u := i*cols + j
			g.addEdge(u, i*cols+(j+1)%cols, 1)
			g.addEdge(u, ((i+1)%rows)*cols+j, 1)
		}
	}
	return g
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
	g := NewGraph(n)
	for u := range n {
		g.nbr[u] = make([]int, 0, d)
		g.wt[u] = make([]float64, 0, d)
	}
	for u := range n {
		for b := range d {
			if v := u ^ (1 << b); u < v {
				g.addEdge(u, v, 1)
			}
		}
	}
	return g
}

func mustAtLeast(fn, name string, v, min int) {
	if v < min {
		panic(fmt.Sprintf("linalg: %s: %s = %d, want ≥ %d", fn, name, v, min))
	}
}
