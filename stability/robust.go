package stability

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/anycast/beacon"
)

// The functions of this file check decisions against every correlation
// matrix of a confidence set (package beacon's Box: per-entry intervals
// intersected with the simplex in every row) instead of one C. They read
// the demand A and the capacities T of nw and the set, never nw's own C
// (which is typically Ĉ); nw is validated on every call.

// checkSet validates nw and that set is N × N.
func checkSet(fn string, nw *anycast.Network, set *beacon.Box) error {
	if err := validNetwork(fn, nw); err != nil {
		return err
	}
	if set == nil || set.Counts == nil {
		panic("stability: " + fn + ": set is nil")
	}
	if r, p := set.Counts.Dims(); r != nw.N() || p != nw.N() {
		return loadlab.Invalid("stability", "%s: the confidence set is %d × %d, want N × N with N = %d", fn, r, p, nw.N())
	}
	return nil
}

// columnBounds returns, for every proxy i, the largest and the smallest
// value of Σ_{j≠i} w_j C_ji over the matrices C of set, w ≥ 0 (spec
// §15.4). The problem splits by rows: C_ji is the only entry of row j in
// the sum, and the rows of the set are independent, so each row
// contributes w_j times the largest (smallest) C_ji over its own box ∩
// simplex,
//
//	max C_ji = min(u_ji, 1 − Σ_{k≠i} l_jk),  min C_ji = max(l_ji, 1 − Σ_{k≠i} u_jk),
//
// with [l_ji, u_ji] the interval of the pair ([0, z_j] if unseen). The
// unseen pairs of a row share one value, so the sums cost O(nnz + N):
// every column starts from the row totals of the unseen value and the
// observed pairs correct it.
func columnBounds(set *beacon.Box, w []float64) (hi, lo []float64) {
	n, p := set.Counts.Dims()
	hi, lo = make([]float64, p), make([]float64, p)
	var baseHi, baseLo float64
	diagHi, diagLo := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		cols, l, u, z := set.Row(j)
		var sumL, sumU float64
		for k := range cols {
			sumL, sumU = sumL+l[k], sumU+u[k]
		}
		sumU += float64(p-len(cols)) * z
		zHi := math.Min(z, 1-sumL)     // an unseen pair, spec §15.4
		zLo := math.Max(0, 1-(sumU-z)) // an unseen pair, spec §15.4
		baseHi, baseLo = baseHi+w[j]*zHi, baseLo+w[j]*zLo
		diagHi[j], diagLo[j] = zHi, zLo
		for k, i := range cols {
			mx := math.Min(u[k], 1-(sumL-l[k])) // spec §15.4
			mn := math.Max(l[k], 1-(sumU-u[k]))
			hi[i] += w[j] * (mx - zHi)
			lo[i] += w[j] * (mn - zLo)
			if i == j {
				diagHi[j], diagLo[j] = mx, mn
			}
		}
	}
	for i := 0; i < p; i++ {
		hi[i] += baseHi
		lo[i] += baseLo
		if i < n { // the own row j = i is not part of the sum
			hi[i] -= w[i] * diagHi[i]
			lo[i] -= w[i] * diagLo[i]
		}
		lo[i] = math.Max(lo[i], 0) // rounding of the corrections
	}
	return hi, lo
}

// RobustSlack returns the worst-case slack of the demand nw.A in the
// polytope Π_C over every C of the confidence set (spec §15.4):
//
//	slack_i = T_i − max_{C ∈ set} Σ_{j≠i} C_ji A_j.
//
// A ∈ Π_C for every C in the set if and only if every slack_i ≥ 0; with
// a set of level 1 − α (beacon.CHat.Set) the verdict "no node can suffer
// a locally uncontrollable overload" then holds with probability ≥ 1 − α
// over the measurement. The slack is at most PolytopeSlack on any C of
// the set (Ĉ included). It costs O(nnz + N).
//
// It returns an error wrapping loadlab.ErrInvalid for an invalid network
// or a set whose size is not N × N, and panics if nw or set is nil.
func RobustSlack(nw *anycast.Network, set *beacon.Box) ([]float64, error) {
	if err := checkSet("RobustSlack", nw, set); err != nil {
		return nil, err
	}
	hi, _ := columnBounds(set, nw.A)
	for i := range hi {
		hi[i] = nw.T[i] - hi[i]
	}
	return hi, nil
}

// InRobustPolytope reports whether nw.A ∈ Π_C for every C of the set
// (spec §15.4). Errors and panics are those of RobustSlack.
func InRobustPolytope(nw *anycast.Network, set *beacon.Box) (bool, error) {
	slack, err := RobustSlack(nw, set)
	return allNonNegative(slack), err
}

// RobustUncontrollable is Uncontrollable over a confidence set (spec
// §15.4): at the state x it returns the nodes i at which condition (27),
// Σ_{j≠i} C_ji A_j x_j > T_i + tol, holds for some C of the set
// (possible) and those at which it holds for every C of the set
// (certain ⊆ possible). With the true C in the set, every node that is
// uncontrollable on the true C is possible, and every certain node is
// uncontrollable on the true C. Both results are empty, not nil, when no
// node qualifies.
//
// It returns an error wrapping loadlab.ErrInvalid for an invalid network,
// a set whose size is not N × N, a wrong length of x, x outside [0, 1]^N
// (or NaN) and a tol that is negative, NaN or infinite. It panics if nw
// or set is nil.
func RobustUncontrollable(nw *anycast.Network, set *beacon.Box, x []float64, tol float64) (possible, certain []int, err error) {
	if err := checkSet("RobustUncontrollable", nw, set); err != nil {
		return nil, nil, err
	}
	if err := checkState(nw, x, tol); err != nil {
		return nil, nil, err
	}
	w := make([]float64, nw.N())
	for j := range w {
		w[j] = nw.A[j] * x[j]
	}
	hi, lo := columnBounds(set, w)
	possible, certain = []int{}, []int{}
	for i := range hi {
		if hi[i] > nw.T[i]+tol {
			possible = append(possible, i)
		}
		if lo[i] > nw.T[i]+tol {
			certain = append(certain, i)
		}
	}
	return possible, certain, nil
}

// checkState validates a state x and a tolerance tol as Uncontrollable
// does.
func checkState(nw *anycast.Network, x []float64, tol float64) error {
	if !(tol >= 0) || math.IsInf(tol, 1) {
		return loadlab.Invalid("stability", "tol = %v, want a finite value ≥ 0", tol)
	}
	if len(x) != nw.N() {
		return loadlab.Invalid("stability", "len(x) = %d, want N = %d", len(x), nw.N())
	}
	for i, v := range x {
		if !(v >= 0 && v <= 1) {
			return loadlab.Invalid("stability", "x[%d] = %v, want a value in [0, 1]", i, v)
		}
	}
	return nil
}
