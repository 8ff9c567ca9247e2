package cholesky

import (
	"testing"

	"github.com/loadlab/loadlab/datasets"
)

// benchGraphs returns the benchmark graphs: the two data sets and the
// 316×316 and 1000×1000 grids (10⁵ and 10⁶ nodes).
func benchGraphs() map[string]func() (int, []int, []int) {
	return map[string]func() (int, []int, []int){
		"power": func() (int, []int, []int) { return csrFromGraph(datasets.PowerGrid().Graph, false) },
		"as":    func() (int, []int, []int) { return csrFromGraph(datasets.InternetAS().Graph, false) },
		"grid316": func() (int, []int, []int) {
			ptr, adj := csrFromEdges(316*316, gridEdges(316, 316, false))
			return 316 * 316, ptr, adj
		},
		"grid1000": func() (int, []int, []int) {
			ptr, adj := csrFromEdges(1000*1000, gridEdges(1000, 1000, false))
			return 1000 * 1000, ptr, adj
		},
	}
}

func benchmarkOrder(b *testing.B, order func(int, []int, []int) []int, names ...string) {
	graphs := benchGraphs()
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			n, ptr, adj := graphs[name]() // b.Loop times only the loop
			for b.Loop() {
				order(n, ptr, adj)
			}
		})
	}
}

func BenchmarkOrderAMD(b *testing.B) {
	benchmarkOrder(b, orderAMD, "power", "as", "grid316", "grid1000")
}

func BenchmarkOrderND(b *testing.B) { benchmarkOrder(b, orderND, "power", "as", "grid316", "grid1000") }
