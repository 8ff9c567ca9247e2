package beacon

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/par"

	"gonum.org/v1/gonum/mat"
)

// Level is the confidence level of the per-entry intervals of CHat.
const Level = 0.95

// Settings tunes EstimateC. A nil *Settings or a zero field means the
// default stated on the field; a field outside its domain is an error
// wrapping loadlab.ErrInvalid naming it.
type Settings struct {
	// MinCount is the fewest beacons a region may have: a region with
	// fewer is an error naming it, never a guessed row (default 1; a
	// region with no beacons is always an error). Row j's intervals
	// shrink like 1/√n_j, so a study that wants rows known to ±δ sets
	// MinCount ≈ 1/δ².
	MinCount int64
	// Prior, when not nil, is a stated prior C (an earlier campaign, the
	// routing's design): a region with fewer than MinCount beacons (none
	// included) then takes its row of Prior as its estimate instead of
	// being an error, and every pair of that row gets the interval
	// [0, 1] in both boxes — the campaign vouches for nothing there
	// (spec §15.2). CHat.Prior lists those regions. It must be
	// regions × proxies (a square table).
	Prior *anycast.SparseC
	// Alpha is the probability that the simultaneous confidence set
	// (CHat.Set) misses the true C (default 0.05: a 95 % set). It must
	// lie in (0, 1).
	Alpha float64
	// Support, when positive, is a bound K on the number of proxies i
	// with C_ji > 0 in any row j (a fact of the routing, such as "each
	// region's traffic lands at its 10 nearest proxies"). The Bonferroni
	// correction of the set then runs over R·K entries instead of R·P
	// (spec §15.3), and a row whose K proxies have all been observed has
	// its unseen pairs known to be zero (their bound is 0 in both
	// boxes). Zero means no such bound (K = P). A Support below a row's
	// number of observed proxies contradicts the data and is an error
	// naming the row.
	Support int
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field, for a negative MinCount or Support or an Alpha outside (0, 1)
// (or NaN). A nil *Settings is valid.
func (s *Settings) Validate() error {
	if s == nil {
		return nil
	}
	switch {
	case s.MinCount < 0:
		return loadlab.Invalid("beacon", "Settings.MinCount = %d, want ≥ 1 (0 for the default 1)", s.MinCount)
	case !(s.Alpha >= 0 && s.Alpha < 1):
		return loadlab.Invalid("beacon", "Settings.Alpha = %v, want a value in (0, 1) (0 for the default 0.05)", s.Alpha)
	case s.Support < 0:
		return loadlab.Invalid("beacon", "Settings.Support = %d, want ≥ 1 (0 for no bound)", s.Support)
	}
	return nil
}

// Box is a set of row-stochastic matrices given entry by entry: C_ji ∈
// [Lo[k], Hi[k]] for the observed pairs (the pattern of Counts, entry k
// of row j at k ∈ [ptr_j, ptr_{j+1})), C_ji ∈ [0, ZeroHi[j]] for every
// unseen pair of row j, intersected with the simplex Σ_i C_ji = 1 in
// every row (spec §15.3). It is non-empty: the estimate Ĉ lies in it.
type Box struct {
	Counts *Counts   // the pattern of the observed pairs
	Lo, Hi []float64 // bounds of the observed pairs, aligned with Counts
	ZeroHi []float64 // per region: the upper bound of every unseen pair
	// EntryAlpha is the miss probability of each entry's interval:
	// 1 − Level for the per-entry intervals, α/(R·K) for the set.
	EntryAlpha float64
}

// Row returns row j's observed proxies with their bounds, and the upper
// bound of its unseen pairs; views the caller must not change. It panics
// if j is out of range.
func (b *Box) Row(j int) (proxies []int, lo, hi []float64, zeroHi float64) {
	c := b.Counts
	s, e := c.ptr[j], c.ptr[j+1]
	return c.col[s:e], b.Lo[s:e], b.Hi[s:e], b.ZeroHi[j]
}

// Contains reports whether the row-stochastic matrix c (regions ×
// proxies, dense or *anycast.SparseC) lies in the box: every entry within
// its bounds, up to tol. The simplex part holds for any row-stochastic c.
// A *anycast.SparseC is read by rows in O(nnz), any other matrix entry
// by entry. It panics if the dimensions differ.
func (b *Box) Contains(c mat.Matrix, tol float64) bool {
	r, p := c.Dims()
	if rr, pp := b.Counts.Dims(); r != rr || p != pp {
		panic("beacon: Box.Contains: dimensions differ")
	}
	sc, sparse := c.(*anycast.SparseC)
	for j := 0; j < r; j++ {
		var ti []int
		var tv []float64
		if sparse {
			ti, tv = sc.Row(j)
		} else {
			ti, tv = denseRow(c, j, p)
		}
		if !b.rowContains(j, ti, tv, tol) {
			return false
		}
	}
	return true
}

// denseRow returns the nonzero entries of row j of c.
func denseRow(c mat.Matrix, j, p int) ([]int, []float64) {
	var idx []int
	var val []float64
	for i := 0; i < p; i++ {
		if v := c.At(j, i); v != 0 {
			idx, val = append(idx, i), append(val, v)
		}
	}
	return idx, val
}

// rowContains checks row j given its nonzero entries (ti, tv), merging
// them with the observed pattern: an observed pair absent from ti has
// the value 0.
func (b *Box) rowContains(j int, ti []int, tv []float64, tol float64) bool {
	cols, lo, hi, z := b.Row(j)
	a, k := 0, 0
	for a < len(ti) || k < len(cols) {
		switch {
		case k == len(cols) || (a < len(ti) && ti[a] < cols[k]): // unseen pair
			if !(tv[a] <= z+tol) {
				return false
			}
			a++
		case a == len(ti) || cols[k] < ti[a]: // observed pair with C_ji = 0
			if lo[k] > tol {
				return false
			}
			k++
		default:
			if !(tv[a] >= lo[k]-tol && tv[a] <= hi[k]+tol) {
				return false
			}
			a, k = a+1, k+1
		}
	}
	return true
}

// CHat is the estimate of C from beacon counts (spec §15.1–§15.3).
type CHat struct {
	Counts *Counts
	// Freq holds Ĉ_ji = n_ji/n_j for the observed pairs, aligned with
	// Counts; every unseen pair has Ĉ_ji = 0 (a region of Prior: the
	// prior's values, and its unseen pairs too).
	Freq []float64
	// Entry holds the per-entry 95 % Clopper–Pearson intervals (spec
	// §15.2): each covers its C_ji with probability ≥ 95 %.
	Entry *Box
	// Set is the simultaneous confidence set: with probability ≥ 1 − α
	// every entry of C lies in its interval at once (Bonferroni over R·K
	// entries, spec §15.3).
	Set *Box
	// Alpha and Support are the settings used (Support = K).
	Alpha   float64
	Support int
	// Prior lists the regions whose row is Settings.Prior's (too few
	// beacons), increasing; their Freq entries are the prior's values.
	Prior []int

	prior     *anycast.SparseC
	fromPrior []bool
}

// Estimate returns Ĉ_ji with its 95 % interval as a loadlab.Estimate:
// Mean Ĉ_ji, [Lo, Hi] the Clopper–Pearson interval, StdErr the binomial
// √(Ĉ(1 − Ĉ)/n_j) and N = n_j; for a region of Prior, Mean is the
// prior's C_ji, [Lo, Hi] = [0, 1] and StdErr NaN. It panics if j or i
// is out of range.
func (h *CHat) Estimate(j, i int) loadlab.Estimate {
	c := h.Counts
	n := c.Total(j)
	cols, lo, hi, z := h.Entry.Row(j)
	e := loadlab.Estimate{Lo: 0, Hi: z, N: int(n)}
	if i < 0 || i >= c.proxies {
		panic("beacon: CHat.Estimate: proxy index out of range")
	}
	if h.fromPrior[j] {
		e.Mean, e.Hi, e.StdErr = h.prior.At(j, i), 1, math.NaN()
		return e
	}
	for k, col := range cols {
		if col == i {
			e.Mean, e.Lo, e.Hi = h.Freq[c.ptr[j]+k], lo[k], hi[k]
			break
		}
	}
	e.StdErr = math.Sqrt(e.Mean * (1 - e.Mean) / float64(n))
	return e
}

// Matrix returns Ĉ as an anycast.SparseC, for a square table (regions
// = proxies = N, the anycast model's nodes). It returns an error
// wrapping loadlab.ErrInvalid for a table that is not square.
func (h *CHat) Matrix() (*anycast.SparseC, error) {
	r, p := h.Counts.Dims()
	if r != p {
		return nil, loadlab.Invalid("beacon", "Ĉ is %d regions × %d proxies, want a square table for the anycast model", r, p)
	}
	var rows, cols []int
	var vals []float64
	for j := 0; j < r; j++ {
		ci, _ := h.Counts.Row(j)
		cv := h.Freq[h.Counts.ptr[j]:h.Counts.ptr[j+1]]
		if h.fromPrior[j] {
			ci, cv = h.prior.Row(j)
		}
		for k, i := range ci {
			rows, cols, vals = append(rows, j), append(cols, i), append(vals, cv[k])
		}
	}
	return anycast.NewSparseC(r, rows, cols, vals)
}

// EstimateC estimates the correlation matrix from beacon counts (spec
// §15): Ĉ_ji = n_ji/n_j, the per-entry 95 % Clopper–Pearson intervals
// (an unseen pair of region j: [0, 1 − 0.025^{1/n_j}]) and the
// simultaneous set at level 1 − Settings.Alpha. The intervals are
// computed on all cores, each by one goroutine, so the result does not
// depend on their number.
//
// It returns an error wrapping loadlab.ErrInvalid for invalid settings,
// for a region with no beacons or fewer than Settings.MinCount (naming
// the region) unless Settings.Prior is given, for a Prior of other
// dimensions, and for a Support below a row's observed proxies. It
// panics if c is nil.
func EstimateC(c *Counts, s *Settings) (*CHat, error) {
	if c == nil {
		panic("beacon: EstimateC: counts are nil")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	set := Settings{MinCount: 1, Alpha: 0.05, Support: c.proxies}
	if s != nil {
		set.MinCount = max(set.MinCount, s.MinCount)
		set.Alpha = cmpDefault(s.Alpha, set.Alpha)
		if s.Support > 0 {
			set.Support = min(s.Support, c.proxies)
		}
	}
	if s != nil {
		set.Prior = s.Prior
	}
	fromPrior, err := checkRows(c, set)
	if err != nil {
		return nil, err
	}
	m := c.NNZ()
	h := &CHat{Counts: c, Freq: make([]float64, m), Alpha: set.Alpha, Support: set.Support, prior: set.Prior, fromPrior: fromPrior}
	for j, p := range fromPrior {
		if p {
			h.Prior = append(h.Prior, j)
		}
	}
	h.Entry = newBox(c, 1-Level)
	h.Set = newBox(c, set.Alpha/(float64(c.regions)*float64(set.Support)))
	par.Range(c.regions, 64, 256, par.Workers(0), func(lo, hi int) {
		for j := lo; j < hi; j++ {
			h.fillRow(j)
		}
	})
	return h, nil
}

// cmpDefault returns v, or d when v is zero.
func cmpDefault(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

// checkRows refuses a region with fewer than MinCount beacons (or marks
// it for the prior) and one with more observed proxies than Support.
func checkRows(c *Counts, set Settings) ([]bool, error) {
	if p := set.Prior; p != nil {
		if n, _ := p.Dims(); n != c.regions || n != c.proxies {
			return nil, loadlab.Invalid("beacon", "Settings.Prior is %d × %d, want the table's %d × %d", n, n, c.regions, c.proxies)
		}
	}
	fromPrior := make([]bool, c.regions)
	for j := 0; j < c.regions; j++ {
		switch n := c.tot[j]; {
		case n < set.MinCount && set.Prior != nil:
			fromPrior[j] = true
		case n == 0:
			return nil, loadlab.Invalid("beacon", "region %d has no beacons, want at least %d: its row of C cannot be estimated (or give Settings.Prior)", j, set.MinCount)
		case n < set.MinCount:
			return nil, loadlab.Invalid("beacon", "region %d has %d beacons, want at least Settings.MinCount = %d", j, n, set.MinCount)
		}
		if k := c.ptr[j+1] - c.ptr[j]; k > set.Support {
			return nil, loadlab.Invalid("beacon", "region %d reached %d proxies, above Settings.Support = %d", j, k, set.Support)
		}
	}
	return fromPrior, nil
}

// newBox allocates a box on c's pattern with per-entry miss probability a.
func newBox(c *Counts, a float64) *Box {
	m := c.NNZ()
	return &Box{Counts: c, Lo: make([]float64, m), Hi: make([]float64, m), ZeroHi: make([]float64, c.regions), EntryAlpha: a}
}

// fillRow computes row j's frequencies and both boxes' bounds.
func (h *CHat) fillRow(j int) {
	c := h.Counts
	n := c.tot[j]
	if h.fromPrior[j] {
		for k := c.ptr[j]; k < c.ptr[j+1]; k++ {
			h.Freq[k] = h.prior.At(j, c.col[k])
			h.Entry.Hi[k], h.Set.Hi[k] = 1, 1 // Lo stays 0
		}
		h.Entry.ZeroHi[j], h.Set.ZeroHi[j] = 1, 1
		return
	}
	for k := c.ptr[j]; k < c.ptr[j+1]; k++ {
		h.Freq[k] = float64(c.cnt[k]) / float64(n) // spec §15.1
		for _, b := range [2]*Box{h.Entry, h.Set} {
			b.Lo[k], b.Hi[k] = ClopperPearson(c.cnt[k], n, b.EntryAlpha)
		}
	}
	full := h.Support < c.proxies && c.ptr[j+1]-c.ptr[j] == h.Support
	for _, b := range [2]*Box{h.Entry, h.Set} {
		_, b.ZeroHi[j] = ClopperPearson(0, n, b.EntryAlpha)
		if full {
			b.ZeroHi[j] = 0 // all K proxies with C_ji > 0 are observed (spec §15.3)
		}
	}
}

// ClopperPearson returns the exact two-sided binomial interval [lo, hi]
// for a proportion with k successes in n trials at miss probability a
// (spec §15.2), the interval of every entry of Ĉ: internal/mc's, the one
// implementation of the module (closed forms at k ∈ {0, 1, n − 1, n}, Beta
// quantiles otherwise). It covers the true proportion with probability
// ≥ 1 − a for every p. It panics unless 0 ≤ k ≤ n, n ≥ 1 and 0 < a < 1 (a
// programmer error: EstimateC checks its input).
func ClopperPearson(k, n int64, a float64) (lo, hi float64) { return mc.ClopperPearson(k, n, a) }
