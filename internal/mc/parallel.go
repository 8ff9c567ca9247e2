package mc

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for i in [0, n) on up to workers goroutines
// (workers ≤ 0 means GOMAXPROCS). Each call must write only its own
// result slot; with per-index random streams (Source) the results are
// then independent of the number of workers.
func For(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
