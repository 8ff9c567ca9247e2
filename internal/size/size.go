// Package size checks sizes and counts before anything is allocated
// (docs/conventions.md §5): overflow-safe products and a memory budget.
package size

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/loadlab/loadlab"
)

// MaxBytes is the memory budget one allocation request may ask for,
// 16 GiB. A request above it is refused with loadlab.ErrTooLarge rather
// than left to crash the process.
const MaxBytes = 16 << 30

// Mul returns a·b, or ok = false if either is negative or the product
// overflows int.
func Mul(a, b int) (p int, ok bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt {
		return 0, false
	}
	return int(lo), true
}

// Product returns the product of xs, or ok = false on a negative factor
// or overflow. The empty product is 1.
func Product(xs ...int) (p int, ok bool) {
	p = 1
	for _, x := range xs {
		if p, ok = Mul(p, x); !ok {
			return 0, false
		}
	}
	return p, true
}

// Check returns an error wrapping loadlab.ErrTooLarge unless count
// elements of bytesPer bytes each fit in MaxBytes. pkg and what name the
// package and the quantity in the message, for example
//
//	size.Check("wgraph", "NewBuilder: n", n, 8*3)
func Check(pkg, what string, count, bytesPer int) error {
	if count < 0 {
		return loadlab.Invalid(pkg, "%s = %d, want ≥ 0", what, count)
	}
	b, ok := Mul(count, bytesPer)
	if !ok || b > MaxBytes {
		return loadlab.TooLarge(pkg, "%s = %d needs more than %d GiB", what, count, MaxBytes>>30)
	}
	return nil
}

// CheckDense returns an error wrapping loadlab.ErrInvalid for n < 0 and
// one wrapping loadlab.ErrTooLarge, naming pkg and fn, unless count dense
// n×n float64 matrices fit the memory budget,
// so that a dense method on a large graph fails before it allocates
// rather than crashing the process.
func CheckDense(pkg, fn string, n, count int) error {
	if n < 0 {
		return loadlab.Invalid(pkg, "%s: n = %d, want ≥ 0", fn, n)
	}
	nn, ok := Mul(n, n)
	if !ok {
		return loadlab.TooLarge(pkg, "%s: n = %d: an n×n matrix overflows", fn, n)
	}
	return Check(pkg, fmt.Sprintf("%s: %d dense %d×%d matrices", fn, count, n, n), nn, 8*count)
}
