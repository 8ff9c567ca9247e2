package dataio_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/dataio"
)

// The two-node anycast example of spec anycast-cdn §7, as a user's JSON.
func ExampleReadNetworkJSON() {
	src := `{"A": [2, 1], "T": [1.5, 1.2], "C_triplets": [[0, 0, 0.7], [0, 1, 0.3], [1, 1, 1]]}`
	nd, err := dataio.ReadNetworkJSON(strings.NewReader(src), nil)
	if err != nil {
		log.Fatal(err)
	}
	nw := nd.Network
	cols, vals := nw.Row(0) // triplets give a sparse C: row 0's stored entries
	fmt.Println("N =", len(nw.A), "sparse:", nw.Sparse != nil, "row 0:", cols, vals)
	// Output:
	// N = 2 sparse: true row 0: [0 1] [0.7 0.3]
}

// Hold costs of a nomadic instance, one row per slot, one column per server.
func ExampleReadInstance() {
	in, err := dataio.ReadInstance(strings.NewReader("s0,s1\n0,4\n4,0\n0,4\n"), 2, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(in.Slots(), "slots,", in.Servers(), "servers, setup", in.Setup())
	// Output:
	// 3 slots, 2 servers, setup 2
}

// Hold costs with a timestamp column: refused as data, read when skipped.
func ExampleReadTable() {
	src := "time,s0,s1\n2024-03-01T00:00Z,0,4\n2024-03-01T01:00Z,4,0\n"
	_, err := dataio.ReadTable(strings.NewReader(src), nil)
	fmt.Println(err != nil)
	tb, err := dataio.ReadTable(strings.NewReader(src), &dataio.TableOptions{Skip: []string{"time"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tb.Columns, tb.Rows, "lines", tb.Lines)
	// Output:
	// true
	// [s0 s1] [[0 4] [4 0]] lines [2 3]
}

// A measured correlation matrix whose rows sum to 1 only within
// measurement error: refused as it is, read with its rows normalised.
func ExampleReadNetworkCSV() {
	nodes := "A,T\n2,1.5\n1,1.2\n"
	corr := "0.7002,0.3001\n0,0.9998\n"
	_, err := dataio.ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader(corr), nil)
	fmt.Println(err)
	nd, err := dataio.ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader(corr), &dataio.NetworkOptions{Normalize: true, RowSumTol: 1e-3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("max |row sum − 1| = %.2g (row %d); C[0] = %.4f %.4f\n", nd.RowSumDev, nd.RowSumDevRow, nd.Network.At(0, 0), nd.Network.At(0, 1))
	// Output:
	// dataio: 1: row 0 of C = "1.0003": row 0 sums to 1.0003: |sum − 1| = 0.0003 exceeds the tolerance 1e-09 (set NetworkOptions.Normalize to divide each row by its sum, with NetworkOptions.RowSumTol bounding |sum − 1|): invalid argument
	// max |row sum − 1| = 0.0003 (row 0); C[0] = 0.7000 0.3000
}

// Beacon counts of two regions (spec anycast-cdn §15.1), and Ĉ with its
// 95 % interval.
func ExampleReadCountsCSV() {
	src := "region,proxy,count\n0,0,90\n0,1,10\n1,1,100\n"
	n, err := dataio.ReadCountsCSV(strings.NewReader(src), nil)
	if err != nil {
		log.Fatal(err)
	}
	h, err := beacon.EstimateC(n, nil)
	if err != nil {
		log.Fatal(err)
	}
	e := h.Estimate(0, 1)
	fmt.Printf("C[0][1] = %.2f in [%.3f, %.3f] from %d beacons\n", e.Mean, e.Lo, e.Hi, e.N)
	// Output:
	// C[0][1] = 0.10 in [0.049, 0.176] from 100 beacons
}
