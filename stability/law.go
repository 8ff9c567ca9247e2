package stability

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/mat"
)

// Law is FastRoute's greedy control law on a network (spec §5.1 eq. (24)):
//
//	dx_i/dt = g_i · x_i (1 − x_i) (T_i − S_i(x)),   S = Cᵀ diag(A) x,
//
// with gain g_i = Sensitivity, or Sensitivity/T_i when Normalized is set
// (the variant with the overload measured relative to capacity, §5.1 and
// §9 item 8).
//
// A Law is its fields and nothing else: a copy is the same law, and its
// methods may be called from several goroutines at once. Integrations
// that should reuse the memory of their matrices share a Workspace
// (Settings.Workspace).
type Law struct {
	Net *anycast.Network
	// Sensitivity is β > 0 of (24), in 1/(time·load). It is not the
	// coupling factor β_i(μ) of the dual algorithm (§5.1, naming hazard).
	Sensitivity float64
	// Normalized replaces T_i − S_i by (T_i − S_i)/T_i.
	Normalized bool
}

// NewLaw returns the law (24) with sensitivity beta on nw, or an error
// wrapping loadlab.ErrInvalid if nw is invalid or beta is not finite and
// positive.
//
// NewLaw panics if nw is nil.
func NewLaw(nw *anycast.Network, beta float64) (*Law, error) {
	if nw == nil {
		panic("stability: NewLaw: nw is nil")
	}
	l := &Law{Net: nw, Sensitivity: beta}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// Validate checks the law and its network (anycast.Network.Validate).
// Every method of Law that takes data calls it first, so a network changed
// after NewLaw is checked again; the hot-loop methods Rate, Jacobian,
// JacobianOp and EulerStep do not.
//
// A nil Net is a missing required field: an error wrapping
// loadlab.ErrInvalid naming it (docs/conventions.md §2).
func (l *Law) Validate() error {
	if err := l.checkFields(); err != nil {
		return err
	}
	return l.Net.Validate()
}

// checkFields checks the law's own fields, in O(1): Net is set and
// Sensitivity is finite and positive.
func (l *Law) checkFields() error {
	if l.Net == nil {
		return loadlab.Invalid("stability", "Law.Net is nil, want a network")
	}
	if !(l.Sensitivity > 0) || math.IsInf(l.Sensitivity, 1) {
		return loadlab.Invalid("stability", "Law.Sensitivity = %v, want a finite value > 0", l.Sensitivity)
	}
	return nil
}

// net returns l.Net for a hot-loop method without an error result,
// which panics on a nil Net (docs/conventions.md §2) naming the field.
func (l *Law) net(method string) *anycast.Network {
	if l.Net == nil {
		panic("stability: " + method + ": Law.Net is nil")
	}
	return l.Net
}

// gain returns g_i.
func (l *Law) gain(i int) float64 {
	if l.Normalized {
		return l.Sensitivity / l.Net.T[i]
	}
	return l.Sensitivity
}

// checkState returns an error unless x has length N and lies in [0, 1]^N.
func (l *Law) checkState(name string, x []float64) error {
	if len(x) != l.Net.N() {
		return loadlab.Invalid("stability", "len(%s) = %d, want N = %d", name, len(x), l.Net.N())
	}
	for i, v := range x {
		if !(v >= 0 && v <= 1) {
			return loadlab.Invalid("stability", "%s[%d] = %v, want a value in [0, 1]", name, i, v)
		}
	}
	return nil
}

// Rate writes the right-hand side of (24) at x into dst and returns it; dst
// may be nil, and may not alias x. It does not allocate when dst is given.
//
// Rate panics if Law.Net is nil, or if len(x) or a non-nil len(dst)
// differs from N.
func (l *Law) Rate(dst, x []float64) []float64 {
	dst = l.net("Rate").Loads(dst, x) // spec §1.3 eq. (21)
	for i, s := range dst {
		dst[i] = l.gain(i) * x[i] * (1 - x[i]) * (l.Net.T[i] - s) // spec §5.1 eq. (24)
	}
	return dst
}

// Jacobian writes the Jacobian of (24) at x into dst and returns it (dst may
// be nil; otherwise it must be N×N). By spec §5.4,
//
//	∂F_i/∂x_j = g_i (1 − 2x_i)(T_i − S_i) δ_ij − g_i x_i (1 − x_i) C_ji A_j.
//
// The matrix is dense, N×N, whatever the form of C; for a large sparse
// network use JacobianOp, which holds the same entries in O(N) numbers
// beside the network and multiplies in O(nnz).
//
// Jacobian panics if Law.Net is nil, len(x) ≠ N or dst has the wrong
// shape.
func (l *Law) Jacobian(dst *mat.Dense, x []float64) *mat.Dense {
	n := l.net("Jacobian").N()
	if dst == nil {
		dst = mat.NewDense(n, n, nil)
	} else if r, c := dst.Dims(); r != n || c != n {
		panic(fmt.Sprintf("stability: Jacobian dst is %d×%d, want %d×%d", r, c, n, n))
	}
	s := l.Net.Loads(nil, x)
	dst.Zero()
	for j := 0; j < n; j++ {
		cols, vals := l.Net.Row(j) // O(nnz) reads for sparse C
		for k, i := range cols {
			// spec §5.4: −g_i x_i (1 − x_i) C_ji A_j
			dst.Set(i, j, -l.gain(i)*x[i]*(1-x[i])*vals[k]*l.Net.A[j])
		}
	}
	for i := 0; i < n; i++ {
		dst.Set(i, i, dst.At(i, i)+l.gain(i)*(1-2*x[i])*(l.Net.T[i]-s[i]))
	}
	return dst
}

// EulerStep performs one step of Algorithm 2 (spec §5.2), the explicit Euler
// discretisation of (24) with time step dt > 0, writing the new state into
// dst (which may alias x, or be nil: then a new slice) and returning it.
//
// By spec §5.2 (DERIVED) the step keeps x in [0, 1]^N whenever
// |dt·g_i·(T_i − S_i)| ≤ 1 for every i; EulerStep returns an error naming
// the first node that violates this, leaving dst unspecified. It returns
// an error wrapping loadlab.ErrInvalid, before stepping, for a nil
// Law.Net or a Sensitivity not finite and positive, dt not finite and
// positive or x outside [0, 1]^N (or NaN); it does not revalidate the
// network (see Validate).
//
// EulerStep panics if len(x) or a non-nil len(dst) differs from N.
func (l *Law) EulerStep(dst, x []float64, dt float64) ([]float64, error) {
	if err := l.checkFields(); err != nil {
		return dst, err
	}
	n := l.Net.N()
	if len(x) != n || (dst != nil && len(dst) != n) {
		panic(fmt.Sprintf("stability: EulerStep lengths %d, %d, want %d", len(x), len(dst), n))
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if !(dt > 0) || math.IsInf(dt, 1) {
		return dst, loadlab.Invalid("stability", "dt = %v, want a finite value > 0", dt)
	}
	if err := l.checkState("x", x); err != nil {
		return dst, err
	}
	return dst, l.euler(dst, x, make([]float64, n), dt)
}

// euler is EulerStep with a workspace s of length N and no checks on dt.
func (l *Law) euler(dst, x, s []float64, dt float64) error {
	// Loads need all of x before dst is overwritten, so compute S first.
	l.Net.Loads(s, x)
	for i := range dst {
		c := dt * l.gain(i) * (l.Net.T[i] - s[i])
		if math.Abs(c) > 1 {
			return loadlab.Invalid("stability", "dt = %v too large at node %d: |dt·g·(T−S)| = %v > 1 may leave [0, 1]", dt, i, math.Abs(c))
		}
		dst[i] = x[i] + c*x[i]*(1-x[i]) // spec §5.2 Algorithm 2
	}
	return nil
}

// Iterate runs Algorithm 2 (spec §5.2) from x0 for the given number of
// steps of size dt and returns every iterate (steps+1 states, at times
// k·dt). It returns an error wrapping loadlab.ErrInvalid for a bad law,
// x0, dt or steps, or as EulerStep if a step could leave [0, 1]^N (then
// with the iterates so far), and one wrapping loadlab.ErrTooLarge, before
// allocating, if the steps+1 states would not fit in memory. On such an
// error the trajectory holds only the iterates before the refused step
// (Status Failure): read the error, not the trajectory. The controller a
// deployment runs, which clamps instead of refusing and measures noisy
// loads, is Controller (spec §13.8).
func (l *Law) Iterate(x0 []float64, dt float64, steps int) (*Trajectory, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if err := l.checkState("x0", x0); err != nil {
		return nil, err
	}
	if steps < 0 {
		return nil, loadlab.Invalid("stability", "steps = %d, want ≥ 0", steps)
	}
	if !(dt > 0) || math.IsInf(dt, 1) {
		return nil, loadlab.Invalid("stability", "dt = %v, want a finite value > 0", dt)
	}
	if err := checkSamples("steps", steps, l.Net.N(), false); err != nil {
		return nil, err
	}
	tr := newTrajectory(l.Net, nil, steps+1, false)
	x := append([]float64(nil), x0...)
	s := make([]float64, len(x))
	tr.add(0, x, nil)
	for k := 1; k <= steps; k++ {
		if err := l.euler(x, x, s, dt); err != nil {
			tr.Status = loadlab.Failure
			return tr, fmt.Errorf("step %d: %w", k, err)
		}
		tr.add(float64(k)*dt, x, nil)
	}
	tr.Status = loadlab.Success
	return tr, nil
}

// checkSamples returns an error wrapping loadlab.ErrTooLarge, naming what,
// if count+1 samples of a trajectory of n nodes would exceed the memory
// budget.
func checkSamples(what string, count, n int, logits bool) error {
	per := 8*(3*n+3) + 3*24 // X, S, Overload rows and headers; T, Second, Excess
	if logits {
		per += 8*n + 24
	}
	if count == math.MaxInt {
		return loadlab.TooLarge("stability", "%s = %d needs more than %d GiB", what, count, size.MaxBytes>>30)
	}
	if err := size.Check("stability", what, count+1, per); err != nil {
		return err
	}
	return nil
}
