package codedload

import (
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
)

// Per-run entry points of Sweep and CompareSizes, for sweeps split
// across processes (package sweep): every run is a pure function of its
// point and the streams (seed, i, r, ·), and the summaries see the runs
// in run order, so recombining the runs computed anywhere gives the
// in-process result bit for bit.

// SweepCounts returns the number of runs of each point of
// Sweep(points, runs, seed, set): Point.Runs if > 0, runs otherwise.
// Errors are those of Sweep's validation of points and runs.
func SweepCounts(points []Point, runs int) ([]int, error) {
	start, err := sweepPlan(points, runs)
	if err != nil {
		return nil, err
	}
	counts := make([]int, len(points))
	for i := range counts {
		counts[i] = start[i+1] - start[i]
	}
	return counts, nil
}

// SweepRun returns run r of point i of Sweep(points, runs, seed, set),
// the value Sweep stores in PointResult.Runs[r]: it builds the topology
// from the stream (seed, i, r, 0) if the point has Build, and runs the
// model on (seed, i, r, 1). Errors are those of Sweep for that run, and
// one wrapping loadlab.ErrInvalid if i or r is out of range. Sweep does
// not call it; TestSweepRunIsSweep checks that they agree.
func SweepRun(points []Point, runs int, seed uint64, i, r int) (*Result, error) {
	counts, err := SweepCounts(points, runs)
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(points) {
		return nil, loadlab.Invalid(pkg, "SweepRun: point i = %d, want 0 ≤ i < %d", i, len(points))
	}
	if r < 0 || r >= counts[i] {
		return nil, loadlab.Invalid(pkg, "SweepRun: run r = %d of point %d, want 0 ≤ r < %d", r, i, counts[i])
	}
	return runPoint(&points[i], i, r, seed)
}

// SummarizePoint returns the PointResult Sweep returns for a point at x
// whose runs, in run order, are rs.
func SummarizePoint(x float64, rs []*Result) PointResult { return summarise(x, rs) }

// ComparePoints returns the points CompareSizes(ns, fam, variants, runs,
// seed, set) sweeps (with Sweep's runs = 1: every point carries its
// Runs), with owner[j] the index of the variant of point j. CompareSizes
// is CompareCurves(variants, owner, Sweep(points, 1, seed, set)). Errors
// and panics are those of CompareSizes.
func ComparePoints(ns []int, fam Family, variants []Variant, runs func(n int) int, seed uint64) (points []Point, owner []int, err error) {
	if fam == nil || runs == nil {
		panic(pkg + ": CompareSizes: nil fam or runs")
	}
	tops := make([]Topology, len(ns))
	for i, n := range ns {
		if r := runs(n); r < 1 {
			return nil, nil, loadlab.Invalid(pkg, "CompareSizes: runs(%d) = %d, want ≥ 1", n, r)
		}
		t, err := fam(n, mc.Source(seed, 1<<40, uint64(n)))
		if err != nil {
			return nil, nil, fmt.Errorf("size %d: %w", n, err)
		}
		tops[i] = t
	}
	for v, va := range variants {
		if va.MaxN < 0 {
			return nil, nil, loadlab.Invalid(pkg, "CompareSizes: variants[%d].MaxN = %d, want ≥ 0", v, va.MaxN)
		}
		for i, n := range ns {
			if va.MaxN > 0 && n > va.MaxN {
				continue
			}
			c := va.Config
			c.Topology = tops[i]
			c.Strategy = va.at(c.Strategy, n, tops[i])
			points = append(points, Point{X: float64(n), Config: c, Runs: runs(n)})
			owner = append(owner, v)
		}
	}
	return points, owner, nil
}

// CompareCurves groups the results of the points of ComparePoints by
// variant, as CompareSizes returns them. It panics if owner and res
// differ in length or owner names no variant (programmer errors).
func CompareCurves(variants []Variant, owner []int, res []PointResult) []Curve {
	if len(owner) != len(res) {
		panic(fmt.Sprintf("%s: CompareCurves: %d owners, %d results", pkg, len(owner), len(res)))
	}
	curves := make([]Curve, len(variants))
	for v := range variants {
		curves[v].Name = variants[v].Name
	}
	for j, r := range res {
		curves[owner[j]].Points = append(curves[owner[j]].Points, r)
	}
	return curves
}
