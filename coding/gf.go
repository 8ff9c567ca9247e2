package coding

// Poly is the field polynomial of GF(2⁸): x⁸ + x⁴ + x³ + x² + 1 (0x11d),
// with the primitive element x = 2. It is the polynomial of
// github.com/klauspost/reedsolomon, so products agree byte for byte with
// that library's tables and kernels (spec coded-load.md §11.1).
const Poly = 0x11d

// The field's tables: exp[i] = 2^i for i in [0, 510) (doubled so that a
// sum of two logarithms needs no reduction), log[a] for a ≠ 0, inv[a],
// and the full 256 × 256 product table of the table-driven kernels.
var (
	expTab [510]byte
	logTab [256]int
	invTab [256]byte
	mulTab [256][256]byte
)

func init() {
	x := 1
	for i := range 255 {
		expTab[i], expTab[i+255] = byte(x), byte(x)
		logTab[x] = i
		x <<= 1
		if x&0x100 != 0 {
			x ^= Poly
		}
	}
	for a := 1; a < 256; a++ {
		invTab[a] = expTab[255-logTab[a]]
		for b := 1; b < 256; b++ {
			mulTab[a][b] = expTab[logTab[a]+logTab[b]]
		}
	}
	subfields = makeSubfields()
}

// Add returns a + b in GF(2⁸): the bitwise exclusive or (subtraction is
// the same operation).
func Add(a, b byte) byte { return a ^ b }

// Mul returns the product a·b in GF(2⁸) modulo Poly.
func Mul(a, b byte) byte { return mulTab[a][b] }

// Inv returns the multiplicative inverse of a ≠ 0 in GF(2⁸).
// It panics if a is 0 (zero has no inverse; a programmer error).
func Inv(a byte) byte {
	if a == 0 {
		panic("coding: Inv(0): zero has no inverse")
	}
	return invTab[a]
}

// Div returns a/b in GF(2⁸). It panics if b is 0.
func Div(a, b byte) byte {
	if b == 0 {
		panic("coding: Div(a, 0): division by zero")
	}
	return mulTab[a][invTab[b]]
}

// Exp returns 2^i in GF(2⁸) for any integer i (the multiplicative group
// has order 255, so i is taken modulo 255).
func Exp(i int) byte {
	i %= 255
	if i < 0 {
		i += 255
	}
	return expTab[i]
}

// Log returns the discrete logarithm of a ≠ 0 to the base 2, in [0, 255).
// It panics if a is 0.
func Log(a byte) int {
	if a == 0 {
		panic("coding: Log(0): zero has no logarithm")
	}
	return logTab[a]
}
