package competitive

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// DTrackBound returns the competitive bound of DTrack-RR with threshold
// α·C on k servers (spec §15.1),
//
//	U(α) = max{ k(1 + 1/α), (k − 1)α + k },
//
// the full-phase and partial-phase terms of the bookkeeping of spec §6.3;
// U(1) = 2k. As spec §15.1 says, the bound rests on the bookkeeping of
// §6.3, whose treatment of phases that straddle a round boundary is
// checked numerically rather than proved (open question 7). It returns
// an error wrapping loadlab.ErrInvalid if k < 2 or α is not positive and
// finite.
func DTrackBound(k int, alpha float64) (float64, error) {
	if err := validateAlphaArgs("DTrackBound", k, alpha); err != nil {
		return 0, err
	}
	kf := float64(k)
	return math.Max(kf*(1+1/alpha), (kf-1)*alpha+kf), nil // spec §15.1
}

// DTrackCruelLimit returns the limit of DTrack-RR's ratio against the
// adaptive adversary Cruel as ε/C → 0 and T → ∞ (spec §15.3),
//
//	L(α) = max{ k(1 + 1/α), (k − 1)(1 + α) },
//
// a lower bound on DTrack-RR's competitive ratio at every α: no α gives
// a ratio below L(α). L(1) = 2k, so DTrack-RR's ratio at α = 1 is exactly
// 2k; L is least, 2k − 1, at α = k/(k − 1). It returns an error wrapping
// loadlab.ErrInvalid if k < 2 or α is not positive and finite.
func DTrackCruelLimit(k int, alpha float64) (float64, error) {
	if err := validateAlphaArgs("DTrackCruelLimit", k, alpha); err != nil {
		return 0, err
	}
	kf := float64(k)
	return math.Max(kf*(1+1/alpha), (kf-1)*(1+alpha)), nil // spec §15.3
}

// BestAlpha returns the threshold that minimises DTrackBound on k
// servers, α* = √(k/(k − 1)), and the bound there, U(α*) = k +
// √(k(k − 1)), which lies in [2k − 1, 2k − ½) and so below U(1) = 2k
// (spec §15.2). It returns an error wrapping loadlab.ErrInvalid if
// k < 2.
func BestAlpha(k int) (alpha, bound float64, err error) {
	if k < 2 {
		return 0, 0, loadlab.Invalid(pkg, "BestAlpha: k = %d servers, want ≥ 2", k)
	}
	kf := float64(k)
	return math.Sqrt(kf / (kf - 1)), kf + math.Sqrt(kf*(kf-1)), nil // spec §15.2
}

func validateAlphaArgs(fn string, k int, alpha float64) error {
	if k < 2 {
		return loadlab.Invalid(pkg, "%s: k = %d servers, want ≥ 2", fn, k)
	}
	if !(alpha > 0 && alpha <= math.MaxFloat64) {
		return loadlab.Invalid(pkg, "%s: alpha = %v, want finite and > 0", fn, alpha)
	}
	return nil
}

// Workload is the random input of an AlphaPoint (spec §15.4).
type Workload int

const (
	// Sticky: one server is free (hold cost 0) and the others cost
	// uniform on [0, Spread·C); the free server changes with probability
	// 1/Persist per slot, to a server drawn uniformly (possibly itself).
	Sticky Workload = iota
	// Uniform: every hold cost is uniform on [0, Spread·C), independent
	// over slots and servers.
	Uniform
)

func (w Workload) String() string {
	switch w {
	case Sticky:
		return "sticky"
	case Uniform:
		return "uniform"
	}
	return fmt.Sprintf("Workload(%d)", int(w))
}

// AlphaPoint is one point of the α/β study of DTrack (spec §15.4): the
// algorithm (Policy, Alpha, Beta; strict trigger) on k servers, its
// random workload and its adversary. Zero fields take the stated
// defaults.
type AlphaPoint struct {
	// Servers is k ≥ 2 (required).
	Servers int
	// Alpha > 0, finite, is DTrack's threshold factor; zero means 1.
	Alpha float64
	// Policy is DTrack's transition policy.
	Policy Policy
	// Beta ≤ Alpha is DTrack-B's eligibility factor (−∞ allowed; NaN
	// and +∞ are errors); ignored by the other policies.
	Beta float64
	// Setup is C > 0, finite; zero means 10.
	Setup float64
	// Slots is the horizon T ≥ 1 of a random instance; zero means 200.
	Slots int
	// Workload is the random input; the zero value is Sticky.
	Workload Workload
	// Spread > 0, finite: hold costs are drawn on [0, Spread·C); zero
	// means 1.
	Spread float64
	// Persist ≥ 1, finite: the mean number of slots a Sticky workload's
	// free server lasts; zero means 20.
	Persist float64
	// Eps in (0, 1] is the adversary's hold cost ε as a fraction of C
	// (spec §6.1); zero means 1/16.
	Eps float64
	// AdversarySlots ≥ 1 is the adversary's horizon; zero means 100
	// cycles, 100·k·(⌊α/ε⌋ + 1) + 1 slots (DTrack-RR stays ⌊α/ε⌋ + 1
	// slots per server against it), which must not exceed 10⁷.
	AdversarySlots int
}

// maxAdversarySlots bounds the default adversary horizon.
const maxAdversarySlots = 10_000_000

// Validate returns an error wrapping loadlab.ErrInvalid naming the field
// and its value if a field is outside its domain, and one wrapping
// loadlab.ErrTooLarge if the default adversary horizon exceeds 10⁷ slots
// (set AdversarySlots).
func (p AlphaPoint) Validate() error {
	_, err := p.defaults()
	return err
}

func (p AlphaPoint) defaults() (AlphaPoint, error) {
	if err := p.validateFields(); err != nil {
		return p, err
	}
	def := func(x *float64, v float64) {
		if *x == 0 {
			*x = v
		}
	}
	def(&p.Alpha, 1)
	def(&p.Setup, 10)
	def(&p.Spread, 1)
	def(&p.Persist, 20)
	def(&p.Eps, 1.0/16)
	if p.Slots == 0 {
		p.Slots = 200
	}
	if p.Beta > p.Alpha || math.IsNaN(p.Beta) {
		return p, loadlab.Invalid(pkg, "AlphaPoint.Beta = %v, want −∞ ≤ Beta ≤ Alpha = %v", p.Beta, p.Alpha)
	}
	if p.AdversarySlots == 0 {
		n := 100*float64(p.Servers)*(math.Floor(p.Alpha/p.Eps)+1) + 1
		if n > maxAdversarySlots {
			return p, loadlab.TooLarge(pkg, "AlphaPoint: the default adversary horizon of %.3g slots (Alpha = %v, Eps = %v) exceeds 10⁷; set AdversarySlots", n, p.Alpha, p.Eps)
		}
		p.AdversarySlots = int(n)
	}
	return p, nil
}

// validateFields checks each field's own domain.
func (p AlphaPoint) validateFields() error {
	finitePos := func(x float64) bool { return x >= 0 && x <= math.MaxFloat64 }
	switch {
	case p.Servers < 2:
		return loadlab.Invalid(pkg, "AlphaPoint.Servers = %d, want ≥ 2", p.Servers)
	case !finitePos(p.Alpha):
		return loadlab.Invalid(pkg, "AlphaPoint.Alpha = %v, want finite and > 0 (0: the default 1)", p.Alpha)
	case p.Policy < RoundRobin || p.Policy > Backward:
		return loadlab.Invalid(pkg, "AlphaPoint.Policy = %d, want RoundRobin, Forward or Backward", int(p.Policy))
	case !finitePos(p.Setup):
		return loadlab.Invalid(pkg, "AlphaPoint.Setup = %v, want finite and > 0 (0: the default 10)", p.Setup)
	case p.Slots < 0:
		return loadlab.Invalid(pkg, "AlphaPoint.Slots = %d, want ≥ 1 (0: the default 200)", p.Slots)
	case p.Workload < Sticky || p.Workload > Uniform:
		return loadlab.Invalid(pkg, "AlphaPoint.Workload = %d, want Sticky or Uniform", int(p.Workload))
	case !finitePos(p.Spread):
		return loadlab.Invalid(pkg, "AlphaPoint.Spread = %v, want finite and > 0 (0: the default 1)", p.Spread)
	case !finitePos(p.Persist) || p.Persist > 0 && p.Persist < 1:
		return loadlab.Invalid(pkg, "AlphaPoint.Persist = %v, want finite and ≥ 1 (0: the default 20)", p.Persist)
	case !finitePos(p.Eps) || p.Eps > 1:
		return loadlab.Invalid(pkg, "AlphaPoint.Eps = %v, want in (0, 1] (0: the default 1/16)", p.Eps)
	case p.AdversarySlots < 0:
		return loadlab.Invalid(pkg, "AlphaPoint.AdversarySlots = %d, want ≥ 1 (0: the default)", p.AdversarySlots)
	}
	return p.checkSize()
}

// checkSize bounds the memory of a random instance.
func (p AlphaPoint) checkSize() error {
	n, ok := size.Mul(max(p.Slots, 1), p.Servers)
	if !ok {
		return loadlab.TooLarge(pkg, "AlphaPoint: Slots·Servers = %d·%d overflows int", p.Slots, p.Servers)
	}
	if err := size.Check(pkg, "AlphaPoint: Slots·Servers hold costs", n, 8); err != nil {
		return err
	}
	if p.AdversarySlots > 0 {
		return validateCruel(p.Servers, p.AdversarySlots, 1, 1)
	}
	return nil
}

// DTrack returns the algorithm of the point, with its defaults applied.
// It returns the errors of Validate.
func (p AlphaPoint) DTrack() (*DTrack, error) {
	q, err := p.defaults()
	if err != nil {
		return nil, err
	}
	return &DTrack{Policy: q.Policy, Alpha: q.Alpha, Beta: q.Beta}, nil
}

// Instance draws a random instance of the point's workload from src
// (spec §15.4). It returns the errors of Validate and panics if src is
// nil.
func (p AlphaPoint) Instance(src rand.Source) (*Instance, error) {
	if src == nil {
		panic("competitive: AlphaPoint.Instance: src is nil")
	}
	q, err := p.defaults()
	if err != nil {
		return nil, err
	}
	return drawInstance(rand.New(src), q.Servers, q.Slots, q.Setup, q.Workload, q.Spread, q.Persist)
}

// drawInstance draws an instance of workload wl (spec §15.6): k servers,
// T slots, setup C, costs on [0, spread·C), a Sticky free server lasting
// persist slots on average.
func drawInstance(rng *rand.Rand, k, T int, C float64, wl Workload, spread, persist float64) (*Instance, error) {
	top := spread * C
	h := make([]float64, T*k)
	free := rng.IntN(k)
	for t := range T {
		row := h[t*k : (t+1)*k]
		for s := range row {
			row[s] = rng.Float64() * top
		}
		if wl == Sticky {
			if t > 0 && rng.Float64()*persist < 1 {
				free = rng.IntN(k)
			}
			row[free] = 0
		}
	}
	return NewInstanceFlat(T, k, h, C)
}

// AlphaRun is one random instance of an AlphaPoint: DTrack's and the
// never-migrate baseline's costs over the offline optimum.
type AlphaRun struct {
	DTrack, NeverMigrate float64
}

// Run is one run of the point: it draws an instance from src (Instance)
// and returns the ratios cost/OPT of DTrack and of NeverMigrate on it.
// It returns the errors of Validate and panics if src is nil.
func (p AlphaPoint) Run(src rand.Source) (AlphaRun, error) {
	if src == nil {
		panic("competitive: AlphaPoint.Run: src is nil")
	}
	in, err := p.Instance(src)
	if err != nil {
		return AlphaRun{}, err
	}
	alg, _ := p.DTrack()
	opt := OptimumCost(in)
	c, err := RunCost(alg, in)
	if err != nil {
		return AlphaRun{}, err
	}
	n, err := RunCost(&NeverMigrate{}, in)
	if err != nil {
		return AlphaRun{}, err
	}
	return AlphaRun{DTrack: ratio(c, opt), NeverMigrate: ratio(n, opt)}, nil
}

// Adversary returns DTrack's ratio cost/OPT against Cruel built for it
// (spec §6.1), with ε = Eps·C over AdversarySlots slots. It returns the
// errors of Validate.
func (p AlphaPoint) Adversary() (float64, error) {
	q, err := p.defaults()
	if err != nil {
		return 0, err
	}
	alg, _ := q.DTrack()
	return CruelRatio(alg, q.Servers, q.AdversarySlots, q.Setup, q.Eps*q.Setup)
}

// Bounds returns the point's competitive bound U(α) (DTrackBound) and
// the adversary's limit L(α) (DTrackCruelLimit) where they apply:
// DTrack-RR, and DTrack-B with β = −∞ (the same algorithm). For
// DTrack-B with finite β and DTrack-F no bound is known (DTrack-F and
// DTrack-B with β = α are not competitive, spec §6.4) and ok is false.
// It returns the errors of Validate.
func (p AlphaPoint) Bounds() (upper, lower float64, ok bool, err error) {
	q, err := p.defaults()
	if err != nil {
		return 0, 0, false, err
	}
	if !(q.Policy == RoundRobin || q.Policy == Backward && math.IsInf(q.Beta, -1)) {
		return 0, 0, false, nil
	}
	upper, _ = DTrackBound(q.Servers, q.Alpha)
	lower, _ = DTrackCruelLimit(q.Servers, q.Alpha)
	return upper, lower, true, nil
}

// AlphaSummary is a point of the α/β study: the bounds, the adversary's
// ratio, and the random runs summarised with 95 % Student-t intervals.
type AlphaSummary struct {
	Point AlphaPoint // with the defaults applied
	// Bound is U(α) and Limit L(α) when Bounded (AlphaPoint.Bounds).
	Bound, Limit float64
	Bounded      bool
	// Adversary is DTrack's ratio against Cruel (AlphaPoint.Adversary).
	Adversary float64
	// Random is DTrack's mean ratio over the random runs, RandomMax the
	// largest, and NeverMigrate the baseline's mean ratio on the same
	// instances.
	Random, NeverMigrate loadlab.Estimate
	RandomMax            float64
}

// AlphaStudy runs every point runs times, run r of point i on
// loadlab.Stream(seed, i, r) (AlphaPoint.Run), on the cores, and
// summarises each point with its bounds and its adversary (spec §15.4).
// Results are the same whatever the number of goroutines. It returns an
// error wrapping loadlab.ErrInvalid for runs < 2 or a bad point (naming
// its index), and the first run's error in run order.
func AlphaStudy(points []AlphaPoint, runs int, seed uint64) ([]AlphaSummary, error) {
	full, res, err := runStudy[AlphaPoint, AlphaRun]("AlphaStudy", points, runs, seed)
	if err != nil {
		return nil, err
	}
	adv := make([]float64, len(points))
	advErr := make([]error, len(points))
	mc.For(len(points), 0, func(i int) { adv[i], advErr[i] = full[i].Adversary() })
	out := make([]AlphaSummary, len(points))
	for i, q := range full {
		if advErr[i] != nil {
			return nil, advErr[i]
		}
		out[i] = SummarizeAlpha(q, adv[i], res[i])
	}
	return out, nil
}

// SummarizeAlpha summarises a point's runs and its adversary's ratio
// (the merge of AlphaStudy). It panics if p does not pass Validate (the
// runs of an invalid point cannot exist).
func SummarizeAlpha(p AlphaPoint, adversary float64, runs []AlphaRun) AlphaSummary {
	q, err := p.defaults()
	if err != nil {
		panic("competitive: SummarizeAlpha: " + err.Error())
	}
	s := AlphaSummary{Point: q, Adversary: adversary}
	s.Bound, s.Limit, s.Bounded, _ = q.Bounds()
	d, n := make([]float64, len(runs)), make([]float64, len(runs))
	for i, r := range runs {
		d[i], n[i] = r.DTrack, r.NeverMigrate
		s.RandomMax = math.Max(s.RandomMax, r.DTrack)
	}
	s.Random, s.NeverMigrate = mc.Estimate(d), mc.Estimate(n)
	return s
}
