package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// Settings are optional simulation settings; nil means the defaults.
type Settings struct {
	// States asks for the vectors x(k), p(k), a(k) and r(k) of every step
	// in the Trajectory (4·n·steps numbers); by default only the totals
	// are kept.
	States bool
	// Workers is the number of goroutines that share each update on
	// graphs of 4096 nodes or more; 1 means serial, a negative value is
	// an error, and 0 (the default) means GOMAXPROCS from 2^16 nodes
	// (where a step takes milliseconds) and serial below. The result
	// does not depend on it. Independently of Workers, on such graphs the demand
	// is drawn ahead on one extra goroutine when GOMAXPROCS > 1 (see
	// Demand), unless it is a TraceDemand.
	Workers int
	// Network, if non-nil, is the imperfect network of the run (spec
	// deployed §1): delays, loss, asynchrony, per-server cycles, one-way
	// links. Nil is the ideal network.
	Network *Network
}

// Validate checks the settings: Workers ≥ 0 (0 means the default). The error
// wraps loadlab.ErrInvalid and names the field.
func (s *Settings) Validate() error {
	if s != nil && s.Workers < 0 {
		return loadlab.Invalid("consensus", "Settings.Workers = %d, want ≥ 0", s.Workers)
	}
	if s != nil {
		return s.Network.Validate()
	}
	return nil
}

// trajectoryBytes is the memory of one step of a Trajectory's totals:
// six float64 series.
const trajectoryBytes = 6 * 8

// validateTrajectorySize refuses, before anything is allocated, a run
// whose record would exceed the memory budget (size.MaxBytes): six
// totals per step, and with States four vectors of n values per step.
func validateTrajectorySize(n, steps int, states bool) error {
	per := trajectoryBytes
	if states {
		p, ok := size.Product(4, n, 8)
		if !ok {
			return loadlab.TooLarge("consensus", "Simulate: %d nodes overflow the per-step state record", n)
		}
		per += p
	}
	return size.Check("consensus", "Simulate: steps", steps, per)
}

// Trajectory is the record of a simulation (spec §3.2). Slices indexed
// by k hold step k = 0, …, Steps−1: the demand r(k), the limits x(k)
// that were in force, and the measure p(k) computed from them.
type Trajectory struct {
	Steps int

	// Totals (spec §3.2 (5)–(8)) and the derived over-throttling
	// O(k) = min{Σ(r−x)₊, Σ(x−r)₊} = a_ideal − a_total.
	RTotal, LTotal, ATotal, Ideal, Over []float64
	// Dispersion is ‖M_n p(k)‖² = Σ_i (p_i − p̄)², the quantity whose
	// stationary mean is the H2 measure ρ (spec §4.3).
	Dispersion []float64

	// X, P, A and R are the per-step vectors when Settings.States is set.
	// P is recorded in the network's Orientation.
	X, P, A, R [][]float64

	// Final is x(Steps), the limits after the last update.
	Final []float64

	// LambdaMax is the proven bracket of the largest eigenvalue μ_n of
	// the update operator that decided stability (spectral.LambdaMaxBracket
	// with threshold 2/γ: refined only as far as needed, so a bracket
	// settled by a cheap upper bound is wide). μ_n is λ_n of L for Amount
	// and Clipped (spec §4.1); for Ratio it is that of R⁻¹L and for
	// LogRatio that of X*⁻¹L, at the first step's demand r(0) (spec §8).
	// Zero when no step was taken.
	LambdaMax spectral.Bracket

	// Exchanges counts the exchanges due and lost per cycle on a
	// Settings.Network; nil on the ideal network.
	Exchanges *Exchanges
}

// Simulate runs the throttler th for steps steps from the limits x0
// under demand d (spec §3.1 (4)): at each step k it draws r(k), computes
// p(k) from r(k) and x(k), records the totals, and updates
//
//	x(k+1) = x(k) + γ L p(k)
//
// in the exact antisymmetric edge form: each link carries the flow
// f_uv = γ w_uv (p_u − p_v) = −f_vu, rounded identically in both
// directions, and each x_u is kept as an unevaluated sum hi + lo updated
// with error-free additions. The total Σx is therefore conserved
// (Lemma 1, spec §3.3) to about one rounding of the final sum, with no
// drift over long runs. The work per step is O(n + m); from 2^16 nodes
// the update runs in two cache-friendly passes (see blocks in flows.go)
// that need 13 bytes per adjacency entry, allocated once per call.
//
// When γ ≥ 2/λ_n (for Ratio and LogRatio: 2/μ_n of the linearisation
// at r(0), see Trajectory.LambdaMax), or γλ_n = 2 to rounding, the
// simulation runs all steps, so its divergence shows, and returns the
// full trajectory with an error wrapping ErrUnstable. Above 3000 nodes,
// when the eigenvalue bounds cannot decide, the error wraps
// ErrIllConditioned and gives the bracket of μ_n: an unstable γ never
// passes silently. Simulate returns an
// error for an invalid network, len(x0) ≠ n, a non-finite x0, or
// steps < 0; a failure at step k (a demand error, a NaN or
// infinite r_i or an overflowing r_total, r_i ≤ 0 for Ratio or LogRatio,
// x_i ≤ 0 for LogRatio) returns the trajectory up to step k together
// with the error. It panics if th or d is nil. With Settings.Network the
// exchanges are delayed, lost, asynchronous or one-way as described there
// (spec deployed §1).
func Simulate(th *Throttler, d Demand, x0 []float64, steps int, s *Settings) (*Trajectory, error) {
	if err := validateRun(th, d, x0, steps, s); err != nil {
		return nil, err
	}
	if s == nil {
		s = &Settings{}
	}
	n := th.Graph.Order()
	workers := s.Workers
	if workers == 0 {
		workers = defaultWorkers(n)
	}
	f, err := prepare(th.Graph, th.Gamma)
	if err != nil {
		return nil, err
	}
	// On large graphs a second goroutine draws the demand a few steps
	// ahead while this one updates the limits. The demand is still drawn
	// in order, once per step, from its single stream, so the result
	// does not depend on the scheduling. A recorded trace is only
	// copied: reading the copy from the other core costs more than the
	// copy (about 7% slower when measured).
	var pf *prefetcher
	_, replay := d.(TraceDemand)
	if n >= parallelNodes && steps > 1 && !replay && par.Workers(0) > 1 {
		pf = newPrefetcher(d, n, steps)
		defer pf.stop()
	}
	if s.Network != nil {
		return runNetwork(th, s.Network, f, d, pf, x0, steps, s.States, workers)
	}
	return run(th, f, d, pf, x0, steps, s.States, workers)
}

// run is the loop of Simulate (see there) with the update f prepared and
// the demand drawn from pf, or from d when pf is nil. The stability
// decision (see stability) is taken at the first step, whose demand
// fixes the linearisation of Ratio and LogRatio, and returned at the end.
func run(th *Throttler, f *flows, d Demand, pf *prefetcher, x0 []float64, steps int, states bool, workers int) (*Trajectory, error) {
	n := len(x0)
	tr := newTrajectory(steps)
	hi := append([]float64(nil), x0...)
	lo := make([]float64, n)
	p := make([]float64, n)
	r := make([]float64, n)
	// With the linear measure on a large graph the step is split into
	// phases over fixed pieces (see stepGather); otherwise the totals
	// and the update are two loops over the nodes.
	split := f.blk != nil && th.Measure == Amount
	var lambda spectral.Bracket
	var unstable error
	fetch := func(k int) ([]float64, error) {
		if pf != nil {
			return pf.next()
		}
		return r, d.Next(k, r)
	}
	var err error
	var ahead []float64 // r(k), drawn by step k − 1 for its fused update
	for k := 0; k < steps; k++ {
		fused := ahead != nil
		if fused {
			r, ahead = ahead, nil
		} else if r, err = fetch(k); err != nil {
			err = fmt.Errorf("consensus: step %d: %w", k, err)
			break
		}
		if k == 0 {
			lambda, unstable = stability(th.Graph, th.Gamma, scaling(th.Measure, r, x0))
		}
		if split {
			err = tr.stepGather(func(c int) { f.gather(p, c) }, r, p, hi, lo, workers, fused)
		} else {
			err = tr.step(th, r, p, hi, lo)
		}
		if err != nil {
			err = fmt.Errorf("consensus: step %d: %w", k, err)
			break
		}
		if states {
			tr.keep(th, r, hi, p) // hi holds the renormalised limits x(k)
		}
		if pf != nil {
			pf.release() // r(k) is no longer needed
		}
		if !split {
			f.apply(hi, lo, p, workers)
			tr.Steps++
			continue
		}
		// The blocked update renormalises x(k+1) and forms p(k+1) as it
		// goes (see updateChunk), so r(k+1) is drawn first.
		if k+1 < steps {
			if ahead, err = fetch(k + 1); err != nil {
				ahead = nil
				f.update(hi, lo, p, nil, workers)
				tr.Steps++
				err = fmt.Errorf("consensus: step %d: %w", k+1, err)
				break
			}
		}
		f.update(hi, lo, p, ahead, workers)
		tr.Steps++
	}
	tr.Final = make([]float64, n)
	for i := range hi {
		tr.Final[i] = hi[i] + lo[i]
	}
	tr.LambdaMax = lambda
	if err == nil {
		err = unstable
	}
	return tr, err
}

// prepare builds the update of g at step size γ (newFlows) and checks
// that g is connected; on large graphs the check, a breadth-first search
// as costly as building the blocked gather, runs beside it as the second
// piece of a parallel loop.
func prepare(g *wgraph.Graph, gamma float64) (*flows, error) {
	if g.Order() < gatherNodes {
		if err := validateConnected(g); err != nil {
			return nil, err
		}
		return newFlows(g, gamma)
	}
	var f *flows
	var err, cerr error
	par.For(2, 2, func(i int) {
		if i == 0 {
			f, err = newFlows(g, gamma)
		} else {
			cerr = validateConnected(g)
		}
	})
	if cerr != nil {
		return nil, cerr
	}
	return f, err
}

// defaultWorkers is the number of workers for Settings.Workers = 0 on n
// nodes: par.Workers(0) (GOMAXPROCS) on graphs that use the blocked
// gather, whose steps are long enough to pay for the hand-offs, and 1
// below.
func defaultWorkers(n int) int {
	if n >= gatherNodes {
		return par.Workers(0)
	}
	return 1
}

// validateRun validates the arguments of Simulate (see there), all but
// the connectivity of the graph, which prepare checks.
func validateRun(th *Throttler, d Demand, x0 []float64, steps int, s *Settings) error {
	if th == nil {
		panic("consensus: Throttler is nil")
	}
	if err := validateNodes(th.Graph); err != nil {
		return err
	}
	if err := th.validateParams(); err != nil {
		return err
	}
	if d == nil {
		panic("consensus: Simulate: demand d is nil")
	}
	n := th.Graph.Order()
	if len(x0) != n {
		return loadlab.Invalid("consensus", "Simulate: len(x0) = %d, want %d", len(x0), n)
	}
	for i, x := range x0 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return loadlab.Invalid("consensus", "Simulate: x0[%d] = %v, want finite", i, x)
		}
	}
	if steps < 0 {
		return loadlab.Invalid("consensus", "Simulate: steps = %d, want ≥ 0", steps)
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if s != nil && s.Network != nil {
		if err := s.Network.validateFor(th.Graph); err != nil {
			return err
		}
	}
	return validateTrajectorySize(n, steps, s != nil && s.States)
}

// newTrajectory returns an empty trajectory with room for steps steps.
func newTrajectory(steps int) *Trajectory {
	return &Trajectory{
		RTotal:     make([]float64, 0, steps),
		LTotal:     make([]float64, 0, steps),
		ATotal:     make([]float64, 0, steps),
		Ideal:      make([]float64, 0, steps),
		Over:       make([]float64, 0, steps),
		Dispersion: make([]float64, 0, steps),
	}
}

// scaling returns the diagonal q of the linearised operator L diag(q)
// for the stability check (see stability), or nil for q = 1. Invalid
// demand returns nil: the measure reports the error itself.
func scaling(m Measure, r, x0 []float64) []float64 {
	if m != Ratio && m != LogRatio {
		return nil
	}
	var rt, lt float64
	for i, ri := range r {
		if !(ri > 0) || math.IsInf(ri, 1) {
			return nil
		}
		rt += ri
		lt += x0[i]
	}
	c := 1.0
	if m == LogRatio {
		if !(lt > 0) {
			return nil
		}
		c = rt / lt // X*⁻¹ = r_total/(l_total r), spec §8 row III
	}
	q := make([]float64, len(r))
	for i, ri := range r {
		q[i] = c / ri // R⁻¹, spec §8 row II
	}
	return q
}

// step renormalises the limits x = hi + lo, so that hi holds the limits
// in force, computes the measure p for demand r and appends the totals
// of the step (spec §3.2). The common linear measure is done in one pass
// over the nodes.
func (tr *Trajectory) step(th *Throttler, r, p, hi, lo []float64) error {
	var rt, at, lt, psum float64
	if th.Measure == Amount {
		for i, ri := range r {
			// Renormalise (hi, lo) exactly (Fast2Sum, |hi| ≥ |lo|).
			xi := hi[i] + lo[i]
			lo[i] -= xi - hi[i]
			hi[i] = xi
			pi := ri - xi // Table I row I
			p[i] = pi
			rt += ri
			lt += xi
			at += min(xi, ri)
			psum += pi
		}
	} else {
		for i := range hi {
			xi := hi[i] + lo[i]
			lo[i] -= xi - hi[i]
			hi[i] = xi
		}
		if err := th.Measure.Nodal(p, r, hi); err != nil {
			return err
		}
		rt, lt, at, psum = sumTotals(r, hi, p)
	}
	return tr.record(r, p, rt, lt, at, psum)
}

// renormAmount is the per-node part of step for the linear measure on
// the nodes of a range: it renormalises x = hi + lo exactly and sets
// p = r − x (Table I row I).
func renormAmount(r, p, hi, lo []float64) {
	for i, ri := range r {
		xi := hi[i] + lo[i]
		lo[i] -= xi - hi[i]
		hi[i] = xi
		p[i] = ri - xi
	}
}

// sumTotals returns the plain sums r_total, l_total, a_total and Σp of
// a step over the nodes in order, with x the renormalised limits.
func sumTotals(r, x, p []float64) (rt, lt, at, psum float64) {
	for i, ri := range r {
		xi := x[i]
		rt += ri
		lt += xi
		at += min(xi, ri)
		psum += p[i]
	}
	return rt, lt, at, psum
}

// stepGather is step and pass 1 of the blocked update (flows.gather)
// for the linear measure on a large graph, in two phases over fixed
// pieces claimed by up to workers goroutines: (1) renormalise and form
// p on passChunks node ranges, unless fused says the previous step's
// update did it already (see flows.update); (2) the totals of the step, whose plain
// sums run over the nodes in order on one goroutine as in step, while
// the others gather p into the staging array: both only read p and x.
// The arithmetic and its order are those of step and apply, so the
// trajectory is bitwise the same. gather(c) gathers node chunk c (nil:
// nothing to gather this step). The caller finishes the step with
// flows.update.
func (tr *Trajectory) stepGather(gather func(c int), r, p, hi, lo []float64, workers int, fused bool) error {
	n := len(r)
	if !fused {
		par.For(passChunks, workers, func(c int) {
			a, b := par.Bounds(n, passChunks, c)
			renormAmount(r[a:b], p[a:b], hi[a:b], lo[a:b])
		})
	}
	var err error
	par.For(1+passChunks, workers, func(c int) {
		if c == 0 { // claimed first: the longest piece
			rt, lt, at, psum := sumTotals(r, hi, p)
			err = tr.record(r, p, rt, lt, at, psum)
			return
		}
		if gather != nil {
			gather(c - 1)
		}
	})
	return err
}

// record checks the demand total and appends the totals of a step
// (spec §3.2) from the sums over the nodes.
func (tr *Trajectory) record(r, p []float64, rt, lt, at, psum float64) error {
	if math.IsNaN(rt) || math.IsInf(rt, 0) {
		return badDemand(r)
	}
	// Σ(r − x)₊ = r_total − a_total and Σ(x − r)₊ = l_total − a_total
	// up to rounding. l_total is the plain sum of the current limits:
	// the limits themselves conserve the total exactly (see apply), so
	// this sum carries one rounding error of the state, not a drift.
	under, spare := rt-at, lt-at
	disp := dispersion(p, psum/float64(len(p)))
	tr.RTotal = append(tr.RTotal, rt)
	tr.LTotal = append(tr.LTotal, lt)
	tr.ATotal = append(tr.ATotal, at)
	tr.Ideal = append(tr.Ideal, min(rt, lt))             // spec §3.2 (8)
	tr.Over = append(tr.Over, max(min(under, spare), 0)) // spec §3.2 O(k)
	tr.Dispersion = append(tr.Dispersion, disp)
	return nil
}

// dispersion returns Σ_i (p_i − pbar)² (spec §4.3) with four
// interleaved partial sums in a fixed order: the same result on every
// run, at about half the time of one sum, whose chain of dependent
// additions bounds its speed.
func dispersion(p []float64, pbar float64) float64 {
	var d0, d1, d2, d3 float64
	i := 0
	for ; i+4 <= len(p); i += 4 {
		a, b, c, d := p[i]-pbar, p[i+1]-pbar, p[i+2]-pbar, p[i+3]-pbar
		d0 += a * a
		d1 += b * b
		d2 += c * c
		d3 += d * d
	}
	for ; i < len(p); i++ {
		a := p[i] - pbar
		d0 += a * a
	}
	return (d0 + d1) + (d2 + d3)
}

// badDemand returns the error for a demand vector whose total is not
// finite: a NaN or infinite entry, or a total beyond the float64 range.
// Checking the total keeps the per-node loop free of tests.
func badDemand(r []float64) error {
	for i, ri := range r {
		if math.IsNaN(ri) || math.IsInf(ri, 0) {
			return loadlab.Invalid("consensus", "demand r[%d] = %v: want finite", i, ri)
		}
	}
	return loadlab.Invalid("consensus", "demand total r_total overflows float64")
}

func (tr *Trajectory) keep(th *Throttler, r, x, p []float64) {
	a := make([]float64, len(r))
	po := make([]float64, len(r))
	for i := range r {
		a[i] = min(x[i], r[i])
		po[i] = orient(th.Orientation, th.Measure, p[i])
	}
	tr.X = append(tr.X, append([]float64(nil), x...))
	tr.R = append(tr.R, append([]float64(nil), r...))
	tr.P = append(tr.P, po)
	tr.A = append(tr.A, a)
}

// prefetcher draws the demand of the coming steps on its own goroutine
// (par.Go) into a ring of buffers. Next is called for k = 0, 1, …
// in order by that goroutine alone, so a Demand needs no locking; it
// only has to write all of r (see Demand). Used buffers are handed back
// in batches of half the ring, so the producer is woken once per batch
// rather than once per step: a wake-up costs as much as a fair part of
// a step when other processes hold the cores.
type prefetcher struct {
	buf  [][]float64
	free chan int   // buffers the producer may fill
	full chan drawn // filled buffers, in step order
	quit chan struct{}
	task *par.Task // the producer
	cur  int       // buffer in use by the consumer, −1 if none
	held []int     // used buffers not yet handed back
}

type drawn struct {
	i     int
	err   error
	panic any // a panic of Next, re-raised on Simulate's goroutine
}

// prefetchDepth returns the number of demand buffers of the ring for n
// servers: up to 16, so that a late wake-up of the producer (a few
// steps' time when the cores are contended) is hidden, but no more than about 1 MB
// in all, and at least 4.
func prefetchDepth(n int) int {
	return max(4, min(16, (1<<17)/n))
}

func newPrefetcher(d Demand, n, steps int) *prefetcher {
	depth := prefetchDepth(n)
	pf := &prefetcher{
		buf:  make([][]float64, depth),
		free: make(chan int, depth),
		full: make(chan drawn, depth),
		quit: make(chan struct{}),
		cur:  -1,
		held: make([]int, 0, depth),
	}
	for i := range pf.buf {
		pf.buf[i] = make([]float64, n)
		pf.free <- i
	}
	pf.task = par.Go(func() {
		for k := range steps {
			var i int
			select {
			case i = <-pf.free:
			case <-pf.quit:
				return
			}
			dr := pf.draw(d, k, i)
			pf.full <- dr // never blocks: at most len(buf) in flight
			if dr.err != nil || dr.panic != nil {
				return
			}
		}
	})
	return pf
}

// draw calls Next for step k into buffer i, catching a panic so that
// it reaches the caller of Simulate as it would without the prefetch.
func (pf *prefetcher) draw(d Demand, k, i int) (dr drawn) {
	dr.i = i
	defer func() {
		if v := recover(); v != nil {
			dr.panic = v
		}
	}()
	dr.err = d.Next(k, pf.buf[i])
	return dr
}

// next returns r(k) for the next step k and the error of its draw. It
// re-raises a panic of Next.
func (pf *prefetcher) next() ([]float64, error) {
	dr := <-pf.full
	if dr.panic != nil {
		panic(dr.panic)
	}
	pf.cur = dr.i
	return pf.buf[dr.i], dr.err
}

// release hands the current buffer back, in batches of half the ring.
func (pf *prefetcher) release() {
	pf.held = append(pf.held, pf.cur)
	pf.cur = -1
	if len(pf.held) >= len(pf.buf)/2 {
		for _, i := range pf.held {
			pf.free <- i
		}
		pf.held = pf.held[:0]
	}
}

// stop ends the producer and waits for it, so the Demand is no longer
// in use when Simulate returns.
func (pf *prefetcher) stop() {
	close(pf.quit)
	pf.task.Wait()
}

// Step computes one plain update x(k+1) = x(k) + γ L p(k) (spec §3.1
// (4)) into dst, with p from r and x. It uses one sparse product and
// allocates a scratch vector; Simulate is the conservative, allocation-free
// loop. It returns an error for an invalid network or a measure that is
// undefined at (r, x), and panics if the lengths differ from n.
func (th *Throttler) Step(dst, x, r []float64) error {
	if err := th.Validate(); err != nil {
		return err
	}
	n := th.Graph.Order()
	if len(dst) != n || len(x) != n || len(r) != n {
		panic(fmt.Sprintf("consensus: Step: len(dst) = %d, len(x) = %d, len(r) = %d, want %d", len(dst), len(x), len(r), n))
	}
	p := make([]float64, n)
	if err := th.Measure.Nodal(p, r, x); err != nil {
		return err
	}
	th.Graph.LaplacianMulVec(dst, p)
	for i := range dst {
		dst[i] = x[i] + th.Gamma*dst[i]
	}
	return nil
}
