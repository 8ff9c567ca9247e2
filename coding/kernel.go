package coding

import (
	"github.com/klauspost/reedsolomon"
)

// kernel names an implementation of the data product out = M·in over
// GF(2⁸), row by row of bytes (spec coded-load.md §11.1). The three give
// the same bytes; doc.go says which is the default and why.
type kernel int

const (
	// kernelMatrix feeds M to reedsolomon.New as the custom "parity"
	// rows of a systematic code with len(in) data shards and runs its
	// Encode on one goroutine: the library's SIMD (GFNI, AVX-512, AVX2,
	// SSSE3 or NEON) code, which streams every input once per block of
	// outputs.
	kernelMatrix kernel = iota
	// kernelSlice calls the library's SIMD multiply-and-add of one
	// slice by one constant, once per entry of M.
	kernelSlice
	// kernelTable is portable Go: one 256-byte row of the product table
	// per entry of M, one lookup per byte.
	kernelTable
)

// defaultKernel is the data product every Encoder and Decoder uses.
var defaultKernel = kernelMatrix

// matrixMaxShards is the largest len(in) + len(out) of the matrix
// kernel (the library's GF(2⁸) codes have at most 256 shards); larger
// products fall back to the slice kernel.
const matrixMaxShards = 256

// mulRows sets out[i] = Σ_j m[i][j]·in[j] for every row i of m. Every
// slice of in and out has the same length n ≥ 1 and every row of m has
// len(in) entries; out must not alias in.
func mulRows(k kernel, m [][]byte, in, out [][]byte) {
	if k == kernelMatrix && len(in)+len(out) > matrixMaxShards {
		k = kernelSlice
	}
	switch k {
	case kernelMatrix:
		mulMatrix(m, in, out)
	case kernelSlice:
		var ll reedsolomon.LowLevel
		for i, row := range m {
			clear(out[i])
			for j, c := range row {
				if c != 0 {
					ll.GalMulSliceXor(c, in[j], out[i])
				}
			}
		}
	default:
		for i, row := range m {
			o := out[i]
			clear(o)
			for j, c := range row {
				mulAddTable(c, in[j], o)
			}
		}
	}
}

// mulAddTable sets o[k] ^= c·x[k] with the product table.
func mulAddTable(c byte, x, o []byte) {
	switch c {
	case 0:
		return
	case 1:
		for k, v := range x {
			o[k] ^= v
		}
		return
	}
	t := &mulTab[c]
	o = o[:len(x)]
	for k, v := range x {
		o[k] ^= t[v]
	}
}

// mulMatrix runs the product on the Reed–Solomon library's encoder with
// m as its parity rows. The library's errors cannot occur for the shapes
// mulRows is given (1 ≤ shards ≤ 256, equal non-zero lengths), so one is
// a bug of this package and panics.
func mulMatrix(m [][]byte, in, out [][]byte) {
	enc, err := reedsolomon.New(len(in), len(out), reedsolomon.WithCustomMatrix(m), reedsolomon.WithMaxGoroutines(1))
	if err != nil {
		panic("coding: internal error: " + err.Error())
	}
	shards := make([][]byte, 0, len(in)+len(out))
	shards = append(append(shards, in...), out...)
	if err := enc.Encode(shards); err != nil {
		panic("coding: internal error: " + err.Error())
	}
}
