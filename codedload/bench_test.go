package codedload

import (
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/par"
)

// benchRun times runs of cfg and reports two memory figures: the peak of
// the heap's object bytes, sampled every 10 ms through runtime/metrics
// (no stop-the-world), and runtime.MemStats.Sys, the memory obtained from
// the OS, an upper bound on the peak.
func benchRun(b *testing.B, cfg Config) {
	b.ReportAllocs()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	stop := make(chan struct{})
	var err error
	// The runs, then the sampler on a second goroutine until they end
	// (piece 1, claimed at once by an idle helper of internal/par; with
	// none, it runs after the runs and takes one sample).
	par.For(2, 2, func(piece int) {
		if piece == 0 {
			defer close(stop)
			for i := 0; b.Loop(); i++ {
				if _, err = Run(cfg, mc.Source(1, uint64(i))); err != nil {
					return
				}
			}
			return
		}
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
}

func torusConfig(b *testing.B, n int, s Strategy) Config {
	tor, err := NewTorus(n)
	if err != nil {
		b.Fatal(err)
	}
	c := Config{Topology: tor, Files: 100, Cache: 2, Strategy: s}
	if cs, ok := s.(Coded); ok {
		c.Strategy = Coded{Ell: LogEll(n), Field: cs.Field}
	}
	return c
}

// Targets (docs/benchmarks.md): ≤ 0.2 s at n = 10⁴, ≤ 15 s and ≤ 2 GiB at n = 10⁶.
func BenchmarkRun_Torus_n1e4_Coded(b *testing.B) { benchRun(b, torusConfig(b, 10000, Coded{})) }
func BenchmarkRun_Torus_n1e6_Coded(b *testing.B) { benchRun(b, torusConfig(b, 1000000, Coded{})) }

// Real decoding over GF(2⁸) (Coded.Field, spec §11.6); target at n = 10⁶
// (issue 30): ≤ 3 × the ideal run above.
func BenchmarkRun_Torus_n1e6_CodedRLNC(b *testing.B) {
	benchRun(b, torusConfig(b, 1000000, Coded{Field: 256}))
}
func BenchmarkRun_Torus_n1e4_NR(b *testing.B) { benchRun(b, torusConfig(b, 10000, NearestReplica{})) }
func BenchmarkRun_Torus_n1e6_NR(b *testing.B) { benchRun(b, torusConfig(b, 1000000, NearestReplica{})) }
func BenchmarkRun_Torus_n1e6_TwoChoiceGlobal(b *testing.B) {
	benchRun(b, torusConfig(b, 1000000, TwoChoiceGlobal{}))
}
func BenchmarkRun_Hypercube_n2e20_Coded(b *testing.B) {
	benchRun(b, Config{Topology: &Hypercube{Dim: 20}, Files: 100, Cache: 2, Strategy: Coded{Ell: LogEll(1 << 20)}})
}

// BenchmarkServerSweep is the §7.1 server-count sweep: 12 torus sizes,
// 10 runs each, nearest replica and coded (ℓ = ⌈ln n⌉); target ≤ 60 s.
func BenchmarkServerSweep_12x10_NR_Coded(b *testing.B) {
	pts := append(serverSweep(NearestReplica{}), serverSweep(Coded{})...)
	for b.Loop() {
		if _, err := Sweep(pts, 10, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewRGG_n1e6(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := NewRGG(1000000, 0, rand.NewPCG(1, uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewRegular_n1e6_d4(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := NewRegular(1000000, 4, rand.NewPCG(1, uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRun_RGG_n1e5_Coded(b *testing.B) {
	w, err := NewRGG(100000, 0, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, Config{Topology: w, Files: 100, Cache: 2, Strategy: Coded{Ell: LogEll(100000)}})
}

func BenchmarkRun_Torus_n1e6_TwoChoice_r16(b *testing.B) {
	c := torusConfig(b, 1000000, TwoChoice{Radius: 16})
	benchRun(b, c)
}

func BenchmarkRun_RGG_n1e6_Coded(b *testing.B) {
	w, err := NewRGG(1000000, 0, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, Config{Topology: w, Files: 100, Cache: 2, Strategy: Coded{Ell: LogEll(1000000)}})
}

// Two choices (b) on graphs searched by BFS: each request whose far
// candidate wins needs its distance, found by the bidirectional search of
// bfs.dist.
func BenchmarkRun_RGG_n16384_TwoChoiceGlobal(b *testing.B) {
	w, err := NewRGG(16384, 0, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, Config{Topology: w, Files: 100, Cache: 2, Strategy: TwoChoiceGlobal{}})
}

func BenchmarkRun_Regular6_n16384_TwoChoiceGlobal(b *testing.B) {
	w, err := NewRegular(16384, 6, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, Config{Topology: w, Files: 100, Cache: 2, Strategy: TwoChoiceGlobal{}})
}

// BenchmarkCompare_Torus_n1e4_Rel1pct is `cache compare --n 10000 --rel
// 0.01`: the four strategies of the main comparison (nearest replica,
// two choices (a) with r = 16 and (b), coded with ℓ = ⌈ln n⌉) on the
// 100×100 torus (K = 100, M = 2), each until its maximum load and cost
// are known to ±1 % at 95 %, from a 10-run pilot. Target ≤ 30 s. It
// reports the CPU time beside the wall time and the runs used per
// strategy.
func BenchmarkCompare_Torus_n1e4_Rel1pct(b *testing.B) {
	base := Config{Files: 100, Cache: 2}
	with := func(s Strategy) Config { c := base; c.Strategy = s; return c }
	variants := []Variant{
		{Name: "NR", Config: with(NearestReplica{})},
		{Name: "2C-a", Config: with(TwoChoice{}), Radius: func(Topology) int { return 16 }},
		{Name: "2C-b", Config: with(TwoChoiceGlobal{})},
		{Name: "coded", Config: with(Coded{}), Ell: LogEll},
	}
	set := &SweepSettings{Precision: loadlab.Precision{Rel: 0.01}}
	var curves []Curve
	c0 := cputime.Process()
	for b.Loop() {
		var err error
		if curves, err = CompareSizes([]int{10000}, TorusFamily, variants, func(int) int { return 10 }, 1, set); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	for _, c := range curves {
		b.ReportMetric(float64(len(c.Points[0].Runs)), "runs-"+c.Name)
	}
}
