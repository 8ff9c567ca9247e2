package codedload

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Topology is a network of n servers, numbered 0..n−1, with hop distances
// (spec §3.1). The implementations in this package are Torus, Grid,
// Hypercube and GraphTopology; the interface is sealed because the simulator needs
// each topology's own way of searching outward from a node (rings on the
// torus and grid, Hamming shells on the hypercube, breadth-first search on a
// general graph). Any connected *wgraph.Graph enters through FromGraph.
type Topology interface {
	// Order returns the number of servers n.
	Order() int
	// Dist returns the hop distance between u and v. It is a closed form on
	// Torus, Grid and Hypercube and a bidirectional breadth-first search
	// (O(n) time at worst) on GraphTopology.
	Dist(u, v int) int
	// newSearch returns a searcher owned by one goroutine.
	newSearch() searcher
}

// searcher enumerates the servers around an origin by increasing distance,
// one shell {v : dist(u, v) = d} at a time, without an all-pairs table.
type searcher interface {
	// start begins a new search from u.
	start(u int)
	// next returns the next shell: its distance d and its nodes. The slice
	// is valid until the following call. ok is false once every node has
	// been returned.
	next() (d int, nodes []int32, ok bool)
	// dist returns the distance from the origin to v; on a GraphTopology it may
	// advance the search, after which next continues from where it stood.
	dist(v int) int
}

// TorusMetric selects the distance used on a Torus.
type TorusMetric int

const (
	// WrapExact is the true torus distance (spec §3.1):
	//  dist(a, b) = min(|Δr|, s−|Δr|) + min(|Δc|, s−|Δc|).
	WrapExact TorusMetric = iota
	// WrapLegacy is the authors' metric before their January 2019 fix
	// (spec §3.1, legacy-metric note): the minimum over no wrap and a wrap
	// in exactly one coordinate, min(|Δr|+|Δc|, s−|Δr|+|Δc|, |Δr|+s−|Δc|).
	// It overestimates pairs that need a wrap in both coordinates and is
	// offered only to reproduce older figures.
	WrapLegacy
)

// Torus is the s×s grid with wrap-around; node i sits at row ⌊i/s⌋ and
// column i mod s (spec §3.1).
type Torus struct {
	Side   int
	Metric TorusMetric
}

// maxSide is the largest torus side: 46340² < 2^31 ≤ 46341², so node
// indices fit in int32.
const maxSide = 46340

// NewTorus returns the torus with n nodes. It returns an error wrapping
// loadlab.ErrInvalid unless n is a perfect square with side ≥ 2, and one
// wrapping loadlab.ErrTooLarge if the side exceeds 46340 (n ≥ 2^31).
func NewTorus(n int) (*Torus, error) {
	if n > maxSide*maxSide {
		return nil, loadlab.TooLarge(pkg, "torus Order = %d, want ≤ 46340² (node indices are int32)", n)
	}
	s := int(math.Sqrt(float64(n)) + 0.5)
	if n < 4 || s*s != n {
		return nil, loadlab.Invalid(pkg, "torus Order = %d, want a perfect square ≥ 4", n)
	}
	return &Torus{Side: s}, nil
}

// Validate returns an error naming the field unless 1 ≤ Side ≤ 46340 and
// Metric is known (a hand-built Torus may hold anything).
func (t *Torus) Validate() error {
	switch {
	case t.Side < 1 || t.Side > maxSide:
		return loadlab.Invalid(pkg, "Torus.Side = %d, want 1 ≤ Side ≤ 46340", t.Side)
	case t.Metric != WrapExact && t.Metric != WrapLegacy:
		return loadlab.Invalid(pkg, "Torus.Metric = %d, unknown", int(t.Metric))
	}
	return nil
}

// Order returns Side².
func (t *Torus) Order() int { return t.Side * t.Side }

// Dist returns the torus distance under t.Metric. It panics if u or v is
// outside [0, Side²).
func (t *Torus) Dist(u, v int) int {
	checkNodes("Torus.Dist", u, v, t.Order())
	s := t.Side
	x := absInt(u/s - v/s)
	y := absInt(u%s - v%s)
	if t.Metric == WrapLegacy {
		return legacyDist(s, x, y)
	}
	return min(x, s-x) + min(y, s-y)
}

// checkNodes panics, naming the method, unless u and v are nodes of a
// topology of n nodes: an index out of range is a programmer error.
func checkNodes(method string, u, v, n int) {
	if u < 0 || u >= n || v < 0 || v >= n {
		panic(fmt.Sprintf("%s: %s(%d, %d) with n = %d: node out of range", pkg, method, u, v, n))
	}
}

// legacyDist is the five-offset metric for raw coordinate gaps x, y in
// [0, s).
func legacyDist(s, x, y int) int { return min(x+y, s-x+y, x+s-y) }

func (t *Torus) newSearch() searcher {
	return &torusSearch{t: t, buf: make([]int32, 0, 4*t.Side+4)}
}

type torusSearch struct {
	t      *Torus
	r, c   int
	d      int
	buf    []int32
	served int // nodes returned so far
}

func (q *torusSearch) start(u int) {
	q.r, q.c = u/q.t.Side, u%q.t.Side
	q.d = -1
	q.served = 0
}

func (q *torusSearch) dist(v int) int { return q.t.Dist(q.r*q.t.Side+q.c, v) }

// ring returns the valid offsets range for one coordinate: every residue
// mod s is represented once with |offset| equal to its wrapped distance.
func ringRange(s int) (lo, hi int) {
	if s%2 == 0 {
		return -(s/2 - 1), s / 2
	}
	return -(s - 1) / 2, (s - 1) / 2
}

func (q *torusSearch) next() (int, []int32, bool) {
	s := q.t.Side
	if q.served == s*s {
		return 0, nil, false
	}
	for {
		q.d++
		q.buf = q.buf[:0]
		if q.t.Metric == WrapLegacy {
			q.legacyShell()
		} else {
			q.exactShell()
		}
		if len(q.buf) > 0 {
			q.served += len(q.buf)
			return q.d, q.buf, true
		}
		// Under the legacy metric a shell can be empty below the
		// diameter; under the exact metric this cannot happen.
	}
}

// exactShell lists the nodes with |dr|+|dc| = d, each residue pair once.
func (q *torusSearch) exactShell() {
	s, d := q.t.Side, q.d
	lo, hi := ringRange(s)
	for dr := max(-d, lo); dr <= min(d, hi); dr++ {
		row := mod(q.r+dr, s) * s
		dc := d - absInt(dr)
		if dc <= hi {
			q.buf = append(q.buf, int32(row+mod(q.c+dc, s)))
		}
		if dc != 0 && -dc >= lo {
			q.buf = append(q.buf, int32(row+mod(q.c-dc, s)))
		}
	}
}

// legacyShell lists the nodes at legacy distance d. Legacy distance is at
// least the exact one, so only rows within wrapped row distance d qualify.
// With raw gaps x (rows) and y (columns) and m = min(x, s−x), the distance
// is min(m+y, x+s−y): the first term increases in y and the second
// decreases, so each row has at most two solutions y.
func (q *torusSearch) legacyShell() {
	s, d := q.t.Side, q.d
	lo, hi := ringRange(s)
	for dr := max(-d, lo); dr <= min(d, hi); dr++ {
		r2 := mod(q.r+dr, s)
		x := absInt(q.r - r2)
		m := min(x, s-x)
		y1, y2 := d-m, x+s-d
		if y1 >= 0 && y1 < s && x+s-y1 >= d {
			q.addCols(r2, y1)
		}
		if y2 >= 0 && y2 < s && y2 != y1 && m+y2 >= d {
			q.addCols(r2, y2)
		}
	}
}

// addCols appends the nodes of row r2 whose raw column gap to the origin is y.
func (q *torusSearch) addCols(r2, y int) {
	s := q.t.Side
	if c := q.c + y; c < s {
		q.buf = append(q.buf, int32(r2*s+c))
	}
	if c := q.c - y; y != 0 && c >= 0 {
		q.buf = append(q.buf, int32(r2*s+c))
	}
}

// Grid is the Rows×Cols grid without wrap-around; node i sits at row
// ⌊i/Cols⌋ and column i mod Cols, and the distance is |Δr| + |Δc|.
type Grid struct {
	Rows, Cols int
}

// NewGrid returns the rows×cols grid. It returns an error wrapping
// loadlab.ErrInvalid unless both sides are ≥ 1 and the grid has at least 2
// nodes, and one wrapping loadlab.ErrTooLarge if it has 2^31 nodes or more.
func NewGrid(rows, cols int) (*Grid, error) {
	g := &Grid{Rows: rows, Cols: cols}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if rows*cols < 2 {
		return nil, loadlab.Invalid(pkg, "grid Rows×Cols = %d×%d, want ≥ 2 nodes", rows, cols)
	}
	return g, nil
}

// Validate returns an error naming the fields unless Rows, Cols ≥ 1 and
// Rows·Cols < 2^31.
func (g *Grid) Validate() error {
	if g.Rows < 1 || g.Cols < 1 {
		return loadlab.Invalid(pkg, "Grid Rows×Cols = %d×%d, want ≥ 1 each", g.Rows, g.Cols)
	}
	if n, ok := size.Mul(g.Rows, g.Cols); !ok || n > 1<<31-1 {
		return loadlab.TooLarge(pkg, "Grid Rows×Cols = %d×%d, want fewer than 2^31 nodes", g.Rows, g.Cols)
	}
	return nil
}

// Order returns Rows·Cols.
func (g *Grid) Order() int { return g.Rows * g.Cols }

// Dist returns |Δr| + |Δc|. It panics if u or v is outside [0, Rows·Cols).
func (g *Grid) Dist(u, v int) int {
	checkNodes("Grid.Dist", u, v, g.Order())
	return absInt(u/g.Cols-v/g.Cols) + absInt(u%g.Cols-v%g.Cols)
}

func (g *Grid) newSearch() searcher {
	return &gridSearch{g: g, buf: make([]int32, 0, 2*(g.Rows+g.Cols)+4)}
}

type gridSearch struct {
	g      *Grid
	r, c   int
	d      int
	buf    []int32
	served int
}

func (q *gridSearch) start(u int) {
	q.r, q.c, q.d, q.served = u/q.g.Cols, u%q.g.Cols, -1, 0
}

func (q *gridSearch) dist(v int) int { return q.g.Dist(q.r*q.g.Cols+q.c, v) }

func (q *gridSearch) next() (int, []int32, bool) {
	g := q.g
	if q.served == g.Rows*g.Cols {
		return 0, nil, false
	}
	q.d++
	d := q.d
	q.buf = q.buf[:0]
	for dr := max(-d, -q.r); dr <= min(d, g.Rows-1-q.r); dr++ {
		row := (q.r + dr) * g.Cols
		dc := d - absInt(dr)
		if q.c+dc < g.Cols {
			q.buf = append(q.buf, int32(row+q.c+dc))
		}
		if dc != 0 && q.c-dc >= 0 {
			q.buf = append(q.buf, int32(row+q.c-dc))
		}
	}
	q.served += len(q.buf)
	return d, q.buf, true
}

// Hypercube is the m-dimensional hypercube on n = 2^m nodes; the distance is
// the Hamming distance popcount(u ⊕ v).
type Hypercube struct {
	Dim int
}

// NewHypercube returns the hypercube with n nodes. It returns an error
// wrapping loadlab.ErrInvalid unless n is a power of two between 2 and 2^30.
func NewHypercube(n int) (*Hypercube, error) {
	if n < 2 || n > 1<<30 || n&(n-1) != 0 {
		return nil, loadlab.Invalid(pkg, "hypercube Order = %d, want a power of two in [2, 2^30]", n)
	}
	return &Hypercube{Dim: bits.TrailingZeros(uint(n))}, nil
}

// Validate returns an error naming the field unless 0 ≤ Dim ≤ 30.
func (h *Hypercube) Validate() error {
	if h.Dim < 0 || h.Dim > 30 {
		return loadlab.Invalid(pkg, "Hypercube.Dim = %d, want 0 ≤ Dim ≤ 30", h.Dim)
	}
	return nil
}

// Order returns 2^Dim.
func (h *Hypercube) Order() int { return 1 << h.Dim }

// Dist returns the Hamming distance. It panics if u or v is outside
// [0, 2^Dim).
func (h *Hypercube) Dist(u, v int) int {
	checkNodes("Hypercube.Dist", u, v, h.Order())
	return bits.OnesCount(uint(u ^ v))
}

func (h *Hypercube) newSearch() searcher {
	// The largest shell is the middle binomial coefficient.
	big := 1
	for i := 0; i < h.Dim/2; i++ {
		big = big * (h.Dim - i) / (i + 1)
	}
	return &cubeSearch{h: h, buf: make([]int32, 0, min(big, 1<<16))}
}

type cubeSearch struct {
	h   *Hypercube
	u   int
	d   int
	buf []int32
}

func (q *cubeSearch) start(u int)    { q.u, q.d = u, -1 }
func (q *cubeSearch) dist(v int) int { return bits.OnesCount(uint(q.u ^ v)) }

// next enumerates the masks with d bits set in increasing order with
// Gosper's hack.
func (q *cubeSearch) next() (int, []int32, bool) {
	if q.d == q.h.Dim {
		return 0, nil, false
	}
	q.d++
	q.buf = q.buf[:0]
	if q.d == 0 {
		q.buf = append(q.buf, int32(q.u))
		return 0, q.buf, true
	}
	limit := uint(1) << q.h.Dim
	for x := uint(1)<<q.d - 1; x < limit; {
		q.buf = append(q.buf, int32(uint(q.u)^x))
		c := x & -x
		r := x + c
		x = (((r ^ x) >> 2) / c) | r
	}
	return q.d, q.buf, true
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func mod(x, s int) int {
	x %= s
	if x < 0 {
		x += s
	}
	return x
}
