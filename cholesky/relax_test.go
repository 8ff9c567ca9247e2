package cholesky

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRelaxHand: the merge rule of §3.2 on a tiny postordered tree,
// worked by hand. Columns 0 and 1 are leaves under the fundamental
// supernode {2, 3}, column 4 a leaf under {5, 6}, the root; each
// column's count is its rows, diagonal included:
//
//	column:  0  1  2  3  4  5  6
//	parent:  2  2  3  6  5  6  −
//	count:   3  2  3  2  2  2  1
//
// With the widest merge 4, {2, 3} absorbs {1} (3 columns, 2 zeros of 9
// entries) and then {0} (4 columns, 4 zeros of 14), and {5, 6} absorbs
// {4} (3 columns, 1 zero of 6) but not the 4 columns before it (7 > 4).
// With 3, {0} stays alone, and with RelaxOff nothing merges. With 7 the
// whole tree is one supernode of 28 entries, 13 of them zeros: a
// fraction 0.46, within the 16-column tier.
func TestRelaxHand(t *testing.T) {
	parent := []int{2, 2, 3, 6, 5, 6, -1}
	counts := []int{3, 2, 3, 2, 2, 2, 1}
	fstart := fundamental(parent, counts)
	require.Equal(t, []int{0, 1, 2, 4, 5, 7}, fstart)
	for _, c := range []struct {
		width         int
		start, stored []int
	}{
		{RelaxOff, []int{0, 1, 2, 4, 5, 7}, counts},
		{3, []int{0, 1, 4, 7}, []int{3, 4, 3, 2, 3, 2, 1}},
		{4, []int{0, 4, 7}, []int{5, 4, 3, 2, 3, 2, 1}},
		{7, []int{0, 7}, []int{7, 6, 5, 4, 3, 2, 1}},
	} {
		start, stored := relax(fstart, parent, counts, c.width)
		assert.Equal(t, c.start, start, "widest merge %d", c.width)
		assert.Equal(t, c.stored, stored, "widest merge %d", c.width)
	}
}

// TestRelaxTiers: the rule's thresholds, at their edges.
func TestRelaxTiers(t *testing.T) {
	// A group of w columns and no rows below has w(w+1)/2 entries.
	group := func(w, zeros int) relaxGroup { return relaxGroup{width: w, own: w*(w+1)/2 - zeros} }
	assert.True(t, group(4, 9).accepts(DefaultRelax), "4 columns merge whatever their zeros")
	assert.False(t, group(4, 0).accepts(3), "the widest merge bounds every tier")
	for _, tr := range relaxTiers[1:] {
		e := tr.width * (tr.width + 1) / 2
		z := int(tr.zeros * float64(e)) // the most zeros within the tier
		assert.True(t, group(tr.width, z).accepts(DefaultRelax), "%d columns, %d zeros", tr.width, z)
		assert.False(t, group(tr.width, z+1).accepts(DefaultRelax), "%d columns, %d zeros", tr.width, z+1)
	}
	assert.False(t, group(DefaultRelax+1, 0).accepts(DefaultRelax))
}

// torusMatrix returns the Laplacian of the side×side torus plus 0.01·I.
func torusMatrix(side int) *Matrix {
	n := side * side
	a := &Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		r, c := i/side, i%side
		cols := []int{((r+side-1)%side)*side + c, r*side + (c+side-1)%side, i, r*side + (c+1)%side, ((r+1)%side)*side + c}
		slices.Sort(cols)
		for _, j := range slices.Compact(cols) {
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

// TestRelaxedMatchesFundamental: the relaxed and the fundamental
// supernodes give the same solves, diagonal of A⁻¹ and (A⁻¹)_ij on A's
// pattern, to 1e-12 relative, on random SPD patterns, grids and tori,
// with both orderings; the factor's explicit zeros are exact zeros. The
// two factorisations sum the same products in other orders, so each
// value differs by a few roundings times the condition number (here
// below 10⁴: a diagonal shift of at least 0.01 on entries of order 1–10,
// or random entries with the diagonal dominant), far below 1e-12.
func TestRelaxedMatchesFundamental(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 4))
	mats := map[string]*Matrix{"grid 30": gridMatrix(30), "torus 24": torusMatrix(24), "torus 7": torusMatrix(7)}
	for _, n := range []int{60, 300, 900} {
		a, _ := randomSPD(rng, n, 3)
		mats[fmt.Sprint("random ", n)] = a
	}
	for name, a := range mats {
		for _, o := range []Ordering{AMD, NestedDissection} {
			off, err := Analyze(a, &Settings{Ordering: o, Relax: RelaxOff})
			require.NoError(t, err)
			rel, err := Analyze(a, &Settings{Ordering: o})
			require.NoError(t, err)
			require.Equal(t, off.Report().Factor, rel.Report().Factor, "%s %v", name, o)
			if a.N >= 300 {
				require.Greater(t, rel.Report().Stored, rel.Report().Factor, "%s %v: nothing merged", name, o)
				require.Less(t, rel.sn.count(), off.sn.count(), "%s %v", name, o)
			}
			f0, err := off.Factor(a)
			require.NoError(t, err)
			f1, err := rel.Factor(a)
			require.NoError(t, err)
			checkExplicitZeros(t, rel, f1, name)
			b := make([]float64, a.N)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			assertClose(t, f0.Solve(nil, b), f1.Solve(nil, b), name+" solve")
			z0, z1 := f0.Inverse(), f1.Inverse()
			assertClose(t, z0.Diag(nil), z1.Diag(nil), name+" diag")
			var v0, v1 []float64
			for i := range a.N {
				for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
					x0, ok0 := z0.At(i, a.Ind[p])
					x1, ok1 := z1.At(i, a.Ind[p])
					require.True(t, ok0 && ok1)
					v0, v1 = append(v0, x0), append(v1, x1)
				}
			}
			assertClose(t, v0, v1, name+" At")
		}
	}
}

// checkExplicitZeros checks that every stored entry of f off the
// factor's own pattern (the fill, by bruteFactorPattern on small
// matrices, else the column counts of the row subtrees) is exactly zero.
func checkExplicitZeros(t *testing.T, s *Symbolic, f *Factor, name string) {
	t.Helper()
	own := make(map[[2]int32]bool)
	mark := make([]int, s.n)
	for k := range s.n {
		own[[2]int32{int32(k), int32(k)}] = true
		mark[k] = k
		for p := s.upp[k]; p < s.upp[k+1]; p++ {
			for j := s.upi[p]; mark[j] != k; j = s.parent[j] {
				mark[j] = k
				own[[2]int32{int32(k), int32(j)}] = true
			}
		}
	}
	zeros := 0
	for j := range s.n {
		for a, i := range s.li[s.lp[j]:s.lp[j+1]] {
			if !own[[2]int32{i, int32(j)}] {
				zeros++
				require.Zero(t, f.lx[s.sn.xp[j]+a], "%s: L[%d][%d] is an explicit zero", name, i, j)
			}
		}
	}
	require.Equal(t, s.Report().Stored-s.Report().Factor, zeros, name)
}

// assertClose checks that got and want agree to 1e-12 relative to want's
// largest magnitude.
func assertClose(t *testing.T, want, got []float64, what string) {
	t.Helper()
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > 1e-12*scale {
			t.Fatalf("%s: entry %d = %v, want %v (difference %.3g of %.3g)", what, i, got[i], want[i], d, scale)
		}
	}
}

// TestRelaxFallsBack: a relaxed factor beyond MaxFlops or half of
// MaxBytes, whose fundamental supernodes fit, is analysed with the
// fundamental supernodes rather than refused; within half of MaxBytes
// it stays relaxed.
func TestRelaxFallsBack(t *testing.T) {
	a := gridMatrix(30)
	off, err := Analyze(a, &Settings{Ordering: NestedDissection, Relax: RelaxOff})
	require.NoError(t, err)
	rel, err := Analyze(a, &Settings{Ordering: NestedDissection})
	require.NoError(t, err)
	ro, rr := off.Report(), rel.Report()
	require.Greater(t, rr.Flops, ro.Flops)
	require.Greater(t, rr.Bytes, ro.Bytes)
	for name, set := range map[string]*Settings{
		"MaxFlops": {Ordering: NestedDissection, MaxFlops: ro.Flops},
		"MaxBytes": {Ordering: NestedDissection, MaxBytes: ro.Bytes},
	} {
		sym, err := Analyze(a, set)
		require.NoError(t, err, name)
		r := sym.Report()
		assert.Equal(t, r.Factor, r.Stored, name)
		assert.Equal(t, ro.Flops, r.Flops, name)
		assert.Equal(t, ro.Bytes, r.Bytes, name)
		checkSupernodes(t, sym)
	}
	sym, err := Analyze(a, &Settings{Ordering: NestedDissection, MaxBytes: 2 * rr.Bytes})
	require.NoError(t, err)
	assert.Equal(t, rr, sym.Report())
}
