package laplacian

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph/gen"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestOperatorMatchesDense(t *testing.T) {
	g := graphtest.SparseWeighted(t, 300, 0.05, 6, 1)
	op := NewOperator(g)
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, g.Order())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	l := graphtest.Must(g.Laplacian())
	for _, shift := range []float64{0, 0.7} {
		var want mat.VecDense
		want.MulVec(l, mat.NewVecDense(len(x), x))
		want.AddScaledVec(&want, shift, mat.NewVecDense(len(x), x))
		got := make([]float64, len(x))
		op.ApplyShifted(got, x, shift)
		// Same sums in a different order: a few ulps of the largest term.
		if !floats.EqualApprox(got, want.RawVector().Data, 1e-9) {
			t.Errorf("shift %v: operator differs from dense L x", shift)
		}
	}
}

func TestOperatorNoAllocDeterministic(t *testing.T) {
	g, err := gen.RandomRegular(9000, 6, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	g = graphtest.SpreadWeights(t, g, 4, rand.New(rand.NewPCG(1, 1)))
	op := NewOperator(g)
	x := make([]float64, g.Order())
	for i := range x {
		x[i] = math.Sin(float64(i))
	}
	y1, y2 := make([]float64, len(x)), make([]float64, len(x))
	op.Apply(y1, x) // warm the pool
	if a := testing.AllocsPerRun(20, func() { op.ApplyShifted(y1, x, 0.5) }); a != 0 {
		t.Errorf("ApplyShifted allocates %v times per call", a)
	}
	prev := runtime.GOMAXPROCS(1)
	op.ApplyShifted(y2, x, 0.5)
	runtime.GOMAXPROCS(prev)
	for i := range y1 {
		if y1[i] != y2[i] {
			t.Fatalf("row %d differs between 1 and %d goroutines", i, prev)
		}
	}
}
