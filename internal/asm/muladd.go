package asm

import (
	"fmt"
	"math"
)

// MulAdd4 adds to the 4 × 8nb block of C at c (entry (r, j) at
// c[r·ldc + j]) the product of the 4 × kc block of A at a (entry (r, l)
// at a[r·ars + l·aks]) and the kc × 8nb block of B at b (entry (l, j) at
// b[l·ldb + j]): each entry of C becomes the chain of fused multiply-adds
// c ← a(r, l)·b(l, j) + c in increasing l, starting from its own value.
// The chain is the same whatever the blocking of l, so a product split
// into blocks of A's columns has the bits of one call.
//
// MulAdd4 panics if kc < 1, nb < 1, a stride is negative, or a slice is
// too short for the blocks it describes.
func MulAdd4(kc, nb int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	n := 8 * nb
	if kc < 1 || nb < 1 || ars < 0 || aks < 0 || ldb < 0 || ldc < 0 ||
		len(a) <= 3*ars+(kc-1)*aks || len(b) < (kc-1)*ldb+n || len(c) < 3*ldc+n {
		panic(fmt.Sprintf("asm: MulAdd4 with kc = %d, nb = %d, ars = %d, aks = %d, ldb = %d, ldc = %d and lengths %d, %d, %d: the blocks do not fit",
			kc, nb, ars, aks, ldb, ldc, len(a), len(b), len(c)))
	}
	mulAdd4(kc, nb, a, ars, aks, b, ldb, c, ldc)
}

// mulAddRef is the reference of MulAdd4 for any rows × cols block (rows
// and cols ≥ 0): the same chains, entry by entry.
func mulAddRef(rows, cols, kc int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	for r := range rows {
		cr := c[r*ldc : r*ldc+cols]
		for l := range kc {
			arl, bl := a[r*ars+l*aks], b[l*ldb:l*ldb+cols]
			for j := range cr {
				cr[j] = math.FMA(arl, bl[j], cr[j])
			}
		}
	}
}

// MulAddRef is the reference of MulAdd4 for a block of any shape: the
// edges of a product that MulAdd4's 4 × 8 blocks do not tile.
func MulAddRef(rows, cols, kc int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	if rows <= 0 || cols <= 0 || kc <= 0 {
		return
	}
	if ars < 0 || aks < 0 || ldb < 0 || ldc < 0 || len(a) <= (rows-1)*ars+(kc-1)*aks ||
		len(b) < (kc-1)*ldb+cols || len(c) < (rows-1)*ldc+cols {
		panic(fmt.Sprintf("asm: MulAddRef with %d × %d, kc = %d, ars = %d, aks = %d, ldb = %d, ldc = %d and lengths %d, %d, %d: the blocks do not fit",
			rows, cols, kc, ars, aks, ldb, ldc, len(a), len(b), len(c)))
	}
	mulAddRef(rows, cols, kc, a, ars, aks, b, ldb, c, ldc)
}
