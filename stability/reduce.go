// Settled nodes: the load products with the columns of nodes at x = 1
// summed once.

package stability

import "slices"

// The greedy dynamics (24) (spec §5.1) settle on faces of the cube: a node that stays
// under-loaded has z_i growing without bound, and once z_i > 37 its state
// σ(z_i) rounds to exactly 1 and stays there while it is under-loaded. On
// a dense network the loads are then S = b + B_F x_F (anycast.Reduced),
// which reads only the columns of the other nodes: on the N = 1000
// benchmark 386 of 1000 nodes settle by t = 1000 and the products cost
// about a fifth less over the run. The reduced product is the same sum
// rounded differently, so results agree with the full product to
// rounding, not to the bit; every evaluation checks that the nodes summed
// once are still at exactly 1 and uses the full product if one is not.

// reduceFraction sets when the reduced operator is rebuilt after an
// accepted step: when N/reduceFraction nodes have settled at x = 1 since
// the last build, or a node of the last build has left 1. A build gathers
// the free columns of the last one (≈ 0.25 ms at N = 1000, against
// ≈ 60 µs per product), so smaller steps
// rebuild too often for what they save (N/24 and N/32 were no faster).
const reduceFraction = 16

// gather copies the states in workspace buf of the nodes [lo, hi) that
// are free columns of the reduced operator into xf[buf] and records, for
// each piece of the split in the range, whether its settled nodes are at
// exactly x = 1 (held). lo is a multiple of the split's piece size. It
// goes through each piece's lists of free and settled nodes (pieceRows),
// whose free columns have consecutive ranks, without a branch per node
// on which kind it is.
func (sys *system) gather(buf, lo, hi int) {
	x, xf := sys.xs[buf], sys.xf[buf]
	for p := lo / sys.grain; p*sys.grain < hi; p++ {
		if free := sys.freeRows[p]; len(free) > 0 {
			dst := xf[sys.red.Rank(free[0]):][:len(free)]
			for k, i := range free {
				dst[k] = x[i]
			}
		}
		held := true
		for _, i := range sys.settledRows[p] {
			held = held && x[i] == 1
		}
		sys.held[buf][p] = held
	}
}

// gatherAll is gather for the serial right-hand side at the full state
// x, into xfull: it copies x_i of the free nodes to their rank and
// reports whether every settled node is at exactly 1.
func (sys *system) gatherAll(x []float64) bool {
	ok := true
	for i, v := range x {
		if k := sys.red.Rank(i); k >= 0 {
			sys.xfull[k] = v
		} else if v != 1 {
			ok = false
		}
	}
	return ok
}

// countOnes returns the number of nodes at exactly x_i = 1, of those
// not summed once by the current reduced operator, and of the nodes it
// sums once that have left 1: counted without a branch per node, since
// which nodes are at 1 follows no pattern a branch predictor learns.
func (sys *system) countOnes(x []float64) (ones, newly, left int) {
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	if sys.red == nil {
		for _, v := range x {
			ones += b2i(v == 1)
		}
		return ones, ones, 0
	}
	for i, v := range x {
		one, in := b2i(v == 1), b2i(sys.red.Rank(i) < 0)
		ones += one
		newly += one &^ in
		left += in &^ one
	}
	return ones, newly, left
}

// reduce decides after an accepted step at the full state x whether to
// rebuild the reduced operator (see reduceFraction), and rebuilds it:
// narrowing the current one when its nodes are all still at 1, from B
// otherwise; with fewer than N/reduceFraction nodes at 1 it drops it.
func (sys *system) reduce(x []float64) {
	if sys.noReduce {
		return
	}
	n := len(x)
	ones, newly, left := sys.countOnes(x)
	step := max(1, n/reduceFraction)
	if left == 0 && newly < step {
		return
	}
	if ones < step {
		sys.red = nil
		return
	}
	mask := make([]bool, n)
	for i, v := range x {
		mask[i] = v == 1
	}
	r := &sys.scr.reds[0] // the one not in use: Narrow reads the other
	if r == sys.red {
		r = &sys.scr.reds[1]
	}
	if !(sys.red != nil && r.Narrow(sys.red, mask)) && !r.Reduce(sys.op, mask) {
		sys.noReduce = true // sparse B
		return
	}
	sys.red = r
	sys.reductions++
	// The states of the free columns, then zeros up to Cols() (the
	// padding of the operator's rows).
	m := r.Cols()
	sys.xfull = slices.Grow(sys.xfull[:0], m)[:m]
	clear(sys.xfull[r.Free():])
	if sys.grain > 0 {
		np := (n + sys.grain - 1) / sys.grain
		for b := range sys.xf {
			sys.xf[b] = slices.Grow(sys.xf[b][:0], m)[:m]
			clear(sys.xf[b][r.Free():])
			sys.held[b] = slices.Grow(sys.held[b][:0], np)[:np]
		}
		sys.pieceRows() // lag.go
	}
}
