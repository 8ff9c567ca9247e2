package linalg

import (
	"fmt"

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
// path. At 1000 nodes a dense factor-and-invert pass takes a fraction of
// a second and 8 MB per matrix; beyond it the O(n³) cost grows past the
// stochastic path's (docs/benchmarks.md), and small graphs stay exact,
// where a 1 % stochastic estimate would need many probes relative to n.
const DenseMaxNodes = 1000

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
