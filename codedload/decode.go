package codedload

import (
	"cmp"
	"slices"

	"github.com/loadlab/loadlab/coding"
)

// decoding is the state of real decoding (Coded.Field, spec §11.6):
// copy j of file k at server v holds the coefficient vector drawn by
// coding.DrawCoeffs from the counter-based stream chunkSource{seed, v, k,
// j}, so the network's copies are fixed for the run without being
// stored.
type decoding struct {
	q      int
	seed   uint64
	spans  []bool // spans[k]: the copies of file k span GF(q)^ℓ
	span   *coding.Span
	vec    []byte
	src    chunkSource
	copies []copyRef // the copies of the current shell
	extra  int64
}

// copyRef is copy j of the requested file at server v, at distance d.
type copyRef struct {
	v, j, d int32
}

// chunkSource is the stream of one stored copy's coefficients: word i is
// the SplitMix64 finaliser of h + (i+1)·γ, h a hash of the run's seed
// and the copy (server, file, index). It is a rand.Source that allocates
// nothing.
type chunkSource struct {
	h, i uint64
}

// reset points the source at copy j of file k at server v.
func (c *chunkSource) reset(seed uint64, v, k, j int32) {
	h := mix(seed ^ 0x6a09e667f3bcc909)
	h = mix(h ^ uint64(uint32(v)))
	h = mix(h ^ (uint64(uint32(k)) | uint64(uint32(j))<<32))
	c.h, c.i = h, 0
}

// Uint64 returns the next word of the stream.
func (c *chunkSource) Uint64() uint64 {
	c.i++
	return mix(c.h + c.i*0x9e3779b97f4a7c15)
}

// mix is the finaliser of SplitMix64 (Steele, Lea and Flood 2014).
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// startDecoding sets up real decoding with the copies' vectors derived
// from seed, and finds the files whose copies span: one pass over the
// servers' cache entries, adding each copy to its file's span until that
// is full, and stopping once every file that has ℓ copies is full
// (usually after a few hundred servers).
func (s *sim) startDecoding(seed uint64) {
	ell := int(s.ell)
	span, err := coding.NewSpan(ell)
	if err != nil { // ℓ was checked by Config.Validate
		panic("codedload: internal error: " + err.Error())
	}
	d := &decoding{q: s.sp.field, seed: seed, spans: make([]bool, s.pl.k), span: span, vec: make([]byte, ell)}
	s.dec = d
	open := 0 // files with ℓ copies whose span is not full yet
	for k := range s.pl.k {
		if s.pl.total[k] >= int64(ell) {
			open++
		}
	}
	partial := make(map[int32]*coding.Span) // the spans being filled
	for v := 0; v < s.n && open > 0; v++ {
		s.pl.eachEntry(int32(v), func(k, c int32) {
			if d.spans[k] || s.pl.total[k] < int64(ell) {
				return
			}
			sp := partial[k]
			if sp == nil {
				sp, _ = coding.NewSpan(ell) // as above
				partial[k] = sp
			}
			for j := range c {
				s.vector(int32(v), k, j)
				if _, _ = sp.Add(d.vec); sp.Full() {
					d.spans[k] = true
					delete(partial, k)
					open--
					return
				}
			}
		})
	}
}

// vector sets dec.vec to the coefficient vector of copy j of file k at
// server v.
func (s *sim) vector(v, k, j int32) {
	s.dec.src.reset(s.dec.seed, v, k, j)
	_ = coding.DrawCoeffs(s.dec.q, s.dec.vec, &s.dec.src) // q was checked
}

// nearestDecoding serves a request for file k at u with real decoding:
// copies are sent nearest first — within a distance shell in random
// order (TieRandom) or by server index (the other tie rules) — until
// their vectors span; the first ℓ are the ℓ nearest copies of the ideal
// rule (spec §5.2), every copy adds 1 to its sender's load and its
// distance to the hops. The file's copies span (serveAll checked), so the
// search ends.
func (s *sim) nearestDecoding(u, k int32) int64 {
	d := s.dec
	d.span.Reset()
	var hops, sent int64
	s.q.start(int(u))
	for {
		dist, nodes, ok := s.q.next()
		if !ok {
			panic("codedload: search exhausted before the copies spanned")
		}
		d.copies = d.copies[:0]
		for _, v := range nodes {
			for j := range s.pl.count(v, k) {
				d.copies = append(d.copies, copyRef{v: v, j: j, d: int32(dist)})
			}
		}
		if s.cfg.Ties != TieRandom {
			sortCopies(d.copies)
		}
		for i := range d.copies {
			if s.cfg.Ties == TieRandom { // a lazy Fisher–Yates shuffle
				r := i + s.rnd.IntN(len(d.copies)-i)
				d.copies[i], d.copies[r] = d.copies[r], d.copies[i]
			}
			c := d.copies[i]
			s.load[c.v]++
			hops += int64(c.d)
			sent++
			s.vector(c.v, k, c.j)
			if _, _ = d.span.Add(d.vec); d.span.Full() {
				d.extra += sent - int64(s.ell)
				return hops
			}
		}
	}
}

// sortCopies orders copies by server, then copy index.
func sortCopies(b []copyRef) {
	slices.SortFunc(b, func(x, y copyRef) int {
		if c := cmp.Compare(x.v, y.v); c != 0 {
			return c
		}
		return cmp.Compare(x.j, y.j)
	})
}
