package beacon

import (
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Counts is a sparse table of beacon counts: n_ji, the number of beacon
// requests of users whose DNS query was answered in region j that landed
// at proxy i (spec §15.1). Row j stores the proxies with n_ji > 0,
// columns increasing; every other entry is an unseen (zero) count. Build
// it with NewCounts; it is immutable.
type Counts struct {
	regions, proxies int
	ptr              []int   // row j is col[ptr[j]:ptr[j+1]], cnt[ptr[j]:ptr[j+1]]
	col              []int   // proxies, increasing within a row
	cnt              []int64 // n_ji > 0
	tot              []int64 // n_j = Σ_i n_ji
}

// NewCounts builds the regions × proxies table with n[rows[k]][cols[k]]
// += counts[k]: triplets in any order, a repeated (region, proxy) pair
// adding its counts (counts from several logs sum), zero counts dropped.
// It returns an error wrapping loadlab.ErrInvalid naming the triplet for
// an index outside [0, regions) × [0, proxies) or a negative count, for
// regions or proxies < 1, for slices of different lengths, and for a row
// total that overflows int64; and one wrapping loadlab.ErrTooLarge when
// the table would exceed the memory budget. A region without beacons is
// allowed here and refused by EstimateC, which needs every row.
func NewCounts(regions, proxies int, rows, cols []int, counts []int64) (*Counts, error) {
	if regions < 1 || proxies < 1 {
		return nil, loadlab.Invalid("beacon", "counts table of %d regions × %d proxies, want at least 1 × 1", regions, proxies)
	}
	m := len(counts)
	if len(rows) != m || len(cols) != m {
		return nil, loadlab.Invalid("beacon", "len(rows) = %d, len(cols) = %d, len(counts) = %d, want equal", len(rows), len(cols), m)
	}
	if err := size.Check("beacon", "count triplets", m, 24); err != nil {
		return nil, err
	}
	if err := size.Check("beacon", "regions", regions, 24); err != nil {
		return nil, err
	}
	tot := make([]int64, regions)
	nnz := make([]int, regions+1)
	for k, v := range counts {
		j, i := rows[k], cols[k]
		switch {
		case j < 0 || j >= regions:
			return nil, loadlab.Invalid("beacon", "triplet %d: region %d, want an index in [0, %d)", k, j, regions)
		case i < 0 || i >= proxies:
			return nil, loadlab.Invalid("beacon", "triplet %d: proxy %d, want an index in [0, %d)", k, i, proxies)
		case v < 0:
			return nil, loadlab.Invalid("beacon", "triplet %d: count n[%d][%d] = %d, want ≥ 0", k, j, i, v)
		case v > math.MaxInt64-tot[j]:
			return nil, loadlab.Invalid("beacon", "triplet %d: the beacons of region %d overflow int64", k, j)
		}
		tot[j] += v
		if v > 0 {
			nnz[j+1]++
		}
	}
	return assemble(regions, proxies, rows, cols, counts, tot, nnz), nil
}

// assemble sorts the positive triplets into compressed rows and merges
// repeated pairs.
func assemble(regions, proxies int, rows, cols []int, counts []int64, tot []int64, nnz []int) *Counts {
	for j := 0; j < regions; j++ {
		nnz[j+1] += nnz[j]
	}
	col := make([]int, nnz[regions])
	cnt := make([]int64, nnz[regions])
	next := slices.Clone(nnz[:regions])
	for k, v := range counts {
		if v > 0 {
			col[next[rows[k]]], cnt[next[rows[k]]] = cols[k], v
			next[rows[k]]++
		}
	}
	c := &Counts{regions: regions, proxies: proxies, tot: tot, ptr: make([]int, regions+1)}
	w := 0
	for j := 0; j < regions; j++ {
		lo, hi := nnz[j], nnz[j+1]
		sortPairs(col[lo:hi], cnt[lo:hi])
		for k := lo; k < hi; k++ {
			if w > c.ptr[j] && col[w-1] == col[k] {
				cnt[w-1] += cnt[k] // a repeated pair: the total fits, as the row total does
				continue
			}
			col[w], cnt[w] = col[k], cnt[k]
			w++
		}
		c.ptr[j+1] = w
	}
	c.col, c.cnt = col[:w:w], cnt[:w:w]
	return c
}

// sortPairs sorts one row's (proxy, count) pairs by proxy.
func sortPairs(col []int, cnt []int64) {
	if slices.IsSorted(col) {
		return
	}
	idx := make([]int, len(col))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int { return col[a] - col[b] })
	c2, n2 := slices.Clone(col), slices.Clone(cnt)
	for k, p := range idx {
		col[k], cnt[k] = c2[p], n2[p]
	}
}

// Dims returns the number of regions (rows) and proxies (columns).
func (c *Counts) Dims() (regions, proxies int) { return c.regions, c.proxies }

// NNZ returns the number of pairs (j, i) with n_ji > 0.
func (c *Counts) NNZ() int { return len(c.col) }

// Row returns the proxies i with n_ji > 0 (increasing) and their counts,
// views into c that the caller must not change. It panics if j is out of
// range.
func (c *Counts) Row(j int) (proxies []int, counts []int64) {
	return c.col[c.ptr[j]:c.ptr[j+1]], c.cnt[c.ptr[j]:c.ptr[j+1]]
}

// Total returns n_j, the beacons of region j. It panics if j is out of
// range.
func (c *Counts) Total(j int) int64 { return c.tot[j] }

// At returns n_ji (0 for an unseen pair), by binary search in row j. It
// panics if j or i is out of range.
func (c *Counts) At(j, i int) int64 {
	if i < 0 || i >= c.proxies {
		panic("beacon: Counts.At: proxy index out of range")
	}
	cols, cnt := c.Row(j)
	if k, ok := slices.BinarySearch(cols, i); ok {
		return cnt[k]
	}
	return 0
}
