package competitive_test

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/competitive"
)

// Four servers on a line of routers, one hop apart: migrating costs the
// hop count (spec §14.1), and the first placement costs 1. The session's
// users walk from server 0 to server 3, stay there a while and come
// back.
func ExampleShortestPathMetric() {
	inf := math.Inf(1)
	m, err := competitive.ShortestPathMetric([][]float64{
		{0, 1, inf, inf},
		{1, 0, 1, inf},
		{inf, 1, 0, 1},
		{inf, inf, 1, 0},
	}, []float64{1, 1, 1, 1})
	if err != nil {
		panic(err)
	}
	in, err := competitive.NewInstance([][]float64{
		{0, 1, 2, 3}, {0, 1, 2, 3},
		{3, 2, 1, 0}, {3, 2, 1, 0}, {3, 2, 1, 0}, {3, 2, 1, 0}, {3, 2, 1, 0}, {3, 2, 1, 0},
		{0, 1, 2, 3}, {0, 1, 2, 3},
	}, 0) // the setup cost of the instance is not used: m prices the moves
	if err != nil {
		panic(err)
	}
	opt, sched, err := competitive.MetricOptimum(in, m)
	if err != nil {
		panic(err)
	}
	fmt.Printf("OPT %.4g %v\n", opt, sched)
	for _, alg := range []competitive.MetricOnline{&competitive.MetricWFA{}, competitive.NewMetricDTrack(), &competitive.MetricNeverMigrate{}} {
		s, err := competitive.RunMetric(alg, in, m)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%T %v cost %.4g\n", alg, s, competitive.MetricCost(in, m, s))
	}
	// Output:
	// OPT 7 [0 0 3 3 3 3 3 3 0 0]
	// *competitive.MetricWFA [0 0 0 0 3 3 3 3 3 3] cost 16
	// *competitive.MetricDTrack [0 0 0 2 3 3 3 3 3 0] cost 14
	// *competitive.MetricNeverMigrate [0 0 0 0 0 0 0 0 0 0] cost 19
}

// The work function algorithm needs a metric: costs that break the
// triangle inequality are refused with ErrNotMetric, while the offline
// optimum takes them.
func ExampleMetric_Violation() {
	m, err := competitive.NewMetric([][]float64{{0, 1, 5}, {1, 0, 1}, {5, 1, 0}}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Violation())
	fmt.Println((&competitive.MetricWFA{}).Reset(m) != nil)
	// Output:
	// competitive: triangle inequality fails: d(0, 2) = 5 > d(0, 1) + d(1, 2) = 1 + 1: migration costs are not a metric: invalid argument
	// true
}

// On the uniform metric the metric functions are the uniform ones (spec §14.2).
func ExampleUniformMetric() {
	in, err := competitive.NewInstance([][]float64{{0, 5}, {0, 5}, {5, 0}, {5, 0}, {5, 0}}, 3)
	if err != nil {
		panic(err)
	}
	m, err := competitive.UniformMetric(2, 3)
	if err != nil {
		panic(err)
	}
	a, _, _ := competitive.Optimum(in)
	b, _, _ := competitive.MetricOptimum(in, m)
	fmt.Println(a, b)
	// Output:
	// 6 6
}
