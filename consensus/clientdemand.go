package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// ClientDemand supplies the requests r⁽ʲ⁾(k) of every client, cycle by
// cycle (spec deployed §5.1). Its method is that of Demand over clients
// instead of servers, so a Demand (a TraceDemand whose rows are the
// clients' requests of one cycle, say) is also a ClientDemand.
type ClientDemand interface {
	// Next writes r⁽ʲ⁾(k) of every client j into r for k = 0, 1, 2, …;
	// it is called with consecutive k starting from 0, and k = 0
	// restarts the model. It must write every entry of r and returns an
	// error if the model cannot produce cycle k. SimulateClients refuses
	// a negative, NaN or infinite request.
	Next(k int, r []float64) error
}

// ClientStationary is stationary client demand with noise, censored at
// zero: r⁽ʲ⁾(k) = max{0, Mean[j] + Sigma[j] v_j(k)} with v_j(k) ~ N(0, 1)
// i.i.d. (spec deployed §5.1). A nil Sigma means no noise. The normal
// draws come from Src in client order, one per client with Sigma[j] > 0,
// so the same seed gives the same demand.
type ClientStationary struct {
	Mean  []float64
	Sigma []float64
	Src   rand.Source

	rnd *rand.Rand
}

// Next implements ClientDemand. It returns an error wrapping
// loadlab.ErrInvalid if len(r) ≠ len(Mean), Sigma is neither nil nor of
// length len(Mean), a Mean[j] or Sigma[j] is negative, NaN or infinite,
// or Src is nil while some Sigma[j] > 0.
func (d *ClientStationary) Next(k int, r []float64) error {
	if err := validateClientModel("ClientStationary", "Mean", d.Mean, d.Sigma, d.Src, len(r)); err != nil {
		return err
	}
	if k == 0 || d.rnd == nil {
		d.rnd = newRand(d.Src)
	}
	for j, m := range d.Mean {
		r[j] = m
		if d.Sigma != nil && d.Sigma[j] > 0 {
			r[j] = max(0, m+d.Sigma[j]*d.rnd.NormFloat64())
		}
	}
	return nil
}

// ClientRandomWalk is client demand that follows a random walk
// reflected at zero: r⁽ʲ⁾(0) = Start[j] and
// r⁽ʲ⁾(k+1) = |r⁽ʲ⁾(k) + Sigma[j] v_j(k)| with v_j(k) ~ N(0, 1) i.i.d.
// (spec deployed §5.1). A nil Sigma means no noise. The draws come from
// Src in client order, one per client with Sigma[j] > 0.
type ClientRandomWalk struct {
	Start []float64
	Sigma []float64
	Src   rand.Source

	rnd *rand.Rand
	cur []float64
}

// Next implements ClientDemand. It returns an error wrapping
// loadlab.ErrInvalid if len(r) ≠ len(Start), Sigma is neither nil nor of
// length len(Start), a Start[j] or Sigma[j] is negative, NaN or
// infinite, Src is nil while some Sigma[j] > 0, or k skips a cycle.
func (d *ClientRandomWalk) Next(k int, r []float64) error {
	if err := validateClientModel("ClientRandomWalk", "Start", d.Start, d.Sigma, d.Src, len(r)); err != nil {
		return err
	}
	if k == 0 {
		d.rnd = newRand(d.Src)
		d.cur = append(d.cur[:0], d.Start...)
		copy(r, d.cur)
		return nil
	}
	if d.cur == nil {
		return loadlab.Invalid("consensus", "ClientRandomWalk: Next must start at k = 0")
	}
	for j, c := range d.cur {
		if d.Sigma != nil && d.Sigma[j] > 0 {
			c = math.Abs(c + d.Sigma[j]*d.rnd.NormFloat64())
			d.cur[j] = c
		}
		r[j] = c
	}
	return nil
}

// ClientTrace replays recorded client demand: ClientTrace[j][k] is
// r⁽ʲ⁾(k), one series per client.
type ClientTrace [][]float64

// Next implements ClientDemand. It returns an error wrapping
// loadlab.ErrInvalid if the trace has a series count other than len(r)
// or client j's series has no value k.
func (d ClientTrace) Next(k int, r []float64) error {
	if len(d) != len(r) {
		return loadlab.Invalid("consensus", "ClientTrace: %d series, want one per client (%d)", len(d), len(r))
	}
	for j, s := range d {
		if k < 0 || k >= len(s) {
			return loadlab.Invalid("consensus", "ClientTrace: cycle %d beyond the %d values of client %d", k, len(s), j)
		}
		r[j] = s[k]
	}
	return nil
}

// validateClientModel checks the parameters of a client demand model
// typ: base (named field) and sigma (nil, or one per client) finite and
// non-negative, one value per client, and a source where noise is drawn.
func validateClientModel(typ, field string, base, sigma []float64, src rand.Source, c int) error {
	if len(base) != c {
		return loadlab.Invalid("consensus", "%s: len(%s) = %d, want %d (one per client)", typ, field, len(base), c)
	}
	if sigma != nil && len(sigma) != c {
		return loadlab.Invalid("consensus", "%s: len(Sigma) = %d, want 0 or %d (one per client)", typ, len(sigma), c)
	}
	noisy := false
	for j, v := range base {
		if !(v >= 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("consensus", "%s.%s[%d] = %v, want finite and ≥ 0", typ, field, j, v)
		}
	}
	for j, s := range sigma {
		if !(s >= 0) || math.IsInf(s, 1) {
			return loadlab.Invalid("consensus", "%s.Sigma[%d] = %v, want finite and ≥ 0", typ, j, s)
		}
		noisy = noisy || s > 0
	}
	if noisy && src == nil {
		return loadlab.Invalid("consensus", "%s.Src is nil with a positive Sigma: a noisy demand model needs a rand.Source", typ)
	}
	return nil
}
