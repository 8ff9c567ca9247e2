package consensus

import (
	"github.com/loadlab/loadlab/internal/par"
)

// lazyEntry is a candidate's screened score and the step it was
// computed at.
type lazyEntry struct {
	s    float64
	i    int32
	step int32
}

// lazyHeap is a max-heap of screened scores (ties: the smaller index
// first), used by the sketch path to re-score only from the top
// (spec §13.13, lazy screening).
type lazyHeap []lazyEntry

func (h lazyHeap) less(a, b int) bool {
	if h[a].s != h[b].s {
		return h[a].s > h[b].s
	}
	return h[a].i < h[b].i
}

func (h lazyHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

func (h lazyHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h *lazyHeap) push(e lazyEntry) {
	*h = append(*h, e)
	h.up(len(*h) - 1)
}

func (h *lazyHeap) pop() lazyEntry {
	t := *h
	top := t[0]
	last := len(t) - 1
	t[0] = t[last]
	*h = t[:last]
	if last > 0 {
		h.down(0)
	}
	return top
}

// initLazy scores every candidate with the starting sketches (in
// parallel, each score independent of the split) and heapifies them.
func (r *linkRun) initLazy() {
	h := make(lazyHeap, len(r.cands))
	par.Range(len(r.cands), 4096, 256, 0, func(lo, hi int) {
		zb := make([]float64, r.m)
		for i := lo; i < hi; i++ {
			h[i] = lazyEntry{s: r.score(i, zb), i: int32(i), step: 0}
		}
	})
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	r.heap = h
}

// lazyTop returns the p best-screened unused candidates at the current
// step, best first: it pops the heap, re-scoring an entry scored at an
// earlier step and pushing it back, until p entries scored at this step
// come off the top. Each then scores at least every stale score left, so
// it is the exact top-p when no score has risen since it was computed;
// scores can rise (the objective is not supermodular), so this is a
// heuristic choice, which the certificate bounds. The p entries are
// pushed back by restoreLazy.
func (r *linkRun) lazyTop(p int) []int {
	step := int32(len(r.out.Steps))
	zb := make([]float64, r.m)
	r.fresh = r.fresh[:0]
	for len(r.fresh) < p && len(r.heap) > 0 {
		e := r.heap.pop()
		if e.step == step {
			r.fresh = append(r.fresh, e)
			continue
		}
		e.s, e.step = r.score(int(e.i), zb), step
		r.rescored++
		r.heap.push(e)
	}
	out := make([]int, len(r.fresh))
	for j, e := range r.fresh {
		out[j] = int(e.i)
	}
	return out
}

// restoreLazy pushes back the entries lazyTop took, but the chosen one
// and those marked used (the refused ones, LinkRho2).
func (r *linkRun) restoreLazy(chosen int) {
	for _, e := range r.fresh {
		if int(e.i) != chosen && !r.used[e.i] {
			r.heap.push(e)
		}
	}
	r.fresh = r.fresh[:0]
}
