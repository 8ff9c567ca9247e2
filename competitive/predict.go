package competitive

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// Guarded follows an algorithm that uses predictions (Predicted, such as
// a Lookahead with a Forecaster) and falls back for good to a
// competitive algorithm (Fallback, such as WFA) the first time trusting
// the predictions has cost too much (spec §16.2). It runs both on every
// slot and tracks their costs c_P(t) and c_F(t) (hold costs and setups,
// slot t included); in slot t it takes Predicted's server while
//
//	c_P(t) ≤ (1 + Lambda)·c_F(t) + C,
//
// (with a relative slack of 1e-12 for rounding), and from the first slot
// where this fails, Fallback's server in every slot. Then (spec §16.2)
//
//	cost ≤ (1 + Lambda)·cost(Fallback) + 2C      (× (1 + 1e-12)),
//
// whatever the predictions, so with WFA as Fallback cost ≤ ((1 +
// Lambda)(2k − 1) + 2)·OPT; and when Predicted follows an optimal
// schedule (a Lookahead whose forecasts are exact over the whole
// horizon) the test never fails (every prefix of an optimal schedule
// costs at most c_F(t) + C) and Guarded attains OPT.
//
// A slot costs what the two algorithms' slots cost.
type Guarded struct {
	// Predicted and Fallback are the two algorithms (required).
	Predicted, Fallback Online
	// Lambda ≥ 0, finite, is the slack of the test; 0 is the strictest
	// guard (no default is substituted).
	Lambda float64

	lambda     float64
	k          int
	c          float64
	cp, cf     float64
	sp, sf, s  int
	fellBack   bool
	fallbackAt int
	t          int
}

// Validate returns an error wrapping loadlab.ErrInvalid if Predicted or
// Fallback is nil or Lambda is negative, NaN or infinite, and the
// Validate error of either algorithm if it has that method.
func (g *Guarded) Validate() error {
	switch {
	case g.Predicted == nil:
		return loadlab.Invalid(pkg, "Guarded.Predicted is nil, want an online algorithm")
	case g.Fallback == nil:
		return loadlab.Invalid(pkg, "Guarded.Fallback is nil, want an online algorithm")
	case !finiteNonNeg(g.Lambda):
		return loadlab.Invalid(pkg, "Guarded.Lambda = %v, want finite and ≥ 0", g.Lambda)
	}
	for name, a := range map[string]Online{"Predicted": g.Predicted, "Fallback": g.Fallback} {
		if v, ok := a.(interface{ Validate() error }); ok {
			if err := v.Validate(); err != nil {
				return fmt.Errorf("Guarded.%s: %w", name, err)
			}
		}
	}
	return nil
}

// Reset implements Online: it validates the fields and resets both
// algorithms. Its errors are Validate's, the two algorithms' Reset
// errors and those of every Reset (k < 1, C negative, NaN or infinite).
func (g *Guarded) Reset(k int, C float64) error {
	if err := g.Validate(); err != nil {
		return err
	}
	if err := validateReset(k, C); err != nil {
		return err
	}
	if err := g.Predicted.Reset(k, C); err != nil {
		return err
	}
	if err := g.Fallback.Reset(k, C); err != nil {
		return err
	}
	g.lambda, g.k, g.c = g.Lambda, k, C
	g.cp, g.cf, g.sp, g.sf, g.s = 0, 0, NoServer, NoServer, NoServer
	g.fellBack, g.fallbackAt, g.t = false, -1, 0
	return nil
}

// FellBack reports whether Guarded has fallen back, and the slot (from
// 0) where it did (−1 if not).
func (g *Guarded) FellBack() (bool, int) { return g.fellBack, g.fallbackAt }

// Step implements Online. Besides the errors of every Step it returns
// those of the two algorithms' Step; a bad row leaves the state
// unchanged, and so does an error of Predicted (which is stepped first,
// as Lookahead leaves its state unchanged on a bad forecast), but an
// error of Fallback after Predicted has stepped leaves Guarded in need of
// a Reset. It panics if called before a successful Reset.
func (g *Guarded) Step(hold []float64) (int, error) {
	if g.k == 0 {
		panic("competitive: Guarded.Step before Reset")
	}
	if err := validateStep("Guarded.Step", hold, g.k); err != nil {
		return NoServer, err
	}
	sp, err := g.Predicted.Step(hold)
	if err != nil {
		return NoServer, err
	}
	sf, err := g.Fallback.Step(hold)
	if err != nil {
		return NoServer, err
	}
	for _, x := range []int{sp, sf} {
		if x < 0 || x >= g.k {
			return NoServer, loadlab.Invalid(pkg, "Guarded.Step: an algorithm chose server %d of %d at slot %d", x, g.k, g.t)
		}
	}
	g.cp += hold[sp] + g.setup(g.sp, sp)
	g.cf += hold[sf] + g.setup(g.sf, sf)
	g.sp, g.sf = sp, sf
	// spec §16.2; the relative slack 1e-12 keeps an exact optimal
	// schedule's prefix, whose cost can tie with c_F(t) + C, on the right
	// side of the test whatever the rounding of the two sums.
	if !g.fellBack && g.cp > ((1+g.lambda)*g.cf+g.c)*(1+1e-12) {
		g.fellBack, g.fallbackAt = true, g.t
	}
	g.t++
	g.s = sp
	if g.fellBack {
		g.s = sf
	}
	return g.s, nil
}

func (g *Guarded) setup(prev, s int) float64 {
	if prev == s {
		return 0
	}
	return g.c
}

// NoisyOracle is a Forecaster whose predictions are the true future hold
// costs of In plus independent N(0, Sigma²) errors, clipped at 0 (spec
// §16.1); Sigma = 0 is Oracle. The errors are drawn from Src afresh at
// every forecast.
type NoisyOracle struct {
	In    *Instance
	Sigma float64
	Src   rand.Source
}

// Validate returns an error wrapping loadlab.ErrInvalid if In is nil,
// Sigma is negative, NaN or infinite, or Src is nil while Sigma > 0.
func (o NoisyOracle) Validate() error {
	switch {
	case o.In == nil:
		return loadlab.Invalid(pkg, "NoisyOracle.In is nil, want an instance")
	case !finiteNonNeg(o.Sigma):
		return loadlab.Invalid(pkg, "NoisyOracle.Sigma = %v, want finite and ≥ 0", o.Sigma)
	case o.Src == nil && o.Sigma > 0:
		return loadlab.Invalid(pkg, "NoisyOracle.Src is nil, want a random source (Sigma = %v > 0)", o.Sigma)
	}
	return nil
}

// Forecast implements Forecaster. It panics where Oracle.Forecast does,
// and if Src is nil while Sigma > 0 (Lookahead.Reset reports both first
// through Validate).
func (o NoisyOracle) Forecast(dst []float64, t, w int) (int, bool) {
	if o.Sigma > 0 && o.Src == nil {
		panic("competitive: NoisyOracle.Forecast: NoisyOracle.Src is nil")
	}
	L, ok := Oracle{o.In}.Forecast(dst, t, w)
	if o.Sigma > 0 {
		rng := rand.New(o.Src)
		for i := range dst[:L*o.In.Servers()] {
			dst[i] = math.Max(0, dst[i]+o.Sigma*rng.NormFloat64())
		}
	}
	return L, ok
}

// PredictionPoint is one point of the prediction study (spec §16.3):
// a random instance (the workloads of AlphaPoint), predictions with
// error Noise·C over a window, and the algorithms that use them or not.
// Zero fields take the stated defaults.
type PredictionPoint struct {
	// Servers is k ≥ 2 (required).
	Servers int
	// Setup is C > 0, finite; zero means 10.
	Setup float64
	// Slots is the horizon T ≥ 1; zero means 200.
	Slots int
	// Workload, Spread and Persist are AlphaPoint's (defaults Sticky, 1,
	// 20).
	Workload Workload
	Spread   float64
	Persist  float64
	// Window ≥ 1 is the look-ahead in slots; zero means Slots (the whole
	// horizon).
	Window int
	// Noise ≥ 0, finite: the prediction error's standard deviation as a
	// fraction of C; 0 means exact predictions.
	Noise float64
	// Lambda ≥ 0, finite: Guarded's slack; 0 is valid (no default).
	Lambda float64
}

// Validate returns an error wrapping loadlab.ErrInvalid naming the field
// and its value if a field is outside its domain, and one wrapping
// loadlab.ErrTooLarge if the instance or the window does not fit in
// memory.
func (p PredictionPoint) Validate() error {
	_, err := p.defaults()
	return err
}

func (p PredictionPoint) defaults() (PredictionPoint, error) {
	nonNeg := func(x float64) bool { return x >= 0 && x <= math.MaxFloat64 }
	switch {
	case p.Servers < 2:
		return p, loadlab.Invalid(pkg, "PredictionPoint.Servers = %d, want ≥ 2", p.Servers)
	case !nonNeg(p.Setup):
		return p, loadlab.Invalid(pkg, "PredictionPoint.Setup = %v, want finite and > 0 (0: the default 10)", p.Setup)
	case p.Slots < 0:
		return p, loadlab.Invalid(pkg, "PredictionPoint.Slots = %d, want ≥ 1 (0: the default 200)", p.Slots)
	case p.Workload < Sticky || p.Workload > Uniform:
		return p, loadlab.Invalid(pkg, "PredictionPoint.Workload = %d, want Sticky or Uniform", int(p.Workload))
	case !nonNeg(p.Spread):
		return p, loadlab.Invalid(pkg, "PredictionPoint.Spread = %v, want finite and > 0 (0: the default 1)", p.Spread)
	case !nonNeg(p.Persist) || p.Persist > 0 && p.Persist < 1:
		return p, loadlab.Invalid(pkg, "PredictionPoint.Persist = %v, want finite and ≥ 1 (0: the default 20)", p.Persist)
	case p.Window < 0:
		return p, loadlab.Invalid(pkg, "PredictionPoint.Window = %d, want ≥ 1 (0: the whole horizon)", p.Window)
	case !nonNeg(p.Noise):
		return p, loadlab.Invalid(pkg, "PredictionPoint.Noise = %v, want finite and ≥ 0", p.Noise)
	case !nonNeg(p.Lambda):
		return p, loadlab.Invalid(pkg, "PredictionPoint.Lambda = %v, want finite and ≥ 0", p.Lambda)
	}
	if p.Setup == 0 {
		p.Setup = 10
	}
	if p.Slots == 0 {
		p.Slots = 200
	}
	if p.Spread == 0 {
		p.Spread = 1
	}
	if p.Persist == 0 {
		p.Persist = 20
	}
	if p.Window == 0 {
		p.Window = p.Slots
	}
	for _, n := range []int{p.Slots, p.Window + 1} {
		cells, ok := size.Mul(n, p.Servers)
		if !ok {
			return p, loadlab.TooLarge(pkg, "PredictionPoint: %d slots of %d servers overflow int", n, p.Servers)
		}
		if err := size.Check(pkg, "PredictionPoint: hold costs and forecasts of Slots or Window+1 slots", cells, 16); err != nil {
			return p, err
		}
	}
	return p, nil
}

// PredictionRun is one instance of a PredictionPoint: each algorithm's
// cost over the offline optimum.
type PredictionRun struct {
	// Lookahead trusts the predictions (spec §7 with NoisyOracle);
	// Guarded is Lookahead guarded by WFA with the point's Lambda; WFA
	// and DTrack (DTrack-RR, α = 1) use no prediction; NeverMigrate is
	// the online never-migrate baseline.
	Lookahead, Guarded, WFA, DTrack, NeverMigrate float64
}

// Run is one run of the point: it draws an instance from src (as
// AlphaPoint.Instance does), then the prediction errors, and returns
// each algorithm's ratio to OPT. It returns the errors of Validate and
// panics if src is nil.
func (p PredictionPoint) Run(src rand.Source) (PredictionRun, error) {
	if src == nil {
		panic("competitive: PredictionPoint.Run: src is nil")
	}
	q, err := p.defaults()
	if err != nil {
		return PredictionRun{}, err
	}
	rng := rand.New(src)
	in, err := drawInstance(rng, q.Servers, q.Slots, q.Setup, q.Workload, q.Spread, q.Persist)
	if err != nil {
		return PredictionRun{}, err
	}
	fc := NoisyOracle{In: in, Sigma: q.Noise * q.Setup, Src: rng}
	// The two Lookaheads see the same forecaster; each draws its own
	// errors in turn from the run's stream, so runs are reproducible.
	algs := []Online{
		&Lookahead{Window: q.Window, Forecaster: fc},
		&Guarded{Predicted: &Lookahead{Window: q.Window, Forecaster: fc}, Fallback: &WFA{}, Lambda: q.Lambda},
		&WFA{}, NewDTrack(RoundRobin), &NeverMigrate{},
	}
	opt := OptimumCost(in)
	var r [5]float64
	for i, a := range algs {
		c, err := RunCost(a, in)
		if err != nil {
			return PredictionRun{}, err
		}
		r[i] = ratio(c, opt)
	}
	return PredictionRun{Lookahead: r[0], Guarded: r[1], WFA: r[2], DTrack: r[3], NeverMigrate: r[4]}, nil
}

// PredictionSummary is a point of the prediction study: each
// algorithm's mean ratio to OPT with its 95 % Student-t interval, and
// the guard's bound (1 + Lambda)(2k − 1) + 2 on Guarded's ratio.
type PredictionSummary struct {
	Point                                         PredictionPoint // defaults applied
	Lookahead, Guarded, WFA, DTrack, NeverMigrate loadlab.Estimate
	// GuardedMax and LookaheadMax are the largest ratios seen.
	GuardedMax, LookaheadMax float64
	Bound                    float64
}

// PredictionStudy runs every point runs times, run r of point i on
// loadlab.Stream(seed, i, r) (PredictionPoint.Run), on the cores, and
// summarises each point (spec §16.3). Results are the same whatever the
// number of goroutines. It returns an error wrapping loadlab.ErrInvalid
// for runs < 2 or a bad point (naming its index), and the first run's
// error in run order.
func PredictionStudy(points []PredictionPoint, runs int, seed uint64) ([]PredictionSummary, error) {
	full, res, err := runStudy[PredictionPoint, PredictionRun]("PredictionStudy", points, runs, seed)
	if err != nil {
		return nil, err
	}
	out := make([]PredictionSummary, len(points))
	for i, q := range full {
		out[i] = SummarizePredictions(q, res[i])
	}
	return out, nil
}

// SummarizePredictions summarises a point's runs (the merge of
// PredictionStudy). It panics if p does not pass Validate.
func SummarizePredictions(p PredictionPoint, runs []PredictionRun) PredictionSummary {
	q, err := p.defaults()
	if err != nil {
		panic("competitive: SummarizePredictions: " + err.Error())
	}
	cols := make([][]float64, 5)
	s := PredictionSummary{Point: q, Bound: (1+q.Lambda)*float64(2*q.Servers-1) + 2}
	for _, r := range runs {
		for i, x := range []float64{r.Lookahead, r.Guarded, r.WFA, r.DTrack, r.NeverMigrate} {
			cols[i] = append(cols[i], x)
		}
		s.GuardedMax = math.Max(s.GuardedMax, r.Guarded)
		s.LookaheadMax = math.Max(s.LookaheadMax, r.Lookahead)
	}
	s.Lookahead, s.Guarded, s.WFA = mc.Estimate(cols[0]), mc.Estimate(cols[1]), mc.Estimate(cols[2])
	s.DTrack, s.NeverMigrate = mc.Estimate(cols[3]), mc.Estimate(cols[4])
	return s
}
