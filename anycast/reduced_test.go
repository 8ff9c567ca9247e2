package anycast

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reducedLoads returns S = b + B_F x_F of r at the full state x, computed
// in pieces of rows of piece rows each.
func reducedLoads(r *Reduced, x []float64, piece int) []float64 {
	xf := make([]float64, r.Cols())
	for j, v := range x {
		if k := r.Rank(j); k >= 0 {
			xf[k] = v
		}
	}
	s := make([]float64, r.N())
	for lo := 0; lo < r.N(); lo += piece {
		hi := min(lo+piece, r.N())
		r.MulRows(s[lo:hi], xf, lo, hi)
	}
	return s
}

// settledState returns a random state with x_j = 1 where ones[j].
func settledState(rng *rand.Rand, ones []bool) []float64 {
	x := make([]float64, len(ones))
	for j := range x {
		x[j] = rng.Float64()
		if ones[j] {
			x[j] = 1
		}
	}
	return x
}

// checkReduced checks r against B x at states with x = 1 on ones: to the
// rounding of two sums of N non-negative terms, |ΔS_i| ≤ 2Nε·S_i, and
// bit for bit whatever the pieces of rows.
func checkReduced(t *testing.T, rng *rand.Rand, op *LoadOp, r *Reduced, ones []bool, what string) {
	t.Helper()
	x := settledState(rng, ones)
	want := op.Mul(nil, x)
	got := reducedLoads(r, x, op.N())
	for i, w := range want {
		require.LessOrEqual(t, math.Abs(got[i]-w), 2*float64(op.N())*0x1p-52*w, "%s: S_%d", what, i)
	}
	for _, piece := range []int{1, 3, 8, 24} {
		require.Equal(t, got, reducedLoads(r, x, piece), "%s: pieces of %d rows", what, piece)
	}
}

// randomOnes returns a mask true with probability p, and true wherever
// base is.
func randomOnes(rng *rand.Rand, n int, p float64, base []bool) []bool {
	ones := make([]bool, n)
	for j := range ones {
		ones[j] = rng.Float64() < p || (base != nil && base[j])
	}
	return ones
}

// Reduce and Narrow give S = B x at states settled at 1 on K, for sizes
// around the kernel's blocks (free column counts not multiples of 8),
// masks from empty to full, and storage reused from a larger operator.
func TestReducedMatchesLoadOp(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, n := range []int{1, 9, 37, 200} {
		op, err := randomNetwork(rng, n).LoadOp()
		require.NoError(t, err)
		var r, q Reduced
		for _, p := range []float64{0, 0.3, 1} {
			ones := randomOnes(rng, n, p, nil)
			require.True(t, r.Reduce(op, ones))
			checkReduced(t, rng, op, &r, ones, "Reduce")
			if p == 0 && n%8 == 0 {
				// Nothing summed once and rows of whole blocks of
				// eight (no padding): the product of LoadOp itself.
				x := settledState(rng, ones)
				assert.Equal(t, op.Mul(nil, x), reducedLoads(&r, x, n), "n = %d, empty K", n)
			}
			more := randomOnes(rng, n, 0.5, ones)
			require.True(t, q.Narrow(&r, more))
			checkReduced(t, rng, op, &q, more, "Narrow")
		}
	}
}

// Narrow refuses a mask that leaves out a node summed once, leaving the
// receiver as it was; Reduce refuses a sparse B.
func TestReducedRefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	op, err := randomNetwork(rng, 20).LoadOp()
	require.NoError(t, err)
	ones := randomOnes(rng, 20, 0.4, nil)
	ones[3] = true
	var r, q Reduced
	require.True(t, r.Reduce(op, ones))
	require.True(t, q.Reduce(op, make([]bool, 20)))
	fewer := append([]bool(nil), ones...)
	fewer[3] = false
	assert.False(t, q.Narrow(&r, fewer))
	assert.Equal(t, 20, q.Free(), "a refused Narrow changed the receiver")

	sp, _ := pair(t, rng, 20, 4)
	sop, err := sp.LoadOp()
	require.NoError(t, err)
	assert.False(t, q.Reduce(sop, ones))
	assert.Equal(t, 20, q.Free())
}

// The documented panics: mask lengths, the receiver as its own source,
// and MulRows' range and lengths.
func TestReducedPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	op, err := randomNetwork(rng, 20).LoadOp()
	require.NoError(t, err)
	var r Reduced
	ones := randomOnes(rng, 20, 0.5, nil)
	assert.Panics(t, func() { r.Reduce(op, ones[:19]) })
	require.True(t, r.Reduce(op, ones))
	var q Reduced
	assert.Panics(t, func() { q.Narrow(&r, ones[:19]) })
	assert.Panics(t, func() { r.Narrow(&r, ones) })
	xf := make([]float64, r.Cols())
	assert.NotPanics(t, func() { r.MulRows(make([]float64, 4), xf, 5, 9) }, "any range of rows")
	assert.Panics(t, func() { r.MulRows(make([]float64, 3), xf, 0, 4) }, "len(dst)")
	assert.Panics(t, func() { r.MulRows(make([]float64, 4), xf[:len(xf)-1], 0, 4) }, "len(xf)")
	assert.Panics(t, func() { r.MulRows(make([]float64, 4), xf, 16, 20+4) }, "hi > N")
}

// MulFree and MulSettled give the free and the settled rows of a range,
// for several states at once, the bits MulRows gives them, and write
// nothing else: ranges at any offset and of any length (the kernel's
// blocks of four rows and a remainder), free column counts from 0 (all
// settled) to N and around the kernel's eight columns, seven states (a
// group of six read together, and one).
func TestMulFreeAndSettledMatchMulRows(t *testing.T) {
	checkFreeAndSettled(t)
	var r Reduced
	rng := rand.New(rand.NewPCG(8, 5))
	op, err := randomNetwork(rng, 10).LoadOp()
	require.NoError(t, err)
	require.True(t, r.Reduce(op, make([]bool, 10)))
	xf := [][]float64{make([]float64, 10)}
	assert.Panics(t, func() { r.MulSettled([][]float64{make([]float64, 9)}, xf, 0, 10) }, "short dst")
	assert.Panics(t, func() { r.MulSettled(nil, xf, 0, 10) }, "states without outputs")
	assert.Panics(t, func() { r.MulSettled([][]float64{make([]float64, 10)}, [][]float64{make([]float64, 9)}, 0, 10) }, "len(xf)")
	assert.Panics(t, func() { r.MulFree(make([]float64, 4), xf[0], 8, 12) }, "hi > N")
}

// checkFreeAndSettled is the body of TestMulFreeAndSettledMatchMulRows.
func checkFreeAndSettled(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 4))
	for _, n := range []int{1, 12, 37, 203} {
		op, err := randomNetwork(rng, n).LoadOp()
		require.NoError(t, err)
		var r Reduced
		for _, p := range []float64{0, 0.3, 0.9, 1} {
			ones := randomOnes(rng, n, p, nil)
			require.True(t, r.Reduce(op, ones))
			xf := make([][]float64, 7)
			for k := range xf {
				xf[k] = make([]float64, r.Cols())
				for j := range xf[k] {
					xf[k][j] = rng.Float64()
				}
			}
			for range 6 {
				lo := rng.IntN(n + 1)
				hi := lo + rng.IntN(n-lo+1)
				want := make([][]float64, len(xf))
				free := make([]float64, hi-lo)
				settled := make([][]float64, len(xf))
				for k := range xf {
					want[k] = make([]float64, hi-lo)
					r.MulRows(want[k], xf[k], lo, hi)
					settled[k] = make([]float64, hi-lo)
					for i := range settled[k] {
						settled[k][i] = -1
					}
				}
				for i := range free {
					free[i] = -1
				}
				r.MulFree(free, xf[2], lo, hi)
				r.MulSettled(settled, xf, lo, hi)
				for i := lo; i < hi; i++ {
					isFree := r.Rank(i) >= 0
					f, s := free[i-lo], settled[2][i-lo]
					if isFree {
						require.Equal(t, want[2][i-lo], f, "n = %d, p = %v, [%d, %d): free row %d", n, p, lo, hi, i)
						require.Equal(t, -1.0, s, "settled output written for free row %d", i)
						continue
					}
					require.Equal(t, -1.0, f, "free output written for settled row %d", i)
					for k := range xf {
						require.Equal(t, want[k][i-lo], settled[k][i-lo], "n = %d, p = %v, [%d, %d): state %d, settled row %d", n, p, lo, hi, k, i)
					}
				}
			}
		}
	}
}

// A build copies, row by row, exactly the entries of B in the free
// columns, in increasing node order, then zeros up to Cols(): every size
// around the blocks of eight, masks from empty to full, Reduce from B and
// Narrow from a reduced operator.
func TestBuildCopiesTheFreeColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 5))
	for n := 1; n <= 41; n += 4 {
		op, err := randomNetwork(rng, n).LoadOp()
		require.NoError(t, err)
		for _, p := range []float64{0, 0.2, 0.6, 1} {
			ones := randomOnes(rng, n, p, nil)
			more := randomOnes(rng, n, 0.4, ones)
			var built [2]Reduced
			require.True(t, built[0].Reduce(op, ones))
			require.True(t, built[1].Narrow(&built[0], more))
			for s, r := range built {
				for q, i := range r.node {
					row := r.val[q*r.w : (q+1)*r.w]
					for k, j := range r.free {
						require.Equal(t, op.val[int(i)*n+int(j)], row[k], "n = %d, p = %v, build %d, row of node %d, column of node %d", n, p, s, i, j)
					}
					for _, v := range row[len(r.free):] {
						require.Zero(t, v, "n = %d, build %d: padding", n, s)
					}
				}
			}
		}
	}
}
