package cholesky

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// randomSPD returns a random sparse symmetric positive definite matrix:
// a weighted Laplacian of a random graph with about deg·n/2 edges plus a
// positive diagonal shift, and its dense copy.
func randomSPD(rng *rand.Rand, n int, deg float64) (*Matrix, *mat.SymDense) {
	d := mat.NewSymDense(n, nil)
	for i := range n {
		d.SetSym(i, i, 0.01+rng.Float64())
	}
	m := int(deg * float64(n) / 2)
	for range m {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v {
			continue
		}
		w := math.Exp(3 * rng.NormFloat64())
		d.SetSym(u, v, d.At(u, v)-w)
		d.SetSym(u, u, d.At(u, u)+w)
		d.SetSym(v, v, d.At(v, v)+w)
	}
	return fromDense(d), d
}

// fromDense returns the CSR form of the nonzeros of d (diagonal always).
func fromDense(d *mat.SymDense) *Matrix {
	n := d.SymmetricDim()
	a := &Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		for j := range n {
			if v := d.At(i, j); v != 0 || i == j {
				a.Ind = append(a.Ind, j)
				a.Val = append(a.Val, v)
			}
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	return a
}

// TestInverseAgainstDense checks the factor, the solve and the selected
// inverse against gonum's dense Cholesky on random sparse matrices, in
// every ordering. Tolerance: the condition numbers stay below about 1e8
// here (weights within e^{±9}, a diagonal shift ≥ 0.01), so relative
// errors of κ·ε ≈ 1e-8 bound both sides; 1e-9 relative to the largest
// entry of the inverse is what both methods meet in practice.
func TestInverseAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, o := range []Ordering{Natural, AMD, NestedDissection, Auto} {
		for _, n := range []int{1, 2, 5, 30, 120} {
			a, d := randomSPD(rng, n, 3)
			sym, err := Analyze(a, &Settings{Ordering: o})
			require.NoError(t, err)
			f, err := sym.Factor(a)
			require.NoError(t, err)
			var ch mat.Cholesky
			require.True(t, ch.Factorize(d))
			var inv mat.SymDense
			require.NoError(t, ch.InverseTo(&inv))
			scale := mat.Norm(&inv, math.Inf(1))
			z := f.Inverse()
			diag := z.Diag(nil)
			for i := range n {
				assert.InDelta(t, inv.At(i, i), diag[i], 1e-9*scale, "%v n=%d diag %d", o, n, i)
				for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
					j := a.Ind[p]
					v, ok := z.At(i, j)
					require.True(t, ok, "A's entry (%d,%d) off the factor's pattern", i, j)
					assert.InDelta(t, inv.At(i, j), v, 1e-9*scale, "%v n=%d (%d,%d)", o, n, i, j)
				}
			}
			b := make([]float64, n)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			x := f.Solve(nil, b)
			want := mat.NewVecDense(n, nil)
			want.MulVec(&inv, mat.NewVecDense(n, b))
			for i := range n {
				assert.InDelta(t, want.AtVec(i), x[i], 1e-9*scale*mat.Norm(mat.NewVecDense(n, b), math.Inf(1)), "solve %d", i)
			}
			assert.InDelta(t, ch.LogDet(), f.LogDet(), 1e-9*math.Max(1, math.Abs(ch.LogDet())))
		}
	}
}

// TestSupernodeUpdatePaths: the updates between supernodes summed in
// place and those formed by a matrix product, and the heads' triangular
// solves whole or in blocks (solveUT, solveUN), give the same inverse (to
// the tolerance of TestInverseAgainstDense, for the same reason) on
// random sparse matrices and on a grid whose nested dissection makes
// wide separator supernodes.
func TestSupernodeUpdatePaths(t *testing.T) {
	defer func(s, b int) { smallUpdate, blockedMin = s, b }(smallUpdate, blockedMin)
	rng := rand.New(rand.NewPCG(3, 4))
	a1, d1 := randomSPD(rng, 150, 4)
	a3, d3 := randomSPD(rng, 200, 30) // fills in: a head wider than blockedNB
	g := gridMatrix(25)
	d2 := mat.NewSymDense(g.N, nil)
	for i := range g.N {
		for p := g.Ptr[i]; p < g.Ptr[i+1]; p++ {
			d2.SetSym(i, g.Ind[p], g.Val[p])
		}
	}
	for _, c := range []struct {
		a *Matrix
		d *mat.SymDense
	}{{a1, d1}, {g, d2}, {a3, d3}} {
		var ch mat.Cholesky
		require.True(t, ch.Factorize(c.d))
		var inv mat.SymDense
		require.NoError(t, ch.InverseTo(&inv))
		scale := mat.Norm(&inv, math.Inf(1))
		for k, small := range []int{0, 1 << 40, 512} {
			smallUpdate = small
			blockedMin = []int{1 << 30, 1 << 30, 8}[k] // the third: blocked solves of 64 rows
			sym, err := Analyze(c.a, &Settings{Ordering: NestedDissection})
			require.NoError(t, err)
			require.Less(t, sym.sn.count(), c.a.N, "some supernode should be wide")
			if c.a == a3 {
				wide := 0
				for J := range sym.sn.count() {
					wide = max(wide, sym.sn.start[J+1]-sym.sn.start[J])
				}
				require.Greater(t, wide, 2*blockedNB, "a head of several blocks")
			}
			f, err := sym.Factor(c.a)
			require.NoError(t, err)
			diag := f.Inverse().Diag(nil)
			for i := range c.a.N {
				require.InDelta(t, inv.At(i, i), diag[i], 1e-9*scale, "small=%d n=%d diag %d", small, c.a.N, i)
			}
		}
	}
}
