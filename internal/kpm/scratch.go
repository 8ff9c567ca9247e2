package kpm

// Scratch is one worker's workspace of the local moments. The nodes
// of the current ball get local indices in order of first touch (list
// maps them back); a small open-addressing table maps node → local index,
// so that the lookups of a ball's neighbours stay in L1 instead of
// reaching into n-sized arrays (at 10⁶ nodes, 3× slower).
type Scratch struct {
	keys []int32 // node per slot, −1 when empty; length a power of 2
	slot []int32 // local index per slot
	pos  []int32 // slot per local index, to empty the table
	bits uint
	list []int32      // node per local index
	w    [3][]float64 // w_{h−1}, w_h, w_{h+1} (roles rotate) by local index
}

func NewScratch() *Scratch {
	s := &Scratch{}
	s.grow(6)
	return s
}

// grow resizes the table to 2^bits slots (and the local arrays to half
// of that), reinserting the current nodes.
func (s *Scratch) grow(bits uint) {
	s.bits = bits
	s.keys, s.slot = make([]int32, 1<<bits), make([]int32, 1<<bits)
	for i := range s.keys {
		s.keys[i] = -1
	}
	c := 1 << (bits - 1)
	for r := range s.w {
		w := make([]float64, c)
		copy(w, s.w[r])
		s.w[r] = w
	}
	s.pos = s.pos[:0]
	for li, k := range s.list {
		p := s.probe(k)
		s.keys[p], s.slot[p] = k, int32(li)
		s.pos = append(s.pos, int32(p))
	}
}

// probe returns k's slot, or the empty slot where it would go.
func (s *Scratch) probe(k int32) int {
	mask := len(s.keys) - 1
	p := int((uint32(k) * 0x9e3779b1) >> (32 - s.bits))
	for s.keys[p] != -1 && s.keys[p] != k {
		p = (p + 1) & mask
	}
	return p
}

// find returns k's local index, or −1.
func (s *Scratch) find(k int32) int {
	p := s.probe(k)
	if s.keys[p] == -1 {
		return -1
	}
	return int(s.slot[p])
}

// touch returns k's local index, adding k with zero values if new.
func (s *Scratch) touch(k int32) int {
	p := s.probe(k)
	if s.keys[p] == k {
		return int(s.slot[p])
	}
	li := len(s.list)
	if 2*(li+1) > len(s.keys) {
		s.list = append(s.list, k)
		s.grow(s.bits + 1)
		return li
	}
	s.keys[p], s.slot[p] = k, int32(li)
	s.list, s.pos = append(s.list, k), append(s.pos, int32(p))
	s.w[0][li], s.w[1][li], s.w[2][li] = 0, 0, 0
	return li
}

// reset empties the table for the next node.
func (s *Scratch) reset() {
	for _, p := range s.pos {
		s.keys[p] = -1
	}
	s.list, s.pos = s.list[:0], s.pos[:0]
}
