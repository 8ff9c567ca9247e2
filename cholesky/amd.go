package cholesky

import (
	"math"
	"slices"
)

// Approximate minimum degree ordering (Amestoy, Davis and Duff 1996),
// spec sparse-cholesky.md §6.

// A node whose degree exceeds max(amdDenseMin, amdDenseFactor·√n) is dense:
// it is taken out of the graph before the ordering starts and ordered
// last, so that its long adjacency list is never scanned by the degree
// updates. Eliminating such a node last costs at most one dense row of L
// per dense node, while keeping it in would make every degree update
// touching it O(n).
const (
	amdDenseFactor = 10
	amdDenseMin    = 16
)

// Node states of the quotient graph.
const (
	amdVar   int8 = iota // a variable (principal when nv > 0)
	amdElem              // an element not yet absorbed
	amdDead              // an absorbed element, a merged or a mass-eliminated variable
	amdDense             // a dense node, ordered last
)

// amd holds the quotient graph. Every live node owns a list
// iw[pe[i] : pe[i]+ln[i]]: a variable's list holds its elen[i] elements
// first, then its variable neighbours; an element's list holds its
// variables. Lists of variables only shrink; a new element's list is
// appended at pfree, and the array is compacted when full.
type amd struct {
	n     int
	iw    []int
	pfree int
	pe    []int
	ln    []int
	elen  []int
	// nv is the size of a principal supervariable, negated while the
	// variable is in the pivot's element, 0 for a non-principal variable.
	nv     []int
	status []int8
	// deg is the approximate external degree of a variable and the
	// weighted size Σ nv of an element's list.
	deg []int
	// w[e] − wflg is |Le \ Lp| for an element touched in the current step.
	w    []int
	wflg int
	// Degree lists: head[d] is the first variable of degree d.
	head, next, prev []int
	mindeg           int
	// Hash buckets of the supervariable detection: hhead[h] heads the
	// bucket of hash h. A variable of Lp is out of the degree lists while
	// the step runs, so its next chains its bucket and its prev holds its
	// hash meanwhile.
	hhead []int
	mark  []int
	stamp int
	// Member lists: a principal variable heads the chain of the
	// variables it represents.
	mnext, mtail []int
	nel          int // variables eliminated or set aside
	// Nodes hstart..n−1 form a halo: they count in the degrees but are
	// never eliminated; left counts the other variables not yet ordered.
	hstart, left int
	nvpiv        int // size of the current pivot, mass-eliminated variables included
	lp           []int
	perm         []int
	// flops is Σ c_j² over the columns of L eliminated so far, counted
	// from each pivot's element (dense nodes not included, so a lower
	// bound); the ordering stops once it exceeds maxFlops (0: no limit).
	flops, maxFlops float64
	// nextScan is the pivot degree from which tally next bounds the
	// flops of all the live elements; cmark marks the variables taken.
	nextScan int
	cmark    []bool
}

// orderAMD returns an approximate minimum degree ordering of the symmetric
// graph whose node i has neighbours adj[ptr[i]:ptr[i+1]] (sorted, no
// self-loops, symmetric): perm[k] is the node eliminated k-th. Dense nodes
// (degree above max(amdDenseMin, amdDenseFactor·√n)) come last, in
// ascending index order. The ordering is deterministic.
func orderAMD(n int, ptr, adj []int) []int { return orderHaloAMD(n, 0, ptr, adj) }

// orderAMDLimited is orderAMD that gives up, returning nil, as soon as
// the factor's flops counted so far exceed maxFlops: on an expander the
// ordering itself costs about as much as the fill it predicts, and a
// factor that is refused anyway need not be ordered to the end.
func orderAMDLimited(n int, ptr, adj []int, maxFlops float64) []int {
	return orderAMD1(n, 0, ptr, adj, maxFlops)
}

// orderHaloAMD is orderAMD on a graph whose last nh nodes form a halo:
// nodes eliminated after all the others (the separators around a part
// of a nested dissection). They count in the degrees of their neighbours
// but are not ordered: the result holds the n − nh other nodes.
func orderHaloAMD(n, nh int, ptr, adj []int) []int { return orderAMD1(n, nh, ptr, adj, 0) }

// orderAMD1 is orderHaloAMD with the flops limit of orderAMDLimited.
func orderAMD1(n, nh int, ptr, adj []int, maxFlops float64) []int {
	if n == 0 {
		return []int{}
	}
	a := newAMD(n, ptr, adj)
	a.maxFlops = maxFlops
	a.hstart = n - nh
	for i := range a.hstart {
		if a.status[i] != amdDense {
			a.left++
		}
	}
	for i := a.hstart; i < n; i++ {
		if a.status[i] != amdDense {
			a.remove(i)
		}
	}
	for a.left > 0 {
		p := a.pivot()
		a.eliminate(p)
		if a.tally(p) {
			return nil
		}
	}
	for i := range a.hstart {
		if a.status[i] == amdDense {
			a.perm = append(a.perm, i)
		}
	}
	return a.perm
}

func newAMD(n int, ptr, adj []int) *amd {
	nnz := ptr[n]
	a := &amd{
		n: n, iw: make([]int, nnz+nnz/5+2*n),
		pe: make([]int, n), ln: make([]int, n), elen: make([]int, n),
		nv: make([]int, n), status: make([]int8, n), deg: make([]int, n),
		w: make([]int, n), wflg: 1,
		head: make([]int, n+1), next: make([]int, n), prev: make([]int, n),
		hhead: make([]int, n),
		mark:  make([]int, n), mnext: make([]int, n), mtail: make([]int, n),
		perm: make([]int, 0, n),
	}
	dense := max(amdDenseMin, int(amdDenseFactor*math.Sqrt(float64(n))))
	for i := range n {
		a.mnext[i], a.mtail[i], a.hhead[i], a.nv[i] = -1, i, -1, 1
		if ptr[i+1]-ptr[i] > dense {
			a.status[i] = amdDense
			a.nel++
		}
	}
	for d := range a.head {
		a.head[d] = -1
	}
	for i := range n {
		a.pe[i] = a.pfree
		if a.status[i] == amdDense {
			continue
		}
		for _, j := range adj[ptr[i]:ptr[i+1]] {
			if a.status[j] != amdDense {
				a.iw[a.pfree] = j
				a.pfree++
			}
		}
		a.ln[i] = a.pfree - a.pe[i]
		a.deg[i] = a.ln[i]
		a.insert(i)
	}
	return a
}

// insert puts variable i into the list of its degree.
func (a *amd) insert(i int) {
	d := a.deg[i]
	h := a.head[d]
	a.next[i], a.prev[i] = h, -1
	if h >= 0 {
		a.prev[h] = i
	}
	a.head[d] = i
	a.mindeg = min(a.mindeg, d)
}

// remove takes variable i out of its degree list.
func (a *amd) remove(i int) {
	nx, pv := a.next[i], a.prev[i]
	if nx >= 0 {
		a.prev[nx] = pv
	}
	if pv >= 0 {
		a.next[pv] = nx
	} else {
		a.head[a.deg[i]] = nx
	}
}

// pivot removes and returns a variable of least approximate degree.
func (a *amd) pivot() int {
	for a.head[a.mindeg] < 0 {
		a.mindeg++
	}
	p := a.head[a.mindeg]
	a.remove(p)
	return p
}

// eliminate turns the pivot p into an element and updates the quotient
// graph: the new element Lp, the degrees of its variables, element
// absorption, mass elimination and supervariable detection.
func (a *amd) eliminate(p int) {
	a.nvpiv = a.nv[p]
	a.nel += a.nvpiv
	a.left -= a.nvpiv
	a.nv[p] = -a.nvpiv
	degp := a.buildElement(p)
	a.scanElements()
	degp = a.updateVariables(p, degp)
	a.findSupervariables()
	a.finish(p, degp)
}

// buildElement gathers Lp = (A_p ∪ ⋃_{e ∈ E_p} Le) \ {p} into a.lp,
// flags its variables by negating nv, takes them out of the degree lists
// and absorbs the elements of E_p. It returns the weighted size of Lp.
func (a *amd) buildElement(p int) int {
	a.lp = a.lp[:0]
	degp := 0
	s, ne, end := a.pe[p], a.pe[p]+a.elen[p], a.pe[p]+a.ln[p]
	for k := s; k < end; k++ {
		x := a.iw[k]
		if k >= ne {
			degp += a.take(x)
			continue
		}
		if a.status[x] != amdElem {
			continue
		}
		for _, j := range a.iw[a.pe[x] : a.pe[x]+a.ln[x]] {
			degp += a.take(j)
		}
		a.status[x] = amdDead
	}
	a.status[p] = amdElem
	a.ln[p], a.elen[p] = 0, 0
	return degp
}

// take adds variable j to Lp if it is principal and not yet there, and
// returns its weight (0 otherwise).
func (a *amd) take(j int) int {
	if a.status[j] != amdVar || a.nv[j] <= 0 {
		return 0
	}
	nvj := a.nv[j]
	a.nv[j] = -nvj
	if j < a.hstart { // a halo node is in no degree list
		a.remove(j)
	}
	a.lp = append(a.lp, j)
	return nvj
}

// scanElements sets w[e] − wflg = |Le \ Lp| (weighted) for every element
// e adjacent to a variable of Lp.
func (a *amd) scanElements() {
	for _, i := range a.lp {
		nvi := -a.nv[i]
		s := a.pe[i]
		for _, e := range a.iw[s : s+a.elen[i]] {
			if a.status[e] != amdElem {
				continue
			}
			if a.w[e] >= a.wflg {
				a.w[e] -= nvi
			} else {
				a.w[e] = a.deg[e] + a.wflg - nvi
			}
		}
	}
}

// updateVariables prunes the list of every variable i of Lp (absorbed
// elements and variables of Lp out, p in front), bounds its external
// degree by Σ|Le \ Lp| + |A_i \ Lp|, absorbs the elements e with
// Le ⊆ Lp (aggressive absorption), eliminates with p the variables left
// with no other neighbour (mass elimination), and hashes the others for
// supervariable detection. It returns the weighted size of Lp after mass
// elimination.
func (a *amd) updateVariables(p, degp int) int {
	for _, i := range a.lp {
		s := a.pe[i]
		na, d, h := a.pruneElements(i)
		dst := s + na
		for _, j := range a.iw[s+a.elen[i] : s+a.ln[i]] {
			if a.status[j] != amdVar || a.nv[j] <= 0 {
				continue
			}
			d += a.nv[j]
			h += j
			a.iw[dst] = j
			dst++
		}
		nb := dst - s - na
		if na == 0 && nb == 0 {
			nvi := -a.nv[i]
			a.nv[i], a.status[i] = 0, amdDead
			degp -= nvi
			a.nvpiv += nvi
			a.nel += nvi
			if i < a.hstart {
				a.left -= nvi
			}
			a.join(p, i)
			continue
		}
		a.deg[i] = min(a.deg[i], d)
		// Put p in front, keeping elements before variables.
		if nb > 0 {
			a.iw[s+na+nb] = a.iw[s+na]
		}
		if na > 0 {
			a.iw[s+na] = a.iw[s]
		}
		a.iw[s] = p
		a.elen[i], a.ln[i] = na+1, na+nb+1
		key := (h + p) % a.n
		a.prev[i] = key
		a.next[i] = a.hhead[key]
		a.hhead[key] = i
	}
	return degp
}

// pruneElements compacts the element part of i's list to the elements
// still outside Lp, absorbing those inside. It returns their count, the
// sum of their |Le \ Lp| and the sum of their indices.
func (a *amd) pruneElements(i int) (na, d, h int) {
	s := a.pe[i]
	for _, e := range a.iw[s : s+a.elen[i]] {
		if a.status[e] != amdElem {
			continue
		}
		we := a.w[e] - a.wflg
		if we <= 0 {
			a.status[e] = amdDead
			continue
		}
		d += we
		h += e
		a.iw[s+na] = e
		na++
	}
	return na, d, h
}

// join appends the members of variable j to those of variable i.
func (a *amd) join(i, j int) {
	a.mnext[a.mtail[i]] = j
	a.mtail[i] = a.mtail[j]
}

// findSupervariables merges the variables of Lp whose lists are equal
// (they are indistinguishable: same elements, same variable neighbours
// outside Lp). Candidates share a hash bucket.
func (a *amd) findSupervariables() {
	for _, i := range a.lp {
		if a.nv[i] == 0 {
			continue
		}
		key := a.prev[i]
		b := a.hhead[key]
		if b < 0 {
			continue
		}
		a.hhead[key] = -1
		for ; b >= 0; b = a.next[b] {
			a.mergeBucket(b)
		}
	}
}

// mergeBucket merges into i every later variable of its bucket chain with
// the same list.
func (a *amd) mergeBucket(i int) {
	if a.next[i] < 0 {
		return
	}
	a.stamp++
	s, l := a.pe[i], a.ln[i]
	for _, x := range a.iw[s : s+l] {
		a.mark[x] = a.stamp
	}
	last := i
	for j := a.next[i]; j >= 0; j = a.next[j] {
		if a.ln[j] != l || a.elen[j] != a.elen[i] || (i < a.hstart) != (j < a.hstart) || !a.sameList(j) {
			last = j
			continue
		}
		a.nv[i] += a.nv[j] // both negated
		a.nv[j], a.status[j] = 0, amdDead
		a.join(i, j)
		a.next[last] = a.next[j]
	}
}

// sameList reports whether every entry of j's list carries the current
// stamp.
func (a *amd) sameList(j int) bool {
	s := a.pe[j]
	for _, x := range a.iw[s : s+a.ln[j]] {
		if a.mark[x] != a.stamp {
			return false
		}
	}
	return true
}

// finish sets the final degrees of the variables of Lp, returns them to
// the degree lists, stores Lp as p's list and orders the members of p.
func (a *amd) finish(p, degp int) {
	nleft := a.n - a.nel
	k := 0
	for _, i := range a.lp {
		if a.nv[i] >= 0 {
			continue
		}
		nvi := -a.nv[i]
		a.nv[i] = nvi
		a.deg[i] = max(0, min(a.deg[i]+degp-nvi, nleft-nvi))
		if i < a.hstart {
			a.insert(i)
		}
		a.lp[k] = i
		k++
	}
	a.lp = a.lp[:k]
	if a.pfree+k > len(a.iw) {
		a.compact(k)
	}
	copy(a.iw[a.pfree:], a.lp)
	a.pe[p], a.ln[p] = a.pfree, k
	a.pfree += k
	a.deg[p], a.nv[p] = degp, 0
	if k == 0 {
		a.status[p] = amdDead
	}
	for x := p; x >= 0; x = a.mnext[x] {
		if x < a.hstart {
			a.perm = append(a.perm, x)
		}
	}
	if a.wflg > math.MaxInt-2*(a.n+1) {
		clear(a.w)
		a.wflg = 0
	}
	a.wflg += a.n + 1
}

// compact moves the live lists to a new array with room for need more
// entries and half as many again as are live, so that compactions cost
// O(1) amortised per entry appended.
func (a *amd) compact(need int) {
	live := 0
	for i := range a.n {
		if a.alive(i) {
			live += a.ln[i]
		}
	}
	iw := make([]int, live+live/2+need+a.n)
	pos := 0
	for i := range a.n {
		if !a.alive(i) {
			continue
		}
		copy(iw[pos:], a.iw[a.pe[i]:a.pe[i]+a.ln[i]])
		a.pe[i] = pos
		pos += a.ln[i]
	}
	a.iw, a.pfree = iw, pos
}

// alive reports whether node i owns a list.
func (a *amd) alive(i int) bool {
	return a.status[i] == amdElem || (a.status[i] == amdVar && a.nv[i] != 0)
}

// tally adds the columns of the pivot p just eliminated to the flops
// count and reports whether the factor's flops must exceed the limit.
// The s = nvpiv variables of p are eliminated consecutively with the
// element's d other rows below them: their columns hold d + s,
// d + s − 1, …, d + 1 entries (spec sparse-cholesky.md §6), so
// Σ c² = s d² + d s(s+1) + s(s+1)(2s+1)/6. To the count it adds a lower
// bound on the flops of the columns still to come (§6.1): that of the
// new element, a clique of d variables, at every step, and that of all
// the live elements each time the pivots' degree has grown enough since
// the last such scan. On an expander this refuses long before the
// count alone would, and the refusal is the same: the count run to the
// end would exceed the limit too.
func (a *amd) tally(p int) bool {
	s, d := float64(a.nvpiv), float64(a.deg[p])
	a.flops += s*d*d + d*s*(s+1) + s*(s+1)*(2*s+1)/6
	if a.maxFlops <= 0 {
		return false
	}
	if a.flops+cliqueFlops(d) > a.maxFlops {
		return true
	}
	if a.deg[p] < a.nextScan {
		return false
	}
	f := a.flops + a.elementFlops()
	// The bound grows about as the square of the degree on an expander:
	// the next scan waits until the cube could reach the limit, for a
	// quarter more at least and at most twice the degree.
	grow := min(2, max(1.25, math.Cbrt(a.maxFlops/f)))
	a.nextScan = int(min(grow*d, float64(a.n))) + 1
	return f > a.maxFlops
}

// cliqueFlops returns Σ_{r=1}^{k} r² = k(k+1)(2k+1)/6: the least flops of
// the columns of a clique of k variables of the elimination graph,
// whatever the order, since the r-th last of them to go has at least the
// r − 1 others after it in its column.
func cliqueFlops(k float64) float64 { return k * (k + 1) * (2*k + 1) / 6 }

// elementFlops returns a lower bound on the flops of the columns not yet
// eliminated: the live elements are cliques of the elimination graph;
// taken largest first, each gives the variables no earlier one took,
// which still form a clique, and the cliques so found are disjoint, so
// their cliqueFlops add up (§6.1).
func (a *amd) elementFlops() float64 {
	var elems []int
	for e := range a.hstart {
		if a.status[e] == amdElem {
			elems = append(elems, e)
		}
	}
	slices.SortFunc(elems, func(x, y int) int {
		if a.deg[x] != a.deg[y] {
			return a.deg[y] - a.deg[x]
		}
		return x - y
	})
	if a.cmark == nil {
		a.cmark = make([]bool, a.n)
	} else {
		clear(a.cmark)
	}
	f := 0.0
	for _, e := range elems {
		k := 0
		for _, i := range a.iw[a.pe[e] : a.pe[e]+a.ln[e]] {
			if i < a.hstart && a.status[i] == amdVar && a.nv[i] > 0 && !a.cmark[i] {
				a.cmark[i] = true
				k += a.nv[i]
			}
		}
		f += cliqueFlops(float64(k))
	}
	return f
}
