package cholesky

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlab/loadlab/internal/cputime"
)

func torusMatrixM(side int) *Matrix {
	n := side * side
	a := &Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		r, c := i/side, i%side
		nb := []int{((r+side-1)%side)*side + c, r*side + (c+side-1)%side, r*side + (c+1)%side, ((r+1)%side)*side + c, i}
		// sort
		for x := 1; x < len(nb); x++ {
			for y := x; y > 0 && nb[y] < nb[y-1]; y-- {
				nb[y], nb[y-1] = nb[y-1], nb[y]
			}
		}
		for _, j := range nb {
			v := -1.0
			if j == i {
				v = 4.01
			}
			a.Ind, a.Val = append(a.Ind, j), append(a.Val, v)
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	return a
}

func TestZZMeasure(t *testing.T) {
	spec := os.Getenv("RELAXM")
	if spec == "" {
		t.Skip()
	}
	side, _ := strconv.Atoi(os.Getenv("SIDE"))
	a := torusMatrixM(side)
	if os.Getenv("GRID") != "" {
		a = gridMatrix(side)
	}
	ord := NestedDissection
	if os.Getenv("AMDO") != "" {
		ord = AMD
	}
	for _, v := range strings.Split(spec, ";") {
		// v: relax width, then tiers "w:z,w:z"
		parts := strings.SplitN(v, "/", 2)
		rw, _ := strconv.Atoi(parts[0])
		if len(parts) > 1 {
			relaxTiers = nil
			for _, tz := range strings.Split(parts[1], ",") {
				q := strings.Split(tz, ":")
				w, _ := strconv.Atoi(q[0])
				z, _ := strconv.ParseFloat(q[1], 64)
				relaxTiers = append(relaxTiers, relaxTier{w, z})
			}
		}
		t0, c0 := time.Now(), cputime.Process()
		sym, err := Analyze(a, &Settings{Ordering: ord, Relax: rw})
		if err != nil {
			t.Fatal(err)
		}
		t1, c1 := time.Now(), cputime.Process()
		f, err := sym.Factor(a)
		if err != nil {
			t.Fatal(err)
		}
		t2, c2 := time.Now(), cputime.Process()
		tr := f.Inverse().Trace()
		t3, c3 := time.Now(), cputime.Process()
		r := sym.Report()
		fmt.Printf("%-30s sn=%7d stored/factor=%.4f flops=%.3g  analyze %.2fs(%.2f) factor %.2fs(%.2f) inverse %.2fs(%.2f) total %.2fs cpu %.2fs tr=%.15g\n",
			v, sym.sn.count(), float64(r.Stored)/float64(r.Factor), r.Flops,
			t1.Sub(t0).Seconds(), (c1 - c0).Seconds(), t2.Sub(t1).Seconds(), (c2 - c1).Seconds(), t3.Sub(t2).Seconds(), (c3 - c2).Seconds(),
			t3.Sub(t0).Seconds(), (c3 - c0).Seconds(), tr)
	}
}

func BenchmarkZZFactor(b *testing.B) {
	side, _ := strconv.Atoi(os.Getenv("SIDE"))
	rw, _ := strconv.Atoi(os.Getenv("RW"))
	a := torusMatrixM(side)
	if tz := os.Getenv("TIERS"); tz != "" {
		relaxTiers = nil
		for _, x := range strings.Split(tz, ",") {
			q := strings.Split(x, ":")
			w, _ := strconv.Atoi(q[0])
			z, _ := strconv.ParseFloat(q[1], 64)
			relaxTiers = append(relaxTiers, relaxTier{w, z})
		}
	}
	sym, err := Analyze(a, &Settings{Ordering: NestedDissection, Relax: rw})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(sym.rep.Stored)/float64(sym.rep.Factor), "stored/L")
	c0 := cputime.Process()
	for b.Loop() {
		f, _ := sym.Factor(a)
		if os.Getenv("INV") != "" {
			f.Inverse()
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
}
