package dual

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Unreachable says what FastControl does with a pair for which the rate
// (19) is undefined (spec §4.7, open question §9.9). Proxy i learns the
// term C_ij μ_j of β_i from category-i packets that node j emits at rate
// r_ji = γ μ_j C_ij / C_ji and that reach proxy i with probability C_ji.
// If C_ji = 0 while C_ij > 0, no rate can deliver the term. (If C_ij = 0
// too, the term is zero and nothing is sent.) The paper does not say how
// it handles the case.
type Unreachable int

const (
	// Reject refuses such a C: Rates and Solve return an error naming
	// the pair. This is the default.
	Reject Unreachable = iota
	// Drop leaves the undeliverable term out, so the measured β is low
	// by exactly the missing terms. Useful to quantify the damage.
	Drop
	// Direct has the sender report its term by a reliable unicast
	// message (an explicit control exchange that FastControl otherwise
	// avoids); it is exact and counted in Result.Direct.
	Direct
)

func (u Unreachable) String() string {
	switch u {
	case Reject:
		return "reject"
	case Drop:
		return "drop"
	case Direct:
		return "direct"
	}
	return fmt.Sprintf("Unreachable(%d)", int(u))
}

// FastControl describes how nodes learn β through FastControl packets
// (spec §4.7–4.8).
type FastControl struct {
	// Gamma is γ > 0, the packet rate per unit of μ in (19).
	Gamma float64
	// Window is the measurement window W over which each proxy counts
	// the packets it receives. Zero means the reception rate is known
	// exactly (the fluid limit); W > 0 draws Poisson counts and needs Src.
	Window float64
	// Loss is the probability in [0, 1) that a packet is lost on its way.
	// Nodes do not know it, so it biases β̂ low by the factor 1 − Loss.
	Loss float64
	// Delay is the number of iterations the measurement lags: β̂(k) is
	// measured while the network still runs μ(k − Delay) (μ(0) before
	// the start).
	Delay int
	// Unreachable is the policy for pairs with C_ij = 0 < C_ji.
	Unreachable Unreachable
	// Src draws the packet counts when Window > 0; it is required then
	// (Validate refuses a nil one).
	Src rand.Source
}

// Validate checks the fields, including a nil Src when Window > 0 (a
// required field, docs/conventions.md §2). Errors wrap
// loadlab.ErrInvalid and name the field.
func (fc *FastControl) Validate() error {
	if !(fc.Gamma > 0) || math.IsInf(fc.Gamma, 1) {
		return loadlab.Invalid("dual", "FastControl.Gamma = %v, want a finite value > 0", fc.Gamma)
	}
	if !(fc.Window >= 0) || math.IsInf(fc.Window, 1) {
		return loadlab.Invalid("dual", "FastControl.Window = %v, want a finite value ≥ 0", fc.Window)
	}
	if !(fc.Loss >= 0 && fc.Loss < 1) {
		return loadlab.Invalid("dual", "FastControl.Loss = %v, want 0 ≤ Loss < 1", fc.Loss)
	}
	if fc.Delay < 0 {
		return loadlab.Invalid("dual", "FastControl.Delay = %d, want ≥ 0", fc.Delay)
	}
	// β̂ = count/(γW): the product must be a finite normal number.
	if gw := fc.Gamma * fc.Window; fc.Window > 0 && (gw < math.SmallestNonzeroFloat64*(1<<52) || math.IsInf(gw, 1)) {
		return loadlab.Invalid("dual", "FastControl.Gamma·Window = %v·%v = %v, want a finite normal number (count/(γW) estimates β)", fc.Gamma, fc.Window, gw)
	}
	if fc.Unreachable < Reject || fc.Unreachable > Direct {
		return loadlab.Invalid("dual", "FastControl.Unreachable = %d, want Reject, Drop or Direct", int(fc.Unreachable))
	}
	if fc.Window > 0 && fc.Src == nil {
		return loadlab.Invalid("dual", "FastControl.Src is nil with Window = %v, want a rand.Source to draw the packet counts", fc.Window)
	}
	return nil
}

// UnreachableError reports a pair for which (19) is undefined.
type UnreachableError struct {
	I, J     int     // r_IJ = γ μ_I C_JI / C_IJ
	Cij, Cji float64 // C_IJ = 0, C_JI > 0
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("dual: C[%d][%d] = %v but C[%d][%d] = %v: FastControl rate r_%d%d = γ μ_%d C_%d%d / C_%d%d is undefined (spec §4.7)",
		e.I, e.J, e.Cij, e.J, e.I, e.Cji, e.I, e.J, e.I, e.J, e.I, e.I, e.J)
}

// eachPair calls fn(j, C_ij, C_ji) for every j, in increasing order,
// with C_ij or C_ji stored: a merge of row i and column i of C, O(N) for
// dense C and O(degree) for sparse C, so that a sweep over all i costs
// O(nnz(C)).
func eachPair(nw *anycast.Network, i int, fn func(j int, cij, cji float64)) {
	rc, rv := nw.Row(i) // C_ij at columns j
	cr, cv := nw.Col(i) // C_ji at rows j
	a, b := 0, 0
	for a < len(rc) || b < len(cr) {
		switch {
		case b == len(cr) || (a < len(rc) && rc[a] < cr[b]):
			fn(rc[a], rv[a], 0)
			a++
		case a == len(rc) || cr[b] < rc[a]:
			fn(cr[b], 0, cv[b])
			b++
		default:
			fn(rc[a], rv[a], cv[b])
			a++
			b++
		}
	}
}

// findUnreachable returns the first pair (i, j), in row-major order, with
// C_ij = 0 < C_ji, or nil; O(nnz(C)).
func findUnreachable(nw *anycast.Network) *UnreachableError {
	for i := 0; i < nw.N(); i++ {
		var e *UnreachableError
		eachPair(nw, i, func(j int, cij, cji float64) {
			if e == nil && cij == 0 && cji > 0 {
				e = &UnreachableError{I: i, J: j, Cij: cij, Cji: cji}
			}
		})
		if e != nil {
			return e
		}
	}
	return nil
}

// Rates returns the FastControl packet rates (spec §4.7 eq. (19)):
// node i emits category-j packets at
//
//	r_ij = γ μ_i C_ji / C_ij,
//
// and r_ij = 0 when C_ji = 0. Category-j packets emitted through node i
// land at proxy j with probability C_ij. If some C_ij = 0 < C_ji the rate
// is undefined and Rates returns an *UnreachableError naming the first
// such pair. The rates are computed in O(nnz(C)) from the stored entries;
// the result is the dense N × N matrix (O(N²) memory, zeros included),
// and a matrix over the memory budget is an error wrapping
// loadlab.ErrTooLarge, checked before allocating. A rate that overflows
// (a huge γ μ_i over a tiny C_ij) is an error wrapping loadlab.ErrInvalid. It validates nw and returns an error wrapping
// loadlab.ErrInvalid for a bad network, a γ that is not finite and > 0, a
// wrong len(mu) or a μ_i that is negative, NaN or infinite. dst is reused
// if it is N×N; nil allocates. It panics if nw is nil or dst is not N×N.
func Rates(dst *mat.Dense, nw *anycast.Network, mu []float64, gamma float64) (*mat.Dense, error) {
	if err := checkMuGamma(nw, mu, gamma); err != nil {
		return nil, err
	}
	n := nw.N()
	if dst != nil {
		if r, c := dst.Dims(); r != n || c != n {
			panic(fmt.Sprintf("dual: Rates: dst is %d×%d, want %d×%d", r, c, n, n))
		}
	}
	if e := findUnreachable(nw); e != nil {
		return nil, e
	}
	if dst == nil {
		if cells, ok := size.Mul(n, n); !ok || size.Check("dual", "Rates: N×N rate matrix", cells, 8) != nil {
			return nil, loadlab.TooLarge("dual", "Rates: the N×N rate matrix with N = %d (use Overhead, or FastControl in Solve, which are O(nnz))", n)
		}
		dst = mat.NewDense(n, n, nil)
	} else {
		dst.Zero()
	}
	var over *[2]int
	for i := 0; i < n; i++ {
		eachPair(nw, i, func(j int, cij, cji float64) {
			if cji == 0 {
				return
			}
			r := gamma * mu[i] * cji / cij // (19)
			if math.IsInf(r, 1) && over == nil {
				over = &[2]int{i, j}
			}
			dst.Set(i, j, r)
		})
	}
	if over != nil {
		i, j := over[0], over[1]
		return nil, loadlab.Invalid("dual", "Rates: r[%d][%d] = γ μ_%d C_%d%d/C_%d%d = %v·%v·%v/%v overflows, want a smaller gamma or mu", i, j, i, j, i, i, j, gamma, mu[i], nw.At(j, i), nw.At(i, j))
	}
	return dst, nil
}

// Receptions returns the reception rates R_i = Σ_j r_ji C_ji of
// category-i packets at proxy i (spec §4.7 eq. (20)); with the rates of
// (19) R_i = γ β_i(μ). dst is reused if non-nil. It validates nw and
// returns an error wrapping loadlab.ErrInvalid for a bad network, a rate
// matrix that is not N×N, a rate that is negative, NaN or infinite, or a
// reception rate whose sum overflows. It panics if nw or r is nil or a
// non-nil dst has the wrong length.
func Receptions(dst []float64, nw *anycast.Network, r mat.Matrix) ([]float64, error) {
	if nw == nil {
		panic("dual: Receptions: nil network nw")
	}
	if r == nil {
		panic("dual: Receptions: nil rate matrix r")
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	n := nw.N()
	if rr, rc := r.Dims(); rr != n || rc != n {
		return nil, loadlab.Invalid("dual", "Receptions: rates are %d×%d, want %d×%d", rr, rc, n, n)
	}
	if dst == nil {
		dst = make([]float64, n)
	} else if len(dst) != n {
		panic(fmt.Sprintf("dual: Receptions: len(dst) = %d, want %d", len(dst), n))
	}
	for j := 0; j < n; j++ { // every rate is data: all N² are checked
		for i := 0; i < n; i++ {
			if v := r.At(j, i); !(v >= 0) || math.IsInf(v, 1) {
				return nil, loadlab.Invalid("dual", "Receptions: r[%d][%d] = %v, want a finite rate ≥ 0", j, i, v)
			}
		}
	}
	for i := 0; i < n; i++ {
		rows, vals := nw.Col(i) // C_ji > 0 only for sparse C: O(nnz)
		var s float64
		for k, j := range rows {
			s += r.At(j, i) * vals[k]
		}
		if math.IsInf(s, 1) {
			return nil, loadlab.Invalid("dual", "Receptions: R_%d = Σ_j r[j][%d] C_j%d overflows, want smaller rates", i, i, i)
		}
		dst[i] = s
	}
	return dst, nil
}

// checkMuGamma validates the arguments of Rates and Overhead.
func checkMuGamma(nw *anycast.Network, mu []float64, gamma float64) error {
	if nw == nil {
		panic("dual: nil *anycast.Network")
	}
	if err := nw.Validate(); err != nil {
		return err
	}
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return loadlab.Invalid("dual", "gamma = %v, want a finite value > 0", gamma)
	}
	if len(mu) != nw.N() {
		return loadlab.Invalid("dual", "len(mu) = %d, want N = %d", len(mu), nw.N())
	}
	for i, v := range mu {
		if !(v >= 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("dual", "mu[%d] = %v, want a finite value ≥ 0", i, v)
		}
	}
	return nil
}

// Overhead returns the total FastControl packet rate Σ_ij r_ij =
// γ Σ_i μ_i Σ_{j: C_ij>0} C_ji/C_ij (spec §4.7, DERIVED), counting only
// pairs for which (19) is defined, in O(nnz(C)). It returns the errors of
// Rates for bad arguments, one wrapping loadlab.ErrInvalid when the total
// overflows, and panics if nw is nil.
func Overhead(nw *anycast.Network, mu []float64, gamma float64) (float64, error) {
	if err := checkMuGamma(nw, mu, gamma); err != nil {
		return 0, err
	}
	var t float64
	for i := 0; i < nw.N(); i++ {
		t += mu[i] * overheadSum(nw, i)
	}
	if r := gamma * t; !math.IsInf(r, 1) {
		return r, nil
	}
	return 0, loadlab.Invalid("dual", "Overhead: γ Σ_i μ_i Σ_j C_ji/C_ij overflows (gamma = %v, max mu = %v), want a smaller gamma or mu", gamma, floats.Max(mu))
}

// overheadSum returns Σ_{j: C_ij > 0} C_ji/C_ij, node i's share of the
// FastControl packet rate per unit of γ μ_i (spec §4.7), in O(degree).
func overheadSum(nw *anycast.Network, i int) float64 {
	var s float64
	eachPair(nw, i, func(_ int, cij, cji float64) {
		if cij > 0 {
			s += cji / cij
		}
	})
	return s
}

// fcState is the simulated FastControl measurement inside Solve. The
// pairs are stored as compressed rows per receiver, so a measurement costs
// O(nnz(C)) like the rest of a dual step.
type fcState struct {
	fc FastControl
	// Packet-borne terms of receiver i: senders col[k] for k in
	// start[i]:start[i+1], with q[k] = C_ij/C_ji (so r_ji = γ μ_j q, (19))
	// and cji[k] = C_ji, the probability that the packet lands at i.
	start, col []int
	q, cji     []float64
	// Terms sent by direct report (Unreachable = Direct): senders dcol[k]
	// for k in dstart[i]:dstart[i+1], with dval[k] = C_ij.
	dstart, dcol []int
	dval         []float64
	// ov[i] = Σ_{j: C_ij > 0} C_ji/C_ij, so the packet rate is γ Σ μ_i ov[i].
	ov   []float64
	past [][]float64
	rate []float64 // packet-borne reception rates
	pois distuv.Poisson

	packets, direct float64 // totals over the run
	overflow        int     // first step (+1) at which a rate or an expected count was not finite
}

func newFCState(p *Problem, fc *FastControl, mu0 []float64) (*fcState, error) {
	if err := fc.Validate(); err != nil {
		return nil, err
	}
	nw := p.Net
	n := nw.N()
	if fc.Unreachable == Reject {
		if e := findUnreachable(nw); e != nil {
			return nil, e
		}
	}
	st := &fcState{fc: *fc, start: make([]int, n+1), dstart: make([]int, n+1), ov: make([]float64, n), rate: make([]float64, n)}
	nnz := nw.NNZ()
	st.col, st.q, st.cji = make([]int, 0, nnz), make([]float64, 0, nnz), make([]float64, 0, nnz)
	for i := 0; i < n; i++ {
		eachPair(nw, i, func(j int, cij, cji float64) {
			switch {
			case cji > 0 && cij > 0:
				st.col = append(st.col, j)
				st.q = append(st.q, cij/cji)
				st.cji = append(st.cji, cji)
			case cij > 0 && fc.Unreachable == Direct:
				st.dcol = append(st.dcol, j)
				st.dval = append(st.dval, cij)
			}
			if cij > 0 {
				st.ov[i] += cji / cij // Overhead's per-node sum, spec §4.7
			}
		})
		st.start[i+1], st.dstart[i+1] = len(st.col), len(st.dcol)
	}
	st.past = make([][]float64, fc.Delay+1)
	for d := range st.past {
		st.past[d] = append([]float64(nil), mu0...)
	}
	st.pois.Src = fc.Src
	return st, nil
}

// measure writes β̂(k), what the nodes learn at step k, into beta.
func (st *fcState) measure(beta, mu []float64, k int) {
	fc := &st.fc
	// The network runs μ(k − Delay). The ring holds μ(k), …, μ(k − Delay),
	// filled with μ(0) at the start: after writing μ(k) into slot
	// k mod (Delay+1), the oldest entry is in the next slot.
	m := len(st.past)
	copy(st.past[k%m], mu)
	run := st.past[(k+1)%m]
	g := fc.Gamma
	keep := 1 - fc.Loss
	for i := range beta {
		var r, dir float64
		for p := st.start[i]; p < st.start[i+1]; p++ {
			rji := g * run[st.col[p]] * st.q[p] // (19)
			r += rji * st.cji[p]                // (20): lands at i w.p. C_ji
		}
		for p := st.dstart[i]; p < st.dstart[i+1]; p++ {
			if v := run[st.dcol[p]]; v != 0 {
				dir += st.dval[p] * v
				st.direct++
			}
		}
		st.rate[i] = r * keep // expected reception rate (20), thinned by loss
		if math.IsInf(st.rate[i]*fc.Window, 1) || math.IsInf(st.rate[i], 1) {
			if st.overflow == 0 {
				st.overflow = k + 1
			}
		}
		if fc.Window > 0 {
			st.pois.Lambda = st.rate[i] * fc.Window
			cnt := 0.0
			if st.pois.Lambda > 0 {
				cnt = st.pois.Rand()
			}
			beta[i] = cnt/(g*fc.Window) + dir // (20): β̂ = R̂/γ
		} else {
			beta[i] = st.rate[i]/g + dir
		}
	}
	var sent float64
	for i, v := range run {
		sent += v * st.ov[i]
	}
	sent *= g // Overhead: γ Σ_i μ_i Σ_j C_ji/C_ij
	if fc.Window > 0 {
		sent *= fc.Window
	}
	st.packets += sent
}
