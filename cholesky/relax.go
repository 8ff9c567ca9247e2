package cholesky

import "slices"

// Relaxed supernodes (spec sparse-cholesky.md §3.2). A supernode absorbs
// the small supernodes just before it that descend from it: the merged
// columns all share the top's rows, the absorbed columns gaining explicit
// zeros. The merged pattern is again the pattern of a factor (each
// column's rows below its diagonal lie in the next column's), so every
// algorithm of the package runs on it unchanged, and the factor's values
// at the added positions come out as exact zeros.

// DefaultRelax is the widest supernode built by merging when
// Settings.Relax is zero.
const DefaultRelax = 48

// RelaxOff as Settings.Relax keeps the fundamental supernodes: a merged
// supernode has at least two columns.
const RelaxOff = 1

// relaxTier is one rule of the merge: a merged supernode of at most
// width columns is accepted when at most the fraction zeros of its
// entries are explicit zeros.
type relaxTier struct {
	width int
	zeros float64
}

// relaxTiers are the merge rules (§3.2): tiny supernodes always, small
// ones while zeros do not dominate, wider ones with few zeros.
var relaxTiers = []relaxTier{{4, 1}, {16, 0.5}, {48, 0.05}}

// fundamental returns the first column of each fundamental supernode of
// the factor with elimination tree parent and column counts counts,
// followed by n.
func fundamental(parent, counts []int) []int {
	var start []int
	for j := range counts {
		if j == 0 || parent[j-1] != j || counts[j-1] != counts[j]+1 {
			start = append(start, j)
		}
	}
	return append(start, len(counts))
}

// relaxGroup is a merged supernode being built: its first column lo,
// its width, the rows below it (those of its top fundamental supernode)
// and the entries of its columns in the factor's own pattern.
type relaxGroup struct {
	lo, width, below, own int
}

// entries returns the stored entries of the group's columns, explicit
// zeros included: column c of w has w − c + below.
func (g relaxGroup) entries() int { return g.width*(g.width+1)/2 + g.width*g.below }

// accepts reports whether the group passes the rules with the widest
// merge maxWidth.
func (g relaxGroup) accepts(maxWidth int) bool {
	if g.width > maxWidth {
		return false
	}
	e := g.entries()
	z := float64(e-g.own) / float64(e)
	for _, t := range relaxTiers {
		if g.width <= t.width && z <= t.zeros {
			return true
		}
	}
	return false
}

// relax merges the fundamental supernodes (first columns fstart) of a
// postordered factor (elimination tree parent, column counts counts),
// children before parents: supernode P absorbs the merged supernodes of
// its children from the last one back, while each ends right before the
// columns P has gathered and the merged supernode passes the rules with
// the widest merge maxWidth. Each merged supernode is a run of columns
// ending at its top fundamental supernode, all of them descendants of
// its top column, and its rows are the run and the top's rows below it
// (§3.2). It returns the first column of each merged supernode, followed
// by n, and the merged pattern's column counts.
func relax(fstart, parent, counts []int, maxWidth int) (start, stored []int) {
	nf := len(fstart) - 1
	of := make([]int, len(counts))
	for F := range nf {
		for j := fstart[F]; j < fstart[F+1]; j++ {
			of[j] = F
		}
	}
	// Children lists, the last child (the largest) first.
	head, next := make([]int, nf), make([]int, nf)
	for F := range head {
		head[F] = -1
	}
	for F := range nf {
		if p := parent[fstart[F+1]-1]; p >= 0 {
			next[F], head[of[p]] = head[of[p]], F
		}
	}
	groups := make([]relaxGroup, nf)
	alive := make([]bool, nf)
	for F := range nf {
		f0, f1 := fstart[F], fstart[F+1]
		g := relaxGroup{lo: f0, width: f1 - f0, below: counts[f1-1] - 1}
		for j := f0; j < f1; j++ {
			g.own += counts[j]
		}
		for C := head[F]; C >= 0; C = next[C] {
			c := groups[C]
			m := relaxGroup{lo: c.lo, width: g.width + c.width, below: g.below, own: g.own + c.own}
			if c.lo+c.width != g.lo || !m.accepts(maxWidth) {
				break
			}
			g, alive[C] = m, false
		}
		groups[F], alive[F] = g, true
	}
	stored = make([]int, len(counts))
	for F := range nf {
		if !alive[F] {
			continue
		}
		g := groups[F]
		start = append(start, g.lo)
		for c := range g.width {
			stored[g.lo+c] = g.width - c + g.below
		}
	}
	return append(start, len(counts)), stored
}

// postorder renumbers the ordering o by a postorder of its elimination
// tree, each node's children taken in increasing column count (ties by
// number), so that every parent follows its child with the most rows:
// the ordering is equivalent (the same filled graph, relabelled, so the
// same counts and flops), and the fundamental supernodes and the merges
// of §3.2 find their parent right after them. It returns the new
// ordering with its tree and counts.
func postorder(o ordered, counts []int) (ordered, []int) {
	n := len(o.parent)
	head, next := make([]int, n), make([]int, n)
	for i := range head {
		head[i] = -1
	}
	// Children lists in increasing (count, number): the nodes are pushed
	// at their parents' heads in decreasing (count, number).
	for _, j := range slices.Backward(byCount(counts)) {
		if p := o.parent[j]; p >= 0 {
			next[j], head[p] = head[p], j
		}
	}
	var roots []int
	for j := n - 1; j >= 0; j-- {
		if o.parent[j] < 0 {
			roots = append(roots, j)
		}
	}
	post := make([]int, 0, n) // post[k] = old position of the k-th node
	stack := make([]int, 0, 64)
	for _, r := range slices.Backward(roots) {
		stack = append(stack[:0], r)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			if c := head[j]; c >= 0 {
				head[j] = next[c] // c is taken now: the smallest first
				stack = append(stack, c)
				continue
			}
			post = append(post, j)
			stack = stack[:len(stack)-1]
		}
	}
	return o.relabel(post, counts)
}

// byCount returns the nodes sorted by (count, number), by a counting
// sort: O(n + max count).
func byCount(counts []int) []int {
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	first := make([]int, top+2)
	for _, c := range counts {
		first[c+1]++
	}
	for c := range top + 1 {
		first[c+1] += first[c]
	}
	out := make([]int, len(counts))
	for j, c := range counts {
		out[first[c]] = j
		first[c]++
	}
	return out
}

// relabel returns the ordering o renumbered so that its k-th pivot is
// o's post[k]-th, with its tree and counts; post must be a topological
// order of o's tree (children before parents), so that the filled graph
// is the same and each node's parent, its nearest ancestor in the
// filled column, is relabelled with it.
func (o ordered) relabel(post, counts []int) (ordered, []int) {
	n := len(post)
	inv := make([]int, n)
	for k, j := range post {
		inv[j] = k
	}
	r := ordered{ordering: o.ordering, perm: make([]int, n), parent: make([]int, n)}
	c := make([]int, n)
	for k, j := range post {
		r.perm[k], c[k], r.parent[k] = o.perm[j], counts[j], -1
		if p := o.parent[j]; p >= 0 {
			r.parent[k] = inv[p]
		}
	}
	return r, c
}
