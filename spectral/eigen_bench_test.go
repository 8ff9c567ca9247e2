package spectral

import (
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
)

// benchBracket times one bracket per operation (the whole target work:
// bounds, both Lanczos passes) and reports CPU time beside wall time,
// the Lanczos steps and the relative width reached.
func benchBracket(b *testing.B, g *wgraph.Graph, f func(*wgraph.Graph, *EigenSettings) (Bracket, error)) {
	var br Bracket
	var err error
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		if br, err = f(g, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(br.Steps), "steps")
	b.ReportMetric(br.Width()/br.Lo, "relwidth")
	b.Logf("%v cert %v δ %g", br, br.Cert, br.Delta)
}

// BenchmarkLambdaMaxBracket_Regular6_1e6: λ_max of the 10⁶-node random
// 6-regular graph (≈ 6 + 2√5), relative width 1e-3, δ = 1e-10.
func BenchmarkLambdaMaxBracket_Regular6_1e6(b *testing.B) {
	benchBracket(b, graphtest.BenchRegular6(b), LambdaMaxBracket)
}

// BenchmarkLambdaMaxBracket_Torus1000: λ_max = 8 of the 1000 × 1000
// torus (Hi exact by Collatz–Wielandt, Lo by Lanczos).
func BenchmarkLambdaMaxBracket_Torus1000(b *testing.B) {
	benchBracket(b, graphtest.BenchTorus1000(b), LambdaMaxBracket)
}

// BenchmarkLambda2Bracket_Regular6_1e6: λ₂ of the 10⁶-node random
// 6-regular graph (≈ 6 − 2√5).
func BenchmarkLambda2Bracket_Regular6_1e6(b *testing.B) {
	benchBracket(b, graphtest.BenchRegular6(b), Lambda2Bracket)
}

// BenchmarkLambda2Bracket_Torus1000: λ₂ = 4 sin²(π/1000) of the
// 1000 × 1000 torus (multiplicity 4).
func BenchmarkLambda2Bracket_Torus1000(b *testing.B) {
	benchBracket(b, graphtest.BenchTorus1000(b), Lambda2Bracket)
}
