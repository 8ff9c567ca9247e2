package competitive_test

import (
	"fmt"

	"github.com/loadlab/loadlab/competitive"
)

// The slide example of spec §4.7 with k = 5 servers and setup cost 5.
func Example() {
	in, err := competitive.NewInstance([][]float64{
		{3, 1, 2, 3, 1},
		{2, 4, 4, 5, 0},
		{2, 0, 2, 2, 1},
		{0, 3, 8, 4, 1},
	}, 5)
	if err != nil {
		panic(err)
	}
	opt, sched := competitive.Optimum(in)
	fmt.Println("OPT", opt, sched)
	for _, alg := range []competitive.Online{
		competitive.NewDTrack(competitive.RoundRobin),
		&competitive.DTrack{Policy: competitive.RoundRobin, Alpha: 1, Reach: true},
		competitive.NewCTrack(),
		&competitive.WFA{},
	} {
		s, _ := competitive.Run(alg, in)
		fmt.Printf("%T %v cost %.4g\n", alg, s, in.Cost(s))
	}
	// Output:
	// OPT 8 [4 4 4 4]
	// *competitive.DTrack [1 1 1 1] cost 13
	// *competitive.DTrack [1 1 1 3] cost 19
	// *competitive.CTrack [1 1 1 3] cost 19
	// *competitive.WFA [1 1 1 1] cost 13
}

// The adaptive adversary of spec §6.1 pushes DTrack-RR beyond the lower
// bound k and the work function algorithm towards 2k − 1.
func ExampleCruel() {
	for _, alg := range []competitive.Online{competitive.NewDTrack(competitive.RoundRobin), &competitive.WFA{}} {
		in, sched, err := competitive.Cruel(alg, 3, 3000, 1, 1)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%T ratio %.3f\n", alg, in.Cost(sched)/competitive.OptimumCost(in))
	}
	fmt.Printf("guaranteed ≥ %.3f\n", competitive.CruelBound(3, 3000, 1, 1))
	// Output:
	// *competitive.DTrack ratio 4.000
	// *competitive.WFA ratio 5.000
	// guaranteed ≥ 2.998
}

// Streaming the optimum of a long input one slot at a time.
func ExampleOptimal() {
	var o competitive.Optimal
	o.Reset(2, 3, competitive.NoServer, true)
	for _, row := range [][]float64{{0, 5}, {0, 5}, {5, 0}, {5, 0}, {5, 0}} {
		o.Push(row)
	}
	fmt.Println(o.Cost(), o.Schedule(nil))
	// Output:
	// 6 [0 0 1 1 1]
}

// Motion awareness with a perfect forecast: planning over the whole
// future from the current server every slot attains OPT, while no
// forecast at all is DTrack-RR.
func ExampleLookahead() {
	in, _ := competitive.NewInstance([][]float64{{1, 2, 3}, {1, 2, 3}, {9, 0, 9}, {9, 0, 9}, {0, 9, 9}, {0, 9, 9}}, 4)
	for _, w := range []int{0, 1, 6} {
		s, _ := competitive.Run(&competitive.Lookahead{Window: w, Forecaster: competitive.Oracle{In: in}}, in)
		fmt.Println(w, s, in.Cost(s))
	}
	fmt.Println("OPT", competitive.OptimumCost(in))
	// Output:
	// 0 [0 0 1 1 0 0] 14
	// 1 [0 0 1 1 0 0] 14
	// 6 [1 1 1 1 0 0] 12
	// OPT 12
}

// The Ω(C) trap of spec §6.4: DTrack-F pays (2n+1)C against OPT = C+n+1.
func ExampleTrap() {
	in, _ := competitive.Trap(10, 20)
	f, _ := competitive.RunCost(competitive.NewDTrack(competitive.Forward), in)
	rr, _ := competitive.RunCost(competitive.NewDTrack(competitive.RoundRobin), in)
	fmt.Printf("F %.4g RR %.4g OPT %.4g\n", f, rr, competitive.OptimumCost(in))
	// Output:
	// F 410 RR 69 OPT 31
}

// Invalid input is reported with the slot, server and value at fault.
func ExampleNewInstance() {
	_, err := competitive.NewInstance([][]float64{{1, 2}, {3, -4}}, 5)
	fmt.Println(err)
	_, err = competitive.NewInstance([][]float64{{1, 2}, {3}}, 5)
	fmt.Println(err)
	// Output:
	// competitive: hold cost h(slot 1, server 1) = -4: want finite and ≥ 0
	// competitive: slot 1 has 1 hold costs, slot 0 has 2: rows must have equal length
}
