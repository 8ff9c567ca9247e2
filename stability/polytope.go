package stability

import (
	"math"

	"github.com/loadlab/loadlab/anycast"
)

// PolytopeSlack returns the slack of the demand nw.A in each inequality of
// the stability polytope Π_C (spec §5.3 eq. (28)):
//
//	slack_i = T_i − Σ_{j≠i} C_ji A_j.
//
// A node with slack_i ≥ 0 can never suffer a locally uncontrollable
// overload: even with every other node answering all its demand with L1
// (x_j = 1), the load it cannot shed is within its capacity.
func PolytopeSlack(nw *anycast.Network) []float64 {
	n := nw.N()
	slack := append([]float64(nil), nw.T...)
	for j := 0; j < n; j++ {
		row := nw.C.RawRowView(j)
		for i, c := range row {
			if i != j {
				slack[i] -= c * nw.A[j] // spec §5.3 eq. (28)
			}
		}
	}
	return slack
}

// InPolytope reports whether nw.A ∈ Π_C (spec §5.3 eq. (28)), a
// sufficient condition for the greedy law never to end in a locally
// uncontrollable overload.
func InPolytope(nw *anycast.Network) bool {
	return allNonNegative(PolytopeSlack(nw))
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
func ExtendedSlack(nw *anycast.Network) []float64 {
	n := nw.N()
	slack := append([]float64(nil), nw.T...)
	for j := 0; j < n; j++ {
		a := nw.A[j]
		if cjj := nw.C.At(j, j); cjj > 0 {
			a = math.Min(a, nw.T[j]/cjj)
		}
		row := nw.C.RawRowView(j)
		for i, c := range row {
			if i != j {
				slack[i] -= c * a // spec §5.5, region Π′_C
			}
		}
	}
	return slack
}

// InExtended reports whether nw.A ∈ Π′_C ⊇ Π_C (spec §5.5).
func InExtended(nw *anycast.Network) bool {
	return allNonNegative(ExtendedSlack(nw))
}

func allNonNegative(v []float64) bool {
	for _, s := range v {
		if !(s >= 0) {
			return false
		}
	}
	return true
}

// Uncontrollable returns the nodes i at which the state x exhibits the
// condition (27) of spec §5.3,
//
//	Σ_{j≠i} C_ji A_j x_j > T_i + tol,
//
// that is, nodes that would stay overloaded by more than tol even after
// sending all their own DNS demand to L2. At a steady state with x_i = 0
// these are the locally uncontrollable overloads (26). tol ≥ 0 absorbs
// integration error.
//
// Uncontrollable panics if len(x) ≠ N.
func Uncontrollable(nw *anycast.Network, x []float64, tol float64) []int {
	s := nw.Loads(nil, x)
	var out []int
	for i := range s {
		other := s[i] - nw.C.At(i, i)*nw.A[i]*x[i] // spec §5.3 eq. (27)
		if other > nw.T[i]+tol {
			out = append(out, i)
		}
	}
	return out
}
