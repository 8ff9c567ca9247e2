package gen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/spatial/r2"
)

// The random generators below return unit-weight graphs and draw every
// random number from the caller's rand.Source, so the same source state
// gives the same graph. None of them uses the global generator. Their
// laws are stated in spec throttlers.md §12.5.

// MaxConnectAttempts bounds the number of samples ErdosRenyi draws when
// asked for a connected graph.
const MaxConnectAttempts = 10000

// ErdosRenyi returns a sample of the Erdős–Rényi graph G(n, p): each of
// the n(n−1)/2 possible edges is present independently with probability
// p. Sampling skips over absent edges with geometric jumps (Batagelj and
// Brandes), so the cost is O(n + m) for m edges, not O(n²).
//
// If connected is true, samples are drawn until one is connected, which
// gives G(n, p) conditioned on connectivity. Before sampling, the expected
// number of isolated nodes μ = n(1−p)^(n−1) is computed; a graph with an
// isolated node is disconnected and, for large n, the number of isolated
// nodes is nearly Poisson(μ), so P(connected) ≤ about e^(−μ). ErdosRenyi
// returns an error if μ > 5 (P(connected) below about 0.7%, so p is too
// small, the threshold being p ≈ ln n / n) or if no connected sample is
// found in MaxConnectAttempts draws.
//
// It returns an error wrapping loadlab.ErrInvalid if n is negative, p is
// not in [0, 1] or too small for a connected sample, loadlab.ErrTooLarge
// if n ≥ 2^31 or the expected number of edges p·n(n−1)/2 (plus four
// standard deviations) would not fit in memory, and
// loadlab.ErrDisconnected if no connected sample was found. It panics if
// src is nil.
func ErdosRenyi(n int, p float64, connected bool, src rand.Source) (*wgraph.Graph, error) {
	if src == nil {
		panic("gen: ErdosRenyi: nil rand.Source src")
	}
	if err := wgraph.CheckSize("ErdosRenyi", n, 0); err != nil {
		return nil, err
	}
	if !(p >= 0 && p <= 1) {
		return nil, loadlab.Invalid("gen", "ErdosRenyi: p = %v, want a probability in [0, 1]", p)
	}
	mean := p * float64(n) * float64(max(n-1, 0)) / 2
	if err := size.Check("gen", fmt.Sprintf("ErdosRenyi(n = %d, p = %v): expected number of edges", n, p), int(min(mean+4*math.Sqrt(mean), 1<<62)), 32); err != nil {
		return nil, err
	}
	rnd := rand.New(src)
	if !connected {
		return gnp(n, p, rnd), nil
	}
	if n > 1 {
		// Expected isolated nodes, computed in logs to avoid underflow.
		mu := math.Exp(math.Log(float64(n)) + float64(n-1)*math.Log1p(-p))
		if mu > 5 {
			return nil, loadlab.Invalid("gen", "ErdosRenyi: p = %v too small for a connected sample on n = %d nodes: %.3g isolated nodes expected (connectivity threshold p ≈ ln n / n = %.3g)", p, n, mu, math.Log(float64(n))/float64(n))
		}
	}
	for range MaxConnectAttempts {
		if g := gnp(n, p, rnd); wgraph.IsConnected(g) {
			return g, nil
		}
	}
	return nil, loadlab.Wrap(loadlab.ErrDisconnected, "gen", "ErdosRenyi: no connected sample of G(%d, %v) in %d attempts", n, p, MaxConnectAttempts)
}

// gnp samples G(n, p) by geometric skipping over the pairs (v, w), w < v,
// in lexicographic order (Batagelj and Brandes 2005, algorithm G(n, p)).
func gnp(n int, p float64, rnd *rand.Rand) *wgraph.Graph {
	switch {
	case n < 2 || p == 0:
		return fromPairs(n, nil, nil)
	case p == 1:
		return complete(n) // the caller has checked the size
	}
	// Room for the mean plus 4 standard deviations avoids regrowth; the
	// caller has checked that it fits in memory.
	mean := p * float64(n) * float64(n-1) / 2
	c := int(mean + 4*math.Sqrt(mean) + 16)
	us, vs := make([]int32, 0, c), make([]int32, 0, c)
	lq := math.Log1p(-p)
	v, w := 1, -1
	for v < n {
		// Number of absent pairs before the next edge: Geometric(p) on
		// {0, 1, …}, by inversion of 1 − U with U uniform on [0, 1).
		skip := math.Floor(math.Log1p(-rnd.Float64()) / lq)
		if skip > float64(n)*float64(n) { // avoid int overflow; ends the loop
			break
		}
		w += 1 + int(skip)
		for w >= v && v < n {
			w -= v
			v++
		}
		if v < n {
			us, vs = append(us, int32(v)), append(vs, int32(w))
		}
	}
	return fromPairs(n, us, vs)
}

// fromPairs returns the unit-weight graph with edges {us[k], vs[k]},
// which the generators make valid and distinct: wgraph.FromPairs failing
// here is a bug of the generator, and panics.
func fromPairs(n int, us, vs []int32) *wgraph.Graph {
	g, err := wgraph.FromPairs(n, us, vs)
	if err != nil {
		panic(fmt.Sprintf("gen: generator made invalid pairs: %v", err))
	}
	return g
}

// exactRegularMaxDegree is the largest d for which RandomRegular uses
// the exact pairing method; the probability that a random pairing is
// simple is about exp(−(d²−1)/4), so d = 4 needs about 42 pairings on
// average and d = 5 about 400.
const exactRegularMaxDegree = 4

// maxPairings bounds the number of pairings RandomRegular tries.
const maxPairings = 100000

// RandomRegular returns a random simple d-regular graph on n nodes.
//
// For d ≤ 4 it uses the pairing (configuration) model of Bollobás: the
// n·d half-edges are matched uniformly at random, and the whole matching
// is rejected as soon as it creates a self-loop or a repeated edge. The
// accepted graph is then exactly uniform over simple d-regular graphs.
// The expected number of pairings is about exp((d²−1)/4) (7.4 for d = 3),
// and a rejected pairing is abandoned at its first defect and undone at
// the cost of what it touched, so the cost is O(n d) on average, times a
// constant that grows with the rejections: at n = 10⁶, d = 4 takes about
// three times as long as d = 3, and d = 5, by the process below, less
// than either.
//
// For d ≥ 5 exact rejection becomes too slow, and RandomRegular uses the
// algorithm of Steger and Wormald (1999): half-edges are paired one pair
// at a time, a pair that would create a loop or repeated edge is refused
// and redrawn, and the process restarts only if no valid pair is left.
// Its output is asymptotically uniform for fixed d as n → ∞ (Kim and Vu
// 2003 extend this to d ≪ n^(1/3)), not exactly uniform. For
// d > (n−1)/2 the graph is the complement of a random (n−1−d)-regular
// graph, which keeps the pairing sparse.
//
// It returns an error wrapping loadlab.ErrInvalid if n < 1, d < 0,
// d ≥ n or n·d is odd, loadlab.ErrTooLarge if n ≥ 2^31 or the n·d
// half-edges would not fit in memory, and loadlab.ErrNotConverged if no
// simple graph is found within 100 000 pairings. It panics if src is nil.
func RandomRegular(n, d int, src rand.Source) (*wgraph.Graph, error) {
	if src == nil {
		panic("gen: RandomRegular: nil rand.Source src")
	}
	if err := checkRegular(n, d); err != nil {
		return nil, err
	}
	rnd := rand.New(src)
	if d > (n-1)/2 {
		c, err := pairing(n, n-1-d, n-1-d <= exactRegularMaxDegree, rnd)
		if err != nil {
			return nil, err
		}
		return complement(c), nil
	}
	return pairing(n, d, d <= exactRegularMaxDegree, rnd)
}

// checkRegular validates the arguments of RandomRegular.
func checkRegular(n, d int) error {
	if err := wgraph.CheckSize("RandomRegular", n, 0); err != nil {
		return err
	}
	switch {
	case n < 1:
		return loadlab.Invalid("gen", "RandomRegular: n = %d, want ≥ 1", n)
	case d < 0:
		return loadlab.Invalid("gen", "RandomRegular: d = %d, want ≥ 0", d)
	case d >= n:
		return loadlab.Invalid("gen", "RandomRegular: d = %d, want < n = %d", d, n)
	case n%2 != 0 && d%2 != 0:
		return loadlab.Invalid("gen", "RandomRegular: n·d = %d·%d is odd: no d-regular graph exists", n, d)
	}
	// The pairing and the graph hold at most 24 bytes per half-edge.
	stubs, _ := size.Mul(n, d)
	return size.Check("gen", fmt.Sprintf("RandomRegular(n = %d, d = %d): half-edges", n, d), stubs, 24)
}

// pairing returns a simple d-regular graph, exactly uniform if exact is
// set, by the Steger–Wormald process otherwise.
func pairing(n, d int, exact bool, rnd *rand.Rand) (*wgraph.Graph, error) {
	p := &pairer{
		d:     d,
		exact: exact,
		stubs: make([]int32, n*d),
		adj:   make([]int32, n*d),
		cnt:   make([]int32, n),
		us:    make([]int32, 0, n*d/2),
		vs:    make([]int32, 0, n*d/2),
	}
	for i := range p.stubs {
		p.stubs[i] = int32(i / d)
	}
	for range maxPairings {
		if p.pair(rnd) {
			return fromPairs(n, p.us, p.vs), nil
		}
		p.undo()
	}
	return nil, loadlab.Wrap(loadlab.ErrNotConverged, "gen", "RandomRegular: no simple %d-regular graph on %d nodes found in %d pairings", d, n, maxPairings)
}

// pairer holds the state of the pairing process in flat arrays, so that
// a rejected attempt costs only what it touched.
type pairer struct {
	d     int
	exact bool
	// stubs is a permutation of the half-edges (node u appears d times);
	// pairing swaps the chosen ones to the end, so it stays a permutation
	// and needs no reset between attempts.
	stubs []int32
	// adj[u·d : u·d+cnt[u]] are the neighbours of u so far.
	adj, cnt []int32
	// us[k]–vs[k] is the k-th accepted edge.
	us, vs []int32
}

// undo clears the edges of a rejected attempt.
func (p *pairer) undo() {
	for k := range p.us {
		p.cnt[p.us[k]] = 0
		p.cnt[p.vs[k]] = 0
	}
	p.us, p.vs = p.us[:0], p.vs[:0]
}

func (p *pairer) adjacent(u, v int32) bool {
	for _, x := range p.adj[int(u)*p.d : int(u)*p.d+int(p.cnt[u])] {
		if x == v {
			return true
		}
	}
	return false
}

// pair matches all half-edges and reports whether the result is simple.
// In exact mode it gives up at the first loop or repeated edge;
// otherwise it redraws refused pairs and gives up only when no valid
// pair is left.
func (p *pairer) pair(rnd *rand.Rand) bool {
	s := p.stubs
	refused := 0
	for k := len(s); k > 0; { // s[:k] are unpaired
		// Two distinct unpaired half-edges, uniformly: repeated, this
		// gives a uniform perfect matching.
		i := rnd.IntN(k)
		j := rnd.IntN(k - 1)
		if j >= i {
			j++
		}
		u, v := s[i], s[j]
		if u == v || p.adjacent(u, v) {
			if p.exact {
				return false
			}
			// Steger–Wormald: refuse and redraw. After many refusals in
			// a row (only likely near the end, when few half-edges are
			// left), check that a valid pair remains.
			if refused++; refused == 64 {
				if !p.anyValidPair(s[:k]) {
					return false
				}
				refused = 0
			}
			continue
		}
		refused = 0
		p.adj[int(u)*p.d+int(p.cnt[u])] = v
		p.cnt[u]++
		p.adj[int(v)*p.d+int(p.cnt[v])] = u
		p.cnt[v]++
		p.us, p.vs = append(p.us, u), append(p.vs, v)
		// Swap i and j to the end of the unpaired part.
		if i < j {
			i, j = j, i
		}
		k--
		s[i], s[k] = s[k], s[i]
		k--
		s[j], s[k] = s[k], s[j]
	}
	return true
}

// anyValidPair reports whether two of the unpaired half-edges belong to
// distinct, non-adjacent nodes. It is called only after many refusals,
// when few half-edges are left.
func (p *pairer) anyValidPair(stubs []int32) bool {
	for a := range stubs {
		for b := a + 1; b < len(stubs); b++ {
			if u, v := stubs[a], stubs[b]; u != v && !p.adjacent(u, v) {
				return true
			}
		}
	}
	return false
}

// complement returns the complement of g with unit weights.
func complement(g *wgraph.Graph) *wgraph.Graph {
	n := g.Order()
	var c pairs
	mark := make([]bool, n)
	for u := range n {
		for _, v := range g.Neighbors(u) {
			mark[v] = true
		}
		for v := u + 1; v < n; v++ {
			if !mark[v] {
				c.add(u, v)
			}
		}
		for _, v := range g.Neighbors(u) {
			mark[v] = false
		}
	}
	return c.graph(n)
}

// RandomGeometric returns a random geometric graph: n points uniform in
// the unit square [0, 1)², with an edge between two points at distance at
// most r. With torus true, distances wrap around (the square's opposite
// sides are identified), which removes boundary effects.
//
// The points are bucketed in a grid of k×k cells of side 1/k ≥ r, with
// k ≤ √n + 1 whatever r, so only pairs in neighbouring cells are compared:
// O(n + m) expected time for m edges and O(n) memory besides the edges.
// Nodes are numbered in the order of the cells (row-major, bottom row
// first; within a cell in the order drawn), which keeps neighbours close
// in memory; the points being independent and identically distributed,
// the numbering does not change the law. RandomGeometricPoints also
// returns the points.
//
// It returns an error wrapping loadlab.ErrInvalid if n is negative or r
// is negative, NaN or infinite, and loadlab.ErrTooLarge if n ≥ 2^31 or
// the expected number of edges, about n²πr²/2, would not fit in memory.
// It panics if src is nil.
func RandomGeometric(n int, r float64, torus bool, src rand.Source) (*wgraph.Graph, error) {
	g, _, err := RandomGeometricPoints(n, r, torus, src)
	return g, err
}

// RandomGeometricPoints is RandomGeometric that also returns the points,
// pts[i] being the position of node i.
func RandomGeometricPoints(n int, r float64, torus bool, src rand.Source) (*wgraph.Graph, []r2.Vec, error) {
	if src == nil {
		panic("gen: RandomGeometric: nil rand.Source src")
	}
	if err := wgraph.CheckSize("RandomGeometric", n, 0); err != nil {
		return nil, nil, err
	}
	if !(r >= 0) || math.IsInf(r, 1) {
		return nil, nil, loadlab.Invalid("gen", "RandomGeometric: r = %v, want finite and ≥ 0", r)
	}
	guess := geometricEdges(n, r)
	if err := size.Check("gen", fmt.Sprintf("RandomGeometric(n = %d, r = %v): expected number of edges", n, r), int(min(guess, 1<<62)), 32); err != nil {
		return nil, nil, err
	}
	rnd := rand.New(src)
	pts := make([]r2.Vec, n)
	for i := range pts {
		pts[i] = r2.Vec{X: rnd.Float64(), Y: rnd.Float64()}
	}
	c := newCells(pts, r, torus)
	us, vs := make([]int32, 0, int(guess)), make([]int32, 0, int(guess))
	c.scan(func(a, b int) {
		us, vs = append(us, int32(a)), append(vs, int32(b))
	})
	return fromPairs(n, us, vs), c.sp, nil
}

// geometricEdges returns min(n(n−1)/2, 1.1·n²πr²/2 + 1024), an upper
// guess of the number of edges of a random geometric graph.
func geometricEdges(n int, r float64) float64 {
	nn := float64(n)
	return math.Min(nn*(nn-1)/2, 1.1*nn*nn*math.Pi*r*r/2+1024)
}

// cells is a grid of k×k square cells of side 1/k ≥ r holding points in
// the unit square, so that points within distance r of each other lie in
// the same or adjacent cells.
type cells struct {
	k     int
	torus bool
	r2    float64 // r²
	start []int   // points of cell c are sp[start[c]:start[c+1]]
	sp    []r2.Vec
}

func newCells(pts []r2.Vec, r float64, torus bool) *cells {
	n := len(pts)
	// Cap k so that the grid has O(n) cells. On the torus the 8 wrapped
	// neighbours are distinct cells only for k ≥ 3; otherwise one cell
	// holds everything.
	k := max(int(math.Min(1/r, math.Sqrt(float64(n))+1)), 1) // 1/0 = +Inf
	if torus && k < 3 {
		k = 1
	}
	c := &cells{k: k, torus: torus, r2: r * r, start: make([]int, k*k+1), sp: make([]r2.Vec, n)}
	cell := func(x float64) int { return min(int(x*float64(k)), k-1) }
	// Counting sort of the points by cell, row-major.
	of := make([]int, n)
	for i, p := range pts {
		of[i] = cell(p.Y)*k + cell(p.X)
		c.start[of[i]+1]++
	}
	for j := range k * k {
		c.start[j+1] += c.start[j]
	}
	fill := append([]int(nil), c.start[:k*k]...)
	for i, j := range of {
		c.sp[fill[j]] = pts[i]
		fill[j]++
	}
	return c
}

// scan calls visit(a, b) once for every pair of positions a ≠ b in cell
// order whose points are at distance at most r.
func (c *cells) scan(visit func(a, b int)) {
	k, sp := c.k, c.sp
	dist2 := func(a, b r2.Vec) float64 {
		dx, dy := math.Abs(a.X-b.X), math.Abs(a.Y-b.Y)
		if c.torus {
			dx, dy = math.Min(dx, 1-dx), math.Min(dy, 1-dy)
		}
		return dx*dx + dy*dy
	}
	// Each unordered pair of cells is visited once: the cell itself and
	// the "forward" half of its neighbourhood.
	fwd := [4][2]int{{1, 0}, {-1, 1}, {0, 1}, {1, 1}}
	for cy := range k {
		for cx := range k {
			j := cy*k + cx
			lo, hi := c.start[j], c.start[j+1]
			for a := lo; a < hi; a++ {
				for b := a + 1; b < hi; b++ {
					if dist2(sp[a], sp[b]) <= c.r2 {
						visit(a, b)
					}
				}
			}
			if k == 1 {
				continue
			}
			for _, o := range fwd {
				nx, ny := cx+o[0], cy+o[1]
				if c.torus {
					nx, ny = (nx+k)%k, ny%k
				} else if nx < 0 || nx >= k || ny >= k {
					continue
				}
				d := ny*k + nx
				for a := lo; a < hi; a++ {
					for b := c.start[d]; b < c.start[d+1]; b++ {
						if dist2(sp[a], sp[b]) <= c.r2 {
							visit(a, b)
						}
					}
				}
			}
		}
	}
}
