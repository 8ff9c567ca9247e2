package main

import (
	"encoding/json"
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
)

// sweepCodedVariant is a codedload.Variant.
type sweepCodedVariant struct {
	Name  string          `json:"name"`
	Model sweepCodedModel `json:"model"`
	// LogEll sets Coded.Ell = ⌈ln n⌉; BallSize > 0 sets TwoChoice.Radius
	// = codedload.BallRadius(t, BallSize); MaxN is Variant.MaxN.
	LogEll   bool `json:"log_ell"`
	BallSize int  `json:"ball_size"`
	MaxN     int  `json:"max_n"`
}

func (v sweepCodedVariant) variant() (codedload.Variant, error) {
	c, err := v.Model.config()
	if err != nil {
		return codedload.Variant{}, err
	}
	va := codedload.Variant{Name: v.Name, Config: c, MaxN: v.MaxN}
	if v.LogEll {
		va.Ell = codedload.LogEll
	}
	switch {
	case v.BallSize < 0:
		return codedload.Variant{}, loadlab.Invalid("sweep", "params: ball_size = %d, want ≥ 0 (0: the model's radius)", v.BallSize)
	case v.BallSize > 0:
		k := v.BallSize
		va.Radius = func(t codedload.Topology) int { return codedload.BallRadius(t, k) }
	}
	return va, nil
}

// sweepCompareParams configures "codedload-compare".
type sweepCompareParams struct {
	Ns       []int               `json:"ns"`
	Topology sweepCodedFamily    `json:"topology"`
	SizeRuns []int               `json:"size_runs"` // runs at ns[i]; empty: the configuration's runs at every size
	Variants []sweepCodedVariant `json:"variants"`
}

func newSweepCodedloadCompare(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepCompareParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	switch {
	case len(p.Ns) == 0 || p.Topology.N != 0:
		return nil, loadlab.Invalid("sweep", "params: ns = %v and topology.n = %d, want sizes in ns and no topology.n", p.Ns, p.Topology.N)
	case len(p.SizeRuns) != 0 && len(p.SizeRuns) != len(p.Ns):
		return nil, loadlab.Invalid("sweep", "params: %d size_runs for %d sizes", len(p.SizeRuns), len(p.Ns))
	case len(p.Variants) == 0:
		return nil, loadlab.Invalid("sweep", "params.variants is empty")
	}
	fam, err := p.Topology.family()
	if err != nil {
		return nil, err
	}
	vs := make([]codedload.Variant, len(p.Variants))
	for i, v := range p.Variants {
		if vs[i], err = v.variant(); err != nil {
			return nil, fmt.Errorf("params.variants[%d]: %w", i, err)
		}
	}
	perSize := map[int]int{}
	for i, n := range p.Ns {
		perSize[n] = runs
		if len(p.SizeRuns) > 0 {
			perSize[n] = p.SizeRuns[i]
		}
	}
	runsAt := func(n int) int { return perSize[n] }
	pts, owner, err := sweepComparePoints(p.Ns, fam, vs, runsAt, seed)
	if err != nil {
		return nil, err
	}
	j := &sweepCodedloadJob{runs: 1, seed: seed}
	j.table = func(res []codedload.PointResult) sweepTable {
		return sweepCurveTable(sweepCompareCurves(vs, owner, res))
	}
	j.direct = func(prec loadlab.Precision) (sweepTable, error) {
		cs, err := codedload.CompareSizes(p.Ns, fam, vs, runsAt, seed, &codedload.SweepSettings{Precision: prec})
		if cs == nil {
			return sweepTable{}, err
		}
		return sweepCurveTable(cs), err
	}
	return j, j.setPoints(pts)
}

// sweepComparePoints returns the points codedload.CompareSizes sweeps (with
// Sweep's runs = 1: every point carries its Runs), with owner[j] the
// index of the variant of point j: one topology per size from
// loadlab.Stream(seed, 2⁴⁰, n), then for every variant in order its
// sizes up to MaxN with the configuration Variant.At(n, topology).
func sweepComparePoints(ns []int, fam codedload.Family, vs []codedload.Variant, runs func(n int) int, seed uint64) (points []codedload.Point, owner []int, err error) {
	tops := make([]codedload.Topology, len(ns))
	for i, n := range ns {
		if r := runs(n); r < 1 {
			return nil, nil, loadlab.Invalid("sweep", "params.size_runs: runs(%d) = %d, want ≥ 1", n, r)
		}
		if tops[i], err = fam(n, loadlab.Stream(seed, 1<<40, uint64(n))); err != nil {
			return nil, nil, fmt.Errorf("size %d: %w", n, err)
		}
	}
	for v := range vs {
		if vs[v].MaxN < 0 {
			return nil, nil, loadlab.Invalid("sweep", "params.variants[%d].max_n: MaxN = %d, want ≥ 0", v, vs[v].MaxN)
		}
		for i, n := range ns {
			if vs[v].MaxN > 0 && n > vs[v].MaxN {
				continue
			}
			points = append(points, codedload.Point{X: float64(n), Config: vs[v].At(n, tops[i]), Runs: runs(n)})
			owner = append(owner, v)
		}
	}
	return points, owner, nil
}

// sweepCompareCurves groups the results of sweepComparePoints's points by
// variant, as codedload.CompareSizes returns them.
func sweepCompareCurves(vs []codedload.Variant, owner []int, res []codedload.PointResult) []codedload.Curve {
	curves := make([]codedload.Curve, len(vs))
	for v := range vs {
		curves[v].Name = vs[v].Name
	}
	for j, r := range res {
		curves[owner[j]].Points = append(curves[owner[j]].Points, r)
	}
	return curves
}

// sweepCurveTable writes the curves: variant, size n, metric and its
// estimate.
func sweepCurveTable(cs []codedload.Curve) sweepTable {
	t := sweepTable{Columns: append([]string{"variant", "size", "metric"}, sweepEstimateColumns...)}
	for _, c := range cs {
		for _, p := range c.Points {
			t.Rows = append(t.Rows, sweepPointRows([]any{c.Name, int(p.X)}, p)...)
		}
	}
	return t
}
