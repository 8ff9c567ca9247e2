package mobility_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/competitive/mobility"
)

func src(seed uint64) rand.Source { return rand.NewPCG(seed, 1) }

// A short mesh run: the performance ratio (cost / OPT) of DTrack-RR and
// of Target-Aware with a 10-slot look-ahead, averaged over 4 walks.
func ExampleCompare() {
	cs := []mobility.Contender{mobility.Baselines()[0], mobility.TargetAware(10, 0)}
	res, err := mobility.Compare(mobility.Mesh{Slots: 600}, cs, 4, 1, 0)
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Printf("%-16s ratio %.2f\n", r.Name, r.Ratio.Mean)
	}
	// Output:
	// OPT              ratio 1.00
	// DTrack-RR        ratio 1.13
	// Target-Aware(10) ratio 1.00
}

// The same comparison to a requested precision: the 4 runs are a pilot,
// and the walks go on until every mean cost and ratio is known to ±1 %
// at 95 %; N is the runs used.
func ExampleCompareWith() {
	cs := []mobility.Contender{mobility.Baselines()[0], mobility.TargetAware(10, 0)}
	set := &mobility.CompareSettings{Precision: loadlab.Precision{Rel: 0.01}}
	res, err := mobility.CompareWith(mobility.Mesh{Slots: 600}, cs, 4, 1, 0, set)
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Printf("%-16s ratio %.3f ± %.3f, cost %.0f ± %.0f m, %d runs\n", r.Name, r.Ratio.Mean, r.Ratio.HalfWidth(), r.Cost.Mean, r.Cost.HalfWidth(), r.Cost.N)
	}
	// Output:
	// OPT              ratio 1.000 ± 0.000, cost 26176 ± 208 m, 43 runs
	// DTrack-RR        ratio 1.139 ± 0.005, cost 29819 ± 295 m, 43 runs
	// Target-Aware(10) ratio 1.001 ± 0.000, cost 26208 ± 213 m, 43 runs
}

// A forecaster can drive competitive.Lookahead directly on a sampled
// mesh run.
func ExampleTargetForecast() {
	in, sc, err := mobility.Mesh{Slots: 600}.Sample(src(7))
	if err != nil {
		panic(err)
	}
	f, err := mobility.TargetForecast(sc, 0, src(8))
	if err != nil {
		panic(err)
	}
	alg := &competitive.Lookahead{Window: 10, Forecaster: f}
	r, err := competitive.Ratio(alg, in)
	if err != nil {
		panic(err)
	}
	fmt.Printf("Target-Aware(10): cost/OPT = %.2f\n", r)
	// Output:
	// Target-Aware(10): cost/OPT = 1.00
}

// Settings are validated before anything is allocated: a NaN field is
// named, and a mesh too large for the machine is refused.
func ExampleMesh_Validate() {
	fmt.Println(mobility.Mesh{Speed: math.NaN()}.Validate())
	fmt.Println(mobility.Mesh{Grid: 1 << 20}.Validate())
	// Output:
	// mobility: Mesh.Speed = NaN, want finite and ≥ 0 (0 = default): invalid argument
	// mobility: Mesh.Grid: Grid² sites = 1099511627776 needs more than 16 GiB: size too large
}
