package codedload

import (
	"fmt"

	"github.com/loadlab/loadlab/internal/mc"
)

// Variant is one curve of a comparison over network sizes: a strategy
// setting applied at every size.
type Variant struct {
	Name string
	// Config is the setting; its Topology is replaced at every size.
	Config Config
	// Ell, if not nil, sets Config.Ell = Ell(n) for Coded.
	Ell func(n int) int
	// Radius, if not nil, sets Config.Radius = Radius(t) for TwoChoice on
	// the topology t of each size (see BallRadius).
	Radius func(t Topology) int
	// MaxN, if > 0, leaves out sizes above MaxN (for strategies whose cost
	// grows too fast on some topology).
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
// runs(n) < 1, or a variant's configuration is invalid.
func CompareSizes(ns []int, fam Family, variants []Variant, runs func(n int) int, seed uint64, set *SweepSettings) ([]Curve, error) {
	tops := make([]Topology, len(ns))
	for i, n := range ns {
		if r := runs(n); r < 1 {
			return nil, fmt.Errorf("codedload: CompareSizes runs(%d) = %d: want ≥ 1", n, r)
		}
		t, err := fam(n, mc.Source(seed, 1<<40, uint64(n)))
		if err != nil {
			return nil, fmt.Errorf("size %d: %w", n, err)
		}
		tops[i] = t
	}
	var pts []Point
	var owner []int
	for v, va := range variants {
		for i, n := range ns {
			if va.MaxN > 0 && n > va.MaxN {
				continue
			}
			c := va.Config
			c.Topology = tops[i]
			if va.Ell != nil && c.Strategy == Coded {
				c.Ell = va.Ell(n)
			}
			if va.Radius != nil && c.Strategy == TwoChoice {
				c.Radius = va.Radius(tops[i])
			}
			pts = append(pts, Point{X: float64(n), Config: c, Runs: runs(n)})
			owner = append(owner, v)
		}
	}
	res, err := Sweep(pts, 1, seed, set)
	if err != nil {
		return nil, err
	}
	curves := make([]Curve, len(variants))
	for v := range variants {
		curves[v].Name = variants[v].Name
	}
	for j, r := range res {
		curves[owner[j]].Points = append(curves[owner[j]].Points, r)
	}
	return curves, nil
}

// BallRadius returns the smallest r such that the ball of radius r around
// node 0 of t holds at least size nodes (all of t if it is smaller). It lets
// two choices (a) search balls of comparable volume on different
// topologies.
func BallRadius(t Topology, size int) int {
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
