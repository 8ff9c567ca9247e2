package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// Demand supplies the requests r(k) of every server, step by step.
type Demand interface {
	// Next writes r(k) into r for k = 0, 1, 2, …; it is called with
	// consecutive k starting from 0, and k = 0 restarts the model. It
	// returns an error if the model cannot produce step k.
	//
	// Next must write every entry of r: Simulate cycles through several
	// buffers, so r does not hold r(k−1) on entry. On large graphs
	// Simulate draws the next few steps from a second goroutine while it
	// updates the limits of the current one; the calls to Next are never
	// concurrent, and none is in progress when Simulate returns.
	Next(k int, r []float64) error
}

// StationaryDemand is Case 1 of spec §4.2: r(k) = Mean + v(k) with
// v(k) ~ N(0, Sigma² I) i.i.d.
type StationaryDemand struct {
	Mean  []float64
	Sigma float64
	Src   rand.Source

	rnd *rand.Rand
}

// Next implements Demand. It returns an error if len(r) ≠ len(Mean),
// Sigma is negative or not finite, or Src is nil with Sigma > 0.
func (d *StationaryDemand) Next(k int, r []float64) error {
	if len(r) != len(d.Mean) {
		return loadlab.Invalid("consensus", "StationaryDemand: len(Mean) = %d, want %d", len(d.Mean), len(r))
	}
	if err := validateNoise("StationaryDemand", d.Sigma, d.Src); err != nil {
		return err
	}
	if k == 0 || d.rnd == nil {
		d.rnd = newRand(d.Src)
	}
	for i, m := range d.Mean {
		r[i] = m
		if d.Sigma > 0 {
			r[i] += d.Sigma * d.rnd.NormFloat64()
		}
	}
	return nil
}

// RandomWalkDemand is Case 2 of spec §4.2: r(0) = Start and
// r(k+1) = r(k) + v(k), v(k) ~ N(0, s² I) i.i.d. with s = Sigma, or, if
// Dt > 0, s² = Sigma² Dt: Case 2T, a Brownian motion of intensity
// Sigma² sampled every Dt = γ time units.
type RandomWalkDemand struct {
	Start []float64
	Sigma float64
	Dt    float64
	Src   rand.Source

	rnd *rand.Rand
	cur []float64
}

// Next implements Demand. It returns an error if len(r) ≠ len(Start),
// Sigma is negative or not finite, Dt is negative or not finite, Src is
// nil with Sigma > 0, or k skips a step.
func (d *RandomWalkDemand) Next(k int, r []float64) error {
	if len(r) != len(d.Start) {
		return loadlab.Invalid("consensus", "RandomWalkDemand: len(Start) = %d, want %d", len(d.Start), len(r))
	}
	if err := validateNoise("RandomWalkDemand", d.Sigma, d.Src); err != nil {
		return err
	}
	if !(d.Dt >= 0) || math.IsInf(d.Dt, 1) {
		return loadlab.Invalid("consensus", "RandomWalkDemand.Dt = %v: want finite and ≥ 0", d.Dt)
	}
	if k == 0 {
		d.rnd = newRand(d.Src)
		d.cur = append(d.cur[:0], d.Start...)
		copy(r, d.cur)
		return nil
	}
	if d.cur == nil {
		return loadlab.Invalid("consensus", "RandomWalkDemand: Next must start at k = 0")
	}
	s := d.Sigma
	if d.Dt > 0 {
		s *= math.Sqrt(d.Dt) // spec §4.2 Case 2T
	}
	if s == 0 {
		copy(r, d.cur)
		return nil
	}
	for i, c := range d.cur { // one pass: the walk and its copy
		c += s * d.rnd.NormFloat64()
		d.cur[i] = c
		r[i] = c
	}
	return nil
}

// TraceDemand replays recorded demand: row k is r(k).
type TraceDemand [][]float64

// Next implements Demand. It returns an error if the trace has no row k
// or row k has the wrong length.
func (d TraceDemand) Next(k int, r []float64) error {
	if k < 0 || k >= len(d) {
		return loadlab.Invalid("consensus", "TraceDemand: step %d beyond the trace of %d rows", k, len(d))
	}
	if len(d[k]) != len(r) {
		return loadlab.Invalid("consensus", "TraceDemand: row %d has %d values, want %d", k, len(d[k]), len(r))
	}
	copy(r, d[k])
	return nil
}

func validateNoise(typ string, sigma float64, src rand.Source) error {
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return loadlab.Invalid("consensus", "%s.Sigma = %v: want finite and ≥ 0", typ, sigma)
	}
	if sigma > 0 && src == nil {
		return loadlab.Invalid("consensus", "%s.Src is nil with Sigma = %v: a noisy demand model needs a rand.Source", typ, sigma)
	}
	return nil
}

func newRand(src rand.Source) *rand.Rand {
	if src == nil {
		return nil
	}
	return rand.New(src)
}
