package kpm

import (
	"math"

	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/lapack/gonum"
)

// depthSample is the number of evenly spaced nodes whose balls Depth
// measures.
const depthSample = 64

// Depth returns the largest H ≤ maxDepth whose mean work over up to 64
// evenly spaced nodes, Σ_{r < H} vol(ball(r)) edge visits (vol the sum of
// the degrees in the ball), is at most work (at least 1): the cost of the
// H sparse products of Moments from one node. A node whose balls pass
// 16·work stops the search at that depth for all (its breadth-first
// search stops there).
func Depth(g *wgraph.Graph, work float64, maxDepth int) int {
	n := g.Order()
	m := min(n, depthSample)
	cost := make([]float64, maxDepth+1)
	stamp := make([]int32, n)
	for s := range m {
		src := int32(s * n / m)
		stamp[src] = int32(s + 1)
		frontier := []int32{src}
		vol, cum := 0.0, 0.0
		for h := 0; h <= maxDepth; h++ {
			if cum > 16*work {
				cost[h] = math.Inf(1)
				continue
			}
			var next []int32
			for _, u := range frontier {
				vol += float64(g.Degree(int(u)))
				for _, v := range g.Neighbors(int(u)) {
					if stamp[v] != int32(s+1) {
						stamp[v] = int32(s + 1)
						next = append(next, v)
					}
				}
			}
			cum += vol
			cost[h] += cum
			frontier = next
		}
	}
	h := 1 // cost[h] is the cost of depth h + 1
	for h < maxDepth && cost[h] <= work*float64(m) {
		h++
	}
	return h
}

// LowRitz returns the smallest Ritz value of steps Lanczos steps of the
// Laplacian (applied by apply, of order n) on 1⊥, an estimate of λ₂ from
// above; 0 if the process fails.
func LowRitz(n int, apply func(dst, src []float64) error, steps int, seed uint64) float64 {
	z := make([]float64, n)
	for i := range z {
		z[i] = 1 / math.Sqrt(float64(n))
	}
	lz := lanczos.New(n, apply, z, [2]uint64{seed, 0x2545f4914f6cdd1d})
	for lz.Steps() < min(steps, n-1) && !lz.Done {
		if err := lz.Step(); err != nil {
			return 0
		}
	}
	k := lz.Steps()
	if k == 0 {
		return 0
	}
	d := append([]float64(nil), lz.Alpha...)
	e := append([]float64(nil), lz.Beta[:k-1]...)
	if !(gonum.Implementation{}).Dsterf(k, d, e) {
		return 0
	}
	return d[0]
}
