package beacon

import (
	"testing"
	"time"

	"github.com/loadlab/loadlab/internal/cputime"
)

// BenchmarkEstimateC is the target: Ĉ with its intervals from
// 10⁸ beacons over 10⁴ regions × 10⁴ proxies, 10 proxies per region
// (10⁴ beacons each, split unevenly), counts table built from triplets
// included. Target ≤ 5 s.
func BenchmarkEstimateC(b *testing.B) {
	const n, k, per = 10000, 10, 10000
	rows, cols := make([]int, n*k), make([]int, n*k)
	cnt := make([]int64, n*k)
	for j := 0; j < n; j++ {
		left := int64(per)
		for m := 0; m < k; m++ {
			e := j*k + m
			rows[e], cols[e] = j, (j+m*997)%n
			c := left / 2
			if m == k-1 {
				c = left
			}
			cnt[e], left = c, left-c
		}
	}
	b.ResetTimer()
	c0, t0 := cputime.Process().Seconds(), time.Now()
	for i := 0; i < b.N; i++ {
		c, err := NewCounts(n, n, rows, cols, cnt)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := EstimateC(c, nil); err != nil {
			b.Fatal(err)
		}
	}
	// CPU beside wall: the machine is shared
	b.ReportMetric((cputime.Process().Seconds()-c0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N), "wall-s/op")
}
