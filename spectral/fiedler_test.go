package spectral

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/mat"
)

// fiedlerResidual returns ‖L f − λ f‖ and |1ᵀf|.
func fiedlerCheck(g *wgraph.Graph, l float64, f *mat.VecDense) (res, mean float64) {
	x := f.RawVector().Data
	lx := make([]float64, len(x))
	g.LaplacianMulVec(lx, x)
	for i, v := range x {
		d := lx[i] - l*v
		res += d * d
		mean += v
	}
	return math.Sqrt(res), math.Abs(mean)
}

// The certified sparse path of AlgebraicConnectivity (used above
// DenseMaxNodes) against closed forms and the dense path, on graphs small
// enough to check: it certifies λ₂ to 1e-12 relative (Kato–Temple), so
// it must agree with the closed forms to that plus their rounding (a few
// ulps), and with the dense eigensolver to its backward error, about
// n ε ‖L‖ absolute.
func TestAlgebraicConnectivitySparseExact(t *testing.T) {
	grid, _ := GridSpectrum(30, 70)
	path, _ := PathSpectrum(800)
	for _, c := range []struct {
		name string
		g    *wgraph.Graph
		want float64
	}{
		{"grid 30×70", graphtest.Must(gen.Grid(30, 70)), grid[1]},
		{"path 800", graphtest.Must(gen.Path(800)), path[1]},
	} {
		l2, f, err := algebraicConnectivitySparse(c.g)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(l2-c.want) > 2e-12*c.want {
			t.Errorf("%s: λ₂ = %.17g, closed form %.17g (rel %.2g)", c.name, l2, c.want, math.Abs(l2/c.want-1))
		}
		// The vector's residual is what certifies λ₂: ρ² ≤ 1e-12 λ₂ (λ₃ − λ₂).
		res, mean := fiedlerCheck(c.g, l2, f)
		if res > 1e-5*c.want || mean > 1e-12 || math.Abs(mat.Norm(f, 2)-1) > 1e-14 {
			t.Errorf("%s: residual %.3g, 1ᵀf = %.3g, ‖f‖ = %v", c.name, res, mean, mat.Norm(f, 2))
		}
	}
	g := graphtest.SparseWeighted(t, 600, 0.02, 10, 7)
	ev, err := Spectrum(g)
	if err != nil {
		t.Fatal(err)
	}
	l2, _, err := algebraicConnectivitySparse(g)
	if err != nil {
		t.Fatal(err)
	}
	_, norm := newOperator(g, nil).edgeBounds()
	if d := math.Abs(l2 - ev[1]); d > 600*0x1p-52*norm {
		t.Errorf("weighted 600: sparse %.17g, dense %.17g (diff %.3g)", l2, ev[1], d)
	}
}

// A multiple λ₂ (the square torus: four-fold) cannot be separated from
// λ₃ by one vector: an error naming Lambda2Bracket, not a number. A
// disconnected graph has λ₂ = 0 exactly and a centred component
// indicator as its vector.
func TestAlgebraicConnectivitySparseEdges(t *testing.T) {
	_, _, err := algebraicConnectivitySparse(graphtest.Must(gen.Torus(40, 40)))
	if !errors.Is(err, loadlab.ErrNotConverged) {
		t.Errorf("torus 40×40: err = %v, want ErrNotConverged", err)
	}
	b := graphtest.Must(wgraph.NewBuilder(3000))
	for u := range 2999 {
		if u != 1499 {
			_ = b.SetEdge(u, u+1, 1)
		}
	}
	g := b.Build()
	l2, f, err := AlgebraicConnectivity(g)
	if err != nil || l2 != 0 {
		t.Fatalf("two paths: λ₂ = %v, %v", l2, err)
	}
	if res, mean := fiedlerCheck(g, 0, f); res != 0 || mean > 1e-12 {
		t.Errorf("two paths: residual %v, 1ᵀf = %v", res, mean)
	}
}

// EffectiveResistance above DenseMaxNodes: on a path R(0, n − 1) = n − 1
// exactly, and on a random weighted graph the solve path agrees with the
// dense factorisation to the certified 1e-24 κ(L) plus the dense path's
// κ(A) ε (κ ≲ 10⁴ here).
func TestEffectiveResistanceSparse(t *testing.T) {
	p := graphtest.Must(gen.Path(3000))
	r, err := EffectiveResistance(p, 0, 2999)
	if err != nil || math.Abs(r-2999) > 1e-12*2999 {
		t.Errorf("path 3000: R = %.17g, want 2999 (%v)", r, err)
	}
	g := graphtest.SparseWeighted(t, 500, 0.02, 10, 3)
	res, err := NewResistance(g)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 20 {
		u, v := rng.IntN(500), rng.IntN(500)
		got, err := resistanceSparse(g, u, v)
		if err != nil {
			t.Fatal(err)
		}
		if want := res.Between(u, v); math.Abs(got-want) > 1e-11*want {
			t.Errorf("R(%d, %d): sparse %.17g, dense %.17g", u, v, got, want)
		}
	}
}
