package codedload

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// bruteMaxLoad is an independent coded-delivery simulator on the s×s torus
// (spec §4.2, §5.2), written as plainly as possible to check Run: iid
// placement of m·ℓ chunks per server by inverse-CDF Zipf sampling, exactly
// n requests, each served by the ℓ nearest copies (at most cap per server,
// 0 = no cap) found by scanning every copy, with uniform random choice
// among the copies at the threshold distance. It shares no code with Run
// but the spec's definitions, and returns the maximum load.
func bruteMaxLoad(side, files, m, ell, cap int, gamma float64, rnd *rand.Rand) float64 {
	n := side * side
	cdf := make([]float64, files)
	var h float64
	for j := 1; j <= files; j++ {
		h += math.Pow(float64(j), -gamma)
		cdf[j-1] = h
	}
	draw := func() int { return min(sort.SearchFloat64s(cdf, rnd.Float64()*h), files-1) }
	copies := make([][]int, files) // per file, its servers with multiplicity
	for s := 0; s < n; s++ {
		held := map[int]int{}
		for range m * ell {
			f := draw()
			if held[f]++; cap == 0 || held[f] <= cap {
				copies[f] = append(copies[f], s)
			}
		}
	}
	wrap := func(x int) int { x = max(x, -x); return min(x, side-x) }
	load := make([]int, n)
	var atD []int
	hist := make([]int, side+1) // distances are at most side
	for range n {
		u, k := rnd.IntN(n), draw()
		if len(copies[k]) < ell {
			continue // outage
		}
		dist := func(s int) int { return wrap(u/side-s/side) + wrap(u%side-s%side) }
		clear(hist)
		for _, s := range copies[k] {
			hist[dist(s)]++
		}
		need, d := ell, 0
		for ; hist[d] < need; d++ {
			need -= hist[d]
		}
		atD = atD[:0]
		for _, s := range copies[k] {
			switch dist(s) {
			case d:
				atD = append(atD, s)
			default:
				if dist(s) < d {
					load[s]++
				}
			}
		}
		rnd.Shuffle(len(atD), func(i, j int) { atD[i], atD[j] = atD[j], atD[i] })
		for _, s := range atD[:need] {
			load[s]++
		}
	}
	return float64(slices.Max(load)) / float64(ell)
}
