package consensus

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// BenchmarkEstimateH2_Regular6_1e6 estimates ρ₁ and ρ₂ of the 10⁶-node
// random 6-regular graph to 1 % (95 %) at γ = 1.5/λ_n^Gershgorin = 1.5/12.
func BenchmarkEstimateH2_Regular6_1e6(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	var res H2Estimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = estimateH2(g, 1.5/12, nil, rand.NewPCG(6, 6)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(res.Rho2.RelHalfWidth(), "relhw")
}

// BenchmarkEstimateNodalH2_Regular6_1e6 estimates ρ₁,j and ρ₂,j of the
// 10⁶-node random 6-regular graph at γ = 1.5/12 to the default 1 % per
// node (95 %).
func BenchmarkEstimateNodalH2_Regular6_1e6(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	var res NodalH2Estimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = estimateNodalH2(g, 1.5/12, nil, rand.NewPCG(8, 8)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Rho2.Probes), "probes")
	b.ReportMetric(float64(res.Rho2.Degree), "degree")
	b.ReportMetric(max(res.Rho1.MaxRelHW, res.Rho2.MaxRelHW), "max-relhw")
}

// BenchmarkGammaH2_Regular6_1e6 estimates γ*_H2 and ρ₂(γ*_H2) of the
// 10⁶-node random 6-regular graph to 1 % (95 %): the at-scale target
// "ρ₂ at γ*_H2, ≤ 10 s". 1 op = LambdaMaxBracket, the solver setup and
// every probe.
func BenchmarkGammaH2_Regular6_1e6(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	var res GammaH2Estimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = EstimateGammaH2(g, 1, nil, rand.NewPCG(8, 8)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(float64(res.MatVecs), "matvecs")
	b.ReportMetric(res.Rho2.RelHalfWidth(), "rho2-relhw")
	b.ReportMetric(res.Gamma.HalfWidth()/res.Gamma.Mean, "gamma-relhw")
	b.Logf("%+v", res)
}

// benchGammaH2 estimates γ*_H2 and ρ₂ there to 1 % and reports both
// relative errors against the closed forms.
func benchGammaH2(b *testing.B, name string) {
	c := ClosedForm(b, name)
	var res GammaH2Estimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = EstimateGammaH2(c.g, 1, nil, rand.NewPCG(8, 8)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(res.Rho2.RelHalfWidth(), "rho2-relhw")
	b.ReportMetric(math.Abs(res.Rho2.Mean/c.rho2Min-1), "rho2-relerr")
	b.ReportMetric(math.Abs(res.Gamma.Mean/c.gstar-1), "gamma-relerr")
}

func BenchmarkGammaH2_Torus1000(b *testing.B) { benchGammaH2(b, "Torus1000") }

func BenchmarkGammaH2_Hypercube20(b *testing.B) { benchGammaH2(b, "Hypercube20") }

// closedFormGraph caches the 1000×1000 torus and the 2²⁰-node hypercube
// with their exact Kirchhoff index and γ*_H2, ρ₂(γ*_H2) from the closed
// spectra (spec throttlers.md §9).
type ClosedFormCase struct {
	g                  *wgraph.Graph
	kf, gstar, rho2Min float64
}

func ClosedForm(b *testing.B, name string) ClosedFormCase {
	b.Helper()
	var g *wgraph.Graph
	var ev []float64
	var err error
	switch name {
	case "Torus1000":
		g = graphtest.BenchTorus1000(b)
		ev, err = spectral.TorusSpectrum(1000, 1000)
	default: // Hypercube20
		g, err = gen.Hypercube(20)
		if err == nil {
			ev, err = spectral.HypercubeSpectrum(20)
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	slices.Sort(ev)
	kf, err := spectral.KirchhoffFromSpectrum(ev)
	if err != nil {
		b.Fatal(err)
	}
	gs, r2 := exactGammaH2(ev)
	return ClosedFormCase{g: g, kf: kf, gstar: gs, rho2Min: r2}
}
