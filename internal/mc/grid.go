package mc

import (
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// Grid runs a study of points × runs: run r of point k is run(k,
// loadlab.Stream(seed, k, r)), on up to GOMAXPROCS goroutines through
// For. It returns the results by point, each point's runs in run order,
// and the first error in (point, run) order, so the results and the error
// are the same whatever the number of goroutines and when the runs are
// computed elsewhere (loadlab sweep) and merged. It panics if run is nil
// or runs < 0.
func Grid[R any](points, runs int, seed uint64, run func(k int, src rand.Source) (R, error)) ([][]R, error) {
	if run == nil || runs < 0 || points < 0 {
		panic("mc: Grid: run is nil or a count is negative")
	}
	res := make([][]R, points)
	errs := make([]error, points*runs)
	for k := range res {
		res[k] = make([]R, runs)
	}
	For(points*runs, 0, func(j int) {
		k, r := j/runs, j%runs
		res[k][r], errs[j] = run(k, loadlab.Stream(seed, uint64(k), uint64(r)))
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}
