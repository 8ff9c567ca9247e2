package competitive_test

import (
	"fmt"
	"math"
	"math/rand/v2"

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
	opt, sched, err := competitive.Optimum(in)
	if err != nil {
		panic(err)
	}
	fmt.Printf("OPT %.4g %v\n", opt, sched)
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
	bound, err := competitive.CruelBound(3, 3000, 1, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("guaranteed ≥ %.3f\n", bound)
	// Output:
	// *competitive.DTrack ratio 4.000
	// *competitive.WFA ratio 5.000
	// guaranteed ≥ 2.998
}

// Streaming the optimum of a long input one slot at a time. Every row is
// validated as it arrives; a bad one is refused and leaves the solver as
// it was.
func ExampleOptimal() {
	var o competitive.Optimal
	if err := o.Reset(2, 3, competitive.NoServer, true); err != nil {
		panic(err)
	}
	for _, row := range [][]float64{{0, 5}, {0, 5}, {5, 0}, {5, math.NaN()}, {5, 0}, {5, 0}} {
		if err := o.Push(row); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Printf("%.4g %v\n", o.Cost(), o.Schedule(nil))
	// Output:
	// competitive: Optimal.Push: row[1] = NaN at slot 3, want finite and ≥ 0: invalid argument
	// 6 [0 0 1 1 1]
}

// The number of optimal schedules tells whether the one Optimum returns
// is the only one: instance C of spec §9.1 has a unique optimum, and
// with C = 0 every slot of a tie doubles the count.
func ExampleCountOptimal() {
	in, err := competitive.NewInstance([][]float64{{1, 2, 3}, {1, 2, 3}, {9, 0, 9}, {9, 0, 9}, {0, 9, 9}, {0, 9, 9}}, 4)
	if err != nil {
		panic(err)
	}
	n, exact := competitive.CountOptimal(in)
	fmt.Println(n, exact)
	ties, err := competitive.NewInstance([][]float64{{1, 1}, {1, 1}, {1, 1}, {0, 5}}, 0)
	if err != nil {
		panic(err)
	}
	n, exact = competitive.CountOptimal(ties)
	fmt.Println(n, exact)
	// Output:
	// 1 true
	// 8 true
}

// Motion awareness with a perfect forecast: planning over the whole
// future from the current server every slot attains OPT, while no
// forecast at all is DTrack-RR.
func ExampleLookahead() {
	in, _ := competitive.NewInstance([][]float64{{1, 2, 3}, {1, 2, 3}, {9, 0, 9}, {9, 0, 9}, {0, 9, 9}, {0, 9, 9}}, 4)
	for _, w := range []int{0, 1, 6} {
		s, _ := competitive.Run(&competitive.Lookahead{Window: w, Forecaster: competitive.Oracle{In: in}}, in)
		fmt.Printf("%d %v %.4g\n", w, s, in.Cost(s))
	}
	fmt.Printf("OPT %.4g\n", competitive.OptimumCost(in))
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
	// competitive: hold cost h(slot 1, server 1) = -4, want finite and ≥ 0: invalid argument
	// competitive: slot 1 has 1 hold costs, slot 0 has 2: rows must have equal length: invalid argument
}

// Instance C of spec §9.1: the optimum starts on server 1 although
// server 0 is cheaper in the first slot, because it knows server 1 is
// free in slots 3 and 4.
func ExampleOptimum() {
	in, err := competitive.NewInstance([][]float64{{1, 2, 3}, {1, 2, 3}, {9, 0, 9}, {9, 0, 9}, {0, 9, 9}, {0, 9, 9}}, 4)
	if err != nil {
		panic(err)
	}
	opt, sched, err := competitive.Optimum(in)
	if err != nil {
		panic(err)
	}
	fmt.Printf("OPT %.4g, schedule %v, %d setups\n", opt, sched, competitive.Setups(sched))
	fmt.Printf("cost-only mode: %.4g\n", competitive.OptimumCost(in))
	// Output:
	// OPT 12, schedule [1 1 1 1 0 0], 2 setups
	// cost-only mode: 12
}

// Run feeds an instance to an online algorithm slot by slot; Ratio
// compares its cost with the optimum (instance D of spec §9.1, where
// DTrack chases the cheaper server and the optimum does not).
func ExampleRun() {
	in, err := competitive.NewInstance([][]float64{{2, 0}, {2, 0}, {0, 2}, {0, 2}, {0, 2}, {0, 2}}, 5)
	if err != nil {
		panic(err)
	}
	alg := competitive.NewDTrack(competitive.RoundRobin)
	sched, err := competitive.Run(alg, in)
	if err != nil {
		panic(err)
	}
	r, _ := competitive.Ratio(alg, in)
	fmt.Printf("%v cost %.4g, OPT %.4g, ratio %.4g\n", sched, in.Cost(sched), competitive.OptimumCost(in), r)
	// Output:
	// [1 1 1 1 0 0] cost 14, OPT 9, ratio 1.556
}

// The transition policies of DTrack on instance H of spec §9.3 (strict
// trigger, α = 1): round-robin takes the next admissible server, the
// opportunistic ones the cheapest or the leader.
func ExampleDTrack() {
	in, err := competitive.NewInstance([][]float64{{0, 5, 5}, {3, 1, 0}, {3, 1, 0}, {3, 2, 0}, {3, 0, 4}}, 2)
	if err != nil {
		panic(err)
	}
	for _, alg := range []*competitive.DTrack{
		competitive.NewDTrack(competitive.RoundRobin),
		competitive.NewDTrack(competitive.Forward),
		{Policy: competitive.Backward, Alpha: 1, Beta: 0},
		{Policy: competitive.Backward, Alpha: 1, Beta: 1},
	} {
		sched, _ := competitive.Run(alg, in)
		fmt.Printf("%v β=%g: %v cost %.4g, %d transitions\n", alg.Policy, alg.Beta, sched, in.Cost(sched), alg.Transitions())
	}
	// Output:
	// RR β=0: [0 1 1 2 1] cost 10, 3 transitions
	// F β=0: [0 2 2 2 1] cost 6, 2 transitions
	// B β=0: [0 1 1 2 1] cost 10, 3 transitions
	// B β=1: [0 2 2 2 1] cost 6, 2 transitions
}

// CTrack on instance H of spec §9.7, with and without skipping servers
// whose current hold cost exceeds αC.
func ExampleCTrack() {
	in, err := competitive.NewInstance([][]float64{{0, 5, 5}, {3, 1, 0}, {3, 1, 0}, {3, 2, 0}, {3, 0, 4}}, 2)
	if err != nil {
		panic(err)
	}
	for _, cyclic := range []bool{false, true} {
		alg := &competitive.CTrack{Alpha: 1, Cyclic: cyclic}
		sched, _ := competitive.Run(alg, in)
		fmt.Printf("cyclic=%v: %v cost %.4g\n", cyclic, sched, in.Cost(sched))
	}
	// Output:
	// cyclic=false: [0 1 1 2 1] cost 10
	// cyclic=true: [0 1 1 2 0] cost 13
}

// The work function algorithm against the fine-grained adaptive
// adversary (ε = C/16): its ratio approaches, and never exceeds, the
// optimal deterministic ratio 2k − 1.
func ExampleWFA() {
	for k := 2; k <= 4; k++ {
		r, err := competitive.CruelRatio(&competitive.WFA{}, k, 4800*k, 1, 1.0/16)
		if err != nil {
			panic(err)
		}
		fmt.Printf("k = %d: ratio %.3f, 2k − 1 = %d\n", k, r, 2*k-1)
	}
	// Output:
	// k = 2: ratio 2.995, 2k − 1 = 3
	// k = 3: ratio 4.987, 2k − 1 = 5
	// k = 4: ratio 6.994, 2k − 1 = 7
}

// The randomised Marking algorithm: its expected cost on an input fixed
// in advance is at most 2H_k·OPT. Here the mean over 100 runs on the
// adversary's sequence built against DTrack-RR, which is oblivious for
// Marking.
func ExampleMarking() {
	in, _, err := competitive.Cruel(competitive.NewDTrack(competitive.RoundRobin), 3, 400, 2, 1)
	if err != nil {
		panic(err)
	}
	sum := 0.0
	for r := range 100 {
		c, err := competitive.RunCost(&competitive.Marking{Src: rand.NewPCG(1, uint64(r))}, in)
		if err != nil {
			panic(err)
		}
		sum += c
	}
	opt := competitive.OptimumCost(in)
	fmt.Printf("mean ratio %.2f, 2H_3 = %.2f\n", sum/100/opt, 2*(1+1.0/2+1.0/3))
	// Output:
	// mean ratio 2.26, 2H_3 = 3.67
}

// The never-migrate baselines of spec §12.7 beside the optimum and two
// migrating algorithms, on a trace whose cheapest server changes only
// briefly. The static best in hindsight (server 1) is optimal here; the
// online NeverMigrate stays on the first slot's cheapest server, 0, and
// pays one unit more; DTrack-RR chases the change and pays for it.
func ExampleStaticBest() {
	in, err := competitive.NewInstance([][]float64{
		{1, 2, 3}, {1, 2, 3}, {3, 0, 3}, {3, 0, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3},
	}, 4)
	if err != nil {
		panic(err)
	}
	opt := competitive.OptimumCost(in)
	static, server := competitive.StaticBest(in)
	fmt.Printf("OPT %.4g, static best %.4g on server %d\n", opt, static, server)
	for _, alg := range []competitive.Online{&competitive.NeverMigrate{}, competitive.NewDTrack(competitive.RoundRobin), &competitive.WFA{}} {
		r, err := competitive.Ratio(alg, in)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%T ratio %.3f\n", alg, r)
	}
	// Output:
	// OPT 14, static best 14 on server 1
	// *competitive.NeverMigrate ratio 1.071
	// *competitive.DTrack ratio 1.357
	// *competitive.WFA ratio 1.071
}
