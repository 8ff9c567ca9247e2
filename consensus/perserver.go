package consensus

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
)

// validateClients validates per-server input: finite non-negative requests
// and a finite non-negative limit.
func validateClients(requests []float64, limit float64) error {
	if !(limit >= 0) || math.IsInf(limit, 1) {
		return loadlab.Invalid("consensus", "limit = %v, want finite and ≥ 0", limit)
	}
	for j, r := range requests {
		if !(r >= 0) || math.IsInf(r, 1) {
			return loadlab.Invalid("consensus", "requests[%d] = %v, want finite and ≥ 0", j, r)
		}
	}
	return nil
}

func allocDst(dst []float64, n int, name string) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("consensus: %s: len(dst) = %d, want %d", name, len(dst), n))
	}
	return dst
}

// UniformRatio is Algorithm 1 of spec §7: every client of a server with
// limit x loses the same fraction of its requests,
//
//	x⁽ʲ⁾ = r⁽ʲ⁾ · min{1, x/R},   R = Σ_j r⁽ʲ⁾,
//
// so the allowed amounts sum to min{x, R}. It writes the per-client
// limits into dst (allocated if nil) in input order, in O(c). It returns
// an error for a negative, NaN or infinite request or limit, and panics
// if dst is non-nil with a length other than len(requests).
func UniformRatio(dst, requests []float64, limit float64) ([]float64, error) {
	if err := validateClients(requests, limit); err != nil {
		return nil, err
	}
	dst = allocDst(dst, len(requests), "UniformRatio")
	// Work with r/m, m the largest request, so that R/m ∈ [1, c] cannot
	// overflow even when R itself would (two requests of 1e308 used to
	// give R = +Inf and allocations 0).
	var m float64
	for _, r := range requests {
		m = max(m, r)
	}
	if m == 0 {
		clear(dst)
		return dst, nil
	}
	var total dense.CompensatedSum
	for _, r := range requests {
		total.Add(r / m)
	}
	t := total.Value() // R/m
	if t <= limit/m {
		copy(dst, requests) // the requests fit: min{1, x/R} = 1
		return dst, nil
	}
	share := limit / t // x m/R
	for j, r := range requests {
		dst[j] = (r / m) * share // r x/R
	}
	return dst, nil
}

// WaterFill is Algorithm 2 of spec §7, the max–min fair allocation:
// clients asking for less than a common level t are served in full and
// the others get t, where t solves Σ_j min{r⁽ʲ⁾, t} = x (the dashed
// line of the paper's Fig. 7-b). If the requests fit (Σ r⁽ʲ⁾ ≤ x),
// everyone is served in full and the level is +Inf.
//
// It writes the per-client limits into dst (allocated if nil) in input
// order and returns the level. Sorting makes it O(c log c). It returns
// an error for a negative, NaN or infinite request or limit, and panics
// if dst is non-nil with a length other than len(requests).
func WaterFill(dst, requests []float64, limit float64) ([]float64, float64, error) {
	if err := validateClients(requests, limit); err != nil {
		return nil, math.NaN(), err
	}
	dst = allocDst(dst, len(requests), "WaterFill")
	level, _ := waterFill(dst, requests, limit, nil)
	return dst, level, nil
}

// waterFill is WaterFill on valid input with dst of the right length,
// sorting in the scratch order (grown if short), which it returns for
// reuse.
func waterFill(dst, requests []float64, limit float64, order []int) (float64, []int) {
	c := len(requests)
	var total float64
	for _, r := range requests {
		total += r
	}
	if total <= limit {
		copy(dst, requests)
		return math.Inf(1), order
	}
	order = slices.Grow(order[:0], c)[:c]
	for j := range order {
		order[j] = j
	}
	sortByRequest(order, requests)
	rem := limit
	// Rounding can serve every client with Σ r slightly above the limit;
	// the level is then the largest request.
	level := requests[order[c-1]]
	for q, j := range order {
		// Fair share of what is left among the clients not yet served
		// (spec §7 Algorithm 2, step 3).
		f := rem / float64(c-q)
		if requests[j] <= f {
			dst[j] = requests[j]
			rem -= requests[j]
			continue
		}
		level = f
		for _, k := range order[q:] {
			dst[k] = f
		}
		break
	}
	return level, order
}

// sortByRequest sorts the client indices order by request, stably: by
// insertion for the few clients a server usually has, where it is
// several times faster than the general sort, which takes the others.
func sortByRequest(order []int, requests []float64) {
	if len(order) > 16 {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(requests[a], requests[b]) })
		return
	}
	for q := 1; q < len(order); q++ {
		j := order[q]
		p := q
		for ; p > 0 && requests[order[p-1]] > requests[j]; p-- {
			order[p] = order[p-1]
		}
		order[p] = j
	}
}
