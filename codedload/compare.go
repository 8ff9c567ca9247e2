package codedload

import (
	"fmt"
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
// family fam per size, built from the stream (seed, n) (so all variants see
// the same graph at a given n; only placement and requests change between
// runs). runs(n) ≥ 1 gives the number of runs at size n. All (variant,
// size, run) triples share one parallel loop; the results do not depend on
// the number of workers. It returns an error if a topology cannot be built,
// runs(n) < 1, a variant's MaxN is negative or its configuration is
// invalid. It panics if fam or runs is nil.
func CompareSizes(ns []int, fam Family, variants []Variant, runs func(n int) int, seed uint64, set *SweepSettings) ([]Curve, error) {
	pts, owner, err := ComparePoints(ns, fam, variants, runs, seed)
	if err != nil {
		return nil, err
	}
	res, err := Sweep(pts, 1, seed, set)
	if err != nil {
		return nil, err
	}
	return CompareCurves(variants, owner, res), nil
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
