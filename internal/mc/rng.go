package mc

import "math/rand/v2"

// splitmix64 is the finaliser of Steele, Lea and Flood's SplitMix64; it
// maps nearby inputs to unrelated outputs, which is what deriving
// independent streams from (seed, index) needs.
func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Source returns a PCG source determined by seed and the stream path
// (for example a sweep point and a run index). Different paths give
// statistically independent streams, and the same path always gives the
// same stream, whatever goroutine asks for it.
func Source(seed uint64, path ...uint64) *rand.PCG {
	h := splitmix64(seed)
	for _, p := range path {
		h = splitmix64(h ^ splitmix64(p+0x632be59bd9b4e019))
	}
	return rand.NewPCG(h, splitmix64(h^0xd1b54a32d192ed03))
}

// Seed draws a 64-bit seed from src, for deriving streams from a caller's
// rand.Source. It panics if src is nil.
func Seed(src rand.Source) uint64 {
	if src == nil {
		panic("mc: Seed: src is nil")
	}
	return src.Uint64()
}
