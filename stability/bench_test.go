package stability

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
)

// benchLaw is a random N-node network with demand of the order of the
// capacity (some nodes overloaded, some not), β = 1.
func benchLaw(n int) *Law {
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	return mustLaw(randomNet(rng, n, 2, 0.5), 1)
}

// Issue target: N = 100, t ∈ [0, 1000], tolerance 1e-8, ≤ 1 s.
func BenchmarkIntegrate_N100_T1000(b *testing.B) {
	benchIntegrate(b, &Settings{AbsTol: 1e-8, RelTol: 1e-8})
}

// The same in x coordinates (Settings.Direct), for comparison.
func BenchmarkIntegrateDirect_N100_T1000(b *testing.B) {
	benchIntegrate(b, &Settings{AbsTol: 1e-8, RelTol: 1e-8, Direct: true})
}

// benchIntegrate integrates the N = 100 benchmark law over [0, 1000].
func benchIntegrate(b *testing.B, s *Settings) {
	l := benchLaw(100)
	x0 := randomInterior(rand.New(rand.NewPCG(1, 1)), 100)
	b.ResetTimer()
	for b.Loop() {
		tr, err := l.Integrate(x0, 1000, s)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(tr.Stats.Accepted), "steps")
	}
}

// Issue target: all 2^20 corners of N = 20 classified in ≤ 2 s.
func BenchmarkClassifyCorners_N20(b *testing.B) {
	l := benchLaw(20)
	for b.Loop() {
		if _, err := l.ClassifyCorners(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearchCorners_N64_1000starts(b *testing.B) {
	l := benchLaw(64)
	for b.Loop() {
		if _, err := l.SearchCorners(1000, rand.NewPCG(1, 2)); err != nil {
			b.Fatal(err)
		}
	}
}

// Targeted mode at N = 100: 8 starts integrated and snapped.
func BenchmarkAttractors_N100_8starts(b *testing.B) {
	l := benchLaw(100)
	for b.Loop() {
		if _, _, err := l.Attractors(8, 300, rand.NewPCG(1, 2), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Greedy vs optimal over one day of 5-minute periods at N = 100.
func BenchmarkCompare_N100_day(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	nw := randomNet(rng, 100, 1, 0.3)
	times := hourGrid(24, 12)
	dem, err := Diurnal(nw.T, times, nil, rand.NewPCG(5, 5))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Compare(nw, times, dem, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// A harder instance: demand 10× larger, no extra self-correlation, so many
// nodes overload and the trajectory visits several faces.
func BenchmarkIntegrate_N100_T1000_Heavy(b *testing.B) {
	rng := rand.New(rand.NewPCG(100, 7))
	l := mustLaw(randomNet(rng, 100, 20, 0), 1)
	x0 := randomInterior(rand.New(rand.NewPCG(1, 1)), 100)
	s := &Settings{AbsTol: 1e-8, RelTol: 1e-8}
	for b.Loop() {
		tr, err := l.Integrate(x0, 1000, s)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(tr.Stats.Accepted), "steps")
	}
}

// Issue 13 target: greedy ODE on a sparse synthetic CDN, N = 10⁴, 10
// nonzeros per row, t ∈ [0, 1000], tolerance 1e-8, ≤ 1 s.
func BenchmarkIntegrateSparse_N1e4_T1000(b *testing.B) {
	nw, err := anycast.GenerateCDN(rand.NewPCG(13, 1), &anycast.CDNSettings{N: 10000, K: 10})
	if err != nil {
		b.Fatal(err)
	}
	l := mustLaw(nw, 1)
	x0 := randomInterior(rand.New(rand.NewPCG(1, 1)), 10000)
	b.ResetTimer()
	for b.Loop() {
		tr, err := l.Integrate(x0, 1000, &Settings{AbsTol: 1e-8, RelTol: 1e-8})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(tr.Stats.Accepted), "steps")
	}
}
