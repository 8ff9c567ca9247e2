package stability

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
)

// Per-run entry points of Attractors and TwoNodeMap, for sweeps split
// across processes (package sweep).
//
// Attractors draws its starts in order from one stream: start k is the
// draws kN … kN+N−1 of rand.New(src). AttractorStart draws the next
// start from a stream; AttractorStartAt computes start k of a PCG stream
// from k alone (jumping the generator ahead by kN steps), so run k is a
// function of its seed path without replaying the starts before it.
// AttractorRun integrates one start, and GroupAttractors groups the end
// states of all starts (in start order) into Attractors' result, bit for
// bit.
// TwoNodeMap's cells are deterministic and independent:
// TwoNodeMapCell computes one.

// AttractorStart draws the next start state of Attractors from rng: n
// uniform draws mapped inside (0, 1). Attractors' start k is the
// (k+1)-th call on rand.New(src). It panics if rng is nil.
func AttractorStart(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 0.5 + (rng.Float64()-0.5)*(1-1e-9) // inside (0, 1)
	}
	return x
}

// AttractorStartAt returns start k of Attractors(starts, t1, src, s)
// on a network of n nodes for the PCG stream src, the (k+1)-th
// AttractorStart on rand.New(src), in O(log(kn) + n) operations: a copy
// of src is jumped ahead by kn draws (each Float64 of math/rand/v2 takes
// one step of the PCG's 128-bit linear congruential state). src is not
// changed. It returns an error wrapping loadlab.ErrInvalid for a
// negative k or n or kn ≥ 2⁶⁴, and panics if src is nil.
func AttractorStartAt(src *rand.PCG, n, k int) ([]float64, error) {
	if src == nil {
		panic("stability: AttractorStartAt: src is nil")
	}
	if k < 0 || n < 0 {
		return nil, loadlab.Invalid("stability", "AttractorStartAt: k = %d, n = %d, want both ≥ 0", k, n)
	}
	hi, steps := bits.Mul64(uint64(k), uint64(n))
	if hi != 0 {
		return nil, loadlab.Invalid("stability", "AttractorStartAt: k·n = %d·%d draws, want < 2^64", k, n)
	}
	return AttractorStart(rand.New(pcgAdvance(src, steps)), n), nil
}

// u128 is the unsigned 128-bit integer hi·2⁶⁴ + lo.
type u128 struct{ hi, lo uint64 }

func (a u128) mul(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// The multiplier and increment of math/rand/v2's PCG: every draw maps
// its state x to pcgMul·x + pcgInc mod 2¹²⁸.
var (
	pcgMul = u128{2549297995355413924, 4865540595714422341}
	pcgInc = u128{6364136223846793005, 1442695040888963407}
)

// pcgAdvance returns a copy of src advanced by steps draws, by the
// jump-ahead of a linear congruential generator in O(log steps)
// (Brown, "Random number generation with arbitrary strides", 1994):
// x ↦ a^s x + c (a^s − 1)/(a − 1), both factors built by squaring.
// TestAttractorStartAt checks it against sequential draws.
func pcgAdvance(src *rand.PCG, steps uint64) *rand.PCG {
	b, err := src.MarshalBinary() // "pcg:" + hi + lo, big-endian
	if err != nil || len(b) != 20 {
		panic(fmt.Sprintf("stability: PCG state of %d bytes: %v", len(b), err))
	}
	state := u128{binary.BigEndian.Uint64(b[4:]), binary.BigEndian.Uint64(b[12:])}
	mult, plus := pcgMul, pcgInc
	accMult, accPlus := u128{0, 1}, u128{}
	for ; steps > 0; steps >>= 1 {
		if steps&1 == 1 {
			accMult = accMult.mul(mult)
			accPlus = accPlus.mul(mult).add(plus)
		}
		plus = mult.add(u128{0, 1}).mul(plus)
		mult = mult.mul(mult)
	}
	state = accMult.mul(state).add(accPlus)
	b = binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64([]byte("pcg:"), state.hi), state.lo)
	p := new(rand.PCG)
	if err := p.UnmarshalBinary(b); err != nil {
		panic(fmt.Sprintf("stability: PCG state: %v", err))
	}
	return p
}

// AttractorRun integrates the start x as Attractors does (to t1, then
// up to three times twice as long until the end state snaps) and returns
// the end state that snapped, or nil if none did (an unresolved start).
// Errors are those of Attractors for t1 and s, and one wrapping
// loadlab.ErrInvalid if len(x) is not the network's N.
func (l *Law) AttractorRun(x []float64, t1 float64, s *Settings) ([]float64, error) {
	if err := l.attractorArgs(t1, s); err != nil {
		return nil, err
	}
	if len(x) != l.Net.N() {
		return nil, loadlab.Invalid("stability", "AttractorRun: len(x) = %d, want N = %d", len(x), l.Net.N())
	}
	end, _, err := l.attractEnd(x, t1, s)
	return end, err
}

// attractorArgs validates the law, t1 and s as Attractors does.
func (l *Law) attractorArgs(t1 float64, s *Settings) error {
	if err := l.Validate(); err != nil {
		return err
	}
	if !(t1 > 0) || math.IsInf(t1, 1) {
		return loadlab.Invalid("stability", "t1 = %v, want a finite value > 0", t1)
	}
	return s.Validate()
}

// GroupAttractors returns Attractors' result for the end states of its
// starts in start order, as AttractorRun returns them (nil for an
// unresolved start): each end state is snapped with tolerance 1e-6 and
// the equilibria are grouped by face pattern, most frequent first. It
// returns an error wrapping loadlab.ErrInvalid if an end state does not
// snap (it was not produced by AttractorRun on l).
func (l *Law) GroupAttractors(ends [][]float64) (found []Attractor, unresolved int, err error) {
	if err := l.Validate(); err != nil {
		return nil, 0, err
	}
	eqs := make([]*Equilibrium, len(ends))
	for k, x := range ends {
		if x == nil {
			continue
		}
		if eqs[k], err = l.Snap(x, 1e-6); err != nil {
			return nil, 0, fmt.Errorf("GroupAttractors: end state %d: %w", k, err)
		}
	}
	found, unresolved = groupEquilibria(eqs)
	return found, unresolved, nil
}

// attractEnd is attract, also returning the end state that snapped.
func (l *Law) attractEnd(x []float64, t1 float64, s *Settings) ([]float64, *Equilibrium, error) {
	var local Settings // each worker its own Times
	if s != nil {
		local = *s
	}
	span := t1
	for try := 0; try < 4; try++ {
		local.Times = []float64{span}
		tr, err := l.Integrate(x, span, &local)
		if err != nil {
			return nil, nil, err
		}
		x = tr.Final()
		if e, err := l.Snap(x, 1e-6); err == nil {
			return x, e, nil
		}
		span *= 2
	}
	return nil, nil, nil
}

// TwoNodeMapCell returns cell (p, q) of TwoNodeMap(nw, aa, ab, s), the
// outcome at demand (aa[p], ab[q]), computed alone. Errors and panics
// are those of TwoNodeMap, and an error wrapping loadlab.ErrInvalid if
// p or q is out of range.
func TwoNodeMapCell(nw *anycast.Network, aa, ab []float64, s *MapSettings, p, q int) (Outcome, error) {
	if p < 0 || p >= len(aa) || q < 0 || q >= len(ab) {
		return Outcome{}, loadlab.Invalid("stability", "TwoNodeMapCell: cell (%d, %d) of a %d×%d grid", p, q, len(aa), len(ab))
	}
	one := MapSettings{Workers: 1}
	if s != nil {
		one = *s
		one.Workers = 1
	}
	out, err := TwoNodeMap(nw, aa[p:p+1], ab[q:q+1], &one)
	if err != nil {
		return Outcome{}, err
	}
	return out[0], nil
}
