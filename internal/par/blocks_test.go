package par

import (
	"runtime"
	"testing"
)

// TestBlocks checks that the ranges of Blocks tile [0, nb) once each,
// in proportion to the count, for block counts below and above
// GOMAXPROCS, and that a panic of a range reaches the caller as in For.
func TestBlocks(t *testing.T) {
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		for _, nb := range []int{1, 2, 5, 64} {
			seen := make([]int, nb)
			Blocks(nb, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					seen[i]++ // each range on one goroutine, disjoint
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Errorf("GOMAXPROCS %d, %d blocks: block %d ran %d times", procs, nb, i, c)
				}
			}
			for _, at := range []int{0, nb - 1} {
				func() {
					w := min(procs, nb)
					first := at * w / nb * nb / w // the first block of at's range
					defer func() { checkPanic(t, recover(), w, first) }()
					Blocks(nb, func(lo, hi int) {
						if lo <= at && at < hi {
							panic("boom")
						}
					})
				}()
			}
		}
		runtime.GOMAXPROCS(old)
	}
}
