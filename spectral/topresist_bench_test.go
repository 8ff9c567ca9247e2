package spectral

import (
	"testing"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/internal/cputime"
)

// The top 10 resistance pairs of the 4941-node US power grid, above
// DenseMaxNodes: the pivot method (target, issue 27: within 15 s; the
// dense resistance matrix alone takes 11–35 s on two cores).
func BenchmarkTopResistances_PowerGrid_k10(b *testing.B) {
	g := datasets.PowerGrid().Graph
	c0 := cputime.Process()
	var st topStats
	for b.Loop() {
		var err error
		if _, st, err = topPivots(g, 10); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(st.Pivots), "pivots")
	b.ReportMetric(float64(st.Solves), "solves")
	b.ReportMetric(float64(st.Rounds), "rounds")
}
