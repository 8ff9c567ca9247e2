package stability

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/size"

	"gonum.org/v1/gonum/mat"
)

// CompareSettings tunes Compare. A nil *CompareSettings or a zero field
// means the default; a negative, NaN or infinite field (or one otherwise
// outside its domain) is an error wrapping loadlab.ErrInvalid naming it.
type CompareSettings struct {
	// Sensitivity is the greedy law's β in 1/(hour·load) (default 20).
	Sensitivity float64
	// Guard keeps the greedy state in [Guard, 1 − Guard] at the start of
	// every period (default 1e-3). In floating point x would otherwise
	// reach exactly 0 or 1 after a long spell on one side of capacity, and
	// those faces are invariant (§5.1): a node could never react again. Any deployment
	// needs such a guard; the spec is silent (§9 item 7).
	Guard float64
	// Sub ≥ 1 is the number of samples per period at which both policies
	// are measured (default 4).
	Sub int

	// Problem, if not nil, builds the optimal algorithm's instance of P1
	// for each period's network, replacing W and Penalty below; use it to
	// compare under other cost families of package dual.
	Problem func(nw *anycast.Network) (*dual.Problem, error)
	// W and Penalty define the optimal algorithm's costs, those of
	// dual.Quadratic: f_i = (W/2) A_i (1 − x_i)² prices traffic sent to
	// L2 and h_i = (Penalty/2) (S_i − T_i)₊² prices overload (defaults 1
	// and 1000; spec §7). A large Penalty makes the optimum avoid overload
	// almost entirely: its overload is μ_i/Penalty at a dual price μ_i.
	W, Penalty float64
	// DualSteps is the number of dual iterations (Algorithm 1, spec §4.8)
	// per period, warm-started from the previous period's μ (default 20).
	DualSteps int
	// DualStep is the constant step α of (17); zero means
	// 1/(max_i (CᵀA)_i/W + 1/Penalty) for each period's demand, the
	// reciprocal of a Lipschitz bound of the dual gradient.
	DualStep float64
	// FastControl, when not nil, adds a third policy (Comparison.FastControl):
	// the dual algorithm whose nodes learn the coupling β only through
	// FastControl packets, with the loss, delay and Poisson measurement
	// window it sets (dual.FastControl, spec §4.7–4.8), warm-started from
	// its own prices; its control traffic is counted (Policy.ControlPackets,
	// spec §13.6). Its Src is drawn from in period order.
	FastControl *dual.FastControl

	// Threshold: a node counts as overloaded when S_i > (1 + Threshold)·T_i
	// (default 0.01).
	Threshold float64
}

// Policy is what one load-management policy did over a demand trace,
// sampled Sub times per period (left end of each sub-interval).
type Policy struct {
	Name       string
	T          []float64 // sample times (hours)
	Second     []float64 // Σ_j A_j (1 − x_j): demand answered with L2
	Excess     []float64 // Σ_i (S_i − T_i)₊: total overload
	Overloaded []int     // number of nodes with S_i > (1 + Threshold) T_i
	Cost       []float64 // P1 objective Σ f_i(x_i) + Σ h_i(S_i(x))

	// Integrals over the trace (load·hours, hours).
	SecondTotal float64 // ∫ Second dt
	ExcessTotal float64 // ∫ Excess dt
	CostTotal   float64 // ∫ Cost dt
	// OverloadHours is the time during which some node is overloaded;
	// NodeOverloadHours the sum over nodes of their overloaded time.
	OverloadHours, NodeOverloadHours float64
	// UncontrolledHours is the time during which some node satisfies the
	// locally-uncontrollable condition (27) by more than Threshold·T_i:
	// it would stay overloaded even after shedding all its own demand.
	UncontrolledHours float64
	// ServedLoad is ∫ Σ_i S_i dt (load·hours), the HTTP traffic the
	// policy steers to the first layer.
	ServedLoad float64
	// ControlPackets is the number of FastControl packets sent over the
	// trace, ∫ γ Σ_i μ_i Σ_j C_ji/C_ij dt at the prices run in each period
	// (dual.Overhead, spec §4.7; γ in packets per hour per unit of μ);
	// zero for the other policies.
	ControlPackets float64
	// DirectReports counts the unicast reports of the pairs FastControl
	// cannot reach by packets (dual.FastControl.Unreachable = Direct:
	// C_ij > 0 = C_ji), one per such pair and dual step.
	DirectReports float64
}

// Overhead returns the control messages per HTTP request,
// (ControlPackets + DirectReports) / (requestsPerLoadHour · ServedLoad), with
// requestsPerLoadHour the HTTP requests per hour that one unit of load
// stands for. It is NaN when nothing was served.
func (pol *Policy) Overhead(requestsPerLoadHour float64) float64 {
	if pol.ServedLoad == 0 {
		return math.NaN()
	}
	return (pol.ControlPackets + pol.DirectReports) / (requestsPerLoadHour * pol.ServedLoad)
}

// Comparison holds the greedy heuristic and the optimal dual algorithm on
// the same demand.
type Comparison struct {
	Greedy, Optimal Policy
	// FastControl is the dual algorithm on FastControl-measured β, when
	// CompareSettings.FastControl is set (nil otherwise).
	FastControl *Policy
	DemandTotal float64 // ∫ Σ_j A_j dt
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the field,
// for a field outside its domain. A nil *CompareSettings is valid.
func (s *CompareSettings) Validate() error {
	if s == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Sensitivity", s.Sensitivity}, {"W", s.W}, {"Penalty", s.Penalty}, {"DualStep", s.DualStep}, {"Threshold", s.Threshold}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return loadlab.Invalid("stability", "CompareSettings.%s = %v, want a finite value ≥ 0 (0 for the default)", f.name, f.v)
		}
	}
	switch {
	case !(s.Guard >= 0 && s.Guard < 0.5):
		return loadlab.Invalid("stability", "CompareSettings.Guard = %v, want a value in (0, 0.5) (0 for the default)", s.Guard)
	case s.Sub < 0:
		return loadlab.Invalid("stability", "CompareSettings.Sub = %d, want ≥ 1 (0 for the default)", s.Sub)
	case s.DualSteps < 0:
		return loadlab.Invalid("stability", "CompareSettings.DualSteps = %d, want ≥ 1 (0 for the default)", s.DualSteps)
	}
	if s.FastControl != nil {
		return s.FastControl.Validate()
	}
	return nil
}

// withDefaults returns a validated copy of s with every zero field set to
// its default.
func (s *CompareSettings) withDefaults() (CompareSettings, error) {
	if err := s.Validate(); err != nil {
		return CompareSettings{}, err
	}
	var set CompareSettings
	if s != nil {
		set = *s
	}
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&set.Sensitivity, 20)
	def(&set.Guard, 1e-3)
	def(&set.W, 1)
	def(&set.Penalty, 1000)
	def(&set.Threshold, 0.01)
	if set.Sub == 0 {
		set.Sub = 4
	}
	if set.DualSteps == 0 {
		set.DualSteps = 20
	}
	if set.Problem == nil {
		w, pen := set.W, set.Penalty
		set.Problem = func(nw *anycast.Network) (*dual.Problem, error) { return dual.Quadratic(nw, w, pen) }
	}
	return set, nil
}

// Compare runs FastRoute's greedy law (24) and the dual algorithm of
// package dual (Algorithm 1, spec §4.8) on the same demand trace, on the
// correlation matrix nw.C and capacities nw.T: the demand is A(t) =
// demand[k] on [times[k], times[k+1]) (the last period has the length of
// the one before), in place of nw.A, which is not used (nor changed). This
// is the optimality-versus-complexity comparison of spec §6.
//
// The greedy state evolves continuously by Law.Integrate; the dual
// algorithm runs DualSteps iterations at the start of each period,
// warm-started, and holds the resulting x*(μ) for the period. Both start
// from their steady state for demand[0].
//
// Compare returns an error wrapping loadlab.ErrInvalid for an invalid
// network or demand (through anycast.NewNetwork and dual.Quadratic),
// invalid settings, fewer than two times, or times not strictly
// increasing and finite; one wrapping loadlab.ErrTooLarge if the samples
// would not fit in memory; and the error of a solver that fails. It panics
// if nw is nil.
func Compare(nw *anycast.Network, times []float64, demand [][]float64, s *CompareSettings) (*Comparison, error) {
	if err := validNetwork("Compare", nw); err != nil {
		return nil, err
	}
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkTrace(times, demand, set.Sub); err != nil {
		return nil, err
	}
	nets, err := periodNetworks(nw, demand)
	if err != nil {
		return nil, err
	}
	r := &compareRun{set: &set, times: times, nets: nets,
		cmp: &Comparison{Greedy: Policy{Name: "greedy (24)"}, Optimal: Policy{Name: "dual (Algorithm 1)"}}}
	if set.FastControl != nil {
		r.cmp.FastControl = &Policy{Name: "dual with FastControl"}
	}
	if err := r.steadyStates(); err != nil {
		return nil, err
	}
	for k := range nets {
		if err := r.period(k); err != nil {
			return nil, err
		}
	}
	return r.cmp, nil
}

// checkTrace checks the times and the number of demand vectors, and the
// memory of the sampled policies.
func checkTrace(times []float64, demand [][]float64, sub int) error {
	if len(times) < 2 || len(demand) != len(times) {
		return loadlab.Invalid("stability", "%d times and %d demand vectors, want equal counts ≥ 2", len(times), len(demand))
	}
	if math.IsNaN(times[0]) || math.IsInf(times[0], 0) {
		return loadlab.Invalid("stability", "times[0] = %v, want a finite value", times[0])
	}
	for k := 1; k < len(times); k++ {
		if !(times[k] > times[k-1]) || math.IsInf(times[k], 0) {
			return loadlab.Invalid("stability", "times[%d] = %v, want strictly increasing finite times", k, times[k])
		}
	}
	samples, ok := size.Mul(len(times), sub)
	if !ok {
		samples = math.MaxInt
	}
	// Two policies, five slices each.
	return size.Check("stability", "len(times)·CompareSettings.Sub", samples, 2*5*8)
}

// periodNetworks returns the network of each period: C and T of nw with
// the period's demand.
func periodNetworks(nw *anycast.Network, demand [][]float64) ([]*anycast.Network, error) {
	nets := make([]*anycast.Network, len(demand))
	for k, a := range demand {
		pn, err := anycast.NewNetwork(a, corr(nw), nw.T)
		if err != nil {
			return nil, fmt.Errorf("period %d: %w", k, err)
		}
		nets[k] = pn
	}
	return nets, nil
}

// compareRun is the state of Compare between periods.
type compareRun struct {
	set   *CompareSettings
	times []float64
	nets  []*anycast.Network
	cmp   *Comparison
	law   *Law
	xg    []float64 // greedy state
	mu    []float64 // dual prices
	muFC  []float64 // prices of the FastControl policy
}

// steadyStates brings both policies to their steady state for demand[0]:
// the greedy law by four guarded integrations over 6 hours from x = ½,
// the dual algorithm by a full solve.
func (r *compareRun) steadyStates() error {
	nw0 := r.nets[0]
	r.law = &Law{Net: nw0, Sensitivity: r.set.Sensitivity}
	r.xg = make([]float64, nw0.N())
	for i := range r.xg {
		r.xg[i] = 0.5
	}
	for warm := 0; warm < 4; warm++ {
		tr, err := r.law.Integrate(r.xg, 6, &Settings{Times: []float64{6}})
		if err != nil {
			return err
		}
		copy(r.xg, tr.Final())
		guard(r.xg, r.set.Guard)
	}
	p0, err := r.problem(nw0)
	if err != nil {
		return err
	}
	r0, err := dual.Solve(p0, &dual.Settings{Step: dualStep(nw0, r.set), MaxIter: 5000, Fixed: true})
	if err != nil {
		return err
	}
	r.mu = r0.Mu
	if r.set.FastControl != nil {
		r.muFC = append([]float64(nil), r0.Mu...)
	}
	return nil
}

// problem builds the optimal algorithm's instance for a period's network.
func (r *compareRun) problem(nw *anycast.Network) (*dual.Problem, error) {
	p, err := r.set.Problem(nw)
	if err == nil && p == nil {
		err = loadlab.Invalid("stability", "CompareSettings.Problem returned a nil problem and no error")
	}
	return p, err
}

// period runs both policies through period k and records their samples.
func (r *compareRun) period(k int) error {
	nw, times := r.nets[k], r.times
	dt := times[len(times)-1] - times[len(times)-2]
	if k+1 < len(times) {
		dt = times[k+1] - times[k]
	}
	h := dt / float64(r.set.Sub)
	sub := make([]float64, r.set.Sub)
	for m := range sub {
		sub[m] = float64(m) * h
	}
	p, err := r.problem(nw)
	if err != nil {
		return err
	}
	xs, err := r.greedyPeriod(nw, dt, sub)
	if err != nil {
		return fmt.Errorf("period %d: greedy: %w", k, err)
	}
	for m := range sub {
		if err := r.cmp.Greedy.add(times[k]+sub[m], h, nw, xs[m], p, r.set); err != nil {
			return fmt.Errorf("period %d: greedy: %w", k, err)
		}
	}
	x, _, err := r.optimalPeriod(nw, p, &r.mu, nil)
	if err != nil {
		return fmt.Errorf("period %d: dual: %w", k, err)
	}
	for m := range sub {
		if err := r.cmp.Optimal.add(times[k]+sub[m], h, nw, x, p, r.set); err != nil {
			return fmt.Errorf("period %d: dual: %w", k, err)
		}
	}
	if err := r.fastControlPeriod(k, nw, p, dt, sub); err != nil {
		return fmt.Errorf("period %d: FastControl: %w", k, err)
	}
	for _, a := range nw.A {
		r.cmp.DemandTotal += a * dt
	}
	return nil
}

// greedyPeriod integrates the greedy law through a period of length dt
// from the guarded state and returns the states at the sample offsets.
func (r *compareRun) greedyPeriod(nw *anycast.Network, dt float64, sub []float64) ([][]float64, error) {
	r.law.Net = nw
	guard(r.xg, r.set.Guard)
	tr, err := r.law.Integrate(r.xg, dt, &Settings{Times: append(sub, dt)})
	if err != nil {
		return nil, err
	}
	copy(r.xg, tr.Final())
	return tr.X[:len(sub)], nil
}

// optimalPeriod takes DualSteps iterations warm-started from *mu, with β
// measured by fc when it is not nil, stores the new prices in *mu and
// returns the x*(μ) held for the period.
func (r *compareRun) optimalPeriod(nw *anycast.Network, p *dual.Problem, mu *[]float64, fc *dual.FastControl) ([]float64, *dual.Result, error) {
	res, err := dual.Solve(p, &dual.Settings{Mu0: *mu, Step: dualStep(nw, r.set), MaxIter: r.set.DualSteps, Fixed: true, FastControl: fc})
	if err != nil {
		return nil, nil, err
	}
	*mu = res.Mu
	pt, err := p.Eval(*mu)
	if err != nil {
		return nil, nil, err
	}
	return pt.X, res, nil
}

// fastControlPeriod runs the FastControl policy, if any, through period
// k and counts its packets: the agents emit at the rate of (19) for the
// prices they run, γ Σ_i μ_i Σ_j C_ji/C_ij (dual.Overhead), for the period.
func (r *compareRun) fastControlPeriod(k int, nw *anycast.Network, p *dual.Problem, dt float64, sub []float64) error {
	pol := r.cmp.FastControl
	if pol == nil {
		return nil
	}
	x, res, err := r.optimalPeriod(nw, p, &r.muFC, r.set.FastControl)
	if err != nil {
		return err
	}
	pol.DirectReports += res.Direct * float64(res.Iter)
	h := dt / float64(len(sub))
	for m := range sub {
		if err := pol.add(r.times[k]+sub[m], h, nw, x, p, r.set); err != nil {
			return err
		}
	}
	rate, err := dual.Overhead(nw, r.muFC, r.set.FastControl.Gamma)
	if err != nil {
		return err
	}
	pol.ControlPackets += rate * dt
	return nil
}

// dualStep is Settings.DualStep or its default (which assumes the
// quadratic costs of W and Penalty).
func dualStep(nw *anycast.Network, set *CompareSettings) float64 {
	if set.DualStep > 0 {
		return set.DualStep
	}
	// DERIVED: with the costs of dual.Quadratic, x*(μ) = clip(1 − Cμ/W)
	// and S*(μ) = T + μ/Penalty (spec §7), so the dual gradient (16) is
	// Lipschitz with constant ‖Cᵀ diag(A) C‖₂/W + 1/Penalty, and the
	// symmetric non-negative Cᵀ diag(A) C has 2-norm at most its largest
	// row sum, max_i (Cᵀ A)_i, because C 1 = 1.
	var m float64
	for _, v := range nw.MaxLoads() {
		m = math.Max(m, v)
	}
	return 1 / (m/set.W + 1/set.Penalty)
}

func guard(x []float64, g float64) {
	for i, v := range x {
		x[i] = math.Min(math.Max(v, g), 1-g)
	}
}

// score is a state's measures under a demand (spec §13.6, §13.8): the
// demand answered with L2, the total overload, the L1 load served, the
// nodes loaded beyond thr·T_i and those whose load from other regions
// alone exceeds thr·T_i (spec §5.3 eq. (27)).
type score struct {
	second, excess, served float64
	over, unc              int
}

// scoreLoads scores the state x under demand a with loads s = Cᵀ(a∘x).
func scoreLoads(nw *anycast.Network, a, x, s []float64, thr float64) score {
	var sc score
	for i, si := range s {
		sc.served += si
		sc.second += a[i] * (1 - x[i])
		sc.excess += max(si-nw.T[i], 0)
		if si > thr*nw.T[i] {
			sc.over++
		}
		if si-nw.At(i, i)*a[i]*x[i] > thr*nw.T[i] { // spec §5.3 eq. (27)
			sc.unc++
		}
	}
	return sc
}

// add records the state x held for a sub-interval of length h at time t.
func (pol *Policy) add(t, h float64, nw *anycast.Network, x []float64, p *dual.Problem, set *CompareSettings) error {
	sc := scoreLoads(nw, nw.A, x, nw.Loads(nil, x), 1+set.Threshold) // loads: spec §1.3 eq. (21)
	second, excess, served, over, unc := sc.second, sc.excess, sc.served, sc.over, sc.unc > 0
	cost, err := p.Reduced(x) // validates x: a NaN state is an error, not a NaN cost
	if err != nil {
		return err
	}
	pol.T = append(pol.T, t)
	pol.Second = append(pol.Second, second)
	pol.Excess = append(pol.Excess, excess)
	pol.Overloaded = append(pol.Overloaded, over)
	pol.Cost = append(pol.Cost, cost)
	pol.SecondTotal += second * h
	pol.ExcessTotal += excess * h
	pol.CostTotal += cost * h
	pol.ServedLoad += served * h
	if over > 0 {
		pol.OverloadHours += h
	}
	pol.NodeOverloadHours += float64(over) * h
	if unc {
		pol.UncontrolledHours += h
	}
	return nil
}

// corr returns the network's correlation matrix in its stored form.
func corr(nw *anycast.Network) mat.Matrix {
	if nw.Sparse != nil {
		return nw.Sparse
	}
	return nw.C
}
