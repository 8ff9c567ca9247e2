package stability

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
)

// Per-run entry points of Attractors and TwoNodeMap, for sweeps split
// across processes (package sweep).
//
// Attractors draws its starts in order from one stream, so start k is
// not a function of k alone: it is the draws kN … kN+N−1 of rand.New(src).
// AttractorStart draws the next start from a stream, AttractorRun
// integrates one start, and GroupAttractors groups the end states of all
// starts (in start order) into Attractors' result, bit for bit.
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
