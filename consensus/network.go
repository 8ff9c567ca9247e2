package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// Network describes the imperfect network a throttler runs on (spec
// deployed §1): delayed, lost and asynchronous exchanges, per-server
// cycles and one-way links. Simulate uses it when Settings.Network is
// non-nil; the zero Network is the ideal network, and reproduces the
// nil case bit for bit. Per-link slices follow the order of
// wgraph.Graph.Edges (U < V, sorted by (U, V)); per-server slices the
// nodes. Simulate decides stability at the first cycle for a network
// without randomness exactly, and for independent loss and ticks under
// Joint by the mean update (an error wrapping ErrUnstable when the
// expected limits diverge); other networks are not decided and leave
// Trajectory.LambdaMax zero (spec deployed §1.5).
type Network struct {
	// Delay is the delay τ ≥ 0 of every link, in cycles: the transfer
	// of cycle k is computed from the measures of cycle k − τ.
	Delay int
	// LinkDelay, if non-nil, is the delay of each link (len m, entries
	// ≥ 0); Delay must then be 0.
	LinkDelay []int
	// DelayLaw, if non-nil, makes the delay of each exchange random and
	// independent: P(delay = d) = DelayLaw[d] (entries ≥ 0 summing to 1
	// within 1e-9). Delay must then be 0 and LinkDelay nil.
	DelayLaw []float64
	// Loss is the probability q ∈ [0, 1) that an exchange is lost.
	Loss float64
	// Burst, if non-zero, is the mean length of a burst of losses: each
	// link is a two-state (Gilbert–Elliott) channel that loses every
	// exchange in its bad state, with stationary loss probability Loss.
	// It must be ≥ max(1, q/(1−q)); 0 means independent losses (the
	// mean burst 1/(1−q)).
	Burst float64
	// Gammas, if non-nil, are the servers' own update cycles γ_i > 0
	// (len n), in place of Throttler.Gamma (which must still be valid):
	// a link's step is min(γ_u, γ_v) under Joint, γ_u at end u under
	// Separate.
	Gammas []float64
	// Tick, if non-nil, gives each server's probability π_i ∈ (0, 1] of
	// updating in a cycle, independently across servers and cycles.
	Tick []float64
	// Period and Phase, if non-nil, give each server a clock: server i
	// updates in the cycles k ≡ Phase[i] (mod Period[i]), Period[i] ≥ 1,
	// 0 ≤ Phase[i] < Period[i]. Phase nil means 0. Not with Tick.
	Period, Phase []int
	// Directed, if non-nil, orients each link (len m): a one-way link
	// carries measures from its tail to its head, and only the head
	// applies the transfer. The graph of the orientation must be
	// strongly connected.
	Directed []Direction
	// Protocol is who applies a transfer; the zero value is Joint.
	Protocol Protocol
	// Src is the source of the random parts (Loss > 0, DelayLaw, Tick):
	// Simulate draws one number from it, the key of a counter-based
	// stream, so the result does not depend on Settings.Workers. It may
	// be nil when nothing is random.
	Src rand.Source
}

// Direction is the orientation of a link {U, V}, U < V, of a Network.
type Direction int8

const (
	// Both is a two-way link (the default).
	Both Direction = iota
	// Forward carries measures from U to V only: V applies the transfer.
	Forward
	// Backward carries measures from V to U only: U applies the transfer.
	Backward
)

// Protocol says which ends of a link apply its transfer (spec deployed
// §1).
type Protocol int

const (
	// Joint (the default): the transfer of link {u, v} in cycle k is one
	// number, computed from the measures of both ends stamped k − τ, and
	// applied by both ends in cycle k or by neither (when the exchange is
	// lost, or either end does not tick). It conserves the total limit
	// under delay, loss, asynchrony and per-server cycles (the link's
	// step is min(γ_u, γ_v)).
	Joint Protocol = iota
	// Separate: each end applies its own estimate γ_i w (p_i − p_j), with
	// its own cycle, when it ticks and the other end's message reaches
	// it. It does not conserve the total limit under loss, asynchrony or
	// unequal cycles; it shows the drift that Joint avoids.
	Separate
)

// Validate checks the fields of nw that do not depend on the graph:
// delays ≥ 0, a delay law of non-negative finite entries summing to 1,
// Loss ∈ [0, 1), Burst 0 or ≥ max(1, Loss/(1−Loss)), γ_i finite and
// > 0, π_i ∈ (0, 1], periods ≥ 1 and phases in [0, period), known
// directions and protocol, and Src non-nil where something is random.
// Simulate checks the lengths against the graph, and the strong
// connectivity of Directed. The errors wrap loadlab.ErrInvalid and name
// the field. A nil *Network is valid (the ideal network).
func (nw *Network) Validate() error {
	if nw == nil {
		return nil
	}
	if err := nw.validateDelays(); err != nil {
		return err
	}
	if err := nw.validateLoss(); err != nil {
		return err
	}
	if err := nw.validateClocks(); err != nil {
		return err
	}
	for e, d := range nw.Directed {
		if d < Both || d > Backward {
			return invalidNet("Directed[%d] = %d, want Both, Forward or Backward", e, d)
		}
	}
	if nw.Protocol != Joint && nw.Protocol != Separate {
		return invalidNet("Protocol = %d, want Joint or Separate", nw.Protocol)
	}
	if nw.random() && nw.Src == nil {
		return invalidNet("Src is nil, want a rand.Source for the random loss, delays or ticks")
	}
	return nil
}

func invalidNet(format string, args ...any) error {
	return loadlab.Invalid("consensus", "Settings.Network."+format, args...)
}

// random reports whether nw draws random numbers.
func (nw *Network) random() bool {
	return nw.Loss > 0 || nw.DelayLaw != nil || nw.Tick != nil
}

// maxDelay bounds the delays of a Network, so that the ring of measures
// (τ_max + 1 vectors of n values) stays within reason.
const maxDelay = 1 << 12

func (nw *Network) validateDelays() error {
	if nw.Delay < 0 || nw.Delay > maxDelay {
		return invalidNet("Delay = %d, want in [0, %d]", nw.Delay, maxDelay)
	}
	if nw.LinkDelay != nil && nw.Delay != 0 {
		return invalidNet("Delay = %d with LinkDelay set, want 0", nw.Delay)
	}
	for e, d := range nw.LinkDelay {
		if d < 0 || d > maxDelay {
			return invalidNet("LinkDelay[%d] = %d, want in [0, %d]", e, d, maxDelay)
		}
	}
	if nw.DelayLaw == nil {
		return nil
	}
	if nw.Delay != 0 || nw.LinkDelay != nil {
		return invalidNet("DelayLaw with Delay = %d or LinkDelay set, want only one delay model", nw.Delay)
	}
	if len(nw.DelayLaw) == 0 || len(nw.DelayLaw) > maxDelay+1 {
		return invalidNet("DelayLaw has %d entries, want 1 to %d", len(nw.DelayLaw), maxDelay+1)
	}
	var s float64
	for d, p := range nw.DelayLaw {
		if !(p >= 0) || math.IsInf(p, 1) {
			return invalidNet("DelayLaw[%d] = %v, want finite and ≥ 0", d, p)
		}
		s += p
	}
	if math.Abs(s-1) > 1e-9 {
		return invalidNet("DelayLaw sums to %v, want 1", s)
	}
	return nil
}

func (nw *Network) validateLoss() error {
	q := nw.Loss
	if !(q >= 0 && q < 1) {
		return invalidNet("Loss = %v, want in [0, 1)", q)
	}
	b := nw.Burst
	if b == 0 {
		return nil
	}
	if !(b >= 1) || math.IsInf(b, 1) || b < q/(1-q) {
		return invalidNet("Burst = %v, want 0 or finite and ≥ max(1, Loss/(1−Loss)) = %v", b, max(1, q/(1-q)))
	}
	return nil
}

func (nw *Network) validateClocks() error {
	for i, g := range nw.Gammas {
		if !(g > 0) || math.IsInf(g, 1) {
			return invalidNet("Gammas[%d] = %v, want finite and > 0", i, g)
		}
	}
	for i, p := range nw.Tick {
		if !(p > 0 && p <= 1) {
			return invalidNet("Tick[%d] = %v, want in (0, 1]", i, p)
		}
	}
	if nw.Tick != nil && nw.Period != nil {
		return invalidNet("Tick and Period both set, want one clock model")
	}
	if nw.Phase != nil && nw.Period == nil {
		return invalidNet("Phase set without Period")
	}
	if nw.Phase != nil && len(nw.Phase) != len(nw.Period) {
		return invalidNet("Phase has length %d, want len(Period) = %d", len(nw.Phase), len(nw.Period))
	}
	for i, t := range nw.Period {
		if t < 1 {
			return invalidNet("Period[%d] = %d, want ≥ 1", i, t)
		}
		if nw.Phase != nil && (nw.Phase[i] < 0 || nw.Phase[i] >= t) {
			return invalidNet("Phase[%d] = %d, want in [0, Period[%d] = %d)", i, nw.Phase[i], i, t)
		}
	}
	return nil
}

// validateFor checks the lengths of nw against g (n nodes, m links) and
// that the orientation Directed is strongly connected.
func (nw *Network) validateFor(g *wgraph.Graph) error {
	n, m := g.Order(), g.Size()
	for _, c := range []struct {
		name    string
		set     bool
		l, want int
	}{
		{"LinkDelay", nw.LinkDelay != nil, len(nw.LinkDelay), m},
		{"Directed", nw.Directed != nil, len(nw.Directed), m},
		{"Gammas", nw.Gammas != nil, len(nw.Gammas), n},
		{"Tick", nw.Tick != nil, len(nw.Tick), n},
		{"Period", nw.Period != nil, len(nw.Period), n},
	} {
		if c.set && c.l != c.want {
			return invalidNet("%s has length %d, want %d", c.name, c.l, c.want)
		}
	}
	if err := size.Check("consensus", "Simulate: Settings.Network delay ring (τ_max + 1 measure vectors)", nw.ringSize(), 8*n); err != nil {
		return err
	}
	if err := size.Check("consensus", "Simulate: Settings.Network state per adjacency entry", 2*m, nw.entryBytes()); err != nil {
		return err
	}
	if nw.Directed != nil && !stronglyConnected(g, nw.Directed) {
		return loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "Settings.Network.Directed: the oriented graph is not strongly connected, so some server's measure never reaches some other (spec deployed §1)")
	}
	return nil
}

// entryBytes is the memory the network keeps per adjacency entry: the
// steps γ_e w_e, the delays, the directions and the loss channels, each
// only when asked for.
func (nw *Network) entryBytes() int {
	b := 0
	if nw.Gammas != nil {
		b += 8
	}
	if nw.LinkDelay != nil {
		b += 4
	}
	if nw.Directed != nil {
		b++
	}
	if nw.Loss > 0 {
		b += 4
	}
	return b
}

// ringSize is the number of past measure vectors kept: τ_max + 1.
func (nw *Network) ringSize() int {
	r := 1 + max(nw.Delay, len(nw.DelayLaw)-1)
	for _, d := range nw.LinkDelay {
		r = max(r, d+1)
	}
	return r
}

// stronglyConnected reports whether the orientation dir of g's links
// (in Edges order) is strongly connected: every node is reached from
// node 0 along the arcs and along the reversed arcs.
func stronglyConnected(g *wgraph.Graph, dir []Direction) bool {
	ed := entryDirections(g, dir)
	return reachesAll(g, ed, true) && reachesAll(g, ed, false)
}

// reachesAll runs a search from node 0 over the arcs u→v of the entries
// (forward) or their reverses.
func reachesAll(g *wgraph.Graph, ed []Direction, forward bool) bool {
	off, adj, _ := g.CSR()
	n := g.Order()
	seen := make([]bool, n)
	stack := []int32{0}
	seen[0] = true
	count := 1
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for e := off[u]; e < off[u+1]; e++ {
			v := adj[e]
			// ed[e] = Forward: the arc is u→v; Backward: v→u.
			if seen[v] || ed[e] == Backward && forward || ed[e] == Forward && !forward {
				continue
			}
			seen[v] = true
			count++
			stack = append(stack, v)
		}
	}
	return count == n
}

// entryDirections maps a per-link orientation (Edges order) to the
// adjacency entries: entry (u, v) gets Forward when the arc is u→v,
// Backward when it is v→u, Both for a two-way link.
func entryDirections(g *wgraph.Graph, dir []Direction) []Direction {
	ed := make([]Direction, len(mustCSRAdj(g)))
	forEdgeEntries(g, func(i, e, r int) {
		switch dir[i] {
		case Forward: // U → V, U < V: entry e is (U, V), entry r is (V, U)
			ed[e], ed[r] = Forward, Backward
		case Backward:
			ed[e], ed[r] = Backward, Forward
		}
	})
	return ed
}

func mustCSRAdj(g *wgraph.Graph) []int32 {
	_, adj, _ := g.CSR()
	return adj
}

// forEdgeEntries calls fn(i, e, r) for each link i of g in Edges order,
// with e the adjacency entry (U, V) and r the entry (V, U).
func forEdgeEntries(g *wgraph.Graph, fn func(i, e, r int)) {
	off, adj, _ := g.CSR()
	i := 0
	for u := range g.Order() {
		for e := off[u]; e < off[u+1]; e++ {
			v := int(adj[e])
			if v <= u {
				continue
			}
			r, _ := searchEntry(adj[off[v]:off[v+1]], int32(u))
			fn(i, e, off[v]+r)
			i++
		}
	}
}

// searchEntry finds x in the sorted list s.
func searchEntry(s []int32, x int32) (int, bool) {
	lo, hi := 0, len(s)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if s[h] < x {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(s) && s[lo] == x
}

// deterministic reports whether nw has no randomness and no clocks:
// every exchange happens in every cycle, after a delay that is the same
// on every link, on two-way links. Its stability is then decided as on
// the ideal network (spec deployed §1.5).
func (nw *Network) deterministic() bool {
	return !nw.random() && nw.Period == nil && nw.twoWayUniform()
}

// inMean reports whether nw is random but decided by its mean dynamics
// (spec deployed §1.5): Joint on two-way links with one delay, loss and
// ticks independent from cycle to cycle (no bursts, random delays or
// periodic clocks), and the linear measure m = Amount.
func (nw *Network) inMean(m Measure) bool {
	return nw.random() && nw.Protocol == Joint && m == Amount && nw.Burst == 0 &&
		nw.DelayLaw == nil && nw.Period == nil && nw.twoWayUniform()
}

// twoWayUniform reports whether every link is two-way with the same
// delay.
func (nw *Network) twoWayUniform() bool {
	for _, d := range nw.Directed {
		if d != Both {
			return false
		}
	}
	for _, d := range nw.LinkDelay {
		if d != nw.LinkDelay[0] {
			return false
		}
	}
	return true
}

// uniformDelay returns the delay of every link when it is the same.
func (nw *Network) uniformDelay() int {
	if len(nw.LinkDelay) > 0 {
		return nw.LinkDelay[0]
	}
	return nw.Delay
}

// The counter-based stream: each draw is a hash of (key, stream, link or
// node, cycle), so it does not depend on the order of evaluation or on
// the number of goroutines. mix is the SplitMix64 finaliser, a
// bijection of 64-bit words whose output passes the usual tests of
// randomness for consecutive inputs.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// cycleKey is the key of stream s in cycle k: one hash per cycle, so a
// draw costs one more hash per link or node.
func cycleKey(key, s uint64, k int) uint64 {
	return mix(key ^ mix(s<<56^uint64(k)))
}

// uniform returns the draw of item id (a link or a node) under the
// cycle key ck, a uniform number in [0, 1) with 53 random bits. ck is
// itself a hash, so ck ⊕ id are distinct words for distinct ids in a
// cycle, and mix spreads their differences over all bits.
func uniform(ck, id uint64) float64 {
	return float64(mix(ck^id)>>11) * 0x1p-53
}

// Streams of the counter-based draws.
const (
	streamLoss uint64 = iota + 1
	streamDelay
	streamTick
	streamLossStart
)
