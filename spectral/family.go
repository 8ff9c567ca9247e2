package spectral

import (
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Family names one of the deterministic unit-weight families, for sweeps
// over size where each member is given by one size parameter k: the
// order for paths, cycles, stars and complete graphs, the side of a
// square k×k grid or torus, and the dimension of the hypercube Q_k.
type Family int

const (
	PathFamily      Family = iota // Path(k)
	CycleFamily                   // Cycle(k), k ≥ 3
	StarFamily                    // Star(k)
	CompleteFamily                // Complete(k)
	GridFamily                    // Grid(k, k)
	TorusFamily                   // Torus(k, k), k ≥ 3
	HypercubeFamily               // Hypercube(k), 0 ≤ k ≤ 30
)

// AllFamilies returns every Family in declaration order.
func AllFamilies() []Family {
	return []Family{PathFamily, CycleFamily, StarFamily, CompleteFamily, GridFamily, TorusFamily, HypercubeFamily}
}

var familyNames = [...]string{"path", "cycle", "star", "complete", "grid", "torus", "hypercube"}

// String returns the family's lower-case name, such as "torus".
func (f Family) String() string {
	if f < 0 || int(f) >= len(familyNames) {
		return fmt.Sprintf("Family(%d)", int(f))
	}
	return familyNames[f]
}

// MinSize returns the smallest valid size parameter k. It panics for an
// unknown family.
func (f Family) MinSize() int {
	switch f {
	case CycleFamily, TorusFamily:
		return 3
	case HypercubeFamily:
		return 0
	}
	f.check()
	return 1
}

// check panics for an unknown family: a Family is a closed enumeration,
// so another value is a programmer error.
func (f Family) check() {
	if f < 0 || int(f) >= len(familyNames) {
		panic(fmt.Sprintf("spectral: unknown %v", f))
	}
}

// Order returns the number of nodes of the member with size parameter k:
// k, k² or 2^k. It returns an error wrapping loadlab.ErrInvalid for
// k < MinSize() (or k > gen.MaxHypercubeDim for the hypercube) and one
// wrapping loadlab.ErrTooLarge for k² ≥ 2^31. It panics for an unknown
// family.
func (f Family) Order(k int) (int, error) {
	f.check()
	if err := atLeast(f.String(), "k", k, f.MinSize()); err != nil {
		return 0, err
	}
	switch f {
	case GridFamily, TorusFamily:
		if n, ok := size.Mul(k, k); ok && n <= wgraph.MaxOrder {
			return n, nil
		}
		return 0, loadlab.TooLarge("spectral", "%v: k = %d gives k² ≥ 2^31 nodes", f, k)
	case HypercubeFamily:
		if err := checkDim(f.String(), k); err != nil {
			return 0, err
		}
		return 1 << k, nil
	}
	return k, nil
}

// Graph returns the member with size parameter k, with the errors of its
// constructor. It panics for an unknown family.
func (f Family) Graph(k int) (*wgraph.Graph, error) {
	switch f {
	case PathFamily:
		return gen.Path(k)
	case CycleFamily:
		return gen.Cycle(k)
	case StarFamily:
		return gen.Star(k)
	case CompleteFamily:
		return gen.Complete(k)
	case GridFamily:
		return gen.Grid(k, k)
	case TorusFamily:
		return gen.Torus(k, k)
	case HypercubeFamily:
		return gen.Hypercube(k)
	}
	f.check()
	return nil, nil
}

// Spectrum returns the closed-form Laplacian spectrum of the member with
// size parameter k, ascending (PathSpectrum, CycleSpectrum, …), with
// their errors. It panics for an unknown family.
func (f Family) Spectrum(k int) ([]float64, error) {
	switch f {
	case PathFamily:
		return PathSpectrum(k)
	case CycleFamily:
		return CycleSpectrum(k)
	case StarFamily:
		return StarSpectrum(k)
	case CompleteFamily:
		return CompleteSpectrum(k)
	case GridFamily:
		return GridSpectrum(k, k)
	case TorusFamily:
		return TorusSpectrum(k, k)
	case HypercubeFamily:
		return HypercubeSpectrum(k)
	}
	f.check()
	return nil, nil
}

// Kirchhoff returns the closed-form Kirchhoff index of the member with
// size parameter k (PathKirchhoff, CycleKirchhoff, …), with their
// errors. It panics for an unknown family.
func (f Family) Kirchhoff(k int) (float64, error) {
	switch f {
	case PathFamily:
		return PathKirchhoff(k)
	case CycleFamily:
		return CycleKirchhoff(k)
	case StarFamily:
		return StarKirchhoff(k)
	case CompleteFamily:
		return CompleteKirchhoff(k)
	case GridFamily:
		return GridKirchhoff(k, k)
	case TorusFamily:
		return TorusKirchhoff(k, k)
	case HypercubeFamily:
		return HypercubeKirchhoff(k)
	}
	f.check()
	return 0, nil
}
