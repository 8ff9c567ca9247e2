package anycast

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// tol covers a few roundings of sums of at most N terms of size ≤ 1.
const tol = 1e-12

func TestLoadsSpecExample(t *testing.T) {
	// Spec §8 item 1: C = [[0.1 0.9] [0.5 0.5]], A = (1,1), x = (0.3, 0.8)
	// gives S = (0.43, 0.67), total 1.1 (item 2).
	nw, err := NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), []float64{0.7, 0.7})
	require.NoError(t, err)
	s := nw.Loads(nil, []float64{0.3, 0.8})
	assert.InDelta(t, 0.43, s[0], tol)
	assert.InDelta(t, 0.67, s[1], tol)
	assert.InDelta(t, 1.1, s[0]+s[1], tol)
}

func randomNetwork(rng *rand.Rand, n int) *Network {
	c := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		row := c.RawRowView(j)
		for i := range row {
			row[i] = rng.Float64()
		}
		floats.Scale(1/floats.Sum(row), row)
	}
	a := make([]float64, n)
	t := make([]float64, n)
	for i := range a {
		a[i] = 10 * rng.Float64()
		t[i] = 0.1 + rng.Float64()
	}
	nw, err := NewNetwork(a, c, t)
	if err != nil {
		panic(err)
	}
	return nw
}

func TestLoadIdentities(t *testing.T) {
	// Spec §8 items 2–3: total-load identity, bounds, matrix form.
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 1 + rng.IntN(12)
		nw := randomNetwork(rng, n)
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64()
		}
		s := nw.Loads(nil, x)
		var answered float64
		for j := range x {
			answered += nw.A[j] * x[j]
		}
		assert.InDelta(t, answered, floats.Sum(s), tol*floats.Sum(nw.A))
		maxS := nw.MaxLoads()
		var sb mat.VecDense
		sb.MulVec(nw.LoadMatrix(), mat.NewVecDense(n, x))
		for i := range s {
			assert.GreaterOrEqual(t, s[i], 0.0)
			assert.LessOrEqual(t, s[i], maxS[i]+tol*maxS[i])
			assert.InDelta(t, s[i], sb.AtVec(i), tol*(1+maxS[i]))
		}
	}
}

func TestNewNetworkErrors(t *testing.T) {
	good := mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5})
	for _, tc := range []struct {
		name string
		a, t []float64
		c    mat.Matrix
		msg  string
	}{
		{"negative A", []float64{-1, 1}, []float64{1, 1}, good, "A[0] = -1"},
		{"NaN A", []float64{1, math.NaN()}, []float64{1, 1}, good, "A[1] = NaN"},
		{"zero T", []float64{1, 1}, []float64{1, 0}, good, "T[1] = 0"},
		{"row sum", []float64{1, 1}, []float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.8, 0.5, 0.5}), "row 0 of C sums to 0.9"},
		{"negative C", []float64{1, 1}, []float64{1, 1}, mat.NewDense(2, 2, []float64{1.5, -0.5, 0.5, 0.5}), "C[0][1] = -0.5"},
		{"size", []float64{1, 1, 1}, []float64{1, 1, 1}, good, "len(A) = 3"},
		{"T size", []float64{1, 1}, []float64{1}, good, "len(T) = 1"},
		{"not square", []float64{1, 1}, []float64{1, 1}, mat.NewDense(2, 3, nil), "not square"},
		{"nil C", []float64{1, 1}, []float64{1, 1}, nil, "C is nil"},
		{"Inf T", []float64{1, 1}, []float64{math.Inf(1), 1}, good, "T[0] = +Inf"},
		{"NaN C", []float64{1, 1}, []float64{1, 1}, mat.NewDense(2, 2, []float64{math.NaN(), 1, 0.5, 0.5}), "C[0][0] = NaN"},
		{"Inf C row 1", []float64{1, 1}, []float64{1, 1}, mat.NewDense(2, 2, []float64{0.5, 0.5, math.Inf(1), 0}), "C[1][0] = +Inf"},
		{"-Inf A", []float64{math.Inf(-1), 1}, []float64{1, 1}, good, "A[0] = -Inf"},
		{"NaN T", []float64{1, 1}, []float64{1, math.NaN()}, good, "T[1] = NaN"},
		{"empty", nil, nil, mat.NewDense(1, 1, []float64{1}), "len(A) = 0, want at least one node"},
		// Each A_j is finite but their sum is not: every load would be
		// +Inf or NaN.
		{"total demand", []float64{math.MaxFloat64, math.MaxFloat64}, []float64{1, 1}, good, "Σ A_j overflows"},
	} {
		_, err := NewNetwork(tc.a, tc.c, tc.t)
		if assert.Error(t, err, tc.name) {
			assert.Contains(t, err.Error(), tc.msg, tc.name)
			assert.ErrorIs(t, err, loadlab.ErrInvalid, tc.name)
		}
	}
}

// A network changed after construction is rechecked by Validate, and a
// nil network is a documented panic.
func TestValidateAfterChange(t *testing.T) {
	nw, err := NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), []float64{0.7, 0.7})
	require.NoError(t, err)
	nw.C.Set(1, 1, 0.6)
	assert.ErrorContains(t, nw.Validate(), "row 1 of C sums to 1.1")
	nw.C.Set(1, 1, 0.5)
	nw.T = nw.T[:1]
	assert.ErrorContains(t, nw.Validate(), "len(T) = 1")
	var nilNet *Network
	assert.PanicsWithValue(t, "anycast: Validate on a nil *Network", func() { _ = nilNet.Validate() })
}

// BenchmarkValidate_Dense1000 is Network.Validate on a dense N = 1000
// network: part of the setup of every entry point of dual and stability.
func BenchmarkValidate_Dense1000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1000))
	n := 1000
	c := mat.NewDense(n, n, nil)
	a, t := make([]float64, n), make([]float64, n)
	for j := range n {
		row := c.RawRowView(j)
		var s float64
		for i := range row {
			row[i] = rng.Float64()
			s += row[i]
		}
		for i := range row {
			row[i] /= s
		}
		a[j], t[j] = 1, 1
	}
	nw, err := NewNetwork(a, c, t)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := nw.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// The fast row check (bit-pattern maximum, partial sums) flags what the
// entry-by-entry test flags, in the unrolled part and the tail of a
// row, admits −0, and on a large C split over the cores reports the
// first bad row as a serial scan does.
func TestValidateRowFastPath(t *testing.T) {
	n := 7 // one block of four and a tail of three
	base := make([]float64, n)
	for i := range base {
		base[i] = 1 / float64(n)
	}
	for _, tc := range []struct {
		at  int
		v   float64
		msg string
	}{
		{1, math.NaN(), "C[3][1] = NaN"},
		{6, math.NaN(), "C[3][6] = NaN"},
		{2, math.Inf(1), "C[3][2] = +Inf"},
		{5, -1e-300, "C[3][5] = -1e-300"},
		{0, math.Inf(-1), "C[3][0] = -Inf"},
	} {
		row := append([]float64(nil), base...)
		row[tc.at] = tc.v
		assert.ErrorContains(t, validateRow(3, row), tc.msg)
	}
	row := append([]float64(nil), base...)
	row[0], row[1] = math.Copysign(0, -1), row[0]+row[1]
	assert.NoError(t, validateRow(3, row), "−0 is a valid entry")

	const big = 300 // 9·10⁴ entries: split over the cores
	c := mat.NewDense(big, big, nil)
	for j := range big {
		c.Set(j, j, 1)
	}
	c.Set(250, 250, 0.5)
	c.Set(40, 40, -1)
	a, tt := make([]float64, big), make([]float64, big)
	for i := range a {
		a[i], tt[i] = 1, 1
	}
	_, err := NewNetwork(a, c, tt)
	assert.ErrorContains(t, err, "C[40][40] = -1", "the first bad row in order")
}
