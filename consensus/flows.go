package consensus

import (
	"slices"

	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/linalg"
)

// flows reads the graph's compressed rows (linalg.Graph.CSR) in place,
// with the products γ w_uv formed once, so the two directions of a link
// use the identical rounded number and the inner loop does no
// multiplication beyond the flow itself. Entry e reads gw[e & mask]:
// on a weighted graph gw holds one product per entry and mask is all
// ones; when every weight is the same (unit weights, the common case)
// gw holds the single product γ w and mask is 0, so the update reads 8
// bytes per entry less — the same number at every entry, hence the same
// result bit for bit.
type flows struct {
	off  []int
	adj  []int32
	gw   []float64
	mask int
	blk  *blocks // the blocked gather of large graphs, nil below gatherNodes
}

// newFlows prepares the update of g at step size γ. On graphs of at
// least gatherNodes nodes it builds the blocked gather (see blocks),
// 13 bytes per adjacency entry, checked against the memory budget.
func newFlows(g *linalg.Graph, gamma float64) (*flows, error) {
	off, adj, w := g.CSR()
	f := &flows{off: off, adj: adj}
	if len(w) > 0 && !slices.ContainsFunc(w, func(x float64) bool { return x != w[0] }) {
		f.gw = []float64{gamma * w[0]}
	} else {
		f.gw = make([]float64, len(w))
		f.mask = -1
		for i, x := range w {
			f.gw[i] = gamma * x
		}
	}
	if g.Order() >= gatherNodes {
		if err := size.Check("consensus", "Simulate: adjacency entries", len(adj), blockBytes); err != nil {
			return nil, err
		}
		f.blk = newBlocks(off, adj, blockShift(g.Order(), defaultBlockShift))
	}
	return f, nil
}

// apply adds γ (L p)_u = Σ_v γ w_uv (p_u − p_v) to every x_u = hi_u + lo_u
// with error-free additions (spec §3.1 (3)): the only rounding left is
// that of the small remainders lo, a relative ε² of the limits.
// Each node's update reads p and writes only its own (hi, lo), adding
// its flows in the order of its adjacency list whichever path runs, so
// the node range is split into a fixed set of passChunks pieces, claimed
// by up to workers goroutines (internal/par), with identical results.
func (f *flows) apply(hi, lo, p []float64, workers int) {
	n := len(hi)
	if n < parallelNodes {
		workers = 1
	}
	if f.blk != nil {
		f.applyBlocked(hi, lo, p, workers)
		return
	}
	par.For(passChunks, workers, func(c int) {
		from, to := par.Bounds(n, passChunks, c)
		f.applyDirect(hi, lo, p, from, to)
	})
}

// parallelNodes is the graph size from which a step is split over
// goroutines: below it the synchronisation costs more than it saves.
const parallelNodes = 4096

// applyDirect updates nodes from, …, to−1 reading p_v through the
// adjacency.
func (f *flows) applyDirect(hi, lo, p []float64, from, to int) {
	off, gw, mask := f.off, f.gw, f.mask
	for u := from; u < to; u++ {
		pu, h, l := p[u], hi[u], lo[u]
		a, b := off[u], off[u+1]
		for i, v := range f.adj[a:b] {
			// The explicit conversions forbid fusing the product into
			// the following addition, which would break f_uv = −f_vu.
			fl := float64(gw[(a+i)&mask] * float64(pu-p[v]))
			// Knuth's TwoSum: h + fl = s + err exactly, branch-free.
			s := h + fl
			bb := s - h
			l += (h - (s - bb)) + (fl - bb)
			h = s
		}
		hi[u], lo[u] = h, l
	}
}

// The blocked gather of large graphs. On a graph whose p no longer fits
// in a core's cache, reading p_v through the adjacency list is a cache
// (and TLB) miss per entry on an expander such as a random regular
// graph. The update is therefore done in two passes per step:
//
//  1. gather: val[i] = p[vlist[i]], where vlist lists the neighbours v
//     of every adjacency entry (u, v) sorted by (block of v, u, entry):
//     the reads of p stay inside one block of 2^shift nodes (1 MiB of p
//     by default) at a time, and val is written in order;
//  2. update: each node u, in order, takes its entries in the order of
//     its adjacency list; the value of entry (u, v) is the next unread
//     one of v's block in val, found with one cursor per block, so val
//     is read as nb interleaved sequential streams.
//
// The arithmetic and its order are those of applyDirect, so the results
// are bitwise identical (TestBlockedUpdate). Each pass is split into a
// fixed set of passChunks pieces, whatever the number of workers: equal
// entry ranges in pass 1, node ranges of about equal entry counts in
// pass 2, each starting from cursors stored at setup.
type blocks struct {
	shift  uint      // block of node v: v >> shift
	nb     int       // number of blocks, ≤ maxBlocks
	vlist  []int32   // neighbours, sorted by (block, u, entry)
	val    []float64 // val[i] = p[vlist[i]], pass 1
	bid    []uint8   // bid[e] = block of adj[e], in adjacency order
	chunk  []int     // node boundaries of the pass-2 ranges, passChunks+1
	cursor []int     // cursor[c·nb + b]: position in val of the first entry of block b with u ≥ chunk[c]
}

// Sizes of the blocked gather: graphs of at least gatherNodes nodes use
// it, with blocks of 2^defaultBlockShift nodes (more if the graph needs
// more than maxBlocks blocks); pass 2 is split into passChunks ranges of
// about equal numbers of entries. blockBytes is its memory per entry
// (vlist, val, bid). The block size was chosen by measurement on the
// 10⁶-node random 6-regular graph (docs/benchmarks.md): smaller blocks
// make pass 1 cheaper but pass 2 dearer (2^15 nodes, 31 streams: pass 2
// took four times as long), larger ones the reverse.
const (
	gatherNodes       = 1 << 16
	defaultBlockShift = 17
	maxBlocks         = 256
	passChunks        = 64
	blockBytes        = 4 + 8 + 1
)

// blockShift returns the smallest shift ≥ s that splits n nodes into at
// most maxBlocks blocks.
func blockShift(n int, s uint) uint {
	for n > 0 && (n-1)>>s >= maxBlocks {
		s++
	}
	return s
}

// newBlocks builds the blocked gather of the compressed rows (off, adj)
// with blocks of 2^shift nodes: a counting sort of the entries by the
// block of their neighbour, stable in (u, entry).
func newBlocks(off []int, adj []int32, shift uint) *blocks {
	n, m := len(off)-1, len(adj)
	nb := max(1, int(uint(max(n-1, 0))>>shift)+1)
	bk := &blocks{
		shift: shift, nb: nb,
		vlist:  make([]int32, m),
		val:    make([]float64, m),
		bid:    make([]uint8, m),
		chunk:  make([]int, passChunks+1),
		cursor: make([]int, passChunks*nb),
	}
	pos := make([]int, nb+1)
	for e, v := range adj {
		b := int(uint(v) >> shift)
		bk.bid[e] = uint8(b)
		pos[b+1]++
	}
	for b := range nb {
		pos[b+1] += pos[b]
	}
	u := 0
	for c := range passChunks {
		for u < n && off[u] < c*m/passChunks {
			u++
		}
		bk.chunk[c] = u
	}
	bk.chunk[passChunks] = n
	c := 0
	for u := range n + 1 {
		for c < passChunks && bk.chunk[c] == u {
			copy(bk.cursor[c*nb:(c+1)*nb], pos[:nb])
			c++
		}
		if u == n {
			break
		}
		for e := off[u]; e < off[u+1]; e++ {
			b := bk.bid[e]
			bk.vlist[pos[b]] = adj[e]
			pos[b]++
		}
	}
	return bk
}

// applyBlocked is apply on large graphs: the two passes of blocks, each
// over a fixed set of passChunks pieces (entry ranges in pass 1, the
// node ranges of chunk in pass 2) claimed by up to workers goroutines.
func (f *flows) applyBlocked(hi, lo, p []float64, workers int) {
	par.For(passChunks, workers, func(c int) { f.gather(p, c) })
	f.update(hi, lo, p, nil, workers)
}

// gather runs pass 1 of the blocked gather on entry range c of
// passChunks: val[i] = p[vlist[i]].
func (f *flows) gather(p []float64, c int) {
	bk := f.blk
	a, b := par.Bounds(len(bk.vlist), passChunks, c)
	val := bk.val[a:b]
	for i, v := range bk.vlist[a:b:b] {
		val[i] = p[v]
	}
}

// update runs pass 2 of the blocked gather, after pass 1 has staged p.
// With next = r(k+1) non-nil it also does the per-node part of the next
// step for the linear measure (renormAmount): each node's new limit is
// renormalised and p_u = r_u(k+1) − x_u(k+1) written as soon as its
// flows are added, while (hi_u, lo_u) are still in registers, which
// saves a pass over the nodes. p_u is read only by node u's own update
// in pass 2 (the others read the staged copy), so overwriting it is safe.
func (f *flows) update(hi, lo, p, next []float64, workers int) {
	par.For(passChunks, workers, func(c int) { f.updateChunk(hi, lo, p, next, c) })
}

// updateChunk runs pass 2 of the blocked gather on the node range of
// chunk c (see update for next).
func (f *flows) updateChunk(hi, lo, p, next []float64, c int) {
	bk := f.blk
	var cur [maxBlocks]int
	copy(cur[:bk.nb], bk.cursor[c*bk.nb:])
	val, bid, gw, mask := bk.val, bk.bid, f.gw, f.mask
	for u := bk.chunk[c]; u < bk.chunk[c+1]; u++ {
		pu, h, l := p[u], hi[u], lo[u]
		for e := f.off[u]; e < f.off[u+1]; e++ {
			b := bid[e]
			pv := val[cur[b]]
			cur[b]++
			fl := float64(gw[e&mask] * float64(pu-pv)) // as in applyDirect
			s := h + fl
			bb := s - h
			l += (h - (s - bb)) + (fl - bb)
			h = s
		}
		if next != nil { // as renormAmount
			x := h + l
			l -= x - h
			h = x
			p[u] = next[u] - x
		}
		hi[u], lo[u] = h, l
	}
}
