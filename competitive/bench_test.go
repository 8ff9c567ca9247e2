package competitive

import (
	"math"
	"runtime"
	"testing"
)

// rowPool returns n rows of k real costs uniform on [0, 10) to stream
// long inputs without storing them (10⁸ float64 would take 800 MB).
func rowPool(k, n int) [][]float64 {
	in := randomInstance(newRand(77), realCost, k, n, 0, 10)
	rows := make([][]float64, n)
	for t := range rows {
		rows[t] = in.Row(t)
	}
	return rows
}

// benchOptimal solves a streamed input of k servers and T slots with a
// fresh Optimal per iteration, so that every solve pays for its own
// back-pointers and schedule. The memory is measured, not computed:
// MiB/solve is the growth of runtime.MemStats.TotalAlloc per solve
// (everything the solve allocates: DP row, bits, argmins, schedule), and
// the benchmark fails above maxMiB.
func benchOptimal(b *testing.B, k, T int, trace bool, maxMiB float64) {
	rows := rowPool(k, 1024)
	var sched []int
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var o Optimal
		if err := o.Reset(k, 5, NoServer, trace); err != nil {
			b.Fatal(err)
		}
		if err := o.Grow(T); err != nil {
			b.Fatal(err)
		}
		for t := range T {
			_ = o.Push(rows[(t*613)&1023])
		}
		if trace {
			sched = o.Schedule(nil)
		}
		n++
	}
	runtime.ReadMemStats(&ms1)
	mib := float64(ms1.TotalAlloc-ms0.TotalAlloc) / float64(n) / (1 << 20)
	b.ReportMetric(float64(k*T)*float64(b.N)/b.Elapsed().Seconds(), "cells/s")
	b.ReportMetric(mib, "MiB/solve")
	if mib > maxMiB {
		b.Errorf("k = %d, T = %d, trace = %v: %.1f MiB per solve > %v MiB", k, T, trace, mib, maxMiB)
	}
	if trace && len(sched) != T {
		b.Fatalf("schedule of %d slots for T = %d", len(sched), T)
	}
}

// BenchmarkOptimal_k100_T1e6 is the target: 10⁸ cells with the
// schedule recovered in ≤ 1 s and ≤ 512 MiB (the bits, argmins and
// []int schedule come to about 27 MiB). The cost-only mode must stay
// O(k): 1 MiB is a generous cap on a 100-float row.
func BenchmarkOptimal_k100_T1e6(b *testing.B)     { benchOptimal(b, 100, 1_000_000, true, 512) }
func BenchmarkOptimalCost_k100_T1e6(b *testing.B) { benchOptimal(b, 100, 1_000_000, false, 1) }

func benchOnline(b *testing.B, alg Online, k, T int) {
	rows := rowPool(k, 1024)
	b.ReportAllocs()
	for b.Loop() {
		if err := alg.Reset(k, 5); err != nil {
			b.Fatal(err)
		}
		for t := range T {
			_, _ = alg.Step(rows[(t*613)&1023])
		}
	}
	if _, ok := alg.(*CTrack); !ok { // CTrack does not touch the k servers per slot
		b.ReportMetric(float64(k*T)*float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	}
	b.ReportMetric(float64(T)*float64(b.N)/b.Elapsed().Seconds(), "slots/s")
}

// BenchmarkDTrackRR_k100_T1e5: the target is ≥ 10⁸ server-slot updates
// per second.
func BenchmarkDTrackRR_k100_T1e5(b *testing.B) { benchOnline(b, NewDTrack(RoundRobin), 100, 100_000) }
func BenchmarkDTrackF_k100_T1e5(b *testing.B)  { benchOnline(b, NewDTrack(Forward), 100, 100_000) }
func BenchmarkWFA_k100_T1e5(b *testing.B)      { benchOnline(b, &WFA{}, 100, 100_000) }

// BenchmarkCTrack: O(1) per slot, so the time per slot must not grow
// with k (compare the two sizes; updates/s counts k per slot).
func BenchmarkCTrack_k100_T1e5(b *testing.B)  { benchOnline(b, NewCTrack(), 100, 100_000) }
func BenchmarkCTrack_k1000_T1e5(b *testing.B) { benchOnline(b, NewCTrack(), 1000, 100_000) }

// BenchmarkLookahead_k100_W10: one O(k·W) plan per slot.
func BenchmarkLookahead_k100_W10_T1e4(b *testing.B) {
	in := randomInstance(newRand(78), realCost, 100, 10_000, 5, 10)
	alg := &Lookahead{Window: 10, Forecaster: Oracle{in}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunCost(alg, in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(in.Slots())*float64(b.N)/b.Elapsed().Seconds(), "slots/s")
}

// euclidMetric is the metric of k random points in a 10 × 10 square,
// every first placement costing 5.
func euclidMetric(b *testing.B, k int) *Metric {
	rng := newRand(79)
	x, y := make([]float64, k), make([]float64, k)
	for i := range x {
		x[i], y[i] = 10*rng.Float64(), 10*rng.Float64()
	}
	d := make([][]float64, k)
	init := make([]float64, k)
	for i := range d {
		d[i] = make([]float64, k)
		for j := range d[i] {
			d[i][j] = math.Hypot(x[i]-x[j], y[i]-y[j])
		}
		init[i] = 5
	}
	m, err := NewMetric(d, init)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkMetricOptimum_k100_T1e5 is the target for the
// offline optimum on a general metric (spec §14.2): k²T = 10⁹ min-plus
// steps with the schedule in ≤ 10 s. MiB/solve is the growth of
// runtime.MemStats.TotalAlloc per solve (T·k int32 back-pointers, 38 MiB,
// the DP rows and the schedule).
func BenchmarkMetricOptimum_k100_T1e5(b *testing.B) {
	const k, T = 100, 100_000
	in := randomInstance(newRand(80), realCost, k, T, 0, 10)
	m := euclidMetric(b, k)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	n := 0
	for b.Loop() {
		if _, sched, err := MetricOptimum(in, m); err != nil || len(sched) != T {
			b.Fatal(err)
		}
		n++
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(k*k*T)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(n)/(1<<20), "MiB/solve")
}

// BenchmarkMetricWFA_k100_T1e4: O(k²) per slot.
func BenchmarkMetricWFA_k100_T1e4(b *testing.B) {
	in := randomInstance(newRand(81), realCost, 100, 10_000, 0, 10)
	m := euclidMetric(b, 100)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunMetricCost(&MetricWFA{}, in, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(in.Slots())*float64(b.N)/b.Elapsed().Seconds(), "slots/s")
}

// BenchmarkMetricOptimumLine_k100_T1e5: the same input on a line metric
// (100 random positions in [0, 10)), where the min-plus step is two O(k)
// passes (spec §14.2).
func BenchmarkMetricOptimumLine_k100_T1e5(b *testing.B) {
	const k, T = 100, 100_000
	in := randomInstance(newRand(80), realCost, k, T, 0, 10)
	rng := newRand(82)
	pos := make([]float64, k)
	for s := range pos {
		pos[s] = 10 * rng.Float64()
	}
	m, err := LineMetric(pos, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, sched, err := MetricOptimum(in, m); err != nil || len(sched) != T {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(k*T)*float64(b.N)/b.Elapsed().Seconds(), "cells/s")
}
