package stability

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/asm"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/par"
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
		if _, _, err := l.Attractors(8, 300, 1, nil); err != nil {
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

// Target (docs/benchmarks.md): greedy ODE on a sparse synthetic CDN, N = 10⁴, 10
// nonzeros per row, t ∈ [0, 1000], tolerance 1e-8, ≤ 1 s. One op is the
// whole Integrate call, every accepted step recorded.
func BenchmarkIntegrateSparse_N1e4_T1000(b *testing.B) { benchSparse(b, 10_000) }

// Target (docs/benchmarks.md): the same at N = 10⁵, ≤ 10 s and ≤ 1 GiB (peak RSS of
// the benchmark process, GNU time -v; see docs/benchmarks.md).
func BenchmarkIntegrateSparse_N1e5_T1000(b *testing.B) { benchSparse(b, 100_000) }

// benchSparse integrates the greedy law on GenerateCDN(N, K = 10) with
// β = 1 from a random interior start over [0, 1000] at tolerance 1e-8.
func benchSparse(b *testing.B, n int) {
	nw, err := anycast.GenerateCDN(rand.NewPCG(13, 1), &anycast.CDNSettings{N: n, K: 10})
	if err != nil {
		b.Fatal(err)
	}
	l := mustLaw(nw, 1)
	x0 := randomInterior(rand.New(rand.NewPCG(1, 1)), n)
	s := &Settings{AbsTol: 1e-8, RelTol: 1e-8}
	runODEBench(b, func() (*Trajectory, error) { return l.Integrate(x0, 1000, s) })
}

// Target (docs/benchmarks.md): greedy ODE on a dense N = 1000 network (randomNet, as
// the N = 100 benchmarks), t ∈ [0, 1000], tolerance 1e-8, every accepted
// step recorded: ≤ 0.8 × SciPy's solve_ivp RK45 on the same instance
// (testdata/scipy_ode.py; testdata/ratio_ode.sh runs both in alternating
// blocks and prints the ratio, testdata/bench_ode.sh one after the other
// with their memory; both set LOADLAB_SCIPY_DIR to export the instance).
//
// The instance and a Workspace are made once per process (denseInstance,
// denseWorkspace), so that with -test.count K the runs after the first
// find a warm heap, a running helper pool and the matrices' memory, as
// the K runs of the SciPy script do in its one process; each run still
// validates the network and forms B (Integrate's setup), which the SciPy
// script does once before its timer.
func BenchmarkIntegrateDense_N1000_T1000(b *testing.B) {
	l, x0 := denseInstance()
	if dir := os.Getenv(scipyDirEnv); dir != "" {
		if err := writeODEInstance(filepath.Join(dir, "dense1000"), l, x0); err != nil {
			b.Fatal(err)
		}
	}
	s := &Settings{AbsTol: 1e-8, RelTol: 1e-8, Workspace: denseWorkspace}
	runODEBench(b, func() (*Trajectory, error) { return l.Integrate(x0, 1000, s) })
}

// denseInstance returns the N = 1000 law and start of
// BenchmarkIntegrateDense_N1000_T1000, built on the first call.
var denseInstance = sync.OnceValues(func() (*Law, []float64) {
	return benchLaw(1000), randomInterior(rand.New(rand.NewPCG(1, 1)), 1000)
})

// denseWorkspace keeps the dense benchmark's matrices from one run to
// the next, across the runs of -test.count as within one: a caller that
// integrates again and again holds one Workspace.
var denseWorkspace = new(Workspace)

// runODEBench times run, reporting accepted steps, right-hand side
// evaluations and CPU seconds per op beside the wall time (the machine is
// shared; the products and sigmoids use both cores, so on a quiet machine
// CPU time exceeds wall time).
func runODEBench(b *testing.B, run func() (*Trajectory, error)) {
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		tr, err := run()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(tr.Stats.Accepted), "steps")
		b.ReportMetric(float64(tr.Stats.Evaluations), "evals")
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

// scipyDirEnv names the environment variable that makes
// BenchmarkIntegrateDense_N1000_T1000 write its instance for SciPy.
const scipyDirEnv = "LOADLAB_SCIPY_DIR"

// writeODEInstance writes the law and start as little-endian float64s:
// name.bin holds N, β, then A (N), T (N), x0 (N) and C row-major (N²).
func writeODEInstance(name string, l *Law, x0 []float64) error {
	nw := l.Net
	n := nw.N()
	out := []float64{float64(n), l.Sensitivity}
	out = append(out, nw.A...)
	out = append(out, nw.T...)
	out = append(out, x0...)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			out = append(out, nw.At(j, i))
		}
	}
	buf := make([]byte, 8*len(out))
	for k, v := range out {
		binary.LittleEndian.PutUint64(buf[8*k:], math.Float64bits(v))
	}
	return os.WriteFile(name+".bin", buf, 0o644)
}

// The parts of BenchmarkIntegrateDense_N1000_T1000, each timed alone so
// that progress on one shows despite the load of a shared machine (one op
// of "product" is one S = B x on all cores; "sigmoids" the 1000 σ(z) of
// one evaluation on one core; "pass" one fused stage pass over the pieces
// on all cores, loads, rates and the next sigmoids; "setup" the per-call
// validation and forming of B; "record" one recorded sample).
func BenchmarkIntegrateDense_N1000_Parts(b *testing.B) {
	l := benchLaw(1000)
	x0 := randomInterior(rand.New(rand.NewPCG(1, 1)), 1000)
	z0 := make([]float64, len(x0))
	for i, v := range x0 {
		z0[i] = logit(v)
	}
	sys := newSystem(l, x0, z0, false)
	if err := sys.setup(nil); err != nil {
		b.Fatal(err)
	}
	split := sys.split()
	dy := make([]float64, 1000)
	split.Map(0, z0, 0, 1000)
	b.Run("product", func(b *testing.B) {
		for b.Loop() {
			sys.op.Mul(sys.s, sys.xs[0])
		}
	})
	b.Run("sigmoids", func(b *testing.B) {
		for b.Loop() {
			sys.mapRange(1, z0, 0, 1000)
		}
	})
	b.Run("sigmoids-go", func(b *testing.B) {
		for b.Loop() {
			for i, z := range z0 {
				sys.xs[1][i] = asm.Sigmoid(z)
			}
		}
	})
	b.Run("pass", func(b *testing.B) {
		for b.Loop() {
			par.Loop(1000, 0, split.Grain, func(lo, hi int) {
				sys.rowsRange(0, dy, 0, lo, hi)
				sys.mapRange(1, z0, lo, hi)
			})
		}
	})
	b.Run("setup", func(b *testing.B) {
		for b.Loop() {
			if err := l.Validate(); err != nil {
				b.Fatal(err)
			}
			if _, err := l.Net.LoadOp(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("record", func(b *testing.B) {
		tr := newTrajectory(l.Net, sys.op, 0, false)
		for b.Loop() {
			tr.addLoads(0, sys.x, sys.s, nil)
			if tr.Len() == 200 {
				tr = newTrajectory(l.Net, sys.op, 0, false)
			}
		}
	})
}

// Target (issue 29, docs/benchmarks.md): one simulated day of the
// discrete greedy controller (Controller, spec §13.8) at N = 10⁴ with
// 1-minute periods, ≤ 60 s: GenerateCDN(N, K = 10), a diurnal demand
// trace sampled hourly (held for each hour), β = 20/(hour·load), loads
// measured from Poisson counts at 3.6·10⁶ requests per unit load per hour
// (1000 per second).
func BenchmarkControllerDay_N1e4(b *testing.B) {
	const n = 10_000
	nw, err := anycast.GenerateCDN(rand.NewPCG(13, 1), &anycast.CDNSettings{N: n, K: 10})
	if err != nil {
		b.Fatal(err)
	}
	times := hourGrid(24, 1)
	dem, err := Diurnal(nw.A, times, nil, rand.NewPCG(5, 5))
	if err != nil {
		b.Fatal(err)
	}
	c := &Controller{Law: mustLaw(nw, 20), Period: 1.0 / 60, Rate: 3.6e6}
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = 0.5
	}
	for b.Loop() {
		run, err := c.Run(x0, 24*60, &Trace{Times: times, A: dem}, rand.NewPCG(7, 7))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(run.ExcessTotal, "overload·h")
		b.ReportMetric(float64(run.Overshoot), "overshoots")
	}
}

// Target (issue 29, docs/benchmarks.md): one simulated day of the
// FastControl agents (Algorithm 1 learning β from packets with loss and
// delay) at N = 10⁴ with 1-minute periods, ≤ 60 s. Compare runs them
// beside the exact-β dual algorithm and the greedy law on the same
// demand: GenerateCDN(N, K = 10), a diurnal trace sampled every minute,
// two dual steps a period, FastControl with γ = 10⁴ packets per hour per
// unit of μ, a 30-second window, 1 % loss and one step of delay; the
// pairs that packets cannot reach (C_ij > 0 = C_ji) report directly.
func BenchmarkCompareFastControlDay_N1e4(b *testing.B) {
	const n = 10_000
	nw, err := anycast.GenerateCDN(rand.NewPCG(13, 1), &anycast.CDNSettings{N: n, K: 10})
	if err != nil {
		b.Fatal(err)
	}
	times := hourGrid(24, 60)
	dem, err := Diurnal(nw.A, times, nil, rand.NewPCG(5, 5))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		set := &CompareSettings{Sub: 1, DualSteps: 2,
			FastControl: &dual.FastControl{Gamma: 1e4, Window: 1.0 / 120, Loss: 0.01, Delay: 1, Unreachable: dual.Direct, Src: rand.NewPCG(8, 8)}}
		cmp, err := Compare(nw, times, dem, set)
		if err != nil {
			b.Fatal(err)
		}
		// One unit of load stands for 1000 HTTP requests per second.
		b.ReportMetric(cmp.FastControl.Overhead(3.6e6), "packets/request")
		b.ReportMetric(cmp.FastControl.CostTotal/cmp.Optimal.CostTotal, "cost-ratio")
	}
}

// Target (issue 29, docs/benchmarks.md): the headline study (spec §13.9)
// at N = 10³ over 100 instances × 20 load levels (u = 0.1 … 2.0,
// self-correlation as generated), ≤ 10 min on 2 cores: one op is the
// whole Study.
func BenchmarkStudy_N1e3_100x20(b *testing.B) {
	points := make([]StudyPoint, 20)
	for k := range points {
		points[k] = StudyPoint{N: 1000, Load: 0.1 * float64(k+1)}
	}
	for b.Loop() {
		sum, err := Study(points, 100, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(sum[len(sum)-1].CostRatio.Mean, "cost-ratio@2")
	}
}
