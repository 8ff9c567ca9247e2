package wgraph_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// floatsFrom decodes little-endian float64s from b, padding with zeros.
func floatsFrom(b []byte, k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		if len(b) >= 8 {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		} else if len(b) > 0 {
			out[i] = float64(b[0]) // short tail: a small integer weight
			b = b[1:]
		}
	}
	return out
}

// checkValid fails unless g is a well-formed graph: symmetric adjacency
// without loops or repeats, weights in range, Size consistent, and a
// Laplacian whose rows sum to zero. Each row sum adds deg(u)+1 numbers of
// magnitude ≤ L_uu, so its rounding error is at most (deg(u)+1)·ε·L_uu.
func checkValid(t *testing.T, g *wgraph.Graph) {
	t.Helper()
	n, m := g.Order(), 0
	for u := range n {
		prev := -1
		for i, x := range g.Neighbors(u) {
			v := int(x)
			w := g.Weights(u)[i]
			require.True(t, v != u && v > prev && v >= 0 && v < n, "bad neighbour %d of %d (lists must be sorted, no loops or repeats)", v, u)
			prev = v
			require.True(t, w >= wgraph.MinWeight && w <= wgraph.MaxWeight && g.Weight(v, u) == w, "bad weight %v on {%d, %d}", w, u, v)
			m++
		}
	}
	require.Equal(t, 2*g.Size(), m, "Size = %d but %d adjacency entries", g.Size(), m)
	if n == 0 {
		return
	}
	l := graphtest.Must(g.Laplacian())
	for u := range n {
		var s float64
		for v := range n {
			s += l.At(u, v)
		}
		require.True(t, math.Abs(s) <= float64(g.Degree(u)+1)*epsFuzz*l.At(u, u), "Laplacian row %d sums to %v (L_uu = %v)", u, s, l.At(u, u))
	}
}

func FuzzFromAdjacency(f *testing.F) {
	enc := func(a ...float64) []byte {
		var b []byte
		for _, x := range a {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		return b
	}
	inf, nan := math.Inf(1), math.NaN()
	f.Add(uint8(3), []byte{})
	f.Add(uint8(3), enc(0, 1, 3, 1, 0, 2, 3, 2, 0)) // the weighted triangle
	f.Add(uint8(2), enc(0, inf, inf, 0))
	f.Add(uint8(2), enc(0, nan, nan, 0))
	f.Add(uint8(2), enc(0, 1, 2, 0)) // not symmetric
	f.Add(uint8(2), enc(1, 1, 1, 0)) // self-loop
	f.Add(uint8(3), enc(0, wgraph.MaxWeight, 0, wgraph.MaxWeight, 0, wgraph.MinWeight, 0, wgraph.MinWeight, 0))
	f.Add(uint8(4), enc(0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0)) // C4
	f.Fuzz(func(t *testing.T, size uint8, data []byte) {
		n := int(size % 7)
		a := floatsFrom(data, n*n)
		// A general matrix (possibly not symmetric) through FromMatrix,
		// and its upper triangle through FromAdjacency.
		g, err := wgraph.FromMatrix(mat.NewDense(max(n, 1), max(n, 1), pad(a, n)))
		if n == 0 {
			return // mat cannot hold a 0×0 matrix
		}
		if err == nil {
			checkValid(t, g)
			for u := range n {
				for v := range n {
					if u != v {
						require.Equal(t, a[u*n+v], g.Weight(u, v), "weight (%d, %d)", u, v)
					}
				}
			}
		}
		s := mat.NewSymDense(n, nil)
		for u := range n {
			for v := u; v < n; v++ {
				s.SetSym(u, v, a[u*n+v])
			}
		}
		h, err := wgraph.FromAdjacency(s)
		if err == nil {
			checkValid(t, h)
			// Never a silently wrong number: an error (disconnected, or
			// too ill conditioned to factor) or a finite positive index.
			if k, err := spectral.KirchhoffIndex(h); err == nil {
				require.True(t, n <= 1 || k > 0 && k < math.Inf(1), "KirchhoffIndex = %v without error", k)
				require.True(t, wgraph.IsConnected(h), "KirchhoffIndex of a disconnected graph without error")
			}
		}
	})
}

func pad(a []float64, n int) []float64 {
	if n == 0 {
		return []float64{0}
	}
	return a
}

func FuzzSetEdge(f *testing.F) {
	f.Add(uint8(4), []byte{0, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f})
	f.Add(uint8(3), []byte{0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 5, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f})
	f.Add(uint8(2), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0x80})
	f.Fuzz(func(t *testing.T, size uint8, ops []byte) {
		n := int(size % 9)
		b, err := wgraph.NewBuilder(n)
		require.NoError(t, err)
		// want is the reference: the last accepted weight of each pair.
		want := map[[2]int]float64{}
		for len(ops) >= 2 {
			// Nodes as signed bytes, so out-of-range values occur.
			u, v := int(int8(ops[0])), int(int8(ops[1]))
			ops = ops[2:]
			w := floatsFrom(ops, 1)[0]
			ops = ops[min(8, len(ops)):]
			if err := b.SetEdge(u, v, w); err != nil {
				require.ErrorIs(t, err, loadlab.ErrInvalid, "SetEdge(%d, %d, %v)", u, v, w)
				continue
			}
			want[[2]int{min(u, v), max(u, v)}] = w
		}
		g := b.Build()
		checkValid(t, g)
		require.Equal(t, len(want), g.Size())
		for k, w := range want {
			require.Equal(t, w, g.Weight(k[0], k[1]), "Weight(%d, %d)", k[0], k[1])
			require.Equal(t, w, g.Weight(k[1], k[0]), "Weight(%d, %d)", k[1], k[0])
		}
	})
}

// epsFuzz is the float64 machine epsilon.
const epsFuzz = 0x1p-52
