package loadlab

import "math/rand/v2"

// Stream returns the random stream named by seed and path: a PCG source
// whose two 64-bit seeds are a SplitMix64 hash of seed and the path
// elements, in order. It is the one rule by which every Monte Carlo
// loop of loadlab derives its streams:
//
//	run r of point k of a sweep with seed s draws from Stream(s, k, r)
//
// (a study of one point, such as stability's Attractors or consensus's
// EstimateRho, drops k: run r draws from Stream(s, r)), and a run that
// needs several independent streams takes Stream(s, k, r, j) for its
// j-th. A run is thus a function of its seed path alone: the results do
// not depend on the number of goroutines, and a run computed in another
// process (package sweep) is bit for bit the run of the in-process loop.
//
// The same path always gives the same stream; different paths give
// streams that are statistically independent (the hash maps nearby
// inputs to unrelated seeds). Paths of different lengths are different
// paths: Stream(s, 1) and Stream(s, 1, 0) are unrelated.
//
// The derivation, with m the SplitMix64 finaliser (Steele, Lea and
// Flood 2014):
//
//	h ← m(seed)
//	for each p in path: h ← m(h ⊕ m(p + 0x632be59bd9b4e019))
//	Stream = rand.NewPCG(h, m(h ⊕ 0xd1b54a32d192ed03))
//
// where m(z) adds 0x9e3779b97f4a7c15 to z and mixes the sum. It is part
// of the contract: changing it changes every random result of the module.
func Stream(seed uint64, path ...uint64) *rand.PCG {
	h := splitmix64(seed)
	for _, p := range path {
		h = splitmix64(h ^ splitmix64(p+0x632be59bd9b4e019))
	}
	return rand.NewPCG(h, splitmix64(h^0xd1b54a32d192ed03))
}

// splitmix64 is the finaliser of SplitMix64: one step of its Weyl
// sequence, then the variant-13 mixer.
func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
