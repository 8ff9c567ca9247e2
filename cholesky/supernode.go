package cholesky

// Supernodes (spec sparse-cholesky.md §3.1, §3.2). A fundamental supernode is a
// maximal run of columns j0 … j1−1 with parent(j) = j + 1 and
// c_j = c_{j+1} + 1 inside the run, so that every column j of the run has
// the pattern {j, …, j1−1} ∪ S, S the run's rows below j1−1. Its columns
// share one row list R = (j0, …, j1−1, S) of length ld, and are stored as
// one dense panel: a row-major w × ld block (w = j1 − j0) whose row c
// holds column j0 + c at the positions of its rows in R. The entries
// before a row's diagonal (position r < c) are unused and stay zero.
// Column j's entries li[lp[j]:lp[j+1]] are then lx[xp[j]:xp[j]+c_j].
//
// A relaxed supernode (§3.2) has the same layout: its columns are a
// tail of its last column's subtree, and R is the run and that column's
// rows below it, some of them explicit zeros in the earlier columns.
//
// On the separators of a nested dissection the supernodes are wide (a
// separator of the 1000 × 1000 torus is one supernode of about 2000
// columns), and the factorisation and the selected inversion work on
// them with dense level-3 kernels instead of entry by entry.
type supernodes struct {
	start  []int // supernode J holds the columns start[J] … start[J+1]−1
	of     []int // the supernode of each column
	base   []int // offset of each supernode's panel in the values
	xp     []int // offset of each column's diagonal entry in the values
	parent []int // the supernodal elimination tree (−1 at roots)
	size   int   // length of the values: Σ w·ld
	maxS   int   // the largest |S|
	maxWS  int   // the largest w·|S|
	maxW   int   // the largest width
}

// newSupernodes lays out the supernodes whose first columns are start
// (followed by n), of the factor with elimination tree parent and column
// pointers lp: fundamental supernodes, or relaxed ones (§3.2).
func newSupernodes(start, parent, lp []int) *supernodes {
	n := len(parent)
	sn := &supernodes{start: start, of: make([]int, n), xp: make([]int, n)}
	for J := range len(start) - 1 {
		for j := start[J]; j < start[J+1]; j++ {
			sn.of[j] = J
		}
	}
	ns := len(sn.start) - 1
	sn.base = make([]int, ns+1)
	sn.parent = make([]int, ns)
	for J := range ns {
		j0, j1 := sn.start[J], sn.start[J+1]
		w, ld := j1-j0, lp[j0+1]-lp[j0]
		sn.base[J+1] = sn.base[J] + w*ld
		for c := range w {
			sn.xp[j0+c] = sn.base[J] + c*ld + c
		}
		sn.maxS, sn.maxWS, sn.maxW = max(sn.maxS, ld-w), max(sn.maxWS, w*(ld-w)), max(sn.maxW, w)
		sn.parent[J] = -1
		if p := parent[j1-1]; p >= 0 {
			sn.parent[J] = sn.of[p]
		}
	}
	sn.size = sn.base[ns]
	return sn
}

// count returns the number of supernodes.
func (sn *supernodes) count() int { return len(sn.start) - 1 }

// weights returns each supernode's share of the factorisation's flops,
// Σ c_j² over its columns, for the split into independent subtrees.
func (sn *supernodes) weights(lp []int) []float64 {
	w := make([]float64, sn.count())
	for J := range w {
		for j := sn.start[J]; j < sn.start[J+1]; j++ {
			c := float64(lp[j+1] - lp[j])
			w[J] += c * c
		}
	}
	return w
}
