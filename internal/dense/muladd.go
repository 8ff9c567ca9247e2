package dense

import (
	"github.com/loadlab/loadlab/internal/asm"
	"github.com/loadlab/loadlab/internal/par"
)

// Blocking of MulAdd: kc of A's columns at a time, so that a 4 × kc
// sliver of A (kc cache lines when A is read along its columns) and
// kc × nc of B (256 KiB) stay in a core's 1 MiB second-level cache while
// the rows of C pass over them; rows of C are shared among the
// goroutines in pieces of mulAddGrain, and products below mulAddParMin
// multiply-adds run on the caller.
const (
	mulAddKC     = 128
	mulAddNC     = 256
	mulAddGrain  = 64
	mulAddParMin = 1 << 21
)

// MulAdd sets C ← C + A B for the p × m block of C (entry (i, j) at
// c[i·ldc + j]), A p × k (entry (i, l) at a[i·ars + l·aks], so that A or
// its transpose may be read in place) and B k × m (entry (l, j) at
// b[l·ldb + j]). Each entry of C is the chain of fused multiply-adds
// c ← a(i, l)·b(l, j) + c in increasing l from its own value: blocks of
// 4 × 8 by asm.MulAdd4, the edges by its reference, so the bits do not
// depend on the blocking, the CPU or the number of goroutines. C must
// not overlap A or B. It panics as asm.MulAdd4 does on blocks that do
// not fit their slices.
func MulAdd(p, m, k int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	if p <= 0 || m <= 0 || k <= 0 {
		return
	}
	rows := func(lo, hi int) { mulAddRows(lo, hi, m, k, a, ars, aks, b, ldb, c, ldc) }
	if float64(p)*float64(m)*float64(k) < mulAddParMin {
		rows(0, p)
		return
	}
	par.Loop(p, 0, mulAddGrain, rows)
}

// mulAddRows is MulAdd on rows [lo, hi) of C.
func mulAddRows(lo, hi, m, k int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	m8 := m &^ 7
	for j0 := 0; j0 < m; j0 += mulAddNC {
		j1 := min(j0+mulAddNC, m)
		for l0 := 0; l0 < k; l0 += mulAddKC {
			kc := min(mulAddKC, k-l0)
			al, bl := a[l0*aks:], b[l0*ldb:]
			i := lo
			for ; i+4 <= hi; i += 4 {
				ai, ci := al[i*ars:], c[i*ldc:]
				if nb := (min(j1, m8) - j0) / 8; nb > 0 {
					asm.MulAdd4(kc, nb, ai, ars, aks, bl[j0:], ldb, ci[j0:], ldc)
				}
				if e := max(j0, m8); e < j1 {
					asm.MulAddRef(4, j1-e, kc, ai, ars, aks, bl[e:], ldb, ci[e:], ldc)
				}
			}
			if i < hi {
				asm.MulAddRef(hi-i, j1-j0, kc, al[i*ars:], ars, aks, bl[j0:], ldb, c[i*ldc+j0:], ldc)
			}
		}
	}
}
