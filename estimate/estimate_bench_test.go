package estimate

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
)

// BenchmarkEdgeResistances_Regular6_1e6_Eps0.3 estimates the resistance
// of all 3·10⁶ edges of the 10⁶-node random 6-regular graph to ε = 0.3.
func BenchmarkEdgeResistances_Regular6_1e6_Eps03(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	var er *EdgeResistanceSet
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if er, err = EdgeResistances(g, &SketchSettings{Eps: 0.3}, rand.NewPCG(3, 3)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(er.K), "solves")
	b.ReportMetric(float64(er.Iterations), "iters")
	b.ReportMetric(er.FosterRelErr, "foster-relerr")
}

// BenchmarkEstimateKirchhoff_Regular6_1e6 estimates K_f of the 10⁶-node
// random 6-regular graph to 1 % (95 %).
func BenchmarkEstimateKirchhoff_Regular6_1e6(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	var res TraceResult
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = Kirchhoff(g, nil, rand.NewPCG(5, 5)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(res.Estimate.RelHalfWidth(), "relhw")
}

// BenchmarkEstimatePinvDiag_Regular6_1e6 estimates diag(L†) of the
// 10⁶-node random 6-regular graph to the default 1 % per node (95 %).
func BenchmarkEstimatePinvDiag_Regular6_1e6(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	var res DiagEstimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = PinvDiag(g, nil, rand.NewPCG(7, 7)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(float64(res.Degree), "degree")
	b.ReportMetric(res.MaxRelHW, "max-relhw")
}
