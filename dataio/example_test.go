package dataio_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/loadlab/loadlab/dataio"
)

// The two-node anycast example of spec anycast-cdn §7, as a user's JSON.
func ExampleReadNetworkJSON() {
	src := `{"A": [2, 1], "T": [1.5, 1.2], "C_triplets": [[0, 0, 0.7], [0, 1, 0.3], [1, 1, 1]]}`
	nw, err := dataio.ReadNetworkJSON(strings.NewReader(src))
	if err != nil {
		log.Fatal(err)
	}
	cols, vals := nw.Row(0) // triplets give a sparse C: row 0's stored entries
	fmt.Println("N =", len(nw.A), "sparse:", nw.Sparse != nil, "row 0:", cols, vals)
	// Output:
	// N = 2 sparse: true row 0: [0 1] [0.7 0.3]
}

// Hold costs of a nomadic instance, one row per slot, one column per server.
func ExampleReadInstance() {
	in, err := dataio.ReadInstance(strings.NewReader("s0,s1\n0,4\n4,0\n0,4\n"), 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(in.Slots(), "slots,", in.Servers(), "servers, setup", in.Setup())
	// Output:
	// 3 slots, 2 servers, setup 2
}
