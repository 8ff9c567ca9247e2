package anycast

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// randomTriplets draws an n×n row-stochastic pattern with deg distinct
// columns per row (weights uniform, normalised).
func randomTriplets(rng *rand.Rand, n, deg int) (rows, cols []int, vals []float64) {
	for j := 0; j < n; j++ {
		perm := rng.Perm(n)[:deg]
		w := make([]float64, deg)
		var s float64
		for k := range w {
			w[k] = rng.Float64() + 1e-3
			s += w[k]
		}
		for k, i := range perm {
			rows, cols, vals = append(rows, j), append(cols, i), append(vals, w[k]/s)
		}
	}
	return rows, cols, vals
}

// pair builds the same random model with sparse and with dense C.
func pair(t *testing.T, rng *rand.Rand, n, deg int) (sp, de *Network) {
	t.Helper()
	rows, cols, vals := randomTriplets(rng, n, deg)
	sc, err := NewSparseC(n, rows, cols, vals)
	require.NoError(t, err)
	d := mat.NewDense(n, n, nil)
	for k := range vals {
		d.Set(rows[k], cols[k], vals[k])
	}
	a, tt := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i], tt[i] = 10*rng.Float64(), 0.1+rng.Float64()
	}
	sp, err = NewNetwork(a, sc, tt)
	require.NoError(t, err)
	de, err = NewNetwork(a, d, tt)
	require.NoError(t, err)
	require.Nil(t, sp.C)
	require.Nil(t, de.Sparse)
	return sp, de
}

// relClose: both paths sum the same ≤ N products of size ≤ max|A|·1, in
// the same or a different order, so they differ by a few ulps of the
// sum's magnitude; 1e-12 relative leaves room for N ≤ 400 terms.
func relClose(t *testing.T, want, got []float64, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got))
	for i := range want {
		assert.InDelta(t, want[i], got[i], 1e-12*(1+math.Abs(want[i])), "%s[%d]", what, i)
	}
}

func TestSparseMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// sizes up to 400 so that the dense product takes the parallel path
	// (N² ≥ parallelWork) as well as the serial one
	for _, n := range []int{1, 2, 7, 50, 200, 400} {
		for _, deg := range []int{1, min(n, 3), n} {
			sp, de := pair(t, rng, n, deg)
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.Float64()
			}
			relClose(t, de.Loads(nil, x), sp.Loads(nil, x), "Loads")
			relClose(t, de.MulC(nil, x), sp.MulC(nil, x), "MulC")
			relClose(t, de.MulCT(nil, x), sp.MulCT(nil, x), "MulCT")
			relClose(t, de.MaxLoads(), sp.MaxLoads(), "MaxLoads")
			assert.True(t, mat.Equal(de.LoadMatrix(), sp.LoadMatrix()))
			assert.Equal(t, deg*n, sp.NNZ())
			for trial := 0; trial < 20; trial++ {
				j, i := rng.IntN(n), rng.IntN(n)
				assert.Equal(t, de.At(j, i), sp.At(j, i))
			}
			// Σ_i S_i = Σ_j A_j x_j (spec §8 item 2) on the sparse path
			var ss, ax float64
			for i, v := range sp.Loads(nil, x) {
				ss, ax = ss+v, ax+sp.A[i]*x[i]
			}
			assert.InDelta(t, ax, ss, 1e-12*(1+ax))
		}
	}
}

func TestDenseLoadsMatchSerialReference(t *testing.T) {
	// The parallel dense product (N = 500 > parallelWork) against the
	// textbook double loop: same terms in the same order per entry.
	rng := rand.New(rand.NewPCG(5, 6))
	nw := randomNetwork(rng, 500)
	x := make([]float64, 500)
	for i := range x {
		x[i] = rng.Float64()
	}
	want := make([]float64, 500)
	for j := range want {
		for i := range want {
			want[i] += nw.A[j] * x[j] * nw.C.At(j, i)
		}
	}
	relClose(t, want, nw.Loads(nil, x), "Loads")
}

func TestSparseTwoNodeExampleIdentical(t *testing.T) {
	// Spec §8 item 1 through the sparse path: S = (0.43, 0.67).
	sc, err := NewSparseC(2, []int{1, 0, 1, 0}, []int{1, 1, 0, 0}, []float64{0.5, 0.9, 0.5, 0.1})
	require.NoError(t, err)
	sp, err := NewNetwork([]float64{1, 1}, sc, []float64{0.7, 0.7})
	require.NoError(t, err)
	de, err := NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), []float64{0.7, 0.7})
	require.NoError(t, err)
	x := []float64{0.3, 0.8}
	assert.Equal(t, de.Loads(nil, x), sp.Loads(nil, x)) // bit-identical
	assert.InDelta(t, 0.43, sp.Loads(nil, x)[0], tol)
	cols, vals := sp.Row(0)
	assert.Equal(t, []int{0, 1}, cols) // sorted on construction
	assert.Equal(t, []float64{0.1, 0.9}, vals)
	back, err := SparseOf(de.C)
	require.NoError(t, err)
	assert.Equal(t, sc, back)
}

func TestSparseCErrors(t *testing.T) {
	ok := func() ([]int, []int, []float64) { return []int{0, 0, 1}, []int{0, 1, 1}, []float64{0.4, 0.6, 1} }
	cases := []struct {
		name     string
		edit     func(r, c []int, v []float64)
		row, col int
	}{
		{"negative", func(r, c []int, v []float64) { v[0] = -0.1 }, 0, 0},
		{"NaN", func(r, c []int, v []float64) { v[1] = math.NaN() }, 0, 1},
		{"Inf", func(r, c []int, v []float64) { v[2] = math.Inf(1) }, 1, 1},
		{"above 1", func(r, c []int, v []float64) { v[2] = 1.5 }, 1, 1},
		{"column out of range", func(r, c []int, v []float64) { c[2] = 2 }, 1, 2},
		{"row out of range", func(r, c []int, v []float64) { r[1] = -1 }, -1, 1},
		{"duplicate", func(r, c []int, v []float64) { c[1] = 0; v[0], v[1] = 0.5, 0.5 }, 0, 0},
		{"empty row", func(r, c []int, v []float64) { r[0], r[1] = 1, 1 }, 0, -1},
		{"row sum", func(r, c []int, v []float64) { v[1] = 0.5 }, 0, -1},
	}
	for _, tc := range cases {
		r, c, v := ok()
		tc.edit(r, c, v)
		_, err := NewSparseC(2, r, c, v)
		require.Error(t, err, tc.name)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, tc.name)
		var ee *EntryError
		require.True(t, errors.As(err, &ee), tc.name)
		assert.Equal(t, tc.row, ee.Row, tc.name)
		assert.Equal(t, tc.col, ee.Col, tc.name)
	}
	r, c, v := ok()
	_, err := NewSparseC(2, r, c, v)
	require.NoError(t, err)
	_, err = NewSparseC(0, nil, nil, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = NewSparseC(2, r[:2], c, v)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

func TestNetworkWithBothOrNoC(t *testing.T) {
	sp, de := pair(t, rand.New(rand.NewPCG(7, 8)), 4, 2)
	both := *sp
	both.C = de.C
	assert.ErrorIs(t, both.Validate(), loadlab.ErrInvalid)
	none := *sp
	none.Sparse = nil
	assert.ErrorIs(t, none.Validate(), loadlab.ErrInvalid)
	small, err := NewSparseC(3, []int{0, 1, 2}, []int{0, 1, 2}, []float64{1, 1, 1})
	require.NoError(t, err)
	_, err = NewNetwork(sp.A, small, sp.T)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

// AsDense and AsSparse convert between the two storage forms: the
// twins hold the same entries exactly (a copy, no arithmetic), the
// conversions round-trip, the inputs are untouched, and the results are
// independent of their inputs (A and T copied, a sparse C shared only
// because it is immutable).
func TestAsDenseAsSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 3, 40} {
		sp, de := pair(t, rng, n, min(n, 3))
		d, err := sp.AsDense()
		require.NoError(t, err)
		require.Nil(t, d.Sparse)
		assert.True(t, mat.Equal(de.C, d.C), "n = %d: dense twin", n)
		s, err := de.AsSparse()
		require.NoError(t, err)
		require.Nil(t, s.C)
		assert.Equal(t, sp.NNZ(), s.NNZ())
		for j := range n {
			wc, wv := sp.Sparse.Row(j)
			gc, gv := s.Sparse.Row(j)
			assert.Equal(t, wc, gc, "row %d", j)
			assert.Equal(t, wv, gv, "row %d", j)
		}
		for _, nw := range []*Network{d, s} {
			require.NoError(t, nw.Validate())
			assert.Equal(t, sp.A, nw.A)
			assert.Equal(t, sp.T, nw.T)
		}
		// Same form: a copy of the dense C, the shared immutable sparse C.
		dd, err := de.AsDense()
		require.NoError(t, err)
		dd.C.Set(0, 0, 7)
		dd.A[0] = -1
		assert.NotEqual(t, 7.0, de.C.At(0, 0))
		assert.NotEqual(t, -1.0, de.A[0])
		ss, err := sp.AsSparse()
		require.NoError(t, err)
		assert.Same(t, sp.Sparse, ss.Sparse)
		ss.T[0] = -1
		assert.NotEqual(t, -1.0, sp.T[0])
	}
}

// The conversions validate their receiver (its fields may have changed
// since NewNetwork), refuse a dense C of more than the memory budget
// before allocating it, and panic on a nil receiver.
func TestAsDenseAsSparseErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	sp, de := pair(t, rng, 5, 2)
	sp.A[2], de.T[1] = math.NaN(), 0
	_, err := sp.AsDense()
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "A[2] = NaN")
	_, err = de.AsSparse()
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "T[1] = 0")
	// N = 2¹⁶: the sparse identity takes 3 MiB, its dense twin 32 GiB
	// (above the 16 GiB budget).
	n := 1 << 16
	idx, one := make([]int, n), make([]float64, n)
	for i := range idx {
		idx[i], one[i] = i, 1
	}
	sc, err := NewSparseC(n, idx, idx, one)
	require.NoError(t, err)
	big, err := NewNetwork(one, sc, one)
	require.NoError(t, err)
	_, err = big.AsDense()
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "N = 65536")
	var nilNet *Network
	assert.PanicsWithValue(t, "anycast: AsDense on a nil *Network", func() { _, _ = nilNet.AsDense() })
	assert.PanicsWithValue(t, "anycast: AsSparse on a nil *Network", func() { _, _ = nilNet.AsSparse() })
}
