package consensus

import (
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
)

// benchRho2Design designs the weights of a random 6-regular graph on n
// nodes for ρ₂ at γ = 0.1 (γλ_n ≈ 1.05 at the uniform start: λ_n ≈
// 6 + 2√5 for a random 6-regular graph) on the default path (the local
// path, spec §13.14, on these expanders): every link a candidate of unit
// cost, the budget the current total weight, no bounds, default
// settings, at most maxIter iterations. It reports the certified
// relative gap Gap/Value.Hi, the iterations and the solves of L and of
// 2I − γL (none on the local path). A gap above Tol (ErrNotConverged) is
// the reported result, not a failure.
func benchRho2Design(b *testing.B, n, maxIter int, sketch bool) {
	tp, set := benchDesignInput(b, n, maxIter)
	set.Sketch = sketch
	p := Rho2WeightProblem{TraceWeightProblem: tp, Gamma: 0.1}
	var d *Rho2WeightDesign
	b.ResetTimer()
	benchCPU(b, func() (err error) {
		d, err = DesignRho2AtScale(p, set, mc.Source(35))
		return notConvergedOK(err)
	})
	b.ReportMetric(d.Gap/d.Value.Hi, "gap")
	b.ReportMetric(d.Value.Mean, "rho2")
	b.ReportMetric(float64(d.Iterations), "iter")
	b.ReportMetric(float64(d.Solves), "solves")
	b.ReportMetric(float64(d.ShiftedSolves), "shifted")
}

// BenchmarkDesignRho2AtScale_Regular6_1e4 is the development size.
func BenchmarkDesignRho2AtScale_Regular6_1e4(b *testing.B) { benchRho2Design(b, 10000, 10, false) }

// BenchmarkDesignRho2AtScale_Regular6_1e5 is the size recorded in
// docs/benchmarks.md.
func BenchmarkDesignRho2AtScale_Regular6_1e5(b *testing.B) { benchRho2Design(b, 100000, 10, false) }

// BenchmarkDesignRho2AtScaleSketch_Regular6_1e5 is the 10⁵ size on the
// sketched path.
func BenchmarkDesignRho2AtScaleSketch_Regular6_1e5(b *testing.B) {
	benchRho2Design(b, 100000, 10, true)
}

// BenchmarkDesignRho2AtScale_Regular6_1e6 is the 10⁶-node size (local
// path) recorded in docs/benchmarks.md.
func BenchmarkDesignRho2AtScale_Regular6_1e6(b *testing.B) { benchRho2Design(b, 1000000, 10, false) }

// BenchmarkDesignRho2CycleAtScale_Regular6_1e5 designs the weights and
// the cycle together on the 10⁵-node graph of benchRho2Design (zero
// lower bounds: one design over the cone, local path), at most 20
// iterations. It reports the certified relative gap, the designed γ and
// ρ₂ there.
func BenchmarkDesignRho2CycleAtScale_Regular6_1e5(b *testing.B) {
	tp, set := benchDesignInput(b, 100000, 20)
	var d *Rho2WeightDesign
	b.ResetTimer()
	benchCPU(b, func() (err error) {
		d, err = DesignRho2CycleAtScale(tp, set, mc.Source(36))
		return notConvergedOK(err)
	})
	b.ReportMetric(d.Gap/d.Value.Hi, "gap")
	b.ReportMetric(d.Gamma, "gamma")
	b.ReportMetric(d.Value.Mean, "rho2")
	b.ReportMetric(float64(d.Iterations), "iter")
}
