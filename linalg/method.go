package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// Method selects how a spectral quantity (the Kirchhoff index, the H2
// measures of consensus, γ*_H2) is computed.
type Method int

const (
	// MethodAuto, the default, uses MethodDense up to DenseMaxNodes nodes
	// and MethodStochastic above.
	MethodAuto Method = iota
	// MethodDense computes the value exactly (to rounding) from dense
	// factorisations or the dense spectrum: O(n³) time, O(n²) memory.
	MethodDense
	// MethodStochastic estimates the value by stochastic trace estimation
	// with sparse Laplacian solves, with a 95 % interval: about O(m)
	// time and memory per probe.
	MethodStochastic
)

// DenseMaxNodes is the largest order at which MethodAuto takes the dense
// path. At 2048 nodes (2¹¹, the largest hypercube the dense checks of
// examples/figures use) a dense factor-and-invert pass takes about 0.7 s
// and 32 MB per matrix (docs/benchmarks.md); at 4000 it takes 6–8 s and
// the ρ₂ passes 770 MiB, while the stochastic path's cost grows about
// linearly. Small graphs stay exact: there a 1 % stochastic estimate
// would need many probes relative to n (on a mesh, hundreds).
const DenseMaxNodes = 2048

// String returns the method's name.
func (m Method) String() string {
	switch m {
	case MethodAuto:
		return "auto"
	case MethodDense:
		return "dense"
	case MethodStochastic:
		return "stochastic"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Validate reports an unknown method.
func (m Method) Validate() error {
	if m < MethodAuto || m > MethodStochastic {
		return loadlab.Invalid("linalg", "Method = %d, want MethodAuto, MethodDense or MethodStochastic", int(m))
	}
	return nil
}

// Resolve returns the path m takes on a graph of n nodes: MethodDense or
// MethodStochastic.
func (m Method) Resolve(n int) Method {
	if m == MethodAuto {
		if n <= DenseMaxNodes {
			return MethodDense
		}
		return MethodStochastic
	}
	return m
}

// DefaultSeed seeds the random source of the entry points that return a
// bare number (KirchhoffIndex, and consensus.Rho and NodalRho) when they
// take the stochastic path: their results are deterministic.
const DefaultSeed = 0x10ad1ab

// DefaultSource returns a new source seeded with DefaultSeed.
func DefaultSource() rand.Source { return rand.NewPCG(DefaultSeed, 0) }

// KirchhoffIndexWith returns the Kirchhoff index K_f = n tr L† (spec
// throttlers.md §2) by the path set.Method selects (nil or MethodAuto:
// dense up to DenseMaxNodes nodes, stochastic above): MethodDense is
// KirchhoffIndex's factor-and-invert pass, exact to rounding, reported
// with Lo = Hi = Mean, N = 0 and no probes; MethodStochastic is
// EstimateKirchhoff, to relative half-width set.RelAcc (default 1 %) at
// 95 %. The result's Method says which path ran. Errors are those of the
// path. It panics if g or src is nil (src is unused on the dense path).
func KirchhoffIndexWith(g *Graph, set *TraceSettings, src rand.Source) (TraceResult, error) {
	if g == nil || src == nil {
		panic("linalg: KirchhoffIndexWith: nil graph or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return TraceResult{}, err
	}
	var m Method
	if set != nil {
		m = set.Method
	}
	if m.Resolve(g.Order()) == MethodStochastic {
		res, err := EstimateKirchhoff(g, set, src)
		res.Method = MethodStochastic
		return res, err
	}
	k, err := kirchhoffDense(g)
	res := TraceResult{Estimate: loadlab.Estimate{Mean: k, Lo: k, Hi: k}, Method: MethodDense, Status: loadlab.Success}
	if err != nil {
		res.Status = loadlab.Failure
		res.Estimate = loadlab.Estimate{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	return res, err
}
