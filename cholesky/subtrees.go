package cholesky

import (
	"slices"

	"github.com/loadlab/loadlab/internal/par"
)

// Supernodes of disjoint subtrees of the supernodal elimination tree
// depend on no supernode outside their subtree, in the factorisation as
// in the selected inversion, so the subtrees can run side by side; their
// common ancestors (the top) run alone, after them when factoring and
// before them when inverting. Each supernode's arithmetic is the same
// whichever goroutine computes it, so the results do not depend on the
// number of workers.

// Partition constants: stop splitting once the heaviest subtree carries
// at most 1/subtreeShare of the flops, or the top would carry more than
// 1/topShare; skip the parallel loop below parallelMinFlops, where it
// costs more than it saves.
const (
	subtreeShare     = 16
	topShare         = 5
	parallelMinFlops = 2e6
)

// subtrees is the partition of the nodes into independent subtrees
// (each listed in ascending order) and the top (ascending).
type subtrees struct {
	pieces [][]int
	top    []int
}

// splitTree partitions the tree given by parent (children before
// parents), each node weighted by its flops weight[j].
func splitTree(parent []int, weight []float64) subtrees {
	n := len(parent)
	w := make([]float64, n) // subtree weights; children precede parents
	head, next := make([]int, n), make([]int, n)
	for i := range head {
		head[i] = -1
	}
	var roots []int
	for j := n - 1; j >= 0; j-- {
		if p := parent[j]; p >= 0 {
			next[j], head[p] = head[p], j
		} else {
			roots = append(roots, j)
		}
	}
	total := 0.0
	for j := range n {
		w[j] += weight[j]
		total += weight[j]
		if p := parent[j]; p >= 0 {
			w[p] += w[j]
		}
	}
	var s subtrees
	if total < parallelMinFlops {
		return s
	}
	open, topW := slices.Clone(roots), 0.0
	for {
		i := heaviest(open, w)
		r := open[i]
		if w[r] <= total/subtreeShare || head[r] < 0 || topW+weight[r] > total/topShare {
			break
		}
		open = slices.Delete(open, i, i+1)
		s.top = append(s.top, r)
		topW += weight[r]
		for c := head[r]; c >= 0; c = next[c] {
			open = append(open, c)
		}
	}
	slices.Sort(open)
	s.pieces = make([][]int, len(open))
	for i, r := range open {
		s.pieces[i] = subtreeOf(r, head, next)
	}
	slices.Sort(s.top)
	return s
}

// heaviest returns the index in roots of the heaviest subtree (the
// first among ties).
func heaviest(roots []int, w []float64) int {
	best := 0
	for i, r := range roots {
		if w[r] > w[roots[best]] {
			best = i
		}
	}
	return best
}

// subtreeOf returns the nodes of the subtree rooted at r, ascending.
func subtreeOf(r int, head, next []int) []int {
	cols := []int{r}
	for i := 0; i < len(cols); i++ {
		for c := head[cols[i]]; c >= 0; c = next[c] {
			cols = append(cols, c)
		}
	}
	slices.Sort(cols)
	return cols
}

// run calls col for every node, each subtree's nodes in ascending order
// (descending when reverse is set) with its own workspace, and the top's
// nodes before the subtrees when reverse is set, after them otherwise.
// newWork makes a workspace; at most one per goroutine is live.
func (s subtrees) run(n int, reverse bool, newWork func() any, col func(j int, work any)) {
	if len(s.pieces) == 0 {
		w := newWork()
		for k := range n {
			j := k
			if reverse {
				j = n - 1 - k
			}
			col(j, w)
		}
		return
	}
	works := make(chan any, par.Workers(0))
	get := func() any {
		select {
		case w := <-works:
			return w
		default:
			return newWork()
		}
	}
	put := func(w any) {
		select {
		case works <- w:
		default:
		}
	}
	each := func(cols []int) {
		w := get()
		for k := range cols {
			j := cols[k]
			if reverse {
				j = cols[len(cols)-1-k]
			}
			col(j, w)
		}
		put(w)
	}
	if reverse {
		each(s.top)
	}
	par.For(len(s.pieces), 0, func(i int) { each(s.pieces[i]) })
	if !reverse {
		each(s.top)
	}
}
