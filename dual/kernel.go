package dual

import (
	"github.com/loadlab/loadlab/anycast"
)

// kernel computes the two products of a dual step, β = C μ (14) and
// S^obs = Cᵀ (A ∘ x) (16), in O(nnz(C)): the network's products for a
// sparse network (anycast.SparseC) and for a dense C mostly non-zero,
// compressed sparse rows of a dense C otherwise.
type kernel struct {
	nw *anycast.Network
	// Compressed rows of C, used when at most a quarter of C is non-zero.
	sparse bool
	start  []int // row j holds val[start[j]:start[j+1]] at columns col[…]
	col    []int
	val    []float64
}

func newKernel(nw *anycast.Network) *kernel {
	k := &kernel{nw: nw}
	if nw.Sparse != nil {
		return k // the network's own O(nnz) products
	}
	n := nw.N()
	nnz := 0
	for j := 0; j < n; j++ {
		for _, c := range nw.C.RawRowView(j) {
			if c != 0 {
				nnz++
			}
		}
	}
	if 4*nnz > n*n {
		return k
	}
	k.sparse = true
	k.start = make([]int, n+1)
	k.col = make([]int, 0, nnz)
	k.val = make([]float64, 0, nnz)
	for j := 0; j < n; j++ {
		for i, c := range nw.C.RawRowView(j) {
			if c != 0 {
				k.col = append(k.col, i)
				k.val = append(k.val, c)
			}
		}
		k.start[j+1] = len(k.col)
	}
	return k
}

// coupling writes β_i = Σ_j C_ij μ_j into dst (spec §4.3 eq. (14)).
func (k *kernel) coupling(dst, mu []float64) {
	if !k.sparse {
		k.nw.MulC(dst, mu)
		return
	}
	for i := range dst {
		var s float64
		for p := k.start[i]; p < k.start[i+1]; p++ {
			s += k.val[p] * mu[k.col[p]]
		}
		dst[i] = s
	}
}

// loads writes S_i = Σ_j A_j x_j C_ji into dst (spec §1.3 eq. (21)).
func (k *kernel) loads(dst, x []float64) {
	if !k.sparse {
		k.nw.Loads(dst, x)
		return
	}
	clear(dst)
	for j, a := range k.nw.A {
		y := a * x[j]
		if y == 0 {
			continue
		}
		for p := k.start[j]; p < k.start[j+1]; p++ {
			dst[k.col[p]] += y * k.val[p]
		}
	}
}
