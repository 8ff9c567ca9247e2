package dense

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestSPDFactor checks the factor-and-invert pass against gonum's
// Cholesky on a random SPD matrix: inverse, its diagonal and trace,
// solves before and after inversion, log det, and the failure on an
// indefinite matrix.
func TestSPDFactor(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	const n = 130 // above the base size of the recursive inverse
	b := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			b.Set(i, j, rnd.NormFloat64())
		}
	}
	a := mat.NewSymDense(n, nil)
	a.SymOuterK(1, b)
	for i := range n {
		a.SetSym(i, i, a.At(i, i)+1)
	}
	var ref mat.Cholesky
	require.True(t, ref.Factorize(a))
	var want mat.SymDense
	require.NoError(t, ref.InverseTo(&want))
	var f SPDFactor
	require.NoError(t, f.Factorize(a))
	// κ(a) ~ 1e4 here: entries of the inverse to 1e-10 relative of its
	// norm, and the condition estimates agree within a factor 3.
	scale := mat.Norm(&want, math.Inf(1))
	assert.InEpsilon(t, ref.LogDet(), f.LogDet(), 1e-12)
	assert.InEpsilon(t, ref.Cond(), f.Cond(), 2)
	rhs := make([]float64, n)
	for i := range rhs {
		rhs[i] = rnd.NormFloat64()
	}
	x1 := make([]float64, n)
	f.SolveVec(x1, rhs) // by triangular solves
	d := f.InverseDiag(nil)
	var got mat.SymDense
	f.InverseTo(&got)
	x2 := make([]float64, n)
	f.SolveVec(x2, rhs) // by products with V
	var wx mat.VecDense
	require.NoError(t, ref.SolveVecTo(&wx, mat.NewVecDense(n, rhs)))
	var tr float64
	for i := range n {
		tr += want.At(i, i)
		assert.InDelta(t, want.At(i, i), d[i], 1e-10*scale)
		assert.InDelta(t, wx.AtVec(i), x1[i], 1e-10*mat.Norm(&wx, math.Inf(1)))
		assert.InDelta(t, wx.AtVec(i), x2[i], 1e-10*mat.Norm(&wx, math.Inf(1)))
		for j := i; j < n; j++ {
			assert.InDelta(t, want.At(i, j), got.At(i, j), 1e-10*scale)
		}
	}
	assert.InEpsilon(t, tr, f.InverseTrace(), 1e-10)
	a.SetSym(3, 3, -1)
	err := f.Factorize(a)
	assert.True(t, errors.Is(err, loadlab.ErrIllConditioned), "%v", err)
}

// TestLiftShift checks A = L + αJ/n against L† + J/(αn) and
// cI − γL entrywise.
func TestLiftShift(t *testing.T) {
	g := graphtest.RandomWeighted(t, 30, 0.3, 5, rand.NewPCG(9, 9))
	l := graphtest.Must(g.Laplacian())
	a := mat.NewSymDense(30, nil)
	alpha := Lift(a, l)
	var tr float64
	for i := range 30 {
		tr += l.At(i, i)
	}
	assert.InEpsilon(t, tr/30, alpha, 1e-15)
	for i := range 30 {
		for j := range 30 {
			assert.InDelta(t, l.At(i, j)+alpha/30, a.At(i, j), 1e-15*alpha)
		}
	}
	Shift(a, l, 2, 0.1)
	for i := range 30 {
		for j := range 30 {
			want := -0.1 * l.At(i, j)
			if i == j {
				want += 2
			}
			assert.InDelta(t, want, a.At(i, j), 1e-15*alpha)
		}
	}
}
