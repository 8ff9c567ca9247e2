package cholesky

import (
	"github.com/loadlab/loadlab/internal/par"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteFactorPattern returns the factor's pattern by eliminating a dense boolean
// copy of the permuted pattern: eliminating k joins every pair of its
// later neighbours.
func bruteFactorPattern(a *Matrix, perm []int) [][]bool {
	n := a.N
	pinv := make([]int, n)
	for k, i := range perm {
		pinv[i] = k
	}
	b := make([][]bool, n)
	for i := range b {
		b[i] = make([]bool, n)
		b[i][i] = true
	}
	for i := range n {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			b[pinv[i]][pinv[a.Ind[p]]] = true
		}
	}
	for k := range n {
		for i := k + 1; i < n; i++ {
			if !b[i][k] {
				continue
			}
			for j := k + 1; j < n; j++ {
				if b[j][k] {
					b[i][j], b[j][i] = true, true
				}
			}
		}
	}
	return b
}

// TestPatternIsTheFill: the predicted pattern of L (and so the predicted
// entries, flops and memory) is exactly the fill of symbolic
// elimination, for every ordering, on random sparse patterns, with the
// fundamental supernodes; with the relaxed ones (§3.2) the stored
// pattern holds the fill, is the pattern of a factor (closed: each
// column's rows below its first off-diagonal row lie in that row's
// column), and the report counts what is stored.
func TestPatternIsTheFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, o := range []Ordering{Natural, AMD, NestedDissection, Auto} {
		for _, n := range []int{1, 7, 40, 150} {
			a, _ := randomSPD(rng, n, 2.5)
			for _, relax := range []int{RelaxOff, 0} {
				sym, err := Analyze(a, &Settings{Ordering: o, Relax: relax})
				require.NoError(t, err)
				b := bruteFactorPattern(a, sym.perm)
				count, flops := 0, 0.0
				for j := range n {
					var want []int32
					for i := j; i < n; i++ {
						if b[i][j] {
							want = append(want, int32(i))
						}
					}
					count += len(want)
					rows := sym.li[sym.lp[j]:sym.lp[j+1]]
					flops += float64(len(rows) * len(rows))
					if relax == RelaxOff {
						assert.Equal(t, want, rows, "%v n=%d column %d", o, n, j)
						continue
					}
					assert.Subset(t, rows, want, "%v n=%d column %d", o, n, j)
					if len(rows) > 1 {
						p := rows[1]
						assert.Subset(t, sym.li[sym.lp[p]:sym.lp[p+1]], rows[1:], "%v n=%d column %d: not closed", o, n, j)
					}
				}
				rep := sym.Report()
				assert.Equal(t, count, rep.Factor)
				assert.Equal(t, sym.lp[n], rep.Stored)
				assert.Equal(t, flops, rep.Flops)
				assert.LessOrEqual(t, rep.Stored*bytesPerEntry, rep.Bytes)
				assert.Equal(t, 4*rep.Stored+16*sym.sn.size+par.Workers(0)*invWorkBytes(sym.sn), rep.Bytes)
				checkSupernodes(t, sym)
			}
		}
	}
}

// checkSupernodes checks the supernodal layout against the column
// pattern: every column of a supernode has the supernode's rows from its
// diagonal on, its values start at xp[j] = base + c·(ld + 1), and the
// panels tile the values.
func checkSupernodes(t *testing.T, sym *Symbolic) {
	t.Helper()
	sn := sym.sn
	require.Equal(t, sym.n, sn.start[sn.count()])
	for J := range sn.count() {
		j0, j1 := sn.start[J], sn.start[J+1]
		rows := sym.li[sym.lp[j0]:sym.lp[j0+1]]
		ld := len(rows)
		require.Equal(t, sn.base[J+1]-sn.base[J], (j1-j0)*ld)
		for c := range j1 - j0 {
			require.Equal(t, rows[c:], sym.li[sym.lp[j0+c]:sym.lp[j0+c+1]], "supernode %d column %d", J, j0+c)
			require.Equal(t, sn.base[J]+c*(ld+1), sn.xp[j0+c])
			require.Equal(t, J, sn.of[j0+c])
		}
		if p := sym.parent[j1-1]; p >= 0 {
			require.Equal(t, sn.of[p], sn.parent[J])
		}
	}
}

// TestDeterministic: the same matrix gives the same ordering and the
// same bits.
func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	a, _ := randomSPD(rng, 400, 3)
	s1, err := Analyze(a, nil)
	require.NoError(t, err)
	s2, err := Analyze(a, nil)
	require.NoError(t, err)
	assert.Equal(t, s1.Perm(), s2.Perm())
	f1, err := s1.Factor(a)
	require.NoError(t, err)
	f2, err := s2.Factor(a)
	require.NoError(t, err)
	assert.Equal(t, f1.Inverse().Diag(nil), f2.Inverse().Diag(nil))
}

// gridMatrix returns the Laplacian of the side×side grid plus the
// identity.
func gridMatrix(side int) *Matrix {
	n := side * side
	a := &Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		r, c := i/side, i%side
		add := func(j int, v float64) { a.Ind, a.Val = append(a.Ind, j), append(a.Val, v) }
		deg := 0.0
		for _, ok := range []bool{r > 0, c > 0, c < side-1, r < side-1} {
			if ok {
				deg++
			}
		}
		if r > 0 {
			add(i-side, -1)
		}
		if c > 0 {
			add(i-1, -1)
		}
		add(i, 1+deg)
		if c < side-1 {
			add(i+1, -1)
		}
		if r < side-1 {
			add(i+side, -1)
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	return a
}

// TestSameBitsAnyWorkers: the subtrees run side by side, and the factor
// and the selected inverse have the same bits on one goroutine as on
// several.
func TestSameBitsAnyWorkers(t *testing.T) {
	a := gridMatrix(120)
	sym, err := Analyze(a, nil)
	require.NoError(t, err)
	require.NotEmpty(t, sym.tree.pieces, "the grid's tree should split")
	run := func(procs int) ([]float64, []float64) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		f, err := sym.Factor(a)
		require.NoError(t, err)
		return f.lx, f.Inverse().zx
	}
	l1, z1 := run(1)
	l4, z4 := run(4)
	assert.Equal(t, l1, l4)
	assert.Equal(t, z1, z4)
}
