package codedload

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// maxResample bounds the attempts at drawing a connected random graph.
const maxResample = 100

// RGGRadius returns r_n = √(1.25 ln n / n), the connection radius of the
// reference simulator's random geometric graph (spec §3.1), for which
// nπr_n² = (5π/4) ln n ≈ 3.93 ln n. It panics if n < 2 (r_1 = 0 and
// r_n for n < 1 is undefined; n is a program constant, so a bad one is a
// programmer error — NewRGG validates a caller's n before using it).
func RGGRadius(n int) float64 {
	if n < 2 {
		panic(fmt.Sprintf("codedload: RGGRadius: n = %d, want ≥ 2", n))
	}
	return math.Sqrt(1.25 * math.Log(float64(n)) / float64(n))
}

// NewRGG returns a random geometric graph: n points uniform in the unit
// square (no wrap-around), joined when their Euclidean distance is at most
// r (spec §3.1; r ≤ 0 means RGGRadius(n)), drawn by
// gen.RandomGeometric and resampled until it is connected, up to 100
// times. Nodes are numbered in the order of gen.RandomGeometric's bucket cells, which
// keeps neighbours close in memory. It returns an error wrapping
// loadlab.ErrInvalid for n < 2 or a NaN or infinite r, one from
// gen.RandomGeometric for a size too large, and one wrapping
// loadlab.ErrDisconnected if no connected sample was found. It panics if
// src is nil.
func NewRGG(n int, r float64, src rand.Source) (*GraphTopology, error) {
	if src == nil {
		panic("codedload: NewRGG: nil rand.Source src")
	}
	if n < 2 {
		return nil, loadlab.Invalid("codedload", "RGG Order = %d, want ≥ 2", n)
	}
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return nil, loadlab.Invalid("codedload", "RGG radius = %v, want finite", r)
	}
	if r <= 0 {
		r = RGGRadius(n)
	}
	return connectedSample(fmt.Sprintf("RGG with n = %d, r = %v", n, r), func() (*wgraph.Graph, error) {
		return gen.RandomGeometric(n, r, false, src)
	})
}

// NewRegular returns a random simple d-regular graph on n nodes drawn by
// gen.RandomRegular (exactly uniform for d ≤ 4, asymptotically uniform
// for d ≥ 5; see its documentation) and resampled until it is connected,
// up to 100 times: the uniform law conditioned on connectivity, which
// holds with high probability for d ≥ 3. It returns an error wrapping
// loadlab.ErrInvalid unless n ≥ 2, 1 ≤ d < n and n·d is even, one from
// gen.RandomRegular for a size too large, and one wrapping
// loadlab.ErrDisconnected if no connected sample was found. It panics if
// src is nil.
func NewRegular(n, d int, src rand.Source) (*GraphTopology, error) {
	if src == nil {
		panic("codedload: NewRegular: nil rand.Source src")
	}
	if n < 2 {
		return nil, loadlab.Invalid("codedload", "regular graph Order = %d, want ≥ 2", n)
	}
	if d < 1 || d >= n {
		return nil, loadlab.Invalid("codedload", "regular graph Degree = %d, want 1 ≤ d < n = %d", d, n)
	}
	if n%2 != 0 && d%2 != 0 {
		return nil, loadlab.Invalid("codedload", "regular graph Degree·Order = %d·%d, want even", d, n)
	}
	return connectedSample(fmt.Sprintf("regular graph n = %d, d = %d", n, d), func() (*wgraph.Graph, error) {
		return gen.RandomRegular(n, d, src)
	})
}

// connectedSample draws graphs until one is connected, up to maxResample
// times.
func connectedSample(what string, draw func() (*wgraph.Graph, error)) (*GraphTopology, error) {
	for range maxResample {
		g, err := draw()
		if err != nil {
			return nil, fmt.Errorf("codedload: %s: %w", what, err)
		}
		if wgraph.IsConnected(g) {
			return &GraphTopology{g: g}, nil
		}
	}
	return nil, loadlab.Wrap(loadlab.ErrDisconnected, "codedload", "%s: no connected sample in %d draws", what, maxResample)
}
