package consensus

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// Exchanges is the record of the link exchanges of a run on a Network
// (spec deployed §1). Slices are indexed by cycle k.
type Exchanges struct {
	// Due[k] counts the exchanges due in cycle k: under Joint the links
	// whose ends both update in cycle k and whose delayed measures exist
	// (k ≥ τ); under Separate, and on one-way links, the messages whose
	// receiving end updates.
	Due []int
	// Lost[k] counts those of them that were lost.
	Lost []int
}

// exchanger is the update of Simulate on a Network (spec deployed §1):
// the adjacency and steps of flows, the ring of past measures and the
// per-entry state of the imperfections that are asked for.
type exchanger struct {
	f     *flows
	joint bool
	ed    []Direction // per entry (see entryDirections); nil: all two-way
	delay []int32     // per-entry delays; nil: the uniform delay tau
	cum   []float64   // cumulative delay law; nil: no random delays
	tau   int
	ring  [][]float64 // ring[k mod len(ring)] = p(k)
	q     float64     // loss probability
	// The loss channel of each entry (see chanBad), and the probability
	// p of leaving the good and the bad state per cycle, with log(1 − p).
	channel []uint32
	leave   [2]float64
	logq    [2]float64
	tick    []bool // ticks of the cycle; nil: every server ticks
	nw      *Network
	key     uint64
	// Per-cycle state: the cycle, its stream keys, the per-chunk counts.
	k                    int
	ckLoss, ckDel, ckTik uint64
	due, lost            [passChunks]int
}

// newExchanger prepares the update of th on nw (validated, lengths and
// memory checked) from the ideal update f, which it changes: the steps
// γ_e w_e per entry when nw.Gammas is set, the per-entry directions,
// delays and loss channels, and the ring of measures.
func newExchanger(th *Throttler, nw *Network, f *flows, workers int) *exchanger {
	g := th.Graph
	n := g.Order()
	x := &exchanger{f: f, joint: nw.Protocol == Joint, tau: nw.Delay, q: nw.Loss, nw: nw}
	if nw.Gammas != nil {
		x.linkSteps(g, nw)
	}
	if nw.Directed != nil {
		x.ed = entryDirections(g, nw.Directed)
	}
	x.entryDelays(g, nw)
	if nw.Src != nil {
		x.key = nw.Src.Uint64()
	}
	if nw.Loss > 0 {
		x.channels(nw, workers)
	}
	if nw.Tick != nil || nw.Period != nil {
		x.tick = make([]bool, n)
	}
	x.ring = make([][]float64, nw.ringSize())
	for i := range x.ring {
		x.ring[i] = make([]float64, n)
	}
	return x
}

// linkSteps replaces the steps γ w of f by per-entry ones: γ_e w_uv
// with γ_e = min(γ_u, γ_v) under Joint (one number per link, so the
// transfer stays antisymmetric), γ_u w_uv under Separate.
func (x *exchanger) linkSteps(g *wgraph.Graph, nw *Network) {
	off, adj, w := g.CSR()
	gw := make([]float64, len(adj))
	for u := range g.Order() {
		for e := off[u]; e < off[u+1]; e++ {
			ge := nw.Gammas[u]
			if x.joint {
				ge = min(ge, nw.Gammas[adj[e]])
			}
			gw[e] = ge * w[e]
		}
	}
	x.f.gw, x.f.mask = gw, -1
}

// entryDelays sets the delay model: the uniform delay, the per-entry
// delays of LinkDelay (unless all equal), or the cumulative delay law.
func (x *exchanger) entryDelays(g *wgraph.Graph, nw *Network) {
	switch {
	case nw.DelayLaw != nil:
		x.cum = make([]float64, len(nw.DelayLaw))
		var s float64
		for d, p := range nw.DelayLaw {
			s += p
			x.cum[d] = s
		}
		x.cum[len(x.cum)-1] = math.Inf(1) // every draw < 1 finds a delay
	case len(nw.LinkDelay) > 0 && slices.ContainsFunc(nw.LinkDelay, func(d int) bool { return d != nw.LinkDelay[0] }):
		x.delay = make([]int32, len(x.f.adj))
		forEdgeEntries(g, func(i, e, r int) {
			x.delay[e], x.delay[r] = int32(nw.LinkDelay[i]), int32(nw.LinkDelay[i])
		})
	case len(nw.LinkDelay) > 0:
		x.tau = nw.LinkDelay[0]
	}
}

// staged reports whether the cycle's update reads p_v from the blocked
// gather: on large graphs when every exchange uses the same delay.
func (x *exchanger) staged() bool {
	return x.f.blk != nil && x.delay == nil && x.cum == nil
}

// begin sets the per-cycle state of cycle k: the stream keys and the
// ticks of the servers (spec deployed §1.3).
func (x *exchanger) begin(k, workers int) {
	x.k = k
	x.ckLoss = cycleKey(x.key, streamLoss, k)
	x.ckDel = cycleKey(x.key, streamDelay, k)
	x.ckTik = cycleKey(x.key, streamTick, k)
	x.due, x.lost = [passChunks]int{}, [passChunks]int{}
	if x.tick == nil {
		return
	}
	n := len(x.tick)
	nw := x.nw
	par.For(passChunks, workers, func(c int) {
		a, b := par.Bounds(n, passChunks, c)
		for i := a; i < b; i++ {
			if nw.Tick != nil {
				x.tick[i] = uniform(x.ckTik, uint64(i)) < nw.Tick[i]
				continue
			}
			ph := 0
			if nw.Phase != nil {
				ph = nw.Phase[i]
			}
			x.tick[i] = (k-ph)%nw.Period[i] == 0 && k >= ph
		}
	})
}

// linkID is the identity of the draws of entry (u, v): the link {u, v}
// under Joint, so both ends draw the same numbers; the message v → u
// under Separate.
func (x *exchanger) linkID(u int, v int32) uint64 {
	a, b := uint64(v), uint64(u)
	if x.joint { // branch-free: the comparison of u and v is unpredictable
		a, b = min(a, b), max(a, b)
	}
	return a<<32 | b
}

// channels starts the loss channels (spec deployed §1.2): each is a
// two-state chain, bad (losing every exchange) with probability q in
// its stationary law at cycle 0, that leaves the good state with
// probability p_gb and the bad one with p_bg per cycle. Bursts of mean
// length B have p_bg = 1/B, p_gb = q/((1 − q)B); independent losses
// are the chain with p_gb = q, p_bg = 1 − q. The sojourns are
// geometric, so each channel is stored as one word, its state and the
// cycle of its next change (see chanBad), drawn only at the changes: a
// check of four bytes per exchange instead of a draw. Every entry
// starts with a redraw at cycle 0 (the residual sojourn of a stationary
// geometric chain is again geometric).
func (x *exchanger) channels(nw *Network, workers int) {
	q, pgb, pbg := nw.Loss, nw.Loss, 1-nw.Loss
	if nw.Burst != 0 {
		pbg = 1 / nw.Burst
		pgb = q / ((1 - q) * nw.Burst)
	}
	x.leave = [2]float64{pgb, pbg}
	x.logq = [2]float64{math.Log1p(-pgb), math.Log1p(-pbg)}
	x.channel = make([]uint32, len(x.f.adj))
	ck := cycleKey(x.key, streamLossStart, 0)
	n := len(x.f.off) - 1
	par.For(passChunks, workers, func(c int) {
		a, b := par.Bounds(n, passChunks, c)
		for u := a; u < b; u++ {
			for e := x.f.off[u]; e < x.f.off[u+1]; e++ {
				w := uint32(chanRedraw) // at cycle 0
				if uniform(ck, x.linkID(u, x.f.adj[e])) < q {
					w |= chanBad
				}
				x.channel[e] = w
			}
		}
	})
}

// The word of a loss channel: bit 31 the bad state, bit 30 "the next
// change only redraws the sojourn", bits 0–29 the cycle of the next
// change modulo 2^30. A sojourn is capped at maxSojourn < 2^30 cycles
// and continued by a redraw, exact since geometric sojourns are
// memoryless.
const (
	chanBad    = 1 << 31
	chanRedraw = 1 << 30
	chanCycle  = chanRedraw - 1
	maxSojourn = 1 << 29
)

// flip changes the state of the channel of entry e (link id) at the
// current cycle, or only redraws its sojourn, draws the length of the
// new sojourn, 1 + ⌊log(1 − U)/log(1 − p)⌋ for the probability p of
// leaving the state (spec deployed §1.2; 1 exactly when U < p), and
// returns the new word. Both ends of a link under Joint draw the same
// numbers, so their channels agree.
func (x *exchanger) flip(e int, id uint64) uint32 {
	bad := x.channel[e] & chanBad
	if x.channel[e]&chanRedraw == 0 {
		bad ^= chanBad
	}
	s := bad >> 31
	u := uniform(x.ckLoss, id)
	l := 1.0
	if u >= x.leave[s] { // else a sojourn of one cycle, without a logarithm
		l += math.Floor(math.Log(1-u) / x.logq[s])
	}
	w := bad
	if !(l < maxSojourn) { // also p → 0: log(1 − p) = 0 gives +Inf or NaN
		l = maxSojourn
		w |= chanRedraw
	}
	w |= (uint32(x.k) + uint32(l)) & chanCycle
	x.channel[e] = w
	return w
}

// lose moves the channel of entry e (link id) to the current cycle and
// reports whether its exchange is lost. It must be called for every
// entry in every cycle (the changes are found by equality).
func (x *exchanger) lose(e int, id uint64) bool {
	w := x.channel[e]
	if w&chanCycle == uint32(x.k)&chanCycle {
		w = x.flip(e, id)
	}
	return w&chanBad != 0
}

// delayOf returns the delay of entry e (link id) in the current cycle.
func (x *exchanger) delayOf(e int, id uint64) int {
	switch {
	case x.delay != nil:
		return int(x.delay[e])
	case x.cum != nil:
		u := uniform(x.ckDel, id)
		d := 0
		for u >= x.cum[d] {
			d++
		}
		return d
	}
	return x.tau
}

// waits reports whether entry (u, v) is not applied at u in the current
// cycle: u does not tick, the link is one-way towards v, or (Joint) v
// does not tick.
func (x *exchanger) waits(e, u int, v int32) bool {
	if x.ed != nil && x.ed[e] == Forward {
		return true
	}
	return x.tick != nil && (!x.tick[u] || x.joint && !x.tick[v])
}

// counts returns 1 if entry (u, v) is the one that counts its link's
// exchange, else 0: every applying entry, except that a two-way link
// under Joint counts once, at u < v. The comparison is branch-free: on
// a random graph it is unpredictable.
func (x *exchanger) counts(e, u int, v int32) int {
	if !x.joint || x.ed != nil && x.ed[e] != Both {
		return 1
	}
	return int(uint64(int64(u)-int64(v)) >> 63)
}

// chunkUniform applies the exchanges of nodes from, …, to−1 in the
// current cycle k when every exchange has the delay τ (spec deployed
// §1.1): for each entry (u, v) in adjacency order the loss channel
// advances; if the exchange is due and not lost, u adds
// γ_e w_uv (p_u(k−τ) − p_v(k−τ)) to x_u = hi_u + lo_u with an error-free
// addition, exactly as flows.applyDirect and flows.updateChunk do. With
// pass non-nil, p_v(k−τ) comes from the blocked gather's staged values
// (see flows.updateChunk) and pass tracks its cursors. The checks of
// loss and clocks are hoisted out of the loop when there are none. With
// next = r(k+1) (staged, linear measure, k ≥ τ) it also renormalises
// x_u(k+1) and writes p_u(k+1) = r_u(k+1) − x_u(k+1) into the ring, as
// flows.updateChunk does: the slot of p(k+1) may be that of p(k−τ), but
// p_u(k−τ) is read only by u's own update, before, and the others read
// the staged copy.
func (x *exchanger) chunkUniform(hi, lo, next []float64, from, to, c int, pass *[maxBlocks]int) {
	k := x.k
	x.due[c], x.lost[c] = 0, 0
	if k < x.tau { // no measure has arrived yet: only the channels move
		x.advance(from, to)
		return
	}
	f := x.f
	off, adj, gw, mask := f.off, f.adj, f.gw, f.mask
	ps := x.ring[(k-x.tau)%len(x.ring)]
	var val []float64
	var bid []uint8
	staged := pass != nil
	if staged {
		val, bid = f.blk.val, f.blk.bid
	}
	lossy := x.q > 0
	gated := x.ed != nil || x.tick != nil
	plain := x.plain()
	channel, kk := x.channel, uint32(k)&chanCycle
	joint, ed := x.joint, x.ed
	var pn []float64 // p(k+1), formed here when next = r(k+1) is given
	if next != nil {
		pn = x.ring[(k+1)%len(x.ring)]
	}
	var due, lost int
	for u := from; u < to; u++ {
		pu, h, l := ps[u], hi[u], lo[u]
		for e := off[u]; e < off[u+1]; e++ {
			v := adj[e]
			var pv float64
			if staged {
				b := bid[e]
				pv = val[pass[b]]
				pass[b]++
			} else {
				pv = ps[v]
			}
			if !plain {
				var gone bool
				if lossy {
					w := channel[e]
					if w&chanCycle == kk {
						w = x.flip(e, x.linkID(u, v))
					}
					gone = w&chanBad != 0
				}
				if gated && x.waits(e, u, v) {
					continue
				}
				c := 1 // as counts, inlined
				if joint && (ed == nil || ed[e] == Both) {
					c = int(uint64(int64(u)-int64(v)) >> 63)
				}
				due += c
				if gone {
					lost += c
					continue
				}
			}
			// As in flows.applyDirect: one rounded product per link,
			// so the two ends add exactly opposite numbers.
			fl := float64(gw[e&mask] * float64(pu-pv))
			s := h + fl
			bb := s - h
			l += (h - (s - bb)) + (fl - bb)
			h = s
		}
		if next != nil { // as renormAmount, see flows.updateChunk
			xu := h + l
			l -= xu - h
			h = xu
			pn[u] = next[u] - xu
		}
		hi[u], lo[u] = h, l
	}
	x.due[c], x.lost[c] = due, lost
}

// advance moves the burst channels of the entries of nodes from, …,
// to−1 to the current cycle, in a cycle without exchanges.
func (x *exchanger) advance(from, to int) {
	if x.q == 0 {
		return
	}
	for u := from; u < to; u++ {
		for e := x.f.off[u]; e < x.f.off[u+1]; e++ {
			x.lose(e, x.linkID(u, x.f.adj[e]))
		}
	}
}

// chunkGeneral is chunkUniform for per-link or random delays: each
// entry reads the measures of its own delay from the ring, directly.
func (x *exchanger) chunkGeneral(hi, lo []float64, from, to, c int) {
	f := x.f
	off, adj, gw, mask := f.off, f.adj, f.gw, f.mask
	k, R := x.k, len(x.ring)
	var due, lost int
	for u := from; u < to; u++ {
		h, l := hi[u], lo[u]
		for e := off[u]; e < off[u+1]; e++ {
			v := adj[e]
			id := x.linkID(u, v)
			gone := x.q > 0 && x.lose(e, id)
			if x.waits(e, u, v) {
				continue
			}
			d := x.delayOf(e, id)
			if d > k {
				continue
			}
			c := x.counts(e, u, v)
			due += c
			if gone {
				lost += c
				continue
			}
			ps := x.ring[(k-d)%R]
			fl := float64(gw[e&mask] * float64(ps[u]-ps[v])) // as in chunkUniform
			s := h + fl
			bb := s - h
			l += (h - (s - bb)) + (fl - bb)
			h = s
		}
		hi[u], lo[u] = h, l
	}
	x.due[c], x.lost[c] = due, lost
}

// update applies the exchanges of the current cycle to x = hi + lo, in
// passChunks fixed pieces claimed by up to workers goroutines, and
// returns the counts of the cycle. Each node writes only its own limit
// and channel states, and every draw is a function of (key, link,
// cycle), so the result does not depend on workers. When staged, the
// delayed measures must have been gathered (see stage).
func (x *exchanger) update(hi, lo, next []float64, workers int) (due, lost int) {
	n := len(hi)
	if n < parallelNodes {
		workers = 1
	}
	lossOnly := x.q > 0 && x.ed == nil && x.tick == nil && x.k >= x.tau
	switch {
	case x.staged() && lossOnly:
		par.For(passChunks, workers, func(c int) { x.chunkStagedLoss(hi, lo, next, c) })
	case x.staged():
		bk := x.f.blk
		par.For(passChunks, workers, func(c int) {
			var cur [maxBlocks]int
			copy(cur[:bk.nb], bk.cursor[c*bk.nb:])
			x.chunkUniform(hi, lo, next, bk.chunk[c], bk.chunk[c+1], c, &cur)
		})
	case x.delay == nil && x.cum == nil:
		par.For(passChunks, workers, func(c int) {
			a, b := par.Bounds(n, passChunks, c)
			x.chunkUniform(hi, lo, nil, a, b, c, nil)
		})
	default:
		par.For(passChunks, workers, func(c int) {
			a, b := par.Bounds(n, passChunks, c)
			x.chunkGeneral(hi, lo, a, b, c)
		})
	}
	for c := range passChunks {
		due += x.due[c]
		lost += x.lost[c]
	}
	if x.staged() && lossOnly && x.joint {
		lost /= 2 // chunkStagedLoss counts entries; a link's two may lie in different chunks
	}
	if (x.plain() || x.staged() && lossOnly) && x.k >= x.tau { // every link is due
		due = len(x.f.adj)
		if x.joint {
			due /= 2
		}
	}
	return due, lost
}

// chunkStagedLoss is chunkUniform on a staged graph with loss as the
// only imperfection besides the delay (k ≥ τ): every exchange is due,
// so it reads neither the adjacency nor the clocks, and counts the lost
// entries (each lost link twice under Joint, once at each end, as both
// ends' channels agree). Its arithmetic is that of chunkUniform.
func (x *exchanger) chunkStagedLoss(hi, lo, next []float64, c int) {
	f, bk := x.f, x.f.blk
	var cur [maxBlocks]int
	copy(cur[:bk.nb], bk.cursor[c*bk.nb:])
	off, gw, mask, val, bid := f.off, f.gw, f.mask, bk.val, bk.bid
	k, R := x.k, len(x.ring)
	ps := x.ring[(k-x.tau)%R]
	var pn []float64
	if next != nil {
		pn = x.ring[(k+1)%R]
	}
	channel, kk := x.channel, uint32(k)&chanCycle
	lost := 0
	for u := bk.chunk[c]; u < bk.chunk[c+1]; u++ {
		pu, h, l := ps[u], hi[u], lo[u]
		for e := off[u]; e < off[u+1]; e++ {
			b := bid[e]
			pv := val[cur[b]]
			cur[b]++
			w := channel[e]
			if w&chanCycle == kk {
				w = x.flip(e, x.linkID(u, f.adj[e]))
			}
			if w&chanBad != 0 {
				lost++
				continue
			}
			fl := float64(gw[e&mask] * float64(pu-pv)) // as in chunkUniform
			s := h + fl
			bb := s - h
			l += (h - (s - bb)) + (fl - bb)
			h = s
		}
		if next != nil { // as in chunkUniform
			xu := h + l
			l -= xu - h
			h = xu
			pn[u] = next[u] - xu
		}
		hi[u], lo[u] = h, l
	}
	x.due[c], x.lost[c] = 0, lost // halved by update under Joint
}

// fuses reports whether the update of the current cycle also does the
// per-node part of the next cycle's step (see chunkUniform): on a staged
// graph, for the linear measure, once the delayed measures exist.
func (x *exchanger) fuses(th *Throttler) bool {
	return x.staged() && th.Measure == Amount && x.k >= x.tau
}

// plain reports whether every exchange is due and none is lost once the
// delayed measures exist: no loss, no clocks, two-way links, one delay.
// The update then does not count exchanges one by one.
func (x *exchanger) plain() bool {
	return x.q == 0 && x.ed == nil && x.tick == nil && x.delay == nil && x.cum == nil
}

// stage is Trajectory.step of cycle k followed, when staged, by pass 1
// of the blocked gather of the delayed measures p(k − τ). For the linear
// measure on a staged graph it runs as stepGather does: the limits
// renormalised and p(k) formed on node ranges in parallel (unless fused:
// the previous update did it), then the totals on one goroutine while
// the others gather; the arithmetic is that of step, so the trajectory
// is the same bit for bit.
func (x *exchanger) stage(tr *Trajectory, th *Throttler, r, hi, lo []float64, workers int, fused bool) error {
	k := x.k
	p := x.ring[k%len(x.ring)]
	if !x.staged() {
		return tr.step(th, r, p, hi, lo)
	}
	ready := k >= x.tau
	ps := x.ring[(k-x.tau+len(x.ring))%len(x.ring)]
	gather := func(c int) { x.f.gather(ps, c) }
	if th.Measure != Amount {
		if err := tr.step(th, r, p, hi, lo); err != nil || !ready {
			return err
		}
		par.For(passChunks, workers, gather)
		return nil
	}
	if !ready {
		gather = nil
	}
	return tr.stepGather(gather, r, p, hi, lo, workers, fused)
}

// runNetwork is the loop of Simulate on a Network (spec deployed §1):
// at each cycle k it draws r(k), computes p(k) into the ring and records
// the totals exactly as run does, then applies the exchanges of cycle k.
// Stability is decided at the first step for deterministic networks
// (see networkStability).
func runNetwork(th *Throttler, nw *Network, f *flows, d Demand, pf *prefetcher, x0 []float64, steps int, states bool, workers int) (*Trajectory, error) {
	x := newExchanger(th, nw, f, workers)
	n := len(x0)
	tr := newTrajectory(steps)
	tr.Exchanges = &Exchanges{Due: make([]int, 0, steps), Lost: make([]int, 0, steps)}
	hi := append([]float64(nil), x0...)
	lo := make([]float64, n)
	r := make([]float64, n)
	fetch := func(k int) ([]float64, error) {
		if pf != nil {
			return pf.next()
		}
		return r, d.Next(k, r)
	}
	var unstable, err error
	var ahead []float64 // r(k), drawn by cycle k − 1 for its fused update
	for k := 0; k < steps; k++ {
		fused := ahead != nil
		if fused {
			r, ahead = ahead, nil
		} else if r, err = fetch(k); err != nil {
			err = fmt.Errorf("consensus: step %d: %w", k, err)
			break
		}
		if k == 0 {
			tr.LambdaMax, unstable = networkStability(th, nw, scaling(th.Measure, r, x0))
			if errors.Is(unstable, loadlab.ErrInvalid) { // steps the check cannot take
				return nil, unstable
			}
		}
		x.begin(k, workers)
		if err = x.stage(tr, th, r, hi, lo, workers, fused); err != nil {
			err = fmt.Errorf("consensus: step %d: %w", k, err)
			break
		}
		if states {
			tr.keep(th, r, hi, x.ring[k%len(x.ring)])
		}
		if pf != nil {
			pf.release() // r(k) is no longer needed
		}
		// As in run: the staged update of the linear measure forms
		// p(k+1) as it goes, so r(k+1) is drawn first.
		if x.fuses(th) && k+1 < steps {
			ahead, err = fetch(k + 1)
			if err != nil {
				ahead = nil
			}
		}
		due, lost := x.update(hi, lo, ahead, workers)
		tr.Exchanges.Due = append(tr.Exchanges.Due, due)
		tr.Exchanges.Lost = append(tr.Exchanges.Lost, lost)
		tr.Steps++
		if err != nil {
			err = fmt.Errorf("consensus: step %d: %w", k+1, err)
			break
		}
	}
	tr.Final = make([]float64, n)
	for i := range hi {
		tr.Final[i] = hi[i] + lo[i]
	}
	if err == nil {
		err = unstable
	}
	return tr, err
}

// networkStability decides the stability of a Network at its first
// cycle (spec deployed §1.5), like stability for the ideal network,
// against the limit delayLimit(τ) of the uniform delay:
//
//   - a deterministic network (Network.deterministic) exactly, for the
//     operator L_Γ of the link steps γ_e w_e (Joint) or Γ L (Separate);
//   - a random one decided in the mean (Network.inMean) by the mean
//     update, the Laplacian of the expected steps (1 − q) π_u π_v γ_e w_e:
//     when it fails, the expected limits diverge (an error wrapping
//     ErrUnstable); when it holds, only the mean is certified.
//
// Other networks are not decided here: it returns a zero bracket and nil.
func networkStability(th *Throttler, nw *Network, q []float64) (spectral.Bracket, error) {
	g := th.Graph
	det := nw.deterministic()
	if !det && !nw.inMean(th.Measure) {
		return spectral.Bracket{}, nil
	}
	tau := nw.uniformDelay()
	c := delayLimit(tau)
	gamma := th.Gamma * (1 - nw.Loss) // the expected step of every link
	if nw.Gammas != nil || nw.Tick != nil {
		gamma = 1
		if nw.Protocol == Joint {
			var err error
			if g, err = scaleLinks(g, nw, th.Gamma); err != nil {
				if !det { // an expected step outside the range of weights: not decided
					return spectral.Bracket{}, nil
				}
				return spectral.Bracket{}, err
			}
		} else {
			q = scaleNodes(q, nw.Gammas)
		}
	}
	b, err := stability(g, gamma*2/c, q)
	if err == nil || det && tau == 0 && nw.Gammas == nil {
		return b, err
	}
	sentinel := loadlab.ErrIllConditioned
	if errors.Is(err, ErrUnstable) {
		sentinel = ErrUnstable
	}
	if !det {
		return b, loadlab.Wrap(sentinel, "consensus", "Settings.Network: the mean update, with link steps (1 − Loss) π_u π_v γ_e w_e and delay τ = %d, has μ_n ∈ %v, stable iff μ_n < 2 sin(π/(2(2τ+1))) = %.6g: the expected limits diverge (spec deployed §1.5)", tau, b, c)
	}
	return b, loadlab.Wrap(sentinel, "consensus", "Settings.Network: with cycles γ = %v (scaled by Gammas when set) and delay τ = %d the update operator has μ_n ∈ %v, stable iff γμ_n < 2 sin(π/(2(2τ+1))) = %.6g (spec deployed §1.5)", gamma, tau, b, c)
}

// scaleLinks returns g with the expected link steps of nw as weights,
// (1 − q) π_u π_v γ_e w_uv with γ_e = min(γ_u, γ_v) (gamma without
// Gammas, π = 1 without Tick), or an error naming the link whose step is
// outside the weights of a wgraph.Graph.
func scaleLinks(g *wgraph.Graph, nw *Network, gamma float64) (*wgraph.Graph, error) {
	es := g.Edges()
	for i, e := range es {
		ge := gamma
		if nw.Gammas != nil {
			ge = min(nw.Gammas[e.U], nw.Gammas[e.V])
		}
		w := e.W * ge * (1 - nw.Loss)
		if nw.Tick != nil {
			w *= nw.Tick[e.U] * nw.Tick[e.V]
		}
		if !(w >= wgraph.MinWeight && w <= wgraph.MaxWeight) {
			return nil, loadlab.Invalid("consensus", "Settings.Network: the expected link step (1 − Loss) π_u π_v γ_e w_uv = %v of link {%d, %d} is outside [2^-500, 2^500], where stability can be decided", w, e.U, e.V)
		}
		es[i].W = w
	}
	return wgraph.FromEdges(g.Order(), es)
}

// scaleNodes returns q·γ entrywise (q nil means 1).
func scaleNodes(q, gammas []float64) []float64 {
	s := slices.Clone(gammas)
	for i := range q {
		s[i] *= q[i]
	}
	return s
}
