package lanczos

import (
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// A probe's tridiagonal is the same bit for bit whichever block it runs
// in (8 lanes with seven others, or the 2- and 4-lane narrow blocks) and
// whatever GOMAXPROCS: every reduction is summed per fixed row block of
// blockLen rows, in order, and each lane's arithmetic does not depend on
// the other lanes. Graphs: a weighted one (per-entry weights) and a
// 3-regular one with the single weight 0.7 (the unscaled-sum path), both
// with n > blockLen so that several row blocks exist.
func TestLanczosBlockIndependent(t *testing.T) {
	reg, err := gen.RandomRegular(9000, 3, rand.NewPCG(2, 2))
	if err != nil {
		t.Fatal(err)
	}
	b := reg.Builder()
	for u := range reg.Order() {
		for _, v := range reg.Neighbors(u) {
			if int(v) > u {
				if err := b.SetEdge(u, int(v), 0.7); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for name, g := range map[string]*wgraph.Graph{"weighted": graphtest.SparseWeighted(t, 9000, 0.002, 3, 5), "uniform 0.7": b.Build()} {
		mat, err := lapmat.New(g)
		if err != nil || mat == nil {
			t.Fatal(name, err)
		}
		run := func(seeds []uint64, procs int) []*Probe {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			ps := make([]*Probe, len(seeds))
			for i, s := range seeds {
				ps[i] = &Probe{Seed: s}
			}
			lb, err := NewBlock(mat, ps, make([]float64, g.Order()))
			if err != nil {
				t.Fatal(err)
			}
			for range 12 {
				lb.step()
			}
			return ps
		}
		ref := run([]uint64{77}, 1)[0]
		for _, c := range []struct {
			seeds []uint64
			procs int
		}{{[]uint64{77}, 2}, {[]uint64{1, 77, 3}, 2}, {[]uint64{1, 2, 3, 4, 5, 6, 77}, 1}, {[]uint64{1, 2, 3, 4, 5, 6, 7, 77}, 3}} {
			p := run(c.seeds, c.procs)[slices.Index(c.seeds, 77)]
			if !slices.Equal(p.Alpha, ref.Alpha) || !slices.Equal(p.Beta, ref.Beta) || p.wt != ref.wt {
				t.Errorf("%s: block of %d, GOMAXPROCS %d: tridiagonal differs from the single probe's", name, len(c.seeds), c.procs)
			}
		}
	}
}
