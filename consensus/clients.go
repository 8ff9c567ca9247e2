package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
)

// Split chooses how a server divides its limit among its clients every
// cycle (throttlers §7, spec deployed §5.2).
type Split int

const (
	// UniformSplit is Algorithm 1 (UniformRatio): every client of a
	// saturated server is granted the same fraction of its requests. It
	// is the default.
	UniformSplit Split = iota
	// WaterFillSplit is Algorithm 2 (WaterFill): max–min fair, clients
	// below the level t are served in full and the others get t.
	WaterFillSplit
)

// String returns the algorithm's name.
func (s Split) String() string {
	switch s {
	case UniformSplit:
		return "uniform"
	case WaterFillSplit:
		return "water-fill"
	}
	return fmt.Sprintf("Split(%d)", int(s))
}

// Clients places clients on the servers of a throttler (spec deployed
// §5.1).
type Clients struct {
	// Server[j] is the server (node of the throttler's graph) of client
	// j. Every server needs at least one client; within a server the
	// clients keep their order in Server.
	Server []int
	// Split is the per-server algorithm; the zero value is UniformSplit.
	Split Split
}

// ClientSettings are optional settings of SimulateClients; nil means the
// defaults.
type ClientSettings struct {
	// States asks for the servers' vectors x(k), p(k), a(k), r(k) in
	// ClientTrajectory.Servers, as Settings.States (4n numbers a cycle).
	States bool
	// Series asks for the per-client series R, A and Share and the
	// per-server series ServerJain (3c + n numbers a cycle, c clients
	// on n servers); by default only the per-cycle indices and the
	// totals over the run are kept.
	Series bool
	// Workers is the number of goroutines that share each cycle, as
	// Settings.Workers: 0 (the default) as there, 1 serial, a negative
	// value is an error. The result does not depend on it.
	Workers int
}

// Validate checks the settings: Workers ≥ 0 (0 means the default). The
// error wraps loadlab.ErrInvalid and names the field.
func (s *ClientSettings) Validate() error {
	if s != nil && s.Workers < 0 {
		return loadlab.Invalid("consensus", "ClientSettings.Workers = %d, want ≥ 0", s.Workers)
	}
	return nil
}

// ClientTrajectory is the record of SimulateClients (spec deployed §5).
// The accepted amount of client j at cycle k is its share a⁽ʲ⁾(k) of its
// server's limit (the split grants no more than asked). A client is
// active when it asks, r⁽ʲ⁾(k) > 0; its ratio is q⁽ʲ⁾(k) = a⁽ʲ⁾/r⁽ʲ⁾ and
// its throttled share 1 − q⁽ʲ⁾(k) (0 for an idle client). The ratio
// indices run over the active clients, and are 1 when none is active.
// Slices indexed by k hold cycle k = 0, …, Steps−1.
type ClientTrajectory struct {
	// Servers is the record of the throttler under the aggregate
	// demand r_i(k) = Σ_j r_i⁽ʲ⁾(k): bit for bit the Trajectory of
	// Simulate under that demand (the split does not feed back).
	Servers *Trajectory

	// Per cycle, over all clients: the accepted total Σ_j a⁽ʲ⁾(k)
	// (= Σ_i min{x_i, r_i}₊, spec deployed §5.2), Jain's index of the
	// active clients' ratios q⁽ʲ⁾ (JainRatio) and of all clients'
	// accepted amounts a⁽ʲ⁾ (JainAmount), and the smallest ratio of an
	// active client (spec deployed §5.3).
	Accepted, JainRatio, JainAmount, MinRatio []float64

	// Per server over the run: the mean and the least over the cycles
	// of Jain's index J_i(k) of the ratios of its active clients (0
	// when no cycle ran).
	ServerJainMean, ServerJainMin []float64

	// Per client over the run: Requested[j] = Σ_k r⁽ʲ⁾(k) and
	// Granted[j] = Σ_k a⁽ʲ⁾(k); 1 − Granted/Requested is the client's
	// throttled share of the run.
	Requested, Granted []float64

	// With ClientSettings.Series: R[k][j] = r⁽ʲ⁾(k), A[k][j] = a⁽ʲ⁾(k),
	// Share[k][j] = 1 − q⁽ʲ⁾(k), and ServerJain[k][i] = J_i(k).
	R, A, Share, ServerJain [][]float64
}

// SimulateClients runs the throttler th for steps cycles from the limits
// x0 with clients inside the loop (spec deployed §5): at each cycle k it
// draws every client's requests r⁽ʲ⁾(k) from d, sums them per server,
// r_i(k) = Σ_j r_i⁽ʲ⁾(k), updates the limits by (3) with the step of
// Simulate, and has every server split its limit max{x_i(k), 0} among its
// clients by cl.Split, so that Σ_j a_i⁽ʲ⁾(k) = min{x_i(k), r_i(k)}₊ to
// rounding. It records the servers' trajectory, which is bit for bit
// Simulate's under the aggregate demand, the fairness of every cycle
// (Jain's index, network-wide and per server) and each client's totals;
// the per-client series only with ClientSettings.Series. Memory beyond
// the memory budget is refused with an error wrapping
// loadlab.ErrTooLarge before anything is allocated.
//
// It returns the errors of Simulate, and errors wrapping
// loadlab.ErrInvalid for a client on no server (cl.Server[j] outside
// [0, n)), a server without clients, an unknown cl.Split, and a request
// that is negative, NaN or infinite or a limit that is not finite at
// cycle k (with the record up to cycle k). An unstable γ (ErrUnstable)
// is reported as by Simulate; the run stops early if the limits
// overflow. It panics if th, cl or d is nil.
func SimulateClients(th *Throttler, cl *Clients, d ClientDemand, x0 []float64, steps int, s *ClientSettings) (*ClientTrajectory, error) {
	if cl == nil {
		panic("consensus: SimulateClients: nil *Clients cl")
	}
	if d == nil {
		panic("consensus: SimulateClients: nil ClientDemand d")
	}
	if s == nil {
		s = &ClientSettings{}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := validateRun(th, TraceDemand{}, x0, steps, &Settings{States: s.States}); err != nil {
		return nil, err
	}
	n := th.Graph.Order()
	off, idx, err := cl.group(n)
	if err != nil {
		return nil, err
	}
	if err := validateClientRecord(n, len(idx), steps, s.Series); err != nil {
		return nil, err
	}
	f, err := prepare(th.Graph, th.Gamma)
	if err != nil {
		return nil, err
	}
	workers := s.Workers
	if workers == 0 {
		workers = defaultWorkers(n)
	}
	cr := newClientRun(th, f, cl.Split, d, off, idx, x0, steps, s, workers)
	// As in Simulate, a second goroutine draws the clients' requests a
	// few cycles ahead, in order, from the one stream (see Simulate).
	if drawAhead(d, len(idx), steps) {
		cr.pf = newPrefetcher(d, len(idx), steps)
		defer cr.pf.stop()
	}
	return cr.run(steps)
}

// drawAhead reports whether SimulateClients draws the demand d of c
// clients on a second goroutine: on the terms of Simulate (c clients as
// its n servers), and never for a recorded trace, which is only copied.
func drawAhead(d ClientDemand, c, steps int) bool {
	switch d.(type) {
	case ClientTrace, TraceDemand:
		return false
	}
	return c >= parallelNodes && steps > 1 && par.Workers(0) > 1
}

// group validates the layout of cl for n servers and returns it grouped
// by server: the clients of server i are idx[off[i]:off[i+1]], in their
// order in cl.Server.
func (cl *Clients) group(n int) (off, idx []int, err error) {
	if cl.Split != UniformSplit && cl.Split != WaterFillSplit {
		return nil, nil, loadlab.Invalid("consensus", "Clients.Split = %d: unknown", int(cl.Split))
	}
	off = make([]int, n+1)
	for j, i := range cl.Server {
		if i < 0 || i >= n {
			return nil, nil, loadlab.Invalid("consensus", "Clients.Server[%d] = %d, want a server in [0, %d)", j, i, n)
		}
		off[i+1]++
	}
	for i := range n {
		if off[i+1] == 0 {
			return nil, nil, loadlab.Invalid("consensus", "Clients: server %d has no clients, want ≥ 1", i)
		}
		off[i+1] += off[i]
	}
	idx = make([]int, len(cl.Server))
	next := append([]int(nil), off[:n]...)
	for j, i := range cl.Server {
		idx[next[i]] = j
		next[i]++
	}
	return off, idx, nil
}

// clientCycleBytes is the memory of one cycle's per-cycle record beyond
// the servers' totals: four float64 series.
const clientCycleBytes = 4 * 8

// validateClientRecord refuses, before anything is allocated, a record
// beyond the memory budget: with series, 3c + n values a cycle.
func validateClientRecord(n, c, steps int, series bool) error {
	per := trajectoryBytes + clientCycleBytes
	if series {
		p, ok := size.Product(3*8, c)
		q, ok2 := size.Product(8, n)
		if !ok || !ok2 || p > size.MaxBytes || q > size.MaxBytes {
			return loadlab.TooLarge("consensus", "SimulateClients: %d clients on %d servers overflow the per-cycle series", c, n)
		}
		per += p + q
	}
	return size.Check("consensus", "SimulateClients: steps", steps, per)
}

// clientRun holds the state of SimulateClients: the throttler's limits
// (hi, lo) and measure p as in run, and the clients' requests and grants
// grouped by server (rs, as) beside those in client order (rc).
type clientRun struct {
	th      *Throttler
	f       *flows
	split   Split
	d       ClientDemand
	pf      *prefetcher // the demand drawn ahead, or nil
	off     []int
	idx     []int
	x0      []float64
	hi, lo  []float64
	p, r    []float64
	rc      []float64
	rs, as  []float64
	sj      []float64 // J_i(k)
	st      []serverStats
	errs    []error // per piece of the split
	order   [][]int // per piece: the scratch of WaterFill's sort
	states  bool
	series  bool
	workers int

	tr       *Trajectory
	out      *ClientTrajectory
	lambda   spectral.Bracket
	unstable error
}

func newClientRun(th *Throttler, f *flows, split Split, d ClientDemand, off, idx []int, x0 []float64, steps int, s *ClientSettings, workers int) *clientRun {
	n, c := len(x0), len(idx)
	tr := newTrajectory(steps)
	out := &ClientTrajectory{
		Servers:        tr,
		Accepted:       make([]float64, 0, steps),
		JainRatio:      make([]float64, 0, steps),
		JainAmount:     make([]float64, 0, steps),
		MinRatio:       make([]float64, 0, steps),
		ServerJainMean: make([]float64, n),
		ServerJainMin:  make([]float64, n),
		Requested:      make([]float64, c),
		Granted:        make([]float64, c),
	}
	for i := range out.ServerJainMin {
		out.ServerJainMin[i] = math.Inf(1)
	}
	return &clientRun{
		th: th, f: f, split: split, d: d, off: off, idx: idx, x0: x0,
		hi: append([]float64(nil), x0...), lo: make([]float64, n),
		p: make([]float64, n), r: make([]float64, n),
		rc: make([]float64, c), rs: make([]float64, c), as: make([]float64, c),
		sj: make([]float64, n), st: make([]serverStats, n),
		errs: make([]error, passChunks), order: make([][]int, passChunks),
		states: s.States, series: s.Series, workers: workers,
		tr: tr, out: out,
	}
}

// run is the loop of SimulateClients: one cycle per step, then the final
// limits and the stability decision as in Simulate's run.
func (cr *clientRun) run(steps int) (*ClientTrajectory, error) {
	var err error
	for k := 0; k < steps; k++ {
		if err = cr.cycle(k); err != nil {
			err = fmt.Errorf("consensus: SimulateClients: step %d: %w", k, err)
			break
		}
	}
	tr, out := cr.tr, cr.out
	tr.Final = make([]float64, len(cr.hi))
	for i := range cr.hi {
		tr.Final[i] = cr.hi[i] + cr.lo[i]
	}
	tr.LambdaMax = cr.lambda
	if tr.Steps > 0 {
		for i := range out.ServerJainMean {
			out.ServerJainMean[i] /= float64(tr.Steps)
		}
	} else {
		clear(out.ServerJainMin)
	}
	if err == nil {
		err = cr.unstable
	}
	return out, err
}

// cycle runs cycle k (spec deployed §5.1): the clients' requests, their
// sum per server, the split of x(k), the step of Simulate (the totals of
// the cycle and, with States, its vectors), the clients' record and the
// update x(k+1) = x(k) + γ L p(k) of Simulate.
func (cr *clientRun) cycle(k int) error {
	rc := cr.rc
	var err error
	if cr.pf != nil {
		rc, err = cr.pf.next()
	} else {
		err = cr.d.Next(k, rc)
	}
	if err != nil {
		return err
	}
	if err := cr.aggregate(rc); err != nil {
		return err
	}
	if cr.pf != nil {
		cr.pf.release() // rs holds the requests now
	}
	if k == 0 {
		cr.lambda, cr.unstable = stability(cr.th.Graph, cr.th.Gamma, scaling(cr.th.Measure, cr.r, cr.x0))
	}
	if err := cr.splitAll(); err != nil {
		return err
	}
	if err := cr.tr.step(cr.th, cr.r, cr.p, cr.hi, cr.lo); err != nil {
		return err
	}
	if cr.states {
		cr.tr.keep(cr.th, cr.r, cr.hi, cr.p) // hi holds the renormalised x(k)
	}
	cr.record()
	cr.f.apply(cr.hi, cr.lo, cr.p, cr.workers)
	cr.tr.Steps++
	return nil
}

// aggregate checks the clients' requests rc, groups them by server into rs
// and sums them in that order: r_i = Σ_j r_i⁽ʲ⁾ (spec deployed §5.1).
func (cr *clientRun) aggregate(rc []float64) error {
	for q, j := range cr.idx {
		v := rc[j]
		if !(v >= 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("consensus", "client %d (server %d) requests r = %v, want finite and ≥ 0", j, serverOf(cr.off, q), v)
		}
		cr.rs[q] = v
	}
	for i := range cr.r {
		var t float64
		for _, v := range cr.rs[cr.off[i]:cr.off[i+1]] {
			t += v
		}
		cr.r[i] = t
	}
	return nil
}

// serverOf returns the server whose clients' range in off holds q.
func serverOf(off []int, q int) int {
	i := 0
	for off[i+1] <= q {
		i++
	}
	return i
}

// splitAll has every server split max{x_i(k), 0} among its clients by
// the chosen algorithm and computes the sums of its clients' ratios and
// their index J_i(k) (spec deployed §5.2–§5.3), on fixed pieces of the
// servers claimed by up to workers goroutines: each server is done by
// one goroutine alone, so the result does not depend on them. The limit
// x_i(k) = hi_i + lo_i is the value the step of Simulate renormalises to.
func (cr *clientRun) splitAll() error {
	n := len(cr.r)
	workers := cr.workers
	if n < parallelNodes {
		workers = 1
	}
	clear(cr.errs)
	par.For(passChunks, workers, func(c int) {
		a, b := par.Bounds(n, passChunks, c)
		for i := a; i < b; i++ {
			if err := cr.splitServer(i, c); err != nil {
				cr.errs[c] = err
				return
			}
		}
	})
	for _, err := range cr.errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// splitServer splits the limit of server i among its clients, on piece
// piece of splitAll, and sums their ratios and grants.
func (cr *clientRun) splitServer(i, piece int) error {
	x := cr.hi[i] + cr.lo[i]
	if math.IsNaN(x) || math.IsInf(x, 0) {
		if cr.unstable != nil {
			return fmt.Errorf("limit x[%d] = %v, the throttler diverges: %w", i, x, cr.unstable)
		}
		return loadlab.Invalid("consensus", "limit x[%d] = %v, want finite", i, x)
	}
	a, b := cr.off[i], cr.off[i+1]
	req, dst := cr.rs[a:b], cr.as[a:b]
	// A negative limit admits nothing (spec deployed §5.2). The
	// requests were checked by aggregate and the limit above: WaterFill
	// runs without its checks, on the piece's scratch for its sort.
	if cr.split == WaterFillSplit {
		_, cr.order[piece] = waterFill(dst, req, max(x, 0), cr.order[piece])
	} else if _, err := UniformRatio(dst, req, max(x, 0)); err != nil {
		return err
	}
	cr.st[i] = cr.tally(a, b)
	cr.sj[i] = jain(cr.st[i].qsum, cr.st[i].qsq, cr.st[i].active)
	return nil
}

// serverStats are the sums of one server's clients in a cycle, which
// record reduces over the servers in order: the active clients' ratios
// (count, Σq, Σq², min q) and the grants (Σa, the largest a = m and
// Σ(a/m)², scaled so that no square overflows).
type serverStats struct {
	active          int
	qsum, qsq, qmin float64
	asum, amax, asq float64
}

// tally returns the sums of the clients a, …, b−1 in server order, and
// adds their requests and grants to the clients' totals of the run:
// each client belongs to one server, so servers on different
// goroutines touch different totals.
func (cr *clientRun) tally(a, b int) serverStats {
	st := serverStats{qmin: 1}
	req, dst, idx := cr.rs[a:b], cr.as[a:b:b], cr.idx[a:b:b]
	reqTot, grTot := cr.out.Requested, cr.out.Granted
	for q, r := range req {
		g := dst[q]
		j := idx[q]
		reqTot[j] += r
		grTot[j] += g
		st.asum += g
		st.asq += g * g
		st.amax = max(st.amax, g)
		if r > 0 {
			v := ratio(g, r)
			st.qsum += v
			st.qsq += v * v
			st.qmin = min(st.qmin, v)
			st.active++
		}
	}
	// Σ(a/m)² = Σa²/m² unless a square overflowed or underflowed.
	if m := st.amax; m > 0 && (m > 0x1p500 || m < 0x1p-500 || math.IsInf(st.asq, 1)) {
		st.asq = 0
		for _, g := range dst {
			g /= m
			st.asq += g * g
		}
	} else if m > 0 {
		st.asq /= m * m
	}
	return st
}

// ratio is the accepted/requested ratio q = a/r of an active client,
// r > 0 (spec deployed §5.3); min keeps a rounding excess above 1 out.
func ratio(a, r float64) float64 {
	return min(a/r, 1)
}

// jain is Jain's index (Σv)²/(c Σv²) from the sums s1 = Σv and s2 = Σv²
// of c non-negative values, 1 when all are zero or c = 0 (spec deployed
// §5.3). It
// lies in [1/c, 1] by the Cauchy–Schwarz inequality; the computed value
// is kept there against rounding.
func jain(s1, s2 float64, c int) float64 {
	if s2 == 0 || c == 0 {
		return 1
	}
	fc := float64(c)
	return min(max(s1*s1/(fc*s2), 1/fc), 1)
}

// record appends the clients' quantities of the cycle: the network-wide
// indices from the servers' sums, in server order, the per-server index
// statistics and, with Series, the per-client and per-server vectors.
// For the amount index, Σa² / M² = Σ_i Σ(a/m_i)² (m_i/M)² with M the
// largest grant.
func (cr *clientRun) record() {
	out := cr.out
	var top float64
	for i := range cr.st {
		top = max(top, cr.st[i].amax)
	}
	var qsum, qsq, asum, asq float64
	qmin := 1.0
	active := 0
	for i := range cr.st {
		st := &cr.st[i]
		qsum += st.qsum
		qsq += st.qsq
		qmin = min(qmin, st.qmin)
		active += st.active
		asum += st.asum
		if st.amax > 0 {
			f := st.amax / top
			asq += st.asq * f * f
		}
		out.ServerJainMean[i] += cr.sj[i]
		out.ServerJainMin[i] = min(out.ServerJainMin[i], cr.sj[i])
	}
	out.Accepted = append(out.Accepted, asum)
	out.JainRatio = append(out.JainRatio, jain(qsum, qsq, active))
	ja := 1.0
	if top > 0 {
		ja = jain(asum/top, asq, len(cr.idx))
	}
	out.JainAmount = append(out.JainAmount, ja)
	out.MinRatio = append(out.MinRatio, qmin)
	if cr.series {
		cr.keepSeries()
	}
}

// keepSeries appends the per-client vectors (in client order) and the
// per-server indices of the cycle.
func (cr *clientRun) keepSeries() {
	c := len(cr.idx)
	r, a, sh := make([]float64, c), make([]float64, c), make([]float64, c)
	for q, j := range cr.idx {
		r[j], a[j] = cr.rs[q], cr.as[q]
		if r[j] > 0 {
			sh[j] = 1 - ratio(a[j], r[j])
		}
	}
	out := cr.out
	out.R = append(out.R, r)
	out.A = append(out.A, a)
	out.Share = append(out.Share, sh)
	out.ServerJain = append(out.ServerJain, append([]float64(nil), cr.sj...))
}

// jainScaled is Jain's index of the non-negative values v with largest
// value m, computed on v/m so that the squares cannot overflow.
func jainScaled(v []float64, m float64) float64 {
	if m == 0 {
		return 1
	}
	var s1, s2 float64
	for _, x := range v {
		x /= m
		s1 += x
		s2 += x * x
	}
	return jain(s1, s2, len(v))
}

// JainIndex returns Jain's fairness index of the values v,
//
//	J(v) = (Σ_j v_j)² / (c Σ_j v_j²),  c = len(v)
//
// (spec deployed §5.3): 1 when all values are equal (all zero
// included), 1/c when one alone is positive, and in [1/c, 1] always. It
// returns an error wrapping loadlab.ErrInvalid for an empty v or a value
// that is negative, NaN or infinite.
func JainIndex(v []float64) (float64, error) {
	if len(v) == 0 {
		return math.NaN(), loadlab.Invalid("consensus", "JainIndex: no values")
	}
	var m float64
	for j, x := range v {
		if !(x >= 0) || math.IsInf(x, 1) {
			return math.NaN(), loadlab.Invalid("consensus", "JainIndex: v[%d] = %v, want finite and ≥ 0", j, x)
		}
		m = max(m, x)
	}
	return jainScaled(v, m), nil
}
