package codedload

import (
	"cmp"
	mbits "math/bits"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/loadlab/loadlab/internal/mc"
)

// Result holds the metrics of one run (spec §3.5).
type Result struct {
	// Ell is the number of pieces per file; loads are multiples of 1/Ell.
	Ell int
	// Requests is the number of requests, Served the number not in outage.
	Requests, Served int
	// Outage is the fraction of requests whose file has fewer than Ell
	// copies (one copy uncoded) in the network, or with Coded.Field
	// copies that do not decode it; they add no load and no cost.
	Outage float64
	// MaxLoad is L = max_s L_s, in files (spec §3.5 Definition 3).
	MaxLoad float64
	// Cost is C, the hop distance travelled per request in files·hops,
	// averaged over all Requests (spec §3.5 Definition 2; requests in
	// outage count as 0, as in the reference simulator).
	Cost float64
	// ChunkHops is the total of hop distances over all chunks sent:
	// Cost = ChunkHops / (Ell·Requests).
	ChunkHops int64
	// Hist[c] is the number of servers that sent exactly c chunks, i.e.
	// whose load is c/Ell.
	Hist []int
	// Fallbacks counts TwoChoice requests with no holder within Radius,
	// served by the nearest replica instead.
	Fallbacks int
	// Loads[s] is the number of chunks server s sent (load Loads[s]/Ell);
	// set only with Config.KeepLoads.
	Loads []int32
	// ExtraChunks is, with Coded.Field set, the number of chunks sent
	// beyond ℓ (copies that did not raise the rank, or were needed after
	// one that did not), summed over the served requests.
	ExtraChunks int64
	// Undecodable is, with Coded.Field set, the number of requests (in
	// outage) for a file with at least ℓ copies whose coefficient
	// vectors do not span GF(Field)^ℓ.
	Undecodable int
}

// Run simulates one time block (spec §7.1: place, draw requests, serve) and
// returns its metrics. The result is a pure function of cfg and the stream
// of src: placement, requests and tie-breaking use separate streams derived
// from one draw of src, so two strategies run with the same seed see the
// same requests (and the same placement when they use the same number of
// slots). It returns the error of cfg.Validate if cfg is invalid, and panics
// if src is nil.
func Run(cfg Config, src rand.Source) (*Result, error) {
	if src == nil {
		panic(pkg + ": Run: nil rand.Source")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p, err := ZipfPMF(cfg.Files, cfg.Gamma)
	if err != nil {
		return nil, err
	}
	zipf, err := NewAlias(p)
	if err != nil {
		return nil, err
	}
	seed := src.Uint64()
	placeRnd := rand.New(mc.Source(seed, 1))
	reqSrc := mc.Source(seed, 2)
	tieRnd := rand.New(mc.Source(seed, 3))

	s := newSim(&cfg, place(&cfg, zipf, placeRnd), tieRnd)
	if s.sp.field != 0 {
		s.startDecoding(mc.Source(seed, 4).Uint64())
	}
	nreq := s.n
	if cfg.Requests == Poissonized {
		nreq = int(distuv.Poisson{Lambda: float64(s.n), Src: reqSrc}.Rand())
	}
	res := s.serveAll(nreq, zipf, rand.New(reqSrc))
	if cfg.KeepLoads {
		res.Loads = s.load
	}
	return res, nil
}

// serveAll draws and serves nreq requests (spec §3.3) and returns the
// metrics of spec §3.5.
func (s *sim) serveAll(nreq int, zipf *Alias, reqRnd *rand.Rand) *Result {
	res := &Result{Ell: int(s.ell), Requests: nreq}
	for range nreq {
		u := int32(reqRnd.IntN(s.n))
		k := int32(zipf.Draw(reqRnd))
		if s.pl.total[k] < s.need {
			continue // outage (spec §3.5)
		}
		if s.dec != nil && !s.dec.spans[k] {
			res.Undecodable++
			continue // outage: the copies do not decode the file (spec §11.6)
		}
		res.Served++
		res.ChunkHops += s.serve(u, k)
	}
	res.Fallbacks = s.fallbacks
	if s.dec != nil {
		res.ExtraChunks = s.dec.extra
	}
	maxc := slices.Max(s.load)
	res.Hist = make([]int, maxc+1)
	for _, x := range s.load {
		res.Hist[x]++
	}
	res.MaxLoad = float64(maxc) / float64(s.ell)
	if nreq > 0 {
		res.Outage = float64(nreq-res.Served) / float64(nreq)
		res.Cost = float64(res.ChunkHops) / (float64(s.ell) * float64(nreq))
	}
	return res
}

// cand is a holder found by a search: a server, its usable copies of the
// requested file, and its distance from the origin.
type cand struct {
	v    int32
	c, d int32
}

func newSim(cfg *Config, pl *placement, rnd *rand.Rand) *sim {
	s := &sim{
		cfg:  cfg,
		n:    cfg.Topology.Order(),
		sp:   cfg.strategy(),
		pl:   pl,
		q:    cfg.Topology.newSearch(),
		rnd:  rnd,
		load: make([]int32, cfg.Topology.Order()),
	}
	s.ell = int32(s.sp.ell)
	if s.sp.kind == kindTwoGlobal {
		pl.holderLists()
	}
	s.need = int64(s.ell)
	return s
}

// sim is the state of one run; it is used by one goroutine.
type sim struct {
	cfg       *Config
	sp        strategySpec
	n         int
	ell       int32
	need      int64
	pl        *placement
	q         searcher
	rnd       *rand.Rand
	load      []int32
	buf       []cand
	keyed     []keyedCand // TieListOrder scratch
	fallbacks int
	dec       *decoding // with Coded.Field: real decoding, else nil
}

// serve delivers one request for file k at origin u and returns the chunk
// hops it used.
func (s *sim) serve(u, k int32) int64 {
	switch s.sp.kind {
	case kindTwoRadius:
		return s.twoRadius(u, k)
	case kindTwoGlobal:
		return s.twoGlobal(u, k)
	case kindTwoStretch:
		return s.twoStretch(u, k)
	}
	if s.dec != nil {
		return s.nearestDecoding(u, k)
	}
	return s.nearest(u, k)
}

// nearest sends the ell nearest copies of file k to u (spec §5.1, §5.2),
// with the exact threshold rule of spec §5.2: with D the distance where
// N(<D) < ℓ ≤ N(≤D), all copies closer than D are taken and ℓ − N(<D)
// copies are chosen among those at distance D by the tie rule.
func (s *sim) nearest(u, k int32) int64 {
	need := int64(s.ell)
	var hops int64
	s.q.start(int(u))
	for {
		d, nodes, ok := s.q.next()
		if !ok {
			// Topologies are connected and outage was ruled out first.
			panic("codedload: search exhausted before ℓ copies were found")
		}
		s.buf = s.buf[:0]
		var tot int64
		for _, v := range nodes {
			if c := s.pl.count(v, k); c > 0 {
				s.buf = append(s.buf, cand{v: v, c: c, d: int32(d)})
				tot += int64(c)
			}
		}
		if tot < need {
			for _, h := range s.buf {
				s.load[h.v] += h.c
			}
			hops += int64(d) * tot
			need -= tot
			continue
		}
		s.pick(k, int32(need), tot)
		return hops + int64(d)*need
	}
}

// pick sends need of the tot copies of file k listed in s.buf, all
// equidistant, by the tie rule.
func (s *sim) pick(k, need int32, tot int64) {
	switch {
	case s.cfg.Ties == TieListOrder && s.pl.dealt != nil:
		s.pickListed(k, need)
	case s.cfg.Ties != TieRandom:
		// TieLowest, and TieListOrder on a placement that lists holders
		// by server index.
		sortCands(s.buf)
		s.takeInOrder(need)
	default:
		s.pickRandom(need, tot)
	}
}

// takeInOrder sends need copies from the candidates of s.buf in list order.
func (s *sim) takeInOrder(need int32) {
	for _, h := range s.buf {
		x := min(h.c, need)
		s.load[h.v] += x
		if need -= x; need == 0 {
			return
		}
	}
}

// pickRandom sends need of the tot copies of s.buf, every subset of need
// copies equally likely (selection sampling, Knuth's Algorithm S).
func (s *sim) pickRandom(need int32, tot int64) {
	left := tot
	for _, h := range s.buf {
		for range h.c {
			if s.rnd.Int64N(left) < int64(need) {
				s.load[h.v]++
				if need--; need == 0 {
					return
				}
			}
			left--
		}
	}
}

// pickListed sends the need copies of file k that come first in the
// reference simulator's holder list (TieListOrder on a Uniform placement):
// each candidate's dealt copies, keyed by their deal index, then its other
// copies, keyed after every dealt one by server index; a capped server
// keeps its first copies in that order. s.buf is rewritten as the list of
// keyed runs, sorted.
func (s *sim) pickListed(k, need int32) {
	s.keyed = s.keyed[:0]
	dealt := s.pl.dealt
	for _, h := range s.buf {
		left := h.c
		for i := int(h.v); i < len(dealt) && left > 0; i += s.n {
			if dealt[i] == k {
				s.keyed = append(s.keyed, keyedCand{key: i, cand: cand{v: h.v, c: 1, d: h.d}})
				left--
			}
		}
		if left > 0 {
			s.keyed = append(s.keyed, keyedCand{key: len(dealt) + int(h.v), cand: cand{v: h.v, c: left, d: h.d}})
		}
	}
	slices.SortFunc(s.keyed, func(x, y keyedCand) int { return cmp.Compare(x.key, y.key) })
	s.buf = s.buf[:0]
	for _, x := range s.keyed {
		s.buf = append(s.buf, x.cand)
	}
	s.takeInOrder(need)
}

// keyedCand is a run of copies at one server with its position key in the
// holder list.
type keyedCand struct {
	key int
	cand
}

// sortCands orders a candidate list by server index. A shell of a large
// hypercube can list thousands of holders, so the sort is O(m log m)
// (pdqsort, which does not allocate), not insertion sort.
func sortCands(b []cand) {
	slices.SortFunc(b, func(x, y cand) int { return cmp.Compare(x.v, y.v) })
}

// pickOne returns one of the equidistant candidates b, holders of file k,
// by the tie rule.
func (s *sim) pickOne(b []cand, k int32) cand {
	switch s.cfg.Ties {
	case TieLowest:
		return slices.MinFunc(b, func(x, y cand) int { return cmp.Compare(x.v, y.v) })
	case TieListOrder:
		return slices.MinFunc(b, func(x, y cand) int { return cmp.Compare(s.pl.listKey(x.v, k), s.pl.listKey(y.v, k)) })
	}
	return b[s.rnd.IntN(len(b))]
}

// better returns the less loaded of a (first candidate) and b; equal loads
// are decided by a fair coin, or for TieLowest in favour of a.
func (s *sim) better(a, b cand) cand {
	la, lb := s.load[a.v], s.load[b.v]
	switch {
	case la < lb:
		return a
	case lb < la:
		return b
	case s.cfg.Ties == TieLowest || s.rnd.IntN(2) == 0:
		return a
	}
	return b
}

func (s *sim) assign(h cand) int64 {
	s.load[h.v]++
	return int64(h.d)
}

// twoRadius is two choices (a) (spec §5.3): two draws with replacement from
// the holders within Radius of u.
func (s *sim) twoRadius(u, k int32) int64 {
	s.buf = s.buf[:0]
	if t, ok := s.cfg.Topology.(*Torus); ok && t.Metric == WrapExact && s.pl.has != nil {
		s.torusBall(t, u, k)
	} else {
		s.ballSearch(u, k)
	}
	if len(s.buf) == 0 {
		s.fallbacks++
		return s.nearest(u, k)
	}
	a := s.buf[s.rnd.IntN(len(s.buf))]
	b := s.buf[s.rnd.IntN(len(s.buf))]
	return s.assign(s.better(a, b))
}

// ballSearch lists in s.buf the holders of k within Radius of u, shell by
// shell.
func (s *sim) ballSearch(u, k int32) {
	s.q.start(int(u))
	for {
		d, nodes, ok := s.q.next()
		if !ok || d > s.sp.radius {
			break
		}
		for _, v := range nodes {
			if s.pl.count(v, k) > 0 {
				s.buf = append(s.buf, cand{v: v, c: 1, d: int32(d)})
			}
		}
	}
}

// torusBall lists in s.buf the holders of k within Radius of u on the
// torus, reading the file's bitset one row segment at a time: the ball
// B_r(u) meets row offset dr in the columns at offsets |dc| ≤ r − |dr|, a
// run of consecutive bits (two with wrap-around), so a search costs about
// one word per row instead of one look-up per node. The holders are listed
// in another order than by ballSearch; the draws are uniform either way.
func (s *sim) torusBall(t *Torus, u, k int32) {
	side, r := t.Side, s.sp.radius
	lo, hi := ringRange(side)
	row0, col0 := int(u)/side, int(u)%side
	base := int(k) * s.pl.words
	for dr := max(-r, lo); dr <= min(r, hi); dr++ {
		w := r - absInt(dr)
		row := mod(row0+dr, side) * side
		a, b := max(-w, lo), min(w, hi) // column offsets of the segment
		c0 := col0 + a
		// Split [c0, c0+b−a] at the wrap into runs of absolute columns.
		for c0 <= col0+b {
			start := mod(c0, side)
			n := min(col0+b-c0+1, side-start)
			s.scanBits(base, row+start, n, row, col0, absInt(dr))
			c0 += n
		}
	}
}

// scanBits appends the holders among the n nodes from node first on (all in
// one row), with their distance from column col0 at row distance drow.
func (s *sim) scanBits(base, first, n, row, col0, drow int) {
	bits := s.pl.has[base:]
	side := s.cfg.Topology.(*Torus).Side
	for g, end := first, first+n; g < end; {
		word := bits[g>>6] >> (g & 63)
		span := min(64-(g&63), end-g)
		if span < 64 {
			word &= 1<<span - 1
		}
		for word != 0 {
			i := mbits.TrailingZeros64(word)
			word &= word - 1
			v := g + i
			dc := absInt(v - row - col0)
			dc = min(dc, side-dc)
			s.buf = append(s.buf, cand{v: int32(v), c: 1, d: int32(drow + dc)})
		}
		g += span
	}
}

// firstShell searches outward from u and leaves in s.buf the holders of k
// in the nearest shell that has one.
func (s *sim) firstShell(u, k int32) {
	s.q.start(int(u))
	for {
		d, nodes, ok := s.q.next()
		if !ok {
			panic("codedload: search exhausted before a holder was found")
		}
		s.buf = s.buf[:0]
		for _, v := range nodes {
			if s.pl.count(v, k) > 0 {
				s.buf = append(s.buf, cand{v: v, c: 1, d: int32(d)})
			}
		}
		if len(s.buf) > 0 {
			return
		}
	}
}

// twoGlobal is two choices (b) (spec §5.3): the nearest replica against a
// uniformly drawn other holder anywhere.
func (s *sim) twoGlobal(u, k int32) int64 {
	s.firstShell(u, k)
	a := s.pickOne(s.buf, k)
	hs := s.pl.holders[k]
	if len(hs) == 1 {
		return s.assign(a)
	}
	// Uniform over hs \ {a.v}: a.v occurs once in hs.
	v := hs[s.rnd.IntN(len(hs)-1)]
	if v == a.v {
		v = hs[len(hs)-1]
	}
	// The second candidate's distance is needed only if it wins, and on a
	// GraphTopology it costs a breadth-first search.
	b := cand{v: v, c: 1, d: -1}
	w := s.better(a, b)
	if w.v == b.v && w.d < 0 {
		w.d = int32(s.q.dist(int(v)))
	}
	return s.assign(w)
}

// twoStretch is two choices (c) (spec §5.3).
func (s *sim) twoStretch(u, k int32) int64 {
	self := s.pl.count(u, k) > 0
	s.q.start(int(u))
	s.buf = s.buf[:0]
	dmin, first := int32(-1), 0 // s.buf[:first] is the nearest shell of others
	for {
		d, nodes, ok := s.q.next()
		if !ok || (dmin >= 0 && float64(d) > (1+s.sp.alpha)*float64(dmin)) {
			break
		}
		for _, v := range nodes {
			if v != u && s.pl.count(v, k) > 0 {
				s.buf = append(s.buf, cand{v: v, c: 1, d: int32(d)})
			}
		}
		if dmin < 0 && len(s.buf) > 0 {
			dmin, first = int32(d), len(s.buf)
		}
	}
	if len(s.buf) == 0 { // u is the only holder
		return s.assign(cand{v: u, c: 1, d: 0})
	}
	var a cand
	ai := -1
	if self {
		a = cand{v: u, c: 1, d: 0}
	} else {
		a = s.pickOne(s.buf[:first], k)
		for i, h := range s.buf[:first] {
			if h.v == a.v {
				ai = i
				break
			}
		}
	}
	m := len(s.buf)
	if ai >= 0 {
		m-- // draw among the others than a
	}
	if m == 0 {
		return s.assign(a)
	}
	j := s.rnd.IntN(m)
	if j == ai {
		j = len(s.buf) - 1
	}
	return s.assign(s.better(a, s.buf[j]))
}
