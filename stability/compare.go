package stability

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"gonum.org/v1/gonum/mat"
)

// DiurnalSettings shapes a synthetic day of DNS demand. Nil means the
// defaults.
type DiurnalSettings struct {
	// Amplitude is the relative swing a of the daily cycle (default 0.6):
	// the cycle is 1 + a·sin(2π(t − 10 h − φ_j)/24 h), lowest at 4 h and
	// highest at 16 h local time.
	Amplitude float64
	// Noise is the standard deviation σ of the log-demand noise (default
	// 0.05); Memory is its AR(1) coefficient ρ per sample (default 0.95),
	// so the noise varies slowly: n(k+1) = ρ n(k) + √(1−ρ²) σ ξ.
	Noise, Memory float64
	// Phase holds per-node offsets φ_j in hours (time zones); nil means 0.
	Phase []float64
}

// Diurnal returns a demand trace A[k][j] = base_j · cycle_j(times[k]) ·
// e^{n_j(k)}: a daily cycle times slowly varying log-normal noise that
// starts in its stationary law. Times are in hours. It returns an error for
// a negative base, a non-finite time, amplitude outside [0, 1], negative
// noise, memory outside [0, 1), a Phase of the wrong length, or a nil src.
func Diurnal(base, times []float64, s *DiurnalSettings, src rand.Source) ([][]float64, error) {
	set := DiurnalSettings{Amplitude: 0.6, Noise: 0.05, Memory: 0.95}
	if s != nil {
		set = *s
	}
	switch {
	case !(set.Amplitude >= 0 && set.Amplitude <= 1):
		return nil, fmt.Errorf("stability: Amplitude = %v: want a value in [0, 1]", set.Amplitude)
	case !(set.Noise >= 0) || math.IsInf(set.Noise, 1):
		return nil, fmt.Errorf("stability: Noise = %v: want a finite value ≥ 0", set.Noise)
	case !(set.Memory >= 0 && set.Memory < 1):
		return nil, fmt.Errorf("stability: Memory = %v: want a value in [0, 1)", set.Memory)
	case set.Phase != nil && len(set.Phase) != len(base):
		return nil, fmt.Errorf("stability: len(Phase) = %d, want len(base) = %d", len(set.Phase), len(base))
	}
	for j, b := range base {
		if !(b >= 0) || math.IsInf(b, 1) {
			return nil, fmt.Errorf("stability: base[%d] = %v: want a finite value ≥ 0", j, b)
		}
	}
	for k, t := range times {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("stability: times[%d] = %v: want a finite value", k, t)
		}
	}
	if src == nil {
		return nil, fmt.Errorf("stability: src is nil")
	}
	rng := rand.New(src)
	noise := make([]float64, len(base))
	for j := range noise {
		noise[j] = set.Noise * rng.NormFloat64() // stationary start
	}
	out := make([][]float64, len(times))
	for k, t := range times {
		a := make([]float64, len(base))
		for j, b := range base {
			if k > 0 {
				noise[j] = set.Memory*noise[j] + math.Sqrt(1-set.Memory*set.Memory)*set.Noise*rng.NormFloat64()
			}
			var phi float64
			if set.Phase != nil {
				phi = set.Phase[j]
			}
			a[j] = b * (1 + set.Amplitude*math.Sin(2*math.Pi*(t-10-phi)/24)) * math.Exp(noise[j])
		}
		out[k] = a
	}
	return out, nil
}

// CompareSettings tunes Compare. Nil or zero fields mean the defaults.
type CompareSettings struct {
	// Sensitivity is the greedy law's β in 1/(hour·load) (default 20).
	Sensitivity float64
	// Guard keeps the greedy state in [Guard, 1 − Guard] at the start of
	// every period (default 1e-3). In floating point x would otherwise
	// reach exactly 0 or 1 after a long quiet spell, and those faces are
	// invariant (§5.1): a node could never react again. Any deployment
	// needs such a guard; the spec is silent (§9 item 7).
	Guard float64
	// Sub is the number of samples per period at which both policies
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
}

// Comparison holds the greedy heuristic and the optimal dual algorithm on
// the same demand.
type Comparison struct {
	Greedy, Optimal Policy
	DemandTotal     float64 // ∫ Σ_j A_j dt
}

// Compare runs FastRoute's greedy law (24) and the dual algorithm of
// package dual (Algorithm 1, spec §4.8) on the same demand trace: A(t) =
// demand[k] on [times[k], times[k+1]) (the last period has the length of
// the one before), with correlation matrix c and capacities t. This is the
// optimality-versus-complexity comparison of spec §6.
//
// The greedy state evolves continuously by Law.Integrate; the dual
// algorithm runs DualSteps iterations at the start of each period,
// warm-started, and holds the resulting x*(μ) for the period. Both start
// from their steady state for demand[0]. Compare returns an error for
// invalid inputs (through anycast.NewNetwork and dual.Quadratic), fewer than
// two times, or times not strictly increasing.
func Compare(c mat.Matrix, t []float64, times []float64, demand [][]float64, s *CompareSettings) (*Comparison, error) {
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
	switch {
	case !(set.Guard > 0 && set.Guard < 0.5):
		return nil, fmt.Errorf("stability: Guard = %v: want a value in (0, 0.5)", set.Guard)
	case set.Sub < 1:
		return nil, fmt.Errorf("stability: Sub = %d: want ≥ 1", set.Sub)
	case set.DualSteps < 1:
		return nil, fmt.Errorf("stability: DualSteps = %d: want ≥ 1", set.DualSteps)
	case !(set.DualStep >= 0):
		return nil, fmt.Errorf("stability: DualStep = %v: want ≥ 0", set.DualStep)
	case !(set.Threshold >= 0):
		return nil, fmt.Errorf("stability: Threshold = %v: want ≥ 0", set.Threshold)
	case !(set.W > 0) || math.IsInf(set.W, 1):
		return nil, fmt.Errorf("stability: W = %v: want a finite value > 0", set.W)
	case !(set.Penalty > 0) || math.IsInf(set.Penalty, 1):
		return nil, fmt.Errorf("stability: Penalty = %v: want a finite value > 0", set.Penalty)
	}
	if len(times) < 2 || len(demand) != len(times) {
		return nil, fmt.Errorf("stability: %d times and %d demand vectors: want equal counts ≥ 2", len(times), len(demand))
	}
	for k := 1; k < len(times); k++ {
		if !(times[k] > times[k-1]) || math.IsInf(times[k], 0) {
			return nil, fmt.Errorf("stability: times[%d] = %v: want strictly increasing finite times", k, times[k])
		}
	}
	nets := make([]*anycast.Network, len(times))
	for k, a := range demand {
		nw, err := anycast.NewNetwork(a, c, t)
		if err != nil {
			return nil, fmt.Errorf("period %d: %w", k, err)
		}
		nets[k] = nw
	}
	n := nets[0].N()
	cmp := &Comparison{Greedy: Policy{Name: "greedy (24)"}, Optimal: Policy{Name: "dual (Algorithm 1)"}}

	// Steady states for demand[0].
	law := &Law{Net: nets[0], Sensitivity: set.Sensitivity}
	xg := make([]float64, n)
	for i := range xg {
		xg[i] = 0.5
	}
	for warm := 0; warm < 4; warm++ {
		tr, err := law.Integrate(xg, 6, &Settings{Times: []float64{6}})
		if err != nil {
			return nil, err
		}
		copy(xg, tr.Final())
		guard(xg, set.Guard)
	}
	problem := set.Problem
	if problem == nil {
		problem = func(nw *anycast.Network) (*dual.Problem, error) { return dual.Quadratic(nw, set.W, set.Penalty) }
	}
	p0, err := problem(nets[0])
	if err != nil {
		return nil, err
	}
	r0, err := dual.Solve(p0, &dual.Settings{Step: dualStep(nets[0], &set), MaxIter: 5000, Fixed: true})
	if err != nil {
		return nil, err
	}
	mu := r0.Mu

	for k, nw := range nets {
		dt := times[len(times)-1] - times[len(times)-2]
		if k+1 < len(times) {
			dt = times[k+1] - times[k]
		}
		h := dt / float64(set.Sub)
		sub := make([]float64, set.Sub)
		for m := range sub {
			sub[m] = float64(m) * h
		}
		p, err := problem(nw)
		if err != nil {
			return nil, err
		}

		// Greedy: integrate through the period from the guarded state.
		law.Net = nw
		guard(xg, set.Guard)
		tr, err := law.Integrate(xg, dt, &Settings{Times: append(sub, dt)})
		if err != nil {
			return nil, fmt.Errorf("period %d: greedy: %w", k, err)
		}
		for m := range sub {
			cmp.Greedy.add(times[k]+sub[m], h, nw, tr.X[m], p, &set)
		}
		copy(xg, tr.Final())

		// Optimal: DualSteps warm-started iterations, then hold x*(μ).
		res, err := dual.Solve(p, &dual.Settings{Mu0: mu, Step: dualStep(nw, &set), MaxIter: set.DualSteps, Fixed: true})
		if err != nil {
			return nil, fmt.Errorf("period %d: dual: %w", k, err)
		}
		mu = res.Mu
		pt, err := p.Eval(mu)
		if err != nil {
			return nil, err
		}
		for m := range sub {
			cmp.Optimal.add(times[k]+sub[m], h, nw, pt.X, p, &set)
		}
		for _, a := range nw.A {
			cmp.DemandTotal += a * dt
		}
	}
	return cmp, nil
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

// add records the state x held for a sub-interval of length h at time t.
func (pol *Policy) add(t, h float64, nw *anycast.Network, x []float64, p *dual.Problem, set *CompareSettings) {
	s := nw.Loads(nil, x) // spec §1.3 eq. (21)
	var second, excess float64
	over, unc := 0, false
	for i := range s {
		second += nw.A[i] * (1 - x[i])
		excess += math.Max(s[i]-nw.T[i], 0)
		if s[i] > (1+set.Threshold)*nw.T[i] {
			over++
		}
		if s[i]-nw.C.At(i, i)*nw.A[i]*x[i] > (1+set.Threshold)*nw.T[i] { // spec §5.3 eq. (27)
			unc = true
		}
	}
	cost := p.Reduced(x)
	pol.T = append(pol.T, t)
	pol.Second = append(pol.Second, second)
	pol.Excess = append(pol.Excess, excess)
	pol.Overloaded = append(pol.Overloaded, over)
	pol.Cost = append(pol.Cost, cost)
	pol.SecondTotal += second * h
	pol.ExcessTotal += excess * h
	pol.CostTotal += cost * h
	if over > 0 {
		pol.OverloadHours += h
	}
	pol.NodeOverloadHours += float64(over) * h
	if unc {
		pol.UncontrolledHours += h
	}
}
