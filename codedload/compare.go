package codedload

import (
	"fmt"

	"github.com/loadlab/loadlab"
)

// Variant is one curve of a comparison over network sizes: a strategy
// setting applied at every size.
type Variant struct {
	Name string
	// Config is the setting; its Topology is replaced at every size.
	Config Config
	// Ell, if not nil, sets Coded.Ell = Ell(n) when Config.Strategy is
	// a Coded.
	Ell func(n int) int
	// Radius, if not nil, sets TwoChoice.Radius = Radius(t) on the
	// topology t of each size when Config.Strategy is a TwoChoice (see
	// BallRadius).
	Radius func(t Topology) int
	// MaxN, if > 0, leaves out sizes above MaxN (for strategies whose cost
	// grows too fast on some topology); 0 means no limit. Negative values
	// are an error.
	MaxN int
}

// Curve is the result of one Variant: one PointResult per size, X = n.
type Curve struct {
	Name   string
	Points []PointResult
}

// CompareSizes runs every variant at every size n in ns on one topology of
// family fam per size, built from the stream loadlab.Stream(seed, 2⁴⁰, n)
// (so all variants see the same graph at a given n; only placement and
// requests change between runs). runs(n) ≥ 1 gives the number of runs at
// size n. It is Sweep (with its runs = 1) over the points of the variants
// at their sizes, in variant-major order, each point's Config being
// Variant.At(n, topology) and its Runs runs(n), grouped into one Curve
// per variant. All (variant, size, run) triples share one parallel loop;
// the results do not depend on the number of workers. With
// set.Precision not zero, runs(n) is the pilot at size n and every
// (variant, size) point runs until its MaxLoad and Cost meet the
// precision (Sweep); when some point reaches the cap first, the curves
// come back whole with Sweep's error wrapping loadlab.ErrNotConverged.
// It returns an error if a topology cannot be built, runs(n) < 1, a
// variant's MaxN is negative or its configuration is invalid. It panics
// if fam or runs is nil.
func CompareSizes(ns []int, fam Family, variants []Variant, runs func(n int) int, seed uint64, set *SweepSettings) ([]Curve, error) {
	pts, owner, err := comparePoints(ns, fam, variants, runs, seed)
	if err != nil {
		return nil, err
	}
	res, err := Sweep(pts, 1, seed, set)
	if res == nil {
		return nil, err
	}
	curves := make([]Curve, len(variants))
	for v := range variants {
		curves[v].Name = variants[v].Name
	}
	for j, r := range res {
		curves[owner[j]].Points = append(curves[owner[j]].Points, r)
	}
	return curves, err
}

// comparePoints returns the points CompareSizes sweeps, with owner[j]
// the index of the variant of point j.
func comparePoints(ns []int, fam Family, variants []Variant, runs func(n int) int, seed uint64) (points []Point, owner []int, err error) {
	if fam == nil || runs == nil {
		panic(pkg + ": CompareSizes: nil fam or runs")
	}
	tops := make([]Topology, len(ns))
	for i, n := range ns {
		if r := runs(n); r < 1 {
			return nil, nil, loadlab.Invalid(pkg, "CompareSizes: runs(%d) = %d, want ≥ 1", n, r)
		}
		t, err := fam(n, loadlab.Stream(seed, 1<<40, uint64(n)))
		if err != nil {
			return nil, nil, fmt.Errorf("size %d: %w", n, err)
		}
		tops[i] = t
	}
	for v := range variants {
		va := &variants[v]
		if va.MaxN < 0 {
			return nil, nil, loadlab.Invalid(pkg, "CompareSizes: variants[%d].MaxN = %d, want ≥ 0", v, va.MaxN)
		}
		for i, n := range ns {
			if va.MaxN > 0 && n > va.MaxN {
				continue
			}
			points = append(points, Point{X: float64(n), Config: va.At(n, tops[i]), Runs: runs(n)})
			owner = append(owner, v)
		}
	}
	return points, owner, nil
}

// At returns the variant's configuration at size n on topology t: Config
// with Topology t and the size-dependent strategy parameters applied
// (Coded.Ell = Ell(n), TwoChoice.Radius = Radius(t)), as CompareSizes
// runs it. It panics if Radius panics on t (BallRadius on a nil t).
func (va *Variant) At(n int, t Topology) Config {
	c := va.Config
	c.Topology = t
	c.Strategy = va.at(c.Strategy, n, t)
	return c
}

// at returns the strategy s with the size-dependent parameters of the
// variant applied at size n on topology t.
func (va *Variant) at(s Strategy, n int, t Topology) Strategy {
	switch x := s.(type) {
	case *Coded:
		if x != nil {
			return va.at(*x, n, t)
		}
	case *TwoChoice:
		if x != nil {
			return va.at(*x, n, t)
		}
	case Coded:
		if va.Ell != nil {
			x.Ell = va.Ell(n)
		}
		return x
	case TwoChoice:
		if va.Radius != nil {
			x.Radius = va.Radius(t)
		}
		return x
	}
	return s
}

// BallRadius returns the smallest r ≥ 1 such that the ball of radius r
// around node 0 of t holds at least size nodes (the diameter of t, at least
// 1, if t is smaller). It lets two choices (a) search balls of comparable
// volume on different topologies. It panics if t is nil or invalid or
// size < 1 (programmer errors).
func BallRadius(t Topology, size int) int {
	if err := validateTopology(t); err != nil {
		panic(err.Error())
	}
	if size < 1 {
		panic(fmt.Sprintf("codedload: BallRadius: size = %d, want ≥ 1", size))
	}
	q := t.newSearch()
	q.start(0)
	got, last := 0, 0
	for {
		d, nodes, ok := q.next()
		if !ok {
			return max(1, last)
		}
		last = d
		if got += len(nodes); got >= size {
			return max(1, d)
		}
	}
}
