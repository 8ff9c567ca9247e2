package stability

import (
	"math"

	"github.com/loadlab/loadlab/anycast"
)

// The functions of this file validate nw on every call
// (anycast.Network.Validate: O(N²) for dense C, O(N) for a sparse C, which
// is validated when built; the work itself is O(nnz)), so a network
// whose exported fields were changed after NewNetwork is checked again;
// its error is returned. They panic if nw is nil.

// validNetwork validates nw for the function fn, panicking if it is nil.
func validNetwork(fn string, nw *anycast.Network) error {
	if nw == nil {
		panic("stability: " + fn + ": nw is nil")
	}
	return nw.Validate()
}

// PolytopeSlack returns the slack of the demand nw.A in each inequality of
// the stability polytope Π_C (spec §5.3 eq. (28)):
//
//	slack_i = T_i − Σ_{j≠i} C_ji A_j.
//
// A node with slack_i ≥ 0 can never suffer a locally uncontrollable
// overload: even with every other node answering all its demand with L1
// (x_j = 1), the load it cannot shed is within its capacity.
//
// PolytopeSlack returns an error wrapping loadlab.ErrInvalid for an
// invalid network, and panics if nw is nil.
func PolytopeSlack(nw *anycast.Network) ([]float64, error) {
	return polytopeSlack("PolytopeSlack", nw)
}

// polytopeSlack is PolytopeSlack, called from fn.
func polytopeSlack(fn string, nw *anycast.Network) ([]float64, error) {
	if err := validNetwork(fn, nw); err != nil {
		return nil, err
	}
	n := nw.N()
	slack := append([]float64(nil), nw.T...)
	for j := 0; j < n; j++ {
		cols, vals := nw.Row(j) // O(nnz) for sparse C
		for k, i := range cols {
			if i != j {
				slack[i] -= vals[k] * nw.A[j] // spec §5.3 eq. (28)
			}
		}
	}
	return slack, nil
}

// InPolytope reports whether nw.A ∈ Π_C (spec §5.3 eq. (28)), a
// sufficient condition for the greedy law never to end in a locally
// uncontrollable overload. Errors and panics are those of PolytopeSlack.
func InPolytope(nw *anycast.Network) (bool, error) {
	slack, err := polytopeSlack("InPolytope", nw)
	return allNonNegative(slack), err
}

// ExtendedSlack returns the slack of nw.A in the larger region Π′_C of
// spec §5.5 (DERIVED, N-node extension):
//
//	slack′_i = T_i − Σ_{j≠i} C_ji min(A_j, T_j/C_jj),
//
// reading T_j/C_jj as +∞ when C_jj = 0. It uses that at an equilibrium that
// is stable in every coordinate j with x_j > 0, node j carries at most its
// capacity, so its own-traffic C_jj A_j x_j ≤ T_j caps the demand A_j x_j
// that it answers with L1. ExtendedSlack_i ≥ PolytopeSlack_i.
//
// ExtendedSlack returns an error wrapping loadlab.ErrInvalid for an
// invalid network, and panics if nw is nil.
func ExtendedSlack(nw *anycast.Network) ([]float64, error) {
	return extendedSlack("ExtendedSlack", nw)
}

// extendedSlack is ExtendedSlack, called from fn.
func extendedSlack(fn string, nw *anycast.Network) ([]float64, error) {
	if err := validNetwork(fn, nw); err != nil {
		return nil, err
	}
	n := nw.N()
	slack := append([]float64(nil), nw.T...)
	for j := 0; j < n; j++ {
		a := nw.A[j]
		if cjj := nw.At(j, j); cjj > 0 {
			a = math.Min(a, nw.T[j]/cjj)
		}
		cols, vals := nw.Row(j)
		for k, i := range cols {
			if i != j {
				slack[i] -= vals[k] * a // spec §5.5, region Π′_C
			}
		}
	}
	return slack, nil
}

// InExtended reports whether nw.A ∈ Π′_C ⊇ Π_C (spec §5.5). Errors and
// panics are those of ExtendedSlack.
func InExtended(nw *anycast.Network) (bool, error) {
	slack, err := extendedSlack("InExtended", nw)
	return allNonNegative(slack), err
}

// allNonNegative reports whether v is non-empty and every entry ≥ 0.
func allNonNegative(v []float64) bool {
	for _, s := range v {
		if !(s >= 0) {
			return false
		}
	}
	return len(v) > 0
}

// Uncontrollable returns the nodes i at which the state x exhibits the
// condition (27) of spec §5.3,
//
//	Σ_{j≠i} C_ji A_j x_j > T_i + tol,
//
// that is, nodes that would stay overloaded by more than tol even after
// sending all their own DNS demand to L2. At a steady state with x_i = 0
// these are the locally uncontrollable overloads (26). tol ≥ 0 absorbs
// integration error. The result is empty, not nil, when no node qualifies.
//
// Uncontrollable returns an error wrapping loadlab.ErrInvalid for an
// invalid nw, a wrong length of x, x outside [0, 1]^N (or NaN) and a tol
// that is negative, NaN or infinite. It panics if nw is nil.
func Uncontrollable(nw *anycast.Network, x []float64, tol float64) ([]int, error) {
	if err := validNetwork("Uncontrollable", nw); err != nil {
		return nil, err
	}
	if err := checkState(nw, x, tol); err != nil {
		return nil, err
	}
	s := nw.Loads(nil, x)
	out := []int{}
	for i := range s {
		other := s[i] - nw.At(i, i)*nw.A[i]*x[i] // spec §5.3 eq. (27)
		if other > nw.T[i]+tol {
			out = append(out, i)
		}
	}
	return out, nil
}
