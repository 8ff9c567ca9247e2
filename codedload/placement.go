package codedload

import (
	"math/rand/v2"
	"slices"
)

// placement is the content of every cache: for server s, the distinct files
// it holds (sorted) and how many chunk copies of each, already reduced by
// the per-server cap. Uncoded placements hold one copy per file.
type placement struct {
	n, k    int
	coded   bool    // copies counted with multiplicity
	limit   int32   // coded: chunk cap, 0 = none
	full    int32   // > 0: every server holds this many copies of every file
	dealt   []int32 // Uniform: the dealt (file, chunk) permutation, by file
	off     []int64
	file    []int32
	cnt     []int32
	total   []int64 // per file: copies in the whole network
	holders [][]int32

	// Per-file bitsets over the servers, word-aligned per file: has marks
	// the holders, multi those with ≥ 2 usable copies. A search visits
	// nodes that are close on the topology, hence close in these bitsets,
	// so a look-up touches few cache lines; the sorted lists are read only
	// for multiple copies. They are built when K·n ≤ maxBits.
	words      int
	has, multi []uint64
}

// maxBits bounds the size of each bitset (2^31 bits = 256 MiB).
const maxBits = 1 << 31

// place draws the placement of one run (spec §4). Each server has Cache
// slots for uncoded strategies and Cache·Ell for Coded; coded keeps
// multiplicities and clips them at the chunk cap (0: no cap), uncoded
// keeps sets.
func place(c *Config, zipf *Alias, rnd *rand.Rand) *placement {
	n, k, sp := c.Topology.Order(), c.Files, c.strategy()
	p := &placement{n: n, k: k, total: make([]int64, k), coded: sp.kind == kindCoded, limit: int32(sp.cap)}
	if c.Placement == Full {
		p.full = p.clip(int32(sp.ell))
		for f := range p.total {
			p.total[f] = int64(n) * int64(p.full)
		}
		return p
	}
	slots := c.Cache * sp.ell
	draws := make([]int32, 0, slots)
	p.off = make([]int64, n+1)
	p.file = make([]int32, 0, n*min(slots, k))
	p.cnt = make([]int32, 0, n*min(slots, k))
	if c.Placement == Uniform {
		p.deal(sp.ell, rnd)
	}
	for s := 0; s < n; s++ {
		draws = draws[:0]
		if c.Placement == Uniform {
			draws = p.uniformDraws(draws, s, slots, rnd)
		} else {
			for range slots {
				draws = append(draws, int32(zipf.Draw(rnd)))
			}
		}
		p.store(s, draws)
	}
	if int64(k)*int64(n) <= maxBits {
		p.bitsets()
	}
	return p
}

// clip returns the usable copies of x drawn copies of one file at one
// server: 1 uncoded, min(x, cap) coded.
func (p *placement) clip(x int32) int32 {
	if !p.coded {
		return 1
	}
	if p.limit > 0 && x > p.limit {
		return p.limit
	}
	return x
}

// deal draws the random permutation of the Files·Ell (file, chunk) pairs
// that Uniform placement deals round-robin (spec §4.1, S3 variant).
func (p *placement) deal(ell int, rnd *rand.Rand) {
	p.dealt = make([]int32, p.k*ell)
	for i := range p.dealt {
		p.dealt[i] = int32(i / ell)
	}
	rnd.Shuffle(len(p.dealt), func(i, j int) { p.dealt[i], p.dealt[j] = p.dealt[j], p.dealt[i] })
}

// uniformDraws appends to draws the files of server s under Uniform
// placement: the pairs dealt to it (dealt[s], dealt[s+n], …), then uniform
// draws with replacement for its remaining slots.
func (p *placement) uniformDraws(draws []int32, s, slots int, rnd *rand.Rand) []int32 {
	for i := s; i < len(p.dealt); i += p.n {
		draws = append(draws, p.dealt[i])
	}
	for len(draws) < slots {
		draws = append(draws, int32(rnd.IntN(p.k)))
	}
	return draws
}

// store records the drawn files of server s as sorted (file, count)
// entries.
func (p *placement) store(s int, draws []int32) {
	slices.Sort(draws)
	for i := 0; i < len(draws); {
		j := i + 1
		for j < len(draws) && draws[j] == draws[i] {
			j++
		}
		x := p.clip(int32(j - i))
		p.file = append(p.file, draws[i])
		p.cnt = append(p.cnt, x)
		p.total[draws[i]] += int64(x)
		i = j
	}
	p.off[s+1] = int64(len(p.file))
}

// bitsets builds the per-file holder bitsets has and multi.
func (p *placement) bitsets() {
	p.words = (p.n + 63) / 64
	p.has = make([]uint64, p.k*p.words)
	p.multi = make([]uint64, p.k*p.words)
	for s := 0; s < p.n; s++ {
		for i := p.off[s]; i < p.off[s+1]; i++ {
			at := int(p.file[i])*p.words + s/64
			p.has[at] |= 1 << (s % 64)
			if p.cnt[i] > 1 {
				p.multi[at] |= 1 << (s % 64)
			}
		}
	}
}

// listKey returns the position key of the first copy of file k at server v
// in the reference simulator's holder list (TieListOrder): the deal index of
// its first dealt copy, or len(dealt)+v for a server whose copies were all
// drawn after the deal.
func (p *placement) listKey(v, k int32) int {
	for i := int(v); i < len(p.dealt); i += p.n {
		if p.dealt[i] == k {
			return i
		}
	}
	return len(p.dealt) + int(v)
}

// eachEntry calls fn(k, c) for every file k that server v caches, with
// its (capped) copies c, in file order.
func (p *placement) eachEntry(v int32, fn func(k, c int32)) {
	if p.full > 0 {
		for k := range int32(p.k) {
			fn(k, p.full)
		}
		return
	}
	for i := p.off[v]; i < p.off[v+1]; i++ {
		fn(p.file[i], p.cnt[i])
	}
}

// count returns the number of (capped) copies of file k at server v.
func (p *placement) count(v, k int32) int32 {
	if p.full > 0 {
		return p.full
	}
	if p.has != nil {
		at := int(k)*p.words + int(v>>6)
		bit := uint64(1) << (v & 63)
		if p.has[at]&bit == 0 {
			return 0
		}
		if p.multi[at]&bit == 0 {
			return 1
		}
	}
	lo, end := p.off[v], p.off[v+1]
	hi := end
	for lo < hi {
		mid := int64(uint64(lo+hi) >> 1)
		if p.file[mid] < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < end && p.file[lo] == k {
		return p.cnt[lo]
	}
	return 0
}

// holderLists builds, once, the list of servers holding each file.
func (p *placement) holderLists() [][]int32 {
	if p.holders != nil {
		return p.holders
	}
	p.holders = make([][]int32, p.k)
	if p.full > 0 {
		all := make([]int32, p.n)
		for i := range all {
			all[i] = int32(i)
		}
		for f := range p.holders {
			p.holders[f] = all
		}
		return p.holders
	}
	size := make([]int, p.k)
	for _, f := range p.file {
		size[f]++
	}
	flat := make([]int32, len(p.file))
	at := 0
	for f := range p.holders {
		p.holders[f] = flat[at : at : at+size[f]]
		at += size[f]
	}
	for s := 0; s < p.n; s++ {
		for _, f := range p.file[p.off[s]:p.off[s+1]] {
			p.holders[f] = append(p.holders[f], int32(s))
		}
	}
	return p.holders
}
