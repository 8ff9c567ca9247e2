package dataio_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/dataio"
)

// A user walking past two routers 100 m apart, sampled every 10 s, as
// hold costs per slot of 5 s (spec nomadic §17.1).
func ExampleMobilityInstance() {
	trace := "time,user,x,y\n0,1,0,0\n10,1,100,0\n20,1,100,0\n"
	m, err := dataio.ReadMobility(strings.NewReader(trace))
	if err != nil {
		log.Fatal(err)
	}
	in, err := dataio.MobilityInstance(m, [][2]float64{{0, 0}, {100, 0}}, 30, &dataio.MobilityOptions{Slot: 5})
	if err != nil {
		log.Fatal(err)
	}
	for t := range in.Slots() {
		fmt.Println(in.Row(t))
	}
	opt, sched, _ := competitive.Optimum(in)
	fmt.Println(opt, sched)
	// Output:
	// [0 100]
	// [50 50]
	// [100 0]
	// [100 0]
	// [100 0]
	// 110 [0 1 1 1 1]
}
