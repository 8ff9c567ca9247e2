package competitive

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
)

// studyPoint is a point of a study over random instances: its defaults
// applied (or its error) and one run on a random source.
type studyPoint[P, R any] interface {
	defaults() (P, error)
	Run(src rand.Source) (R, error)
}

// runStudy is the shared part of AlphaStudy and PredictionStudy: runs ≥ 2
// (an interval needs two instances), every point's defaults applied (a bad
// point named by its index), and run r of point i on loadlab.Stream(seed,
// i, r) through mc.Grid. It returns the points with their defaults and
// the runs, point by point.
func runStudy[P studyPoint[P, R], R any](name string, points []P, runs int, seed uint64) ([]P, [][]R, error) {
	if runs < 2 {
		return nil, nil, loadlab.Invalid(pkg, "%s: runs = %d, want ≥ 2 (an interval needs two instances)", name, runs)
	}
	full := make([]P, len(points))
	for i, p := range points {
		q, err := p.defaults()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: points[%d]: %w", name, i, err)
		}
		full[i] = q
	}
	res, err := mc.Grid(len(points), runs, seed, func(i int, src rand.Source) (R, error) { return full[i].Run(src) })
	if err != nil {
		return nil, nil, err
	}
	return full, res, nil
}
