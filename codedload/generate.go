package codedload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// maxResample bounds the attempts at drawing a connected random graph.
const maxResample = 100

// RGGRadius returns r_n = √(1.25 ln n / n), the connection radius of the
// reference simulator's random geometric graph (spec §3.1), for which
// nπr_n² = (5π/4) ln n ≈ 3.93 ln n.
func RGGRadius(n int) float64 {
	return math.Sqrt(1.25 * math.Log(float64(n)) / float64(n))
}

// NewRGG returns a random geometric graph: n points uniform in the unit
// square (no wrap-around), joined when their Euclidean distance is at most
// r (spec §3.1; r ≤ 0 means RGGRadius(n)). The graph is resampled until it is
// connected, up to 100 times. Candidate pairs come from a bucket grid with
// cells of side ≥ r, so building costs O(n·(nr² + 1)) time and 4 bytes per
// directed edge; no n² table is formed. It returns an error for n < 2 or if
// no connected sample was found.
func NewRGG(n int, r float64, src rand.Source) (*Network, error) {
	if n < 2 || n > 1<<31-1 {
		return nil, fmt.Errorf("codedload: RGG Order = %d: want 2 ≤ n < 2^31", n)
	}
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return nil, fmt.Errorf("codedload: RGG radius = %v: want finite", r)
	}
	if r <= 0 {
		r = RGGRadius(n)
	}
	rnd := rand.New(src)
	for range maxResample {
		w := rgg(n, r, rnd)
		if w.connected() {
			return w, nil
		}
	}
	return nil, fmt.Errorf("codedload: RGG with n = %d, r = %v: no connected sample in %d draws", n, r, maxResample)
}

func rgg(n int, r float64, rnd *rand.Rand) *Network {
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = rnd.Float64(), rnd.Float64()
	}
	// The points are iid, so numbering them in the order of a bucket grid
	// changes nothing in law, and it keeps neighbours close in memory: the
	// graph is built several times faster and searched with fewer cache
	// misses.
	g := rggGrid(r)
	key := make([]int32, n)
	count := make([]int32, g*g+1)
	for i := range xs {
		key[i] = int32(rggCell(xs[i], ys[i], g))
		count[key[i]+1]++
	}
	for c := 0; c < g*g; c++ {
		count[c+1] += count[c]
	}
	sx, sy := make([]float64, n), make([]float64, n)
	for i := range xs {
		at := count[key[i]]
		count[key[i]]++
		sx[at], sy[at] = xs[i], ys[i]
	}
	return rggFrom(sx, sy, r)
}

// rggGrid returns the side g of the bucket grid for radius r: g×g cells of
// side 1/g ≥ r, so a point's neighbours lie in the 3×3 block of cells
// around its own (at most 2^15 cells a side).
func rggGrid(r float64) int { return max(1, min(int(1/r), 1<<15)) }

// rggCell returns the index of the cell of (x, y) in the g×g bucket grid.
func rggCell(x, y float64, g int) int {
	cx, cy := min(int(x*float64(g)), g-1), min(int(y*float64(g)), g-1)
	return cy*g + cx
}

// rggFrom joins the points (xs[i], ys[i]) of the unit square that are at
// most r apart.
func rggFrom(xs, ys []float64, r float64) *Network {
	n := len(xs)
	g := rggGrid(r)
	cell := func(i int) int { return rggCell(xs[i], ys[i], g) }
	start := make([]int32, g*g+1)
	for i := 0; i < n; i++ {
		start[cell(i)+1]++
	}
	for c := 0; c < g*g; c++ {
		start[c+1] += start[c]
	}
	members := make([]int32, n)
	fill := make([]int32, g*g)
	copy(fill, start[:g*g])
	for i := 0; i < n; i++ {
		c := cell(i)
		members[fill[c]] = int32(i)
		fill[c]++
	}
	r2 := r * r
	// visit calls fn for every j ≠ i within distance r of i.
	visit := func(i int, fn func(j int32)) {
		c := cell(i)
		cx, cy := c%g, c/g
		for y := max(cy-1, 0); y <= min(cy+1, g-1); y++ {
			for x := max(cx-1, 0); x <= min(cx+1, g-1); x++ {
				k := y*g + x
				for _, j := range members[start[k]:start[k+1]] {
					if int(j) == i {
						continue
					}
					dx, dy := xs[i]-xs[j], ys[i]-ys[j]
					if dx*dx+dy*dy <= r2 {
						fn(j)
					}
				}
			}
		}
	}
	off := make([]int64, n+1)
	for i := 0; i < n; i++ {
		deg := int64(0)
		visit(i, func(int32) { deg++ })
		off[i+1] = off[i] + deg
	}
	adj := make([]int32, off[n])
	for i := 0; i < n; i++ {
		p := off[i]
		visit(i, func(j int32) { adj[p] = j; p++ })
	}
	return &Network{off: off, adj: adj}
}

// NewRegular returns a random simple d-regular graph on n nodes. It pairs
// the n·d half-edges uniformly at random (configuration model) and then
// removes each self-loop or repeated edge by a random double-edge switch
// with a simple edge, which keeps every degree at d. The law is the uniform
// one up to the small bias of the repair step, which vanishes as n grows
// with d fixed. The graph is resampled until it is connected, up to 100
// times. Memory is 4·n·d bytes for the adjacency plus as much for the edge
// list. It returns an error unless 1 ≤ d < n and n·d is even.
func NewRegular(n, d int, src rand.Source) (*Network, error) {
	if n < 2 || n > 1<<31-1 {
		return nil, fmt.Errorf("codedload: regular graph Order = %d: want 2 ≤ n < 2^31", n)
	}
	if d < 1 || d >= n {
		return nil, fmt.Errorf("codedload: regular graph Degree = %d: want 1 ≤ d < n = %d", d, n)
	}
	if n*d%2 != 0 {
		return nil, fmt.Errorf("codedload: regular graph Degree·Order = %d·%d: want even", d, n)
	}
	rnd := rand.New(src)
	for range maxResample {
		w, ok := regular(n, d, rnd)
		if ok && w.connected() {
			return w, nil
		}
	}
	return nil, fmt.Errorf("codedload: regular graph n = %d, d = %d: no connected simple sample in %d draws", n, d, maxResample)
}

func regular(n, d int, rnd *rand.Rand) (*Network, bool) {
	m := n * d / 2
	stubs := make([]int32, n*d)
	for i := range stubs {
		stubs[i] = int32(i / d)
	}
	rnd.Shuffle(len(stubs), func(i, j int) { stubs[i], stubs[j] = stubs[j], stubs[i] })
	// Edge j is (stubs[2j], stubs[2j+1]); adj holds d slots per node.
	adj := make([]int32, n*d)
	fill := make([]int32, n)
	for j := 0; j < m; j++ {
		a, b := stubs[2*j], stubs[2*j+1]
		adj[int(a)*d+int(fill[a])] = b
		fill[a]++
		adj[int(b)*d+int(fill[b])] = a
		fill[b]++
	}
	count := func(u, v int32) int {
		c := 0
		for _, x := range adj[int(u)*d : int(u)*d+d] {
			if x == v {
				c++
			}
		}
		return c
	}
	replace := func(u, old, new int32) {
		s := adj[int(u)*d : int(u)*d+d]
		for i, x := range s {
			if x == old {
				s[i] = new
				return
			}
		}
		panic("codedload: regular graph repair lost an edge")
	}
	// An edge is bad if it is a loop or a later copy of an earlier edge.
	seen := make(map[uint64]bool)
	var bad []int
	for j := 0; j < m; j++ {
		a, b := stubs[2*j], stubs[2*j+1]
		if a == b {
			bad = append(bad, j)
			continue
		}
		if count(a, b) > 1 {
			key := uint64(min(a, b))<<32 | uint64(max(a, b))
			if seen[key] {
				bad = append(bad, j)
			}
			seen[key] = true
		}
	}
	for _, j := range bad {
		a, b := stubs[2*j], stubs[2*j+1]
		done := false
		for try := 0; try < 1000*m && !done; try++ {
			f := rnd.IntN(m)
			c, e := stubs[2*f], stubs[2*f+1]
			if rnd.IntN(2) == 1 {
				c, e = e, c
			}
			if f == j || c == e || count(c, e) != 1 {
				continue // the partner must be a simple edge
			}
			if a == c || b == e || (a == e && b == c) || count(a, c) != 0 || count(b, e) != 0 {
				continue
			}
			// Switch {a,b},{c,e} → {a,c},{b,e}.
			replace(a, b, c)
			replace(b, a, e)
			replace(c, e, a)
			replace(e, c, b)
			stubs[2*j], stubs[2*j+1] = a, c
			stubs[2*f], stubs[2*f+1] = b, e
			done = true
		}
		if !done {
			return nil, false
		}
	}
	off := make([]int64, n+1)
	for i := range off {
		off[i] = int64(i * d)
	}
	return &Network{off: off, adj: adj}, true
}
