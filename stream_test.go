package loadlab

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSplitMix64Reference checks the finaliser against the reference
// sequence of SplitMix64 (Vigna's splitmix64.c) seeded with 1234567:
// output i is m(1234567 + i·0x9e3779b97f4a7c15).
func TestSplitMix64Reference(t *testing.T) {
	want := []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423}
	x := uint64(1234567)
	for i, w := range want {
		if got := splitmix64(x); got != w {
			t.Errorf("output %d = %d, want %d", i, got, w)
		}
		x += 0x9e3779b97f4a7c15
	}
}

// TestStreamDerivation checks Stream against the derivation written in
// its doc comment, for paths of length 0 to 3.
func TestStreamDerivation(t *testing.T) {
	for _, path := range [][]uint64{nil, {0}, {5}, {5, 2}, {1 << 40, 3, 1}} {
		h := splitmix64(42)
		for _, p := range path {
			h = splitmix64(h ^ splitmix64(p+0x632be59bd9b4e019))
		}
		want := rand.NewPCG(h, splitmix64(h^0xd1b54a32d192ed03))
		got := Stream(42, path...)
		for i := range 4 {
			if g, w := got.Uint64(), want.Uint64(); g != w {
				t.Fatalf("path %v draw %d: %d, want %d", path, i, g, w)
			}
		}
	}
}

// TestStreamDistinct checks that the streams of a sweep's (point, run)
// grid, of its one-level paths and of paths differing only in length
// start with distinct values, and that the same path repeats its stream.
func TestStreamDistinct(t *testing.T) {
	seen := map[uint64][]uint64{}
	add := func(path ...uint64) {
		v := Stream(7, path...).Uint64()
		if prev, ok := seen[v]; ok {
			t.Fatalf("paths %v and %v start with the same value", prev, path)
		}
		seen[v] = path
	}
	add()
	for k := range uint64(100) {
		add(k)
		for r := range uint64(100) {
			add(k, r)
		}
		add(k, 0, 0)
	}
	a, b := Stream(7, 3, 4), Stream(7, 3, 4)
	for range 10 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("the same path gave two streams")
		}
	}
}

// TestStreamAcrossPaths looks at the first draw of the streams of
// consecutive runs, the values a sweep's runs start from: they must be
// uniform and uncorrelated from run to run. For n = 10⁴ independent
// U(0, 1) draws the mean has standard deviation √(1/12/n) ≈ 0.0029 and
// the lag-1 correlation ≈ 1/√n = 0.01; both are allowed 5 standard
// deviations (a false alarm has probability below 10⁻⁶).
func TestStreamAcrossPaths(t *testing.T) {
	const n = 10000
	u := make([]float64, n)
	var mean float64
	for r := range u {
		u[r] = rand.New(Stream(11, 2, uint64(r))).Float64()
		mean += u[r] / n
	}
	if d := math.Abs(mean - 0.5); d > 5*math.Sqrt(1.0/12/n) {
		t.Errorf("mean of first draws %v, off 0.5 by %v", mean, d)
	}
	var cov, vr float64
	for r := range u {
		vr += (u[r] - mean) * (u[r] - mean)
		if r > 0 {
			cov += (u[r] - mean) * (u[r-1] - mean)
		}
	}
	if rho := cov / vr; math.Abs(rho) > 5/math.Sqrt(n) {
		t.Errorf("lag-1 correlation of first draws across runs %v", rho)
	}
}
