package codedload

import (
	"cmp"
	"slices"

	"github.com/loadlab/loadlab/coding"
	"github.com/loadlab/loadlab/internal/mc"
)

// decoding is the state of real decoding (Coded.Field, spec §11.6):
// copy j of file k at server v holds the coefficient vector drawn by
// coding.DrawCoeffs from the stream mc.Source(seed, v, k, j), so the
// network's copies are fixed for the run without being stored.
type decoding struct {
	q      int
	seed   uint64
	spans  []bool // spans[k]: the copies of file k span GF(q)^ℓ
	span   *coding.Span
	vec    []byte
	copies []copyRef // the copies of the current shell
	extra  int64
}

// copyRef is copy j of the requested file at server v, at distance d.
type copyRef struct {
	v, j, d int32
}

// startDecoding sets up real decoding with the copies' vectors derived
// from seed, and finds the files whose copies span.
func (s *sim) startDecoding(seed uint64) {
	span, err := coding.NewSpan(int(s.ell))
	if err != nil { // ℓ was checked by Config.Validate
		panic("codedload: internal error: " + err.Error())
	}
	s.dec = &decoding{q: s.sp.field, seed: seed, spans: make([]bool, s.pl.k), span: span, vec: make([]byte, s.ell)}
	if s.pl.full > 0 {
		for k := range s.pl.k {
			s.dec.span.Reset()
			for v := 0; v < s.n && !s.dec.span.Full(); v++ {
				s.addCopies(int32(v), int32(k), s.pl.full)
			}
			s.dec.spans[k] = s.dec.span.Full()
		}
		return
	}
	hs := s.pl.holderLists()
	for k, list := range hs {
		if s.pl.total[k] < int64(s.ell) {
			continue
		}
		s.dec.span.Reset()
		for _, v := range list {
			if s.addCopies(v, int32(k), s.pl.count(v, int32(k))) {
				break
			}
		}
		s.dec.spans[k] = s.dec.span.Full()
	}
}

// addCopies adds the vectors of the first c copies of file k at server v
// to the span and reports whether it is full.
func (s *sim) addCopies(v, k, c int32) bool {
	for j := range c {
		s.vector(v, k, j)
		_, _ = s.dec.span.Add(s.dec.vec) // vec has ℓ entries
		if s.dec.span.Full() {
			return true
		}
	}
	return false
}

// vector sets dec.vec to the coefficient vector of copy j of file k at
// server v.
func (s *sim) vector(v, k, j int32) {
	_ = coding.DrawCoeffs(s.dec.q, s.dec.vec, mc.Source(s.dec.seed, uint64(v), uint64(k), uint64(j))) // q was checked
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
