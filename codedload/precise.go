package codedload

import (
	"fmt"
	"strings"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// sweepPrecise is Sweep with set.Precision not zero: every point is a
// series of mc.Until whose watched quantities are MaxLoad and Cost
// (spec docs/specs/monte-carlo.md §2, §4).
func sweepPrecise(points []Point, runs int, seed uint64, set *SweepSettings) ([]PointResult, error) {
	p := set.Precision
	pilot, err := precisePlan(points, runs, p)
	if err != nil {
		return nil, err
	}
	plan := mc.Plan{Precision: p, Workers: set.Workers, Pilot: func(i int) int { return pilot[i] }}
	if set.Logf != nil {
		plan.Round = func(kept, open int) {
			set.Logf("codedload: %d runs kept, %d of %d points open", kept, open, len(points))
		}
	}
	out, oc := mc.Until(len(points), plan, func(i, r int) (*Result, []float64, error) {
		res, err := points[i].Run(seed, uint64(i), uint64(r))
		if err != nil {
			return nil, nil, fmt.Errorf("point %d run %d: %w", i, r, err)
		}
		return res, []float64{res.MaxLoad, res.Cost}, nil
	})
	res := make([]PointResult, len(points))
	var open []string
	for i, o := range oc {
		if o.Status == loadlab.Failure {
			return nil, o.Err
		}
		res[i] = summarise(points[i].X, out[i])
		res[i].Status = o.Status
		if o.Status == loadlab.IterationLimit && len(open) < 3 {
			open = append(open, fmt.Sprintf("point %d (x = %g): max load ±%.3g, cost ±%.3g", i, points[i].X, res[i].MaxLoad.HalfWidth(), res[i].Cost.HalfWidth()))
		}
	}
	if open != nil {
		n := 0
		for _, o := range oc {
			if o.Status == loadlab.IterationLimit {
				n++
			}
		}
		return res, loadlab.Wrap(loadlab.ErrNotConverged, pkg, "Sweep: %d of %d points short of Precision (Rel = %g, Abs = %g) after Precision.MaxRuns = %d runs: %s",
			n, len(points), p.Rel, p.Abs, p.Cap(), strings.Join(open, "; "))
	}
	return res, nil
}

// precisePlan validates the points as sweepPlan does and returns each
// point's pilot (runs, or Point.Runs), none above the cap; the runs of
// points·cap must fit in memory (a result pointer and two values each).
func precisePlan(points []Point, runs int, p loadlab.Precision) ([]int, error) {
	start, err := sweepPlan(points, runs)
	if err != nil {
		return nil, err
	}
	pilot := make([]int, len(points))
	for i := range points {
		if pilot[i] = start[i+1] - start[i]; pilot[i] > p.Cap() {
			return nil, loadlab.Invalid(pkg, "Sweep: pilot of point %d = %d runs, above Precision.MaxRuns = %d", i, pilot[i], p.Cap())
		}
	}
	n, ok := size.Mul(len(points), p.Cap())
	if !ok {
		return nil, loadlab.TooLarge(pkg, "Sweep: points·Precision.MaxRuns = %d·%d overflows int", len(points), p.Cap())
	}
	return pilot, size.Check(pkg, "Sweep: points·Precision.MaxRuns runs", n, 8+16)
}
