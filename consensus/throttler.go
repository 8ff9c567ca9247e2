package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/wgraph"
)

// Measure selects the nodal performance measure p_i(k) of spec §3.4
// (Table I, as reconstructed there) that drives the update law (4).
type Measure int

const (
	// Amount is Table I row I, the throttled amount p = r − x. It is the
	// measure of the spec's Section 4 analysis and the default.
	Amount Measure = iota
	// Ratio is row II, the throttled ratio p = 1 − x/r. It needs r > 0.
	Ratio
	// LogRatio is row III, p = log r − log x. It needs r > 0 and x > 0.
	LogRatio
	// Clipped is the literal count of rejected requests,
	// p = (r − x)₊ = r − a (spec §3.4 and open question 2).
	Clipped
)

// String returns the measure's name.
func (m Measure) String() string {
	switch m {
	case Amount:
		return "amount"
	case Ratio:
		return "ratio"
	case LogRatio:
		return "log-ratio"
	case Clipped:
		return "clipped"
	}
	return fmt.Sprintf("Measure(%d)", int(m))
}

// Orientation is the sign convention of the update law (spec §3.1 and
// open question 1). Both give identical limit trajectories; they differ
// only in the sign, and for Ratio an additive constant, of the recorded
// measure p.
type Orientation int

const (
	// Starved (the default, the spec's reading) orients p so that larger
	// means more throttled: x(k+1) = x(k) + γ L p(k).
	Starved Orientation = iota
	// Served orients p so that larger means better served
	// (x − r, x/r, log x − log r, −(r − x)₊): x(k+1) = x(k) − γ L p(k).
	Served
)

// Throttler is a distributed system throttler (spec §3): servers on the
// nodes of a connected weighted graph exchange their nodal measures
// every update cycle γ. Every function of the package that models a
// throttler takes a *Throttler; a nil *Throttler is a programmer error
// and panics, naming the argument.
type Throttler struct {
	// Graph is the communication graph; its weights are the w_ij of (3).
	Graph *wgraph.Graph
	// Gamma is the server update cycle γ > 0 (spec §3.1: Δt = γ).
	Gamma float64
	// Measure is the nodal performance measure; the zero value is Amount.
	Measure Measure
	// Orientation is the sign convention; the zero value is Starved.
	Orientation Orientation
}

// The named errors of the package are the shared values of package
// loadlab (docs/conventions.md §1).
var (
	// ErrUnstable is returned (wrapped) when γ λ_n ≥ 2, or γ λ_n = 2 to
	// rounding, where the dispersion has no stationary variance (spec
	// §4.1); the accompanying value is +Inf.
	ErrUnstable = loadlab.ErrUnstable
	// ErrIllConditioned is returned (wrapped) when a result would have no
	// correct digits: a nearly disconnected graph, or a stability
	// decision that the eigenvalue bounds could not settle.
	ErrIllConditioned = loadlab.ErrIllConditioned
)

// validateGamma returns an error unless γ is finite and positive.
func validateGamma(gamma float64) error {
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return loadlab.Invalid("consensus", "Gamma = %v: want finite and > 0", gamma)
	}
	return nil
}

// validateGraph returns an error unless g has nodes and is connected.
func validateGraph(g *wgraph.Graph) error {
	if err := validateNodes(g); err != nil {
		return err
	}
	return validateConnected(g)
}

// validateNodes returns an error unless g is non-nil and has nodes.
func validateNodes(g *wgraph.Graph) error {
	if g == nil {
		return loadlab.Invalid("consensus", "Throttler.Graph is nil")
	}
	if g.Order() == 0 {
		return loadlab.Invalid("consensus", "Throttler.Graph has no nodes")
	}
	return nil
}

// validateConnected returns an error wrapping ErrDisconnected unless the
// graph g with nodes is connected: a breadth-first search, O(n + m).
func validateConnected(g *wgraph.Graph) error {
	if !wgraph.IsConnected(g) {
		return loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "Throttler.Graph with %d nodes is disconnected: a throttler needs λ₂ > 0", g.Order())
	}
	return nil
}

// Validate checks every field of th: a connected graph with nodes, γ
// finite and positive, a known Measure and Orientation. The errors wrap
// loadlab.ErrInvalid (loadlab.ErrDisconnected for a disconnected graph)
// and name the field. It panics if th is nil.
func (th *Throttler) Validate() error {
	if th == nil {
		panic("consensus: Throttler is nil")
	}
	if err := validateGraph(th.Graph); err != nil {
		return err
	}
	return th.validateParams()
}

// validateParams is Validate without the checks of the graph: γ, Measure
// and Orientation.
func (th *Throttler) validateParams() error {
	if err := validateGamma(th.Gamma); err != nil {
		return err
	}
	if th.Measure < Amount || th.Measure > Clipped {
		return loadlab.Invalid("consensus", "Throttler.Measure = %d: unknown", int(th.Measure))
	}
	if th.Orientation != Starved && th.Orientation != Served {
		return loadlab.Invalid("consensus", "Throttler.Orientation = %d: unknown", int(th.Orientation))
	}
	return nil
}

// validateLinear is Validate for the H2 functions, whose closed forms
// hold for the linear measure only (spec §4): Measure must be Amount.
func (th *Throttler) validateLinear(fn string) error {
	if err := th.Validate(); err != nil {
		return err
	}
	if th.Measure != Amount {
		return loadlab.Invalid("consensus", "%s: Throttler.Measure = %v: the H2 measures are defined for Amount", fn, th.Measure)
	}
	return nil
}

// Nodal writes the nodal measure p of m (spec §3.4 Table I) for requests
// r and limits x into dst, in the Starved orientation. It returns an
// error naming the node when the measure is undefined there (r_i ≤ 0 for
// Ratio and LogRatio, x_i ≤ 0 for LogRatio, a non-finite r_i or x_i),
// and for an unknown m. It panics if the lengths differ.
func (m Measure) Nodal(dst, r, x []float64) error {
	if len(dst) != len(r) || len(x) != len(r) {
		panic(fmt.Sprintf("consensus: Nodal: len(dst) = %d, len(r) = %d, len(x) = %d", len(dst), len(r), len(x)))
	}
	if m < Amount || m > Clipped {
		return loadlab.Invalid("consensus", "Nodal: Measure = %d: unknown", int(m))
	}
	for i, ri := range r {
		xi := x[i]
		if math.IsNaN(ri) || math.IsInf(ri, 0) {
			return loadlab.Invalid("consensus", "demand r[%d] = %v: want finite", i, ri)
		}
		if math.IsNaN(xi) || math.IsInf(xi, 0) {
			return loadlab.Invalid("consensus", "limit x[%d] = %v: want finite", i, xi)
		}
		switch m {
		case Amount: // Table I row I
			dst[i] = ri - xi
		case Clipped: // (r − x)₊ = r − a
			dst[i] = max(ri-xi, 0)
		case Ratio: // row II
			if !(ri > 0) {
				return loadlab.Invalid("consensus", "demand r[%d] = %v: the ratio measure needs r > 0", i, ri)
			}
			dst[i] = 1 - xi/ri
		case LogRatio: // row III
			if !(ri > 0) {
				return loadlab.Invalid("consensus", "demand r[%d] = %v: the log-ratio measure needs r > 0", i, ri)
			}
			if !(xi > 0) {
				return loadlab.Invalid("consensus", "limit x[%d] = %v: the log-ratio measure needs x > 0", i, xi)
			}
			dst[i] = math.Log(ri) - math.Log(xi)
		default:
			panic(fmt.Sprintf("consensus: unknown Measure %d", int(m)))
		}
	}
	return nil
}

// orient maps a Starved measure to the recorded orientation: the Served
// measure is c − p with c = 1 for Ratio (x/r) and 0 otherwise.
func orient(o Orientation, m Measure, p float64) float64 {
	if o == Starved {
		return p
	}
	if m == Ratio {
		return 1 - p
	}
	return -p
}

// Equilibrium returns the fixed point x* of the update law for constant
// demand r and total limit ltotal (spec §3.4 Table I, last column):
// Amount gives x* = r − (r_total − l_total)/n·1 (equal throttled
// amount); Ratio and LogRatio give x* = (l_total/r_total) r (equal
// ratio). Clipped has the Amount fixed point when r_total ≥ l_total; with
// spare limit every x ≥ r is a fixed point, which is an error here.
func Equilibrium(m Measure, r []float64, ltotal float64) ([]float64, error) {
	n := len(r)
	if n == 0 {
		return nil, loadlab.Invalid("consensus", "Equilibrium: no demand values")
	}
	if math.IsNaN(ltotal) || math.IsInf(ltotal, 0) {
		return nil, loadlab.Invalid("consensus", "Equilibrium: ltotal = %v, want finite", ltotal)
	}
	if m < Amount || m > Clipped {
		return nil, loadlab.Invalid("consensus", "Equilibrium: Measure = %d: unknown", int(m))
	}
	// The means r_total/n and l_total/n, summed as Σ r_i/n so that they
	// stay finite when r_total itself would overflow.
	var rs dense.CompensatedSum
	for i, ri := range r {
		if math.IsNaN(ri) || math.IsInf(ri, 0) {
			return nil, loadlab.Invalid("consensus", "Equilibrium: r[%d] = %v, want finite", i, ri)
		}
		if (m == Ratio || m == LogRatio) && !(ri > 0) {
			return nil, loadlab.Invalid("consensus", "Equilibrium: r[%d] = %v: the %v measure needs r > 0", i, ri, m)
		}
		rs.Add(ri / float64(n))
	}
	rmean, lmean := rs.Value(), ltotal/float64(n)
	x := make([]float64, n)
	switch m {
	case Amount, Clipped:
		if m == Clipped && rmean < lmean {
			return nil, loadlab.Invalid("consensus", "Equilibrium: clipped measure with r_total < l_total = %v: every x ≥ r with the same total is a fixed point", ltotal)
		}
		c := rmean - lmean
		for i, ri := range r {
			x[i] = ri - c
		}
	default: // Ratio, LogRatio
		if m == LogRatio && !(ltotal > 0) {
			return nil, loadlab.Invalid("consensus", "Equilibrium: ltotal = %v: the log-ratio measure needs a positive total limit", ltotal)
		}
		s := lmean / rmean
		for i, ri := range r {
			x[i] = s * ri
		}
	}
	return x, nil
}
