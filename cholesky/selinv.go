package cholesky

import "github.com/loadlab/loadlab/internal/dense"

// Inverse holds the entries of A⁻¹ on the pattern of the Cholesky factor
// (selected inversion; spec sparse-cholesky.md §4). The pattern contains
// A's own pattern, so every A_ij ≠ 0 has its (A⁻¹)_ij here, and the
// whole diagonal.
type Inverse struct {
	f  *Factor
	zx []float64 // Z = (P A Pᵀ)⁻¹ on the factor's pattern
}

// Inverse computes the selected inverse (about the factorisation's cost
// again, and as much memory as the factor's values).
//
// With P A Pᵀ = L Lᵀ, Z = (P A Pᵀ)⁻¹ satisfies the Takahashi recurrences
// over columns j = n−1, …, 0, where S is the pattern of column j below
// the diagonal and ℓ = L_Sj / L_jj:
//
//	Z_Sj = −Z_SS ℓ,    Z_jj = 1/L_jj² − ℓᵀ Z_Sj.
//
// S is a clique of the filled graph, so Z_SS lies on the pattern of
// columns after j, already computed.
func (f *Factor) Inverse() *Inverse {
	s := f.sym
	n, lp, li, lx := s.n, s.lp, s.li, f.lx
	zx := make([]float64, len(lx))
	pos := make([]int, n) // pos[i] = 1 + index of row i in S, or 0
	l := make([]float64, 0, 64)
	y := make([]float64, 0, 64)
	for j := n - 1; j >= 0; j-- {
		d := lx[lp[j]]
		rows := li[lp[j]+1 : lp[j+1]]
		l, y = l[:0], y[:0]
		for a, i := range rows {
			pos[i] = a + 1
			l = append(l, lx[lp[j]+1+a]/d)
			y = append(y, 0)
		}
		for a, k := range rows {
			// Column k of Z below its diagonal holds Z_ik for every i in S
			// after k (S ∩ (k, n) ⊆ pattern of column k).
			y[a] += zx[lp[k]] * l[a]
			for p := lp[k] + 1; p < lp[k+1]; p++ {
				if b := pos[li[p]]; b != 0 {
					z := zx[p]
					y[b-1] += z * l[a]
					y[a] += z * l[b-1]
				}
			}
		}
		diag := 1 / (d * d)
		for a, i := range rows {
			zx[lp[j]+1+a] = -y[a]
			diag += l[a] * y[a]
			pos[i] = 0
		}
		zx[lp[j]] = diag
	}
	return &Inverse{f: f, zx: zx}
}

// Diag returns the diagonal of A⁻¹ in dst (allocated if nil), in the
// original order. It panics if a non-nil dst does not have length N.
func (z *Inverse) Diag(dst []float64) []float64 {
	s := z.f.sym
	if dst == nil {
		dst = make([]float64, s.n)
	}
	if len(dst) != s.n {
		panic("cholesky: Inverse.Diag: len(dst) differs from the order")
	}
	for k, i := range s.perm {
		dst[i] = z.zx[s.lp[k]]
	}
	return dst
}

// Trace returns tr A⁻¹, summed with compensation.
func (z *Inverse) Trace() float64 {
	return dense.Sum(z.Diag(nil))
}

// At returns (A⁻¹)_ij and true when (i, j) lies on the factor's pattern
// (every stored entry of A does), and 0 and false otherwise. It panics if
// i or j is out of range.
func (z *Inverse) At(i, j int) (float64, bool) {
	s := z.f.sym
	if i < 0 || i >= s.n || j < 0 || j >= s.n {
		panic("cholesky: Inverse.At: index out of range")
	}
	r, c := s.pinv[i], s.pinv[j]
	if r < c {
		r, c = c, r
	}
	lo, hi := s.lp[c], s.lp[c+1]
	for lo < hi { // binary search for row r in column c
		m := int(uint(lo+hi) >> 1)
		if s.li[m] < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < s.lp[c+1] && s.li[lo] == r {
		return z.zx[lo], true
	}
	return 0, false
}
