package main

import (
	"math/rand/v2"
	"os/exec"
	"testing"
	"time"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/stability"
)

// overheadCases pair a command line with the library calls that compute
// the same answer, for BenchmarkOverhead (target, docs/benchmarks.md: the
// command within 50 ms of the library on every subcommand).
var overheadCases = []struct {
	name string
	args []string
	lib  func() error
}{
	{"graph-info-power-grid", []string{"graph", "info", "--dataset", "power-grid"}, func() error {
		g := datasets.PowerGrid().Graph
		if _, _, err := spectral.AlgebraicConnectivity(g); err != nil {
			return err
		}
		if _, err := spectral.Lambda2Bracket(g, nil); err != nil {
			return err
		}
		if _, err := spectral.LambdaMaxBracket(g, nil); err != nil {
			return err
		}
		_, err := estimate.Kirchhoff(g, nil, rand.NewPCG(1, 0))
		return err
	}},
	{"graph-spectrum-cycle", []string{"graph", "spectrum", "--graph", "cycle8.txt"}, func() error {
		d, err := graphio.ReadFile("cycle8.txt", nil)
		if err == nil {
			_, err = spectral.Spectrum(d.Graph)
		}
		return err
	}},
	{"graph-resistance-path", []string{"graph", "resistance", "--graph", "path5.csv", "--pair", "a,e"}, func() error {
		d, err := graphio.ReadFile("path5.csv", nil)
		if err == nil {
			_, err = spectral.EffectiveResistance(d.Graph, 0, 4)
		}
		return err
	}},
	{"graph-resistance-top10-power-grid", []string{"graph", "resistance", "--dataset", "power-grid", "--top", "10"}, func() error {
		_, err := spectral.TopResistances(datasets.PowerGrid().Graph, 10)
		return err
	}},
	{"throttler-analyze-karate", []string{"throttler", "analyze", "--dataset", "karate"}, func() error {
		sp, err := consensus.NewSpectral(datasets.Karate().Graph)
		if err != nil {
			return err
		}
		g, _, err := sp.GammaH2(1)
		if err == nil {
			_, err = sp.NodalRho(nil, consensus.Case2, g, 1)
		}
		return err
	}},
	{"throttler-simulate-cycle", []string{"throttler", "simulate", "--graph", "cycle8.txt", "--steps", "1000"}, func() error {
		d, err := graphio.ReadFile("cycle8.txt", nil)
		if err != nil {
			return err
		}
		sp, err := consensus.NewSpectral(d.Graph)
		if err != nil {
			return err
		}
		g, _, err := sp.GammaH2(1)
		if err != nil {
			return err
		}
		x0 := []float64{1, 1, 1, 1, 1, 1, 1, 1}
		dem := &consensus.RandomWalkDemand{Start: x0, Sigma: 1, Src: rand.NewPCG(1, 3)}
		_, err = consensus.Simulate(&consensus.Throttler{Graph: d.Graph, Gamma: g}, dem, x0, 1000, nil)
		return err
	}},
	{"throttler-clients-cycle", []string{"throttler", "clients", "--graph", "cycle8.txt", "--clients-per-server", "2", "--mean", "1", "--cv", "0.3", "--steps", "1000"}, func() error {
		d, err := graphio.ReadFile("cycle8.txt", nil)
		if err != nil {
			return err
		}
		sp, err := consensus.NewSpectral(d.Graph)
		if err != nil {
			return err
		}
		g, _, err := sp.GammaH2(1)
		if err != nil {
			return err
		}
		mean, sigma := make([]float64, 16), make([]float64, 16)
		cl := &consensus.Clients{Server: make([]int, 16)}
		for j := range mean {
			mean[j], sigma[j], cl.Server[j] = 1, 0.3, j/2
		}
		dem := &consensus.ClientStationary{Mean: mean, Sigma: sigma, Src: rand.NewPCG(1, 4)}
		x0 := []float64{2, 2, 2, 2, 2, 2, 2, 2}
		_, err = consensus.SimulateClients(&consensus.Throttler{Graph: d.Graph, Gamma: g}, cl, dem, x0, 1000, nil)
		return err
	}},
	{"anycast-optimize-cdn3", []string{"anycast", "optimize", "--network", "cdn3.json"}, func() error {
		nd, err := dataio.ReadNetworkJSONFile("cdn3.json", nil)
		if err != nil {
			return err
		}
		p, err := dual.Quadratic(nd.Network, 1, 1)
		if err == nil {
			_, err = dual.Solve(p, &dual.Settings{Tol: 1e-6})
		}
		return err
	}},
	{"anycast-check-cdn3", []string{"anycast", "check", "--network", "cdn3.json"}, func() error {
		nd, err := dataio.ReadNetworkJSONFile("cdn3.json", nil)
		if err == nil {
			_, err = stability.PolytopeSlack(nd.Network)
		}
		return err
	}},
	{"anycast-greedy-cdn3", []string{"anycast", "greedy", "--network", "cdn3.json"}, func() error {
		nd, err := dataio.ReadNetworkJSONFile("cdn3.json", nil)
		if err == nil {
			_, _, err = (&stability.Law{Net: nd.Network, Sensitivity: 1}).Attractors(20, 1000, 1, nil)
		}
		return err
	}},
	{"cache-compare-1024", []string{"cache", "compare", "--n", "1024", "--runs", "10"}, func() error {
		f := cacheFlags{sizes: []int{1024}, topology: newChoice("torus", "torus"), files: 100, cache: 2, strategies: []string{"nearest", "two-choice", "coded-log"}, ball: 545}
		fam, vs, err := f.model()
		if err == nil {
			_, err = codedload.CompareSizes([]int{1024}, fam, vs, func(int) int { return 10 }, 1, nil)
		}
		return err
	}},
	{"cache-compare-1e4-rel1pct", []string{"cache", "compare", "--n", "10000", "--rel", "0.01"}, func() error {
		f := cacheFlags{sizes: []int{10000}, topology: newChoice("torus", "torus"), files: 100, cache: 2, strategies: []string{"nearest", "two-choice", "coded-log"}, ball: 545}
		fam, vs, err := f.model()
		if err == nil {
			set := &codedload.SweepSettings{Precision: loadlab.Precision{Rel: 0.01}}
			_, err = codedload.CompareSizes([]int{10000}, fam, vs, func(int) int { return 10 }, 1, set)
		}
		return err
	}},
	{"throttler-design-reweight-karate", []string{"throttler", "design", "--dataset", "karate", "--reweight", "2"}, func() error {
		g := datasets.Karate().Graph
		sp, err := consensus.NewSpectral(g)
		if err != nil {
			return err
		}
		gamma, _, err := sp.GammaH2(1)
		if err == nil {
			_, err = consensus.ReweightLinks(&consensus.Throttler{Graph: g, Gamma: gamma}, 2, totalWeight(g), nil)
		}
		return err
	}},
	{"throttler-allocate-clients", []string{"throttler", "allocate", "--requests", "clients.csv", "--column", "rate", "--limit", "60"}, func() error {
		t, err := dataio.ReadTableFile("clients.csv", &dataio.TableOptions{Columns: []string{"rate"}})
		if err != nil {
			return err
		}
		r := make([]float64, len(t.Rows))
		for i, row := range t.Rows {
			r[i] = row[0]
		}
		if _, err := consensus.UniformRatio(nil, r, 60); err != nil {
			return err
		}
		_, _, err = consensus.WaterFill(nil, r, 60)
		return err
	}},
	{"nomadic-adversary", []string{"nomadic", "adversary"}, func() error {
		if _, err := competitive.CruelBound(8, 1000, 1, 0.01); err != nil {
			return err
		}
		for _, al := range onlineAlgorithms(func() rand.Source { return rand.NewPCG(1, 5) }) {
			if al.name == "Marking (randomised)" {
				continue
			}
			if _, err := competitive.CruelRatio(al.alg, 8, 1000, 1, 0.01); err != nil {
				return err
			}
		}
		return nil
	}},
	{"nomadic-compare-hold", []string{"nomadic", "compare", "--costs", "hold.csv"}, func() error {
		in, err := dataio.ReadInstanceFile("hold.csv", 1, nil)
		if err != nil {
			return err
		}
		if _, _, err := competitive.Optimum(in); err != nil {
			return err
		}
		for _, al := range onlineAlgorithms(func() rand.Source { return rand.NewPCG(1, 4) }) {
			if _, err := competitive.Run(al.alg, in); err != nil {
				return err
			}
		}
		return nil
	}},
}

// BenchmarkOverhead times each subcommand as a user runs it (a new
// process, flags, reading, the computation, formatting, writing) and the
// library calls alone, alternately in each iteration so that both meet
// the same phases of a shared host; the differences are the command's
// overhead (target: ≤ 50 ms, docs/benchmarks.md). ns/op and cpu-ns/op
// are the command's wall and CPU (user + system) time; lib-ms is the
// library's wall time, overhead-ms and overhead-cpu-ms the differences.
// Run in testdata's folder.
func BenchmarkOverhead(b *testing.B) {
	for _, c := range overheadCases {
		b.Run(c.name, func(b *testing.B) {
			b.Chdir("testdata")
			var cmdWall, cmdCPU, libWall, libCPU time.Duration
			for b.Loop() {
				start := time.Now()
				cmd := exec.Command(binary, append(c.args, "--quiet")...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", c.args, err, out)
				}
				cmdWall += time.Since(start)
				cmdCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				b.StopTimer()
				start, cpu := time.Now(), cputime.Process()
				if err := c.lib(); err != nil {
					b.Fatal(err)
				}
				libWall += time.Since(start)
				libCPU += cputime.Process() - cpu
				b.StartTimer()
			}
			ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 / float64(b.N) }
			b.ReportMetric(float64(cmdCPU.Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(ms(libWall), "lib-ms")
			b.ReportMetric(ms(libCPU), "lib-cpu-ms")
			b.ReportMetric(ms(cmdWall-libWall), "overhead-ms")
			b.ReportMetric(ms(cmdCPU-libCPU), "overhead-cpu-ms")
		})
	}
}
