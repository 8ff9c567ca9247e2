package datasets_test

import (
	"fmt"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/wgraph"
)

func ExampleKarate() {
	g := datasets.Karate().Graph
	maxDeg := 0
	for u := 0; u < g.Order(); u++ {
		maxDeg = max(maxDeg, g.Degree(u))
	}
	fmt.Println(g.Order(), "members,", g.Size(), "friendships, max degree", maxDeg, "connected:", wgraph.IsConnected(g))
	// Output:
	// 34 members, 78 friendships, max degree 17 connected: true
}
