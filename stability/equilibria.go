package stability

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/mat"
)

// Class is the type of an equilibrium read off the eigenvalues of the
// Jacobian of (24) there (spec §5.4).
type Class int

const (
	// Stable: every eigenvalue has negative real part (a sink; locally
	// asymptotically stable).
	Stable Class = iota
	// Unstable: some eigenvalue has positive real part and none has
	// negative real part (a source when none has zero real part). One
	// eigenvalue with positive real part proves instability whatever the
	// others are (Lyapunov's instability theorem for the linearisation).
	Unstable
	// Saddle: eigenvalues with positive and with negative real parts,
	// possibly also some with zero real part (unstable).
	Saddle
	// NonHyperbolic: no eigenvalue has positive real part and some has
	// zero real part (within the tolerance of ZeroTol); linearisation
	// decides nothing.
	NonHyperbolic
	numClasses
)

// String returns the lower-case name of the class.
func (c Class) String() string {
	switch c {
	case Stable:
		return "stable"
	case Unstable:
		return "unstable"
	case Saddle:
		return "saddle"
	case NonHyperbolic:
		return "non-hyperbolic"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// ZeroTol is the relative tolerance below which the real part of an
// eigenvalue counts as zero: |Re λ| ≤ ZeroTol·scale, where scale =
// max_i g_i·max(T_i, (CᵀA)_i) bounds the magnitude of the Jacobian's
// entries. 1e-9 sits far above the rounding error of the eigenvalues
// (≈ N·ε·scale) and far below any margin of practical interest.
const ZeroTol = 1e-9

// Equilibrium is a fixed point of (24) with its linearisation.
type Equilibrium struct {
	X, S []float64 // state and loads (21)
	// Eigenvalues of the Jacobian at X, sorted by real part, then by
	// imaginary part (the one order of Linearize, Corner and Snap). At a
	// vertex, NodeRates gives them per node.
	Eigenvalues []complex128
	// NodeRates, set by Corner only, holds λ_i of node i at a vertex,
	// where the Jacobian is diagonal: NodeRates[i] > 0 means the greedy
	// law pushes node i off its face.
	NodeRates []float64
	Class     Class
	// Overloaded lists the nodes with x_i = 0 and S_i > T_i: they have
	// shed all their own demand and remain overloaded (26).
	Overloaded []int
}

// Uncontrollable reports whether the equilibrium is a locally uncontrollable
// overload (spec §5.3–5.4): it is stable and some node with x_i = 0 is
// overloaded.
func (e *Equilibrium) Uncontrollable() bool { return e.Class == Stable && len(e.Overloaded) > 0 }

// scale returns max_i g_i·max(T_i, (CᵀA)_i), the scale of ZeroTol.
func (l *Law) scale() float64 {
	maxS := l.Net.MaxLoads()
	var sc float64
	for i := range maxS {
		sc = math.Max(sc, l.gain(i)*math.Max(l.Net.T[i], maxS[i]))
	}
	return sc
}

// classify returns the class of a spectrum with counts of real parts. A
// positive real part decides first: it proves instability (spec §5.4).
func classify(neg, zero, pos int) Class {
	switch {
	case pos > 0 && neg > 0:
		return Saddle
	case pos > 0:
		return Unstable
	case zero > 0:
		return NonHyperbolic
	}
	return Stable
}

// equilibrium fills in loads, overloaded nodes and class from eigenvalues.
func (l *Law) equilibrium(x []float64, ev []complex128, zt float64) *Equilibrium {
	e := &Equilibrium{X: x, S: l.Net.Loads(nil, x), Eigenvalues: ev}
	var neg, zero, pos int
	for _, v := range ev {
		switch r := real(v); {
		case math.Abs(r) <= zt:
			zero++
		case r < 0:
			neg++
		default:
			pos++
		}
	}
	e.Class = classify(neg, zero, pos)
	for i, v := range x {
		if v == 0 && e.S[i] > l.Net.T[i] {
			e.Overloaded = append(e.Overloaded, i)
		}
	}
	return e
}

// Linearize checks that x is an equilibrium of (24) (spec §5.2 item 4:
// each x_i ∈ {0, 1} or S_i = T_i) and returns it with the eigenvalues of the
// Jacobian, computed by gonum's mat.Eigen, and its class. It copies x.
//
// It returns an error if x is not in [0, 1]^N, has the wrong length, or if
// some |F_i(x)| exceeds 1e-9·scale (see ZeroTol): x is then not an
// equilibrium to working accuracy.
func (l *Law) Linearize(x []float64) (*Equilibrium, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if err := l.checkState("x", x); err != nil {
		return nil, err
	}
	x = append([]float64(nil), x...)
	zt := ZeroTol * l.scale()
	f := l.Rate(nil, x)
	for i, v := range f {
		if math.Abs(v) > zt {
			return nil, loadlab.Invalid("stability", "x is not an equilibrium: |F_%d(x)| = %v > %v", i, math.Abs(v), zt)
		}
	}
	ev, err := l.eigenvalues(x)
	if err != nil {
		return nil, err
	}
	sortEigen(ev)
	return l.equilibrium(x, ev, zt), nil
}

// eigenvalues returns the spectrum of the Jacobian at x: by gonum's
// mat.Eigen of the dense Jacobian for dense C, and for sparse C without
// the N×N matrix, by the face/interior split of sparseEigen.
func (l *Law) eigenvalues(x []float64) ([]complex128, error) {
	if l.Net.Sparse != nil {
		return l.sparseEigen(x)
	}
	var eig mat.Eigen
	if !eig.Factorize(l.Jacobian(nil, x), mat.EigenNone) {
		return nil, loadlab.Wrap(loadlab.ErrIllConditioned, "stability", "eigendecomposition of the Jacobian at x failed")
	}
	return eig.Values(nil), nil
}

// sortEigen orders eigenvalues by real part, then imaginary part.
func sortEigen(ev []complex128) {
	sort.Slice(ev, func(a, b int) bool {
		if real(ev[a]) != real(ev[b]) {
			return real(ev[a]) < real(ev[b])
		}
		return imag(ev[a]) < imag(ev[b])
	})
}

// Corner returns the vertex x ∈ {0, 1}^N of the hypercube, always an
// equilibrium, with its eigenvalues in closed form: at a vertex
// x_i(1 − x_i) = 0 for every i, so the Jacobian is diagonal (spec §5.4) with
//
//	λ_i = g_i (T_i − S_i)  if x_i = 0,     λ_i = g_i (S_i − T_i)  if x_i = 1.
//
// The eigenvalues are sorted as everywhere (see Equilibrium); NodeRates
// holds them in node order. Corner returns an error wrapping
// loadlab.ErrInvalid if some x_i is neither 0 nor 1.
func (l *Law) Corner(x []float64) (*Equilibrium, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if err := l.checkState("x", x); err != nil {
		return nil, err
	}
	for i, v := range x {
		if v != 0 && v != 1 {
			return nil, loadlab.Invalid("stability", "x[%d] = %v, want 0 or 1 at a corner", i, v)
		}
	}
	x = append([]float64(nil), x...)
	s := l.Net.Loads(nil, x)
	rates := make([]float64, len(x))
	ev := make([]complex128, len(x))
	for i := range x {
		rates[i] = l.cornerEigen(i, x[i] == 1, s[i])
		ev[i] = complex(rates[i], 0)
	}
	sortEigen(ev)
	e := l.equilibrium(x, ev, ZeroTol*l.scale())
	e.NodeRates = rates
	return e, nil
}

// cornerEigen is λ_i at a vertex (spec §5.4).
func (l *Law) cornerEigen(i int, one bool, s float64) float64 {
	if one {
		return l.gain(i) * (s - l.Net.T[i])
	}
	return l.gain(i) * (l.Net.T[i] - s)
}

// MaxCornerNodes is the largest N for which ClassifyCorners enumerates all
// 2^N vertices.
const MaxCornerNodes = 30

// CornerSummary tallies classified vertices. A vertex is encoded as a bit
// mask: bit i set ⇔ x_i = 1.
type CornerSummary struct {
	Visited        int             // vertices classified
	Counts         [numClasses]int // by Class
	Stable         []uint64        // stable vertices, in visiting order
	Uncontrollable []uint64        // stable vertices with some x_i = 0: locally uncontrollable overloads

	law  *Law
	zt   float64   // zero tolerance
	mask uint64    // current vertex
	s    []float64 // loads at mask
}

// Count returns the number of visited vertices of class c. It panics if c
// is not one of the Class constants.
func (cs *CornerSummary) Count(c Class) int { return cs.Counts[c] }

func (l *Law) newSummary() *CornerSummary {
	n := l.Net.N()
	return &CornerSummary{zt: ZeroTol * l.scale(), s: make([]float64, n), law: l}
}

// flip toggles node j in the current vertex, updating the loads in O(N).
func (cs *CornerSummary) flip(j int) {
	cs.mask ^= 1 << j
	a := cs.law.Net.A[j]
	if cs.mask&(1<<j) == 0 {
		a = -a
	}
	cols, vals := cs.law.Net.Row(j) // O(nnz) for sparse C
	for k, i := range cols {
		cs.s[i] += a * vals[k] // spec §1.3 eq. (21), one term changed
	}
}

// reload recomputes the loads at the current vertex from scratch, which
// resets the rounding drift of repeated flips.
func (cs *CornerSummary) reload() {
	clear(cs.s)
	for j := range cs.s {
		if cs.mask&(1<<j) != 0 {
			a := cs.law.Net.A[j]
			cols, vals := cs.law.Net.Row(j)
			for k, i := range cols {
				cs.s[i] += a * vals[k]
			}
		}
	}
}

// tally classifies the current vertex and records it; it returns the node
// with the largest positive eigenvalue (−1 if none).
func (cs *CornerSummary) tally() int {
	c, arg := cs.scan()
	cs.Visited++
	cs.Counts[c]++
	if c == Stable {
		cs.Stable = append(cs.Stable, cs.mask)
		if bits.OnesCount64(cs.mask) < len(cs.s) {
			cs.Uncontrollable = append(cs.Uncontrollable, cs.mask)
		}
	}
	return arg
}

// scan classifies the current vertex by the closed form of Corner and
// returns the class and the node with the largest positive eigenvalue (−1
// if none).
func (cs *CornerSummary) scan() (Class, int) {
	var neg, zero, pos int
	worst, arg := 0.0, -1
	for i := range cs.s {
		v := cs.law.cornerEigen(i, cs.mask&(1<<i) != 0, cs.s[i])
		switch {
		case math.Abs(v) <= cs.zt:
			zero++
		case v < 0:
			neg++
		default:
			pos++
			if v > worst {
				worst, arg = v, i
			}
		}
	}
	return classify(neg, zero, pos), arg
}

// ClassifyCorners classifies all 2^N vertices with the closed form of
// Corner, visiting them in Gray-code order so that consecutive vertices
// differ in one node and the loads update in O(N): the whole sweep costs
// O(2^N·N) instead of 2^N dense eigendecompositions. It returns an error if
// N > MaxCornerNodes; use SearchCorners or Attractors beyond.
func (l *Law) ClassifyCorners() (*CornerSummary, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	n := l.Net.N()
	if n > MaxCornerNodes {
		return nil, loadlab.TooLarge("stability", "N = %d > MaxCornerNodes = %d: too many corners to enumerate; use SearchCorners or Attractors", n, MaxCornerNodes)
	}
	cs := l.newSummary()
	cs.tally() // x = 0, S = 0
	for k := uint64(1); k < 1<<n; k++ {
		cs.flip(bits.TrailingZeros64(k))
		if k%64 == 0 {
			cs.reload()
		}
		cs.tally()
	}
	return cs, nil
}

// SearchCorners looks for stable vertices, the candidates for locally
// uncontrollable overload, when N is too large to enumerate (N ≤ 64). From
// each of starts random vertices it repeatedly flips the node with the
// largest positive eigenvalue (an overloaded node at x_i = 1 to 0, or an
// underloaded node at x_i = 0 to 1, as the greedy law would push it) until
// no eigenvalue is positive or 4N flips are spent. Every vertex visited is
// classified once; Stable and Uncontrollable list the stable ones found.
// It returns an error wrapping loadlab.ErrTooLarge for N > 64 or a
// number of starts whose visited vertices might not fit in memory, and one
// wrapping loadlab.ErrInvalid for negative starts.
//
// SearchCorners panics if src is nil.
func (l *Law) SearchCorners(starts int, src rand.Source) (*CornerSummary, error) {
	if src == nil {
		panic("stability: SearchCorners: src is nil")
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	n := l.Net.N()
	if n > 64 {
		return nil, loadlab.TooLarge("stability", "N = %d > 64: vertices are encoded as 64-bit masks; use Attractors", n)
	}
	if starts < 0 {
		return nil, loadlab.Invalid("stability", "starts = %d, want ≥ 0", starts)
	}
	if err := checkSearch(starts, n); err != nil {
		return nil, err
	}
	rng := rand.New(src)
	cs := l.newSummary()
	visited := map[uint64]bool{}
	full := uint64(1)<<n - 1
	if n == 64 {
		full = math.MaxUint64
	}
	for r := 0; r < starts; r++ {
		cs.mask = rng.Uint64() & full
		cs.reload()
		for step := 0; step <= 4*n; step++ {
			var arg int
			if visited[cs.mask] {
				_, arg = cs.scan()
			} else {
				visited[cs.mask] = true
				arg = cs.tally()
			}
			if arg < 0 {
				break
			}
			cs.flip(arg)
		}
	}
	return cs, nil
}

// checkSearch bounds the work and memory of SearchCorners before it
// starts: each start visits at most 4N+1 vertices, each stored once in the
// visited set (and possibly in Stable and Uncontrollable), about 64 bytes.
func checkSearch(starts, n int) error {
	visits, ok := size.Mul(starts, 4*n+1)
	if !ok {
		visits = math.MaxInt
	}
	if err := size.Check("stability", "visited vertices", visits, 64); err != nil {
		return loadlab.TooLarge("stability", "starts = %d on N = %d nodes: %v", starts, n, err)
	}
	return nil
}

// MaxEnumNodes is the largest N for which Equilibria enumerates all 3^N face
// patterns.
const MaxEnumNodes = 12

// Equilibria returns every isolated equilibrium of (24): for each of the
// 3^N patterns assigning each node to x_i = 0, x_i = 1 or the interior, it
// solves the interior nodes' balance S_I = T_I, a linear system
// (Cᵀ diag(A))_II x_I = T_I − (Cᵀ diag(A))_IB x_B (spec §5.2 item 4, §5.4),
// and keeps the solutions with x_I ∈ (0, 1). Patterns whose system is
// singular (a continuum of equilibria, or none) are skipped. Each
// equilibrium is linearised with Linearize. It returns an error for
// N > MaxEnumNodes.
func (l *Law) Equilibria() ([]*Equilibrium, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	n := l.Net.N()
	if n > MaxEnumNodes {
		return nil, loadlab.TooLarge("stability", "N = %d > MaxEnumNodes = %d: 3^N patterns are too many", n, MaxEnumNodes)
	}
	pat := make([]int, n) // 0, 1, or 2 = interior
	var out []*Equilibrium
	for {
		x, ok := l.solvePattern(pat)
		if ok {
			e, err := l.Linearize(x)
			if err == nil {
				out = append(out, e)
			}
		}
		k := 0
		for k < n && pat[k] == 2 {
			pat[k] = 0
			k++
		}
		if k == n {
			break
		}
		pat[k]++
	}
	return out, nil
}

// solvePattern solves for the equilibrium with the given face pattern
// (0, 1, or 2 = interior); ok is false if the system is singular or the
// interior solution leaves (0, 1).
func (l *Law) solvePattern(pat []int) (x []float64, ok bool) {
	nw := l.Net
	n := nw.N()
	x = make([]float64, n)
	var in []int
	for i, p := range pat {
		switch p {
		case 1:
			x[i] = 1
		case 2:
			in = append(in, i)
		}
	}
	if len(in) == 0 {
		return x, true
	}
	s := nw.Loads(nil, x)                 // load from the nodes fixed at 1
	m, err := subMatrix(nw, in, nil, nil) // (Cᵀ diag(A))_II in O(nnz + |I|²), spec §1.3
	if err != nil {
		return nil, false
	}
	r := mat.NewVecDense(len(in), nil)
	for a, i := range in {
		r.SetVec(a, nw.T[i]-s[i])
	}
	var y mat.VecDense
	if err := y.SolveVec(m, r); err != nil {
		return nil, false // singular or ill-conditioned: not isolated
	}
	for a, i := range in {
		v := y.AtVec(a)
		if !(v > 0 && v < 1) {
			return nil, false
		}
		x[i] = v
	}
	return x, true
}

// Snap returns the equilibrium whose face pattern is read off a state x
// near it (x_i < tol ↦ 0, x_i > 1 − tol ↦ 1, the rest interior), solving
// the interior balance exactly as Equilibria does, and linearised. Use it on
// the end state of a long integration. It returns an error if tol is
// not in [0, ½) or the pattern has no isolated equilibrium in the open
// cube.
func (l *Law) Snap(x []float64, tol float64) (*Equilibrium, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if err := l.checkState("x", x); err != nil {
		return nil, err
	}
	if !(tol >= 0 && tol < 0.5) {
		return nil, loadlab.Invalid("stability", "tol = %v, want a value in [0, 0.5)", tol)
	}
	pat := make([]int, len(x))
	for i, v := range x {
		switch {
		case v < tol:
			pat[i] = 0
		case v > 1-tol:
			pat[i] = 1
		default:
			pat[i] = 2
		}
	}
	xs, ok := l.solvePattern(pat)
	if !ok {
		return nil, loadlab.Invalid("stability", "x has no isolated equilibrium with its face pattern (tol = %v)", tol)
	}
	return l.Linearize(xs)
}

// Attractor is an equilibrium reached by integration, with the number of
// starts that reached it.
type Attractor struct {
	*Equilibrium
	Starts int
}

// Attractors is the targeted mode for large N: it integrates (24) from
// starts points drawn uniformly from (0, 1)^N and returns the distinct
// equilibria reached, most frequent first, with the number of starts
// whose end state could not be snapped (not yet converged, or on a
// continuum of equilibria). Start k is l.Attract(t1, loadlab.Stream(seed,
// k), s) and the equilibria are grouped by GroupAttractors, so the starts
// run in parallel and the result is the same for any number of workers
// and when the starts are computed elsewhere (loadlab sweep). It returns an
// error wrapping loadlab.ErrInvalid for negative starts, t1 not finite
// and positive, invalid settings, one wrapping loadlab.ErrTooLarge if
// the starts would not fit in memory, or the first integration error.
func (l *Law) Attractors(starts int, t1 float64, seed uint64, s *Settings) (found []Attractor, unresolved int, err error) {
	if err := l.attractArgs(t1, s); err != nil {
		return nil, 0, err
	}
	if starts < 0 {
		return nil, 0, loadlab.Invalid("stability", "starts = %d, want ≥ 0", starts)
	}
	// Per start: its equilibrium (X, S and the eigenvalues: 32 bytes a
	// node) and an error slot.
	if err := size.Check("stability", "starts", starts, 32*l.Net.N()+128); err != nil {
		return nil, 0, err
	}
	if s == nil || s.Workspace == nil {
		// One workspace for the starts of this call (integrations running
		// at once each take it or form their own matrices).
		var local Settings
		if s != nil {
			local = *s
		}
		local.Workspace = new(Workspace)
		s = &local
	}
	ends := make([]*Equilibrium, starts)
	errs := make([]error, starts)
	mc.For(starts, 0, func(k int) { ends[k], errs[k] = l.attract(t1, loadlab.Stream(seed, uint64(k)), s) })
	for _, err := range errs {
		if err != nil {
			return nil, 0, err
		}
	}
	found, unresolved = GroupAttractors(ends)
	return found, unresolved, nil
}

// Attract draws a start x uniformly inside (0, 1)^N from src (N draws of
// rand.New(src).Float64(), each mapped into the open interval), integrates
// (24) from it to time t1 and snaps the end state to the equilibrium
// with its face pattern (Snap with tolerance 1e-6). While the end state
// does not snap (nodes with a small imbalance |T_i − S_i| approach
// their face slowly) it integrates on for twice as long, up to three
// times (15·t1 in all), and returns nil if none snapped. It is one start
// of Attractors. It returns an error wrapping loadlab.ErrInvalid for an
// invalid law, t1 not finite and positive or invalid settings, and the
// integration's error. It panics if src is nil.
func (l *Law) Attract(t1 float64, src rand.Source, s *Settings) (*Equilibrium, error) {
	if src == nil {
		panic("stability: Attract: src is nil")
	}
	if err := l.attractArgs(t1, s); err != nil {
		return nil, err
	}
	return l.attract(t1, src, s)
}

// attractArgs validates the law, t1 and s for Attract and Attractors.
func (l *Law) attractArgs(t1 float64, s *Settings) error {
	if err := l.Validate(); err != nil {
		return err
	}
	if !(t1 > 0) || math.IsInf(t1, 1) {
		return loadlab.Invalid("stability", "t1 = %v, want a finite value > 0", t1)
	}
	return s.Validate()
}

// attract is Attract on valid arguments.
func (l *Law) attract(t1 float64, src rand.Source, s *Settings) (*Equilibrium, error) {
	rng := rand.New(src)
	x := make([]float64, l.Net.N())
	for i := range x {
		x[i] = 0.5 + (rng.Float64()-0.5)*(1-1e-9) // inside (0, 1)
	}
	var local Settings // each worker its own Times
	if s != nil {
		local = *s
	}
	span := t1
	for try := 0; try < 4; try++ {
		local.Times = []float64{span}
		tr, err := l.Integrate(x, span, &local)
		if err != nil {
			return nil, err
		}
		x = tr.Final()
		if e, err := l.Snap(x, 1e-6); err == nil {
			return e, nil
		}
		span *= 2
	}
	return nil, nil
}

// GroupAttractors merges the equilibria reached from several starts
// (nil for a start that reached none) into Attractors' result: one
// Attractor per face pattern (x_i = 0, 1 or interior), holding the
// first equilibrium met with that pattern and the number of starts that
// reached it, most frequent first (ties in order of first appearance),
// and the number of nil entries.
func GroupAttractors(ends []*Equilibrium) (found []Attractor, unresolved int) {
	index := map[string]int{}
	for _, e := range ends {
		if e == nil {
			unresolved++
			continue
		}
		key := make([]byte, len(e.X))
		for i, v := range e.X {
			switch v {
			case 0:
				key[i] = '0'
			case 1:
				key[i] = '1'
			default:
				key[i] = 'i'
			}
		}
		if j, ok := index[string(key)]; ok {
			found[j].Starts++
			continue
		}
		index[string(key)] = len(found)
		found = append(found, Attractor{Equilibrium: e, Starts: 1})
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].Starts > found[b].Starts })
	return found, unresolved
}
