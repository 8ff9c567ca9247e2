package cholesky

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/largetest"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// BenchmarkRelax_Torus500 times the factorisation and the selected
// inversion of the 500 × 500 torus's Laplacian plus 0.01·I (nested
// dissection, one analysis per case, outside the loop) with the
// fundamental and the relaxed supernodes (spec sparse-cholesky.md
// §3.2), and reports the stored entries per entry of L. Run the two
// alternately (-count) on a shared host.
func BenchmarkRelax_Torus500(b *testing.B) {
	a := torusMatrix(500)
	for _, c := range []struct {
		name  string
		relax int
	}{{"fundamental", RelaxOff}, {"relaxed", 0}} {
		b.Run(c.name, func(b *testing.B) {
			sym, err := Analyze(a, &Settings{Ordering: NestedDissection, Relax: c.relax})
			if err != nil {
				b.Fatal(err)
			}
			c0 := cputime.Process()
			for b.Loop() {
				f, err := sym.Factor(a)
				if err != nil {
					b.Fatal(err)
				}
				f.Inverse()
			}
			b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(sym.Report().Stored)/float64(sym.Report().Factor), "stored/L")
		})
	}
}

// BenchmarkRefuseExpander times Analyze's refusal (loadlab.ErrTooLarge,
// default limits) of the factor of a random 6-regular graph's pattern
// with a full diagonal: 2·10⁵ nodes, and 10⁶ with LOADLAB_LARGE=1 (spec
// sparse-cholesky.md §6.1).
func BenchmarkRefuseExpander(b *testing.B) {
	for _, n := range []int{200000, 1000000} {
		b.Run(map[int]string{200000: "2e5", 1000000: "1e6"}[n], func(b *testing.B) {
			if n > 200000 {
				largetest.Require(b)
			}
			g, err := gen.RandomRegular(n, 6, rand.NewPCG(1, 2))
			if err != nil {
				b.Fatal(err)
			}
			_, ptr, adj := csrFromGraph(g, false)
			a := withDiagonal(n, ptr, adj)
			c0 := cputime.Process()
			for b.Loop() {
				if _, err := Analyze(a, nil); !errors.Is(err, loadlab.ErrTooLarge) {
					b.Fatalf("Analyze: %v, want ErrTooLarge", err)
				}
			}
			b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}
