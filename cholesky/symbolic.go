package cholesky

import (
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
)

// Ordering selects the fill-reducing ordering of Analyze.
type Ordering int

const (
	// Auto computes the approximate-minimum-degree and the
	// nested-dissection orderings, counts the factor of each, and keeps
	// the one with fewer flops (ties go to AMD): AMD wins on graphs with
	// hubs and on trees, nested dissection on grid-like graphs.
	Auto Ordering = iota
	// AMD is approximate minimum degree (Amestoy, Davis and Duff).
	AMD
	// NestedDissection is recursive bisection by vertex separators, the
	// separators numbered last, with AMD on the small parts.
	NestedDissection
	// Natural keeps the given order.
	Natural
)

// String returns the ordering's name.
func (o Ordering) String() string {
	switch o {
	case Auto:
		return "auto"
	case AMD:
		return "amd"
	case NestedDissection:
		return "nested dissection"
	case Natural:
		return "natural"
	}
	return fmt.Sprintf("Ordering(%d)", int(o))
}

// DefaultMaxFlops is the predicted factorisation cost, in flops, above
// which Analyze refuses with loadlab.ErrTooLarge unless
// Settings.MaxFlops says otherwise: about a minute of numeric work for
// the factorisation and the selected inversion together.
const DefaultMaxFlops = 5e10

// bytesPerEntry is the memory of one factor entry: its row index
// (int32), its value and its selected-inverse value.
const bytesPerEntry = 20

// Settings configures Analyze. A nil *Settings or a zero field means the
// default.
type Settings struct {
	// Ordering is the fill-reducing ordering; the zero value is Auto.
	Ordering Ordering
	// MaxFlops is the largest predicted factorisation cost Analyze
	// accepts (zero: DefaultMaxFlops).
	MaxFlops float64
	// MaxBytes is the largest predicted memory of the factor and its
	// selected inverse (zero: the module's budget, internal/size).
	MaxBytes int
	// Relax is the widest supernode made by merging small supernodes
	// into their parents, storing explicit zeros (spec
	// sparse-cholesky.md §3.2; zero: DefaultRelax, which is also the
	// widest the rule ever makes; RelaxOff keeps the fundamental
	// supernodes). The merges are kept only when the merged factor
	// fits MaxFlops and half of MaxBytes.
	Relax int
}

// Validate returns an error wrapping loadlab.ErrInvalid naming the first
// bad field of s, or nil; a nil *Settings is valid.
func (s *Settings) Validate() error {
	_, err := s.resolve()
	return err
}

func (s *Settings) resolve() (Settings, error) {
	var r Settings
	if s != nil {
		r = *s
	}
	if r.Ordering < Auto || r.Ordering > Natural {
		return r, loadlab.Invalid("cholesky", "Settings.Ordering = %d, want Auto, AMD, NestedDissection or Natural", int(r.Ordering))
	}
	if math.IsNaN(r.MaxFlops) || r.MaxFlops < 0 || math.IsInf(r.MaxFlops, 0) {
		return r, loadlab.Invalid("cholesky", "Settings.MaxFlops = %v, want ≥ 0 and finite", r.MaxFlops)
	}
	if r.MaxBytes < 0 {
		return r, loadlab.Invalid("cholesky", "Settings.MaxBytes = %d, want ≥ 0", r.MaxBytes)
	}
	if r.Relax < 0 {
		return r, loadlab.Invalid("cholesky", "Settings.Relax = %d, want ≥ 0 (%d: no merging)", r.Relax, RelaxOff)
	}
	if r.Relax == 0 {
		r.Relax = DefaultRelax
	}
	if r.MaxFlops == 0 {
		r.MaxFlops = DefaultMaxFlops
	}
	if r.MaxBytes == 0 || r.MaxBytes > size.MaxBytes {
		r.MaxBytes = size.MaxBytes
	}
	return r, nil
}

// Report describes a factorisation before (Symbolic.Report) or after
// (Factor.Report) the numeric work. All counts are of the lower
// triangle, diagonal included.
type Report struct {
	N        int      // order
	Ordering Ordering // the ordering used (never Auto)
	NonZeros int      // entries of A's lower triangle
	Factor   int      // entries of the Cholesky factor L (its filled pattern)
	Stored   int      // entries stored for L: Factor and the explicit zeros of relaxed supernodes (§3.2)
	Flops    float64  // Σ_j c_j², c_j the stored entries of L's column j: the factorisation's multiply-adds, within a factor of 2
	Bytes    int      // memory of the factor and its selected inverse (supernodal panels, §3.1) and the inversion's workspace
}

// Fill returns the factor's entries per entry of A's lower triangle.
func (r Report) Fill() float64 {
	if r.NonZeros == 0 {
		return 1
	}
	return float64(r.Factor) / float64(r.NonZeros)
}

// Symbolic is the analysis of a sparsity pattern: the ordering, the
// elimination tree and the pattern of the factor, which fix the cost and
// memory of every numeric factorisation of a matrix with that pattern.
// It is safe for concurrent use by several Factor calls.
type Symbolic struct {
	n      int
	a      Matrix  // the pattern analysed (values not used)
	perm   []int   // perm[k] = original index of the k-th pivot
	pinv   []int   // pinv[i] = position of original index i
	parent []int   // elimination tree of the permuted matrix (-1 at roots)
	lp     []int   // column pointers of the stored pattern (the factor's, or its relaxed superset, §3.2)
	li     []int32 // its rows by columns, diagonal first (int32: half the memory of the largest array)
	// The permuted matrix by columns: lower part (rows ≥ j) in low,
	// upper part (rows < j) in up; src maps each lower entry to its
	// position in a.Val.
	lowp, lowi, src []int
	upp, upi        []int
	sn              *supernodes // the supernodes and their panels' layout
	tree            subtrees    // independent subtrees of supernodes, for the parallel loops
	rep             Report
}

// Analyze orders the pattern of a, computes its elimination tree and the
// pattern of its Cholesky factor, and checks the predicted memory and
// flops against the settings before any numeric work. a's values are
// not used. It returns an error wrapping loadlab.ErrInvalid for a
// malformed or asymmetric pattern or a bad Settings field, and one
// wrapping loadlab.ErrTooLarge, naming the prediction, when the factor
// would exceed Settings.MaxBytes or Settings.MaxFlops. It panics if a is
// nil.
func Analyze(a *Matrix, set *Settings) (*Symbolic, error) {
	if a == nil {
		panic("cholesky: Analyze: nil matrix a")
	}
	s, err := set.resolve()
	if err != nil {
		return nil, err
	}
	if err := checkPattern("Analyze", a); err != nil {
		return nil, err
	}
	if a.N > math.MaxInt32 { // the factor's rows are int32
		return nil, loadlab.TooLarge("cholesky", "Analyze: N = %d > %d", a.N, math.MaxInt32)
	}
	ptr, adj := offDiagonal(a)
	perm, counts, err := chooseOrdering(a.N, ptr, adj, s)
	if err != nil {
		return nil, err
	}
	if s.Relax > RelaxOff && perm.ordering != Natural {
		// An equivalent ordering whose merges find their parents next
		// to them (§3.2); Natural keeps the given order.
		perm, counts = postorder(perm, counts)
	}
	// The pattern is copied: a caller may reuse its slices for the next matrix.
	sym := &Symbolic{n: a.N, a: Matrix{N: a.N, Ptr: slices.Clone(a.Ptr), Ind: slices.Clone(a.Ind)}, perm: perm.perm}
	sym.pinv = make([]int, a.N)
	for k, i := range sym.perm {
		sym.pinv[i] = k
	}
	sym.permute()
	sym.parent = perm.parent
	start, stored := relaxFitting(sym.parent, counts, s)
	sym.pattern(counts, stored, start)
	sym.sn = newSupernodes(start, sym.parent, sym.lp)
	sym.tree = splitTree(sym.sn.parent, sym.sn.weights(sym.lp))
	sym.rep = Report{N: a.N, Ordering: perm.ordering, NonZeros: (len(a.Ind) + countDiagonal(a)) / 2,
		Factor: sum(counts), Stored: sym.lp[a.N], Flops: flopsOf(stored), Bytes: sym.bytes()}
	return sym, nil
}

// relaxFitting returns the supernodes' first columns and the stored
// column counts: the relaxed supernodes of s.Relax (§3.2) when their
// flops stay within MaxFlops and their memory (Report.Bytes) within half
// of MaxBytes, else the fundamental ones: relaxation spends memory for
// time, and the factors near the memory limit keep their memory.
func relaxFitting(parent, counts []int, s Settings) (start, stored []int) {
	fstart := fundamental(parent, counts)
	if s.Relax <= RelaxOff {
		return fstart, counts
	}
	start, stored = relax(fstart, parent, counts, s.Relax)
	if flopsOf(stored) > s.MaxFlops || float64(sum(stored)) > float64(s.MaxBytes/bytesPerEntry) {
		return fstart, counts
	}
	lp := make([]int, len(stored)+1)
	for j, c := range stored {
		lp[j+1] = lp[j] + c
	}
	if layoutBytes(lp, newSupernodes(start, parent, lp)) > s.MaxBytes/2 {
		return fstart, counts
	}
	return start, stored
}

func sum(counts []int) int {
	t := 0
	for _, c := range counts {
		t += c
	}
	return t
}

// bytes returns the memory of the factor and its selected inverse: the
// row indices of the pattern and two sets of panels (the factor's values
// and the inverse's), and one goroutine's workspace of the selected
// inversion per worker (see invWork).
func (s *Symbolic) bytes() int { return layoutBytes(s.lp, s.sn) }

// layoutBytes is Symbolic.bytes for the column pointers lp and the
// supernodes sn.
func layoutBytes(lp []int, sn *supernodes) int {
	return 4*lp[len(lp)-1] + 16*sn.size + par.Workers(0)*invWorkBytes(sn)
}

// Report returns the predicted size and cost of the factor.
func (s *Symbolic) Report() Report { return s.rep }

// Perm returns the ordering: Perm()[k] is the original index of the k-th
// pivot.
func (s *Symbolic) Perm() []int { return append([]int(nil), s.perm...) }

// countDiagonal returns the number of stored diagonal entries of a.
func countDiagonal(a *Matrix) int {
	d := 0
	for i := range a.N {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			if a.Ind[p] == i {
				d++
			}
		}
	}
	return d
}

// offDiagonal returns a's pattern without its diagonal.
func offDiagonal(a *Matrix) (ptr, adj []int) {
	ptr = make([]int, a.N+1)
	adj = make([]int, 0, len(a.Ind))
	for i := range a.N {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			if j := a.Ind[p]; j != i {
				adj = append(adj, j)
			}
		}
		ptr[i+1] = len(adj)
	}
	return ptr, adj
}

func flopsOf(counts []int) float64 {
	f := 0.0
	for _, c := range counts {
		f += float64(c) * float64(c)
	}
	return f
}

// ordered is an ordering with its elimination tree.
type ordered struct {
	ordering Ordering
	perm     []int
	parent   []int
}

// chooseOrdering computes the ordering(s) the settings ask for, counts
// the factor of each and keeps the cheapest that fits, returning its
// column counts (diagonal included).
func chooseOrdering(n int, ptr, adj []int, s Settings) (ordered, []int, error) {
	cands := []Ordering{s.Ordering}
	if s.Ordering == Auto {
		cands = []Ordering{AMD, NestedDissection}
	}
	var best ordered
	var bestCounts []int
	var firstErr error
	for _, o := range cands {
		perm := orderBy(o, n, ptr, adj, s)
		if perm == nil {
			// AMD's own count passed twice the flops limit: no ordering
			// will bring such a factor within it (nested dissection saves
			// a third at best on grids), so none is tried.
			return best, nil, loadlab.TooLarge("cholesky", "Analyze: the factor of the %d×%d matrix needs more than %.3g flops (counted while ordering by AMD) > Settings.MaxFlops = %.3g", n, n, 2*s.MaxFlops, s.MaxFlops)
		}
		parent, counts, err := countFactor(n, ptr, adj, perm, s)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if bestCounts == nil || flopsOf(counts) < flopsOf(bestCounts) {
			best, bestCounts = ordered{ordering: o, perm: perm, parent: parent}, counts
		}
	}
	if bestCounts == nil {
		return best, nil, firstErr
	}
	return best, bestCounts, nil
}

// orderBy returns the ordering o of the pattern, or nil when AMD gives
// up past twice the flops limit.
func orderBy(o Ordering, n int, ptr, adj []int, s Settings) []int {
	switch o {
	case AMD:
		return orderAMDLimited(n, ptr, adj, 2*s.MaxFlops)
	case NestedDissection:
		return orderND(n, ptr, adj)
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	return perm
}

// countFactor returns the elimination tree and the column counts
// (diagonal included) of the factor of the pattern (ptr, adj) permuted
// by perm, walking each row's subtree of the elimination tree (O(|L|)
// time, spec sparse-cholesky.md §2). It stops with loadlab.ErrTooLarge
// as soon as the factor exceeds the memory budget, or has so many
// entries that its flops must exceed the limit (Σ c_j² ≥ (Σ c_j)²/n).
func countFactor(n int, ptr, adj, perm []int, s Settings) ([]int, []int, error) {
	pinv := make([]int, n)
	for k, i := range perm {
		pinv[i] = k
	}
	parent := etree(n, ptr, adj, perm, pinv)
	counts := make([]int, n)
	mark := make([]int, n)
	for i := range mark {
		mark[i] = -1
	}
	maxEntries := float64(s.MaxBytes / bytesPerEntry)
	if byFlops := math.Sqrt(s.MaxFlops * float64(max(n, 1))); byFlops < maxEntries {
		maxEntries = byFlops
	}
	total := 0
	for k := range n {
		counts[k]++
		mark[k] = k
		i := perm[k]
		for p := ptr[i]; p < ptr[i+1]; p++ {
			for j := pinv[adj[p]]; j < k && mark[j] != k; j = parent[j] {
				mark[j] = k
				counts[j]++
				total++
			}
		}
		if float64(total+k+1) > maxEntries {
			return nil, nil, tooLarge(n, total+k+1, s)
		}
	}
	if f := flopsOf(counts); f > s.MaxFlops {
		return nil, nil, loadlab.TooLarge("cholesky", "Analyze: the factor of the %d×%d matrix needs %.3g flops > Settings.MaxFlops = %.3g", n, n, f, s.MaxFlops)
	}
	return parent, counts, nil
}

func tooLarge(n, entries int, s Settings) error {
	return loadlab.TooLarge("cholesky", "Analyze: the factor of the %d×%d matrix has more than %d entries, beyond Settings.MaxBytes = %d or Settings.MaxFlops = %.3g", n, n, entries, s.MaxBytes, s.MaxFlops)
}

// etree returns the elimination tree of the pattern permuted by perm
// (Liu's algorithm with path compression; parent -1 at roots).
func etree(n int, ptr, adj, perm, pinv []int) []int {
	parent := make([]int, n)
	ancestor := make([]int, n)
	for k := range n {
		parent[k], ancestor[k] = -1, -1
		i := perm[k]
		for p := ptr[i]; p < ptr[i+1]; p++ {
			j := pinv[adj[p]]
			for j != -1 && j < k {
				next := ancestor[j]
				ancestor[j] = k
				if next == -1 {
					parent[j] = k
				}
				j = next
			}
		}
	}
	return parent
}

// permute builds the permuted matrix's lower and upper parts by columns.
func (s *Symbolic) permute() {
	n, a := s.n, &s.a
	s.lowp, s.upp = make([]int, n+1), make([]int, n+1)
	for i := range n {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			pi, pj := s.pinv[i], s.pinv[a.Ind[p]]
			if pi >= pj {
				s.lowp[pj+1]++
			} else {
				s.upp[pj+1]++
			}
		}
	}
	for j := range n {
		s.lowp[j+1] += s.lowp[j]
		s.upp[j+1] += s.upp[j]
	}
	s.lowi, s.src = make([]int, s.lowp[n]), make([]int, s.lowp[n])
	s.upi = make([]int, s.upp[n])
	lc, uc := append([]int(nil), s.lowp[:n]...), append([]int(nil), s.upp[:n]...)
	for i := range n {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			pi, pj := s.pinv[i], s.pinv[a.Ind[p]]
			if pi >= pj {
				s.lowi[lc[pj]], s.src[lc[pj]] = pi, p
				lc[pj]++
			} else {
				s.upi[uc[pj]] = pi
				uc[pj]++
			}
		}
	}
}

// pattern fills the stored pattern by columns: first the factor's own
// pattern (column counts counts) at the head of each column's slot
// (stored counts stored): row k of L is the set of nodes on k's row
// subtree, so appending k to each of them for k = 0, 1, … leaves every
// column sorted. Then each column of the supernodes starting at start
// gets its supernode's rows from its diagonal on: those of the
// supernode's last column, which the first pass wrote whole (§3.2).
func (s *Symbolic) pattern(counts, stored, start []int) {
	n := s.n
	s.lp = make([]int, n+1)
	for j, c := range stored {
		s.lp[j+1] = s.lp[j] + c
	}
	s.li = make([]int32, s.lp[n])
	next := append([]int(nil), s.lp[:n]...)
	mark := make([]int, n)
	for k := range n {
		s.li[next[k]] = int32(k)
		next[k]++
		mark[k] = k
		for p := s.upp[k]; p < s.upp[k+1]; p++ {
			for j := s.upi[p]; mark[j] != k; j = s.parent[j] {
				mark[j] = k
				s.li[next[j]] = int32(k)
				next[j]++
			}
		}
	}
	for J := range len(start) - 1 {
		j0, t := start[J], start[J+1]-1
		below := s.li[s.lp[t]+1 : s.lp[t+1]]
		for j := j0; j < t; j++ {
			col := s.li[s.lp[j]:s.lp[j+1]]
			for r := j; r <= t; r++ {
				col[r-j] = int32(r)
			}
			copy(col[t+1-j:], below)
		}
	}
}
