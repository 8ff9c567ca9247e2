package mc

import (
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// Source is loadlab.Stream: the PCG source of seed and the stream path
// (for example a sweep point and a run index), derived by the module's
// one public rule.
func Source(seed uint64, path ...uint64) *rand.PCG { return loadlab.Stream(seed, path...) }

// Seed draws a 64-bit seed from src, for deriving streams from a caller's
// rand.Source. It panics if src is nil.
func Seed(src rand.Source) uint64 {
	if src == nil {
		panic("mc: Seed: src is nil")
	}
	return src.Uint64()
}
