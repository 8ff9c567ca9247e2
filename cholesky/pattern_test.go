package cholesky

import (
	"math/rand/v2"
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
// elimination, for every ordering, on random sparse patterns.
func TestPatternIsTheFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, o := range []Ordering{Natural, AMD, NestedDissection, Auto} {
		for _, n := range []int{1, 7, 40, 150} {
			a, _ := randomSPD(rng, n, 2.5)
			sym, err := Analyze(a, &Settings{Ordering: o})
			require.NoError(t, err)
			b := bruteFactorPattern(a, sym.perm)
			count, flops := 0, 0.0
			for j := range n {
				col := 0
				for i := j; i < n; i++ {
					if b[i][j] {
						col++
					}
				}
				count += col
				flops += float64(col * col)
				rows := sym.li[sym.lp[j]:sym.lp[j+1]]
				var want []int
				for i := j; i < n; i++ {
					if b[i][j] {
						want = append(want, i)
					}
				}
				assert.Equal(t, want, rows, "%v n=%d column %d", o, n, j)
			}
			rep := sym.Report()
			assert.Equal(t, count, rep.Factor)
			assert.Equal(t, flops, rep.Flops)
			assert.Equal(t, count*bytesPerEntry, rep.Bytes)
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
