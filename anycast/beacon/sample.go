package beacon

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"

	"gonum.org/v1/gonum/stat/distuv"
)

// Draw simulates a beacon campaign on the true correlation matrix c:
// region j sends beacons[j] beacons, which land at the proxies with the
// probabilities of row j of c, so row j of the result is
// Multinomial(beacons[j], C_j·) (spec §15.1), drawn as a chain of
// binomials along the row's stored entries. It is the per-run function
// of the studies of package stability and of the coverage tests.
//
// It returns an error wrapping loadlab.ErrInvalid if len(beacons) is not
// the size of c or a beacon count is negative, and the errors of
// NewCounts. It panics if c or src is nil.
func Draw(c *anycast.SparseC, beacons []int64, src rand.Source) (*Counts, error) {
	if c == nil || src == nil {
		panic("beacon: Draw: c and src must be non-nil")
	}
	n, _ := c.Dims()
	if len(beacons) != n {
		return nil, loadlab.Invalid("beacon", "len(beacons) = %d, want N = %d", len(beacons), n)
	}
	var rows, cols []int
	var cnt []int64
	bin := distuv.Binomial{Src: src}
	for j, b := range beacons {
		if b < 0 {
			return nil, loadlab.Invalid("beacon", "beacons[%d] = %d, want ≥ 0", j, b)
		}
		idx, vals := c.Row(j)
		left, mass := b, 1.0
		for k, i := range idx {
			var m int64
			switch {
			case left == 0:
			case k == len(idx)-1 || vals[k] >= mass:
				m = left
			case vals[k] > 0:
				bin.N, bin.P = float64(left), math.Min(1, vals[k]/mass)
				m = int64(bin.Rand())
			}
			mass -= vals[k]
			left -= m
			if m > 0 {
				rows, cols, cnt = append(rows, j), append(cols, i), append(cnt, m)
			}
		}
	}
	return NewCounts(n, n, rows, cols, cnt)
}

// Drift returns the correlation matrix of a stale measurement after
// days days of the drift model of spec §15.5,
//
//	C_d = (1 − ε)^d C₀ + (1 − (1 − ε)^d) C′,
//
// the routing moving each day a share ε of every region's traffic from
// the pattern C₀ towards the pattern C′. C_d is row-stochastic whenever
// C₀ and C′ are. It returns an error wrapping loadlab.ErrInvalid for
// matrices of different sizes, ε outside [0, 1] (or NaN) and days < 0.
// It panics if c0 or c1 is nil.
func Drift(c0, c1 *anycast.SparseC, eps float64, days int) (*anycast.SparseC, error) {
	if c0 == nil || c1 == nil {
		panic("beacon: Drift: c0 and c1 must be non-nil")
	}
	n, _ := c0.Dims()
	if m, _ := c1.Dims(); m != n {
		return nil, loadlab.Invalid("beacon", "Drift: C₀ is %d×%d but C′ is %d×%d", n, n, m, m)
	}
	if !(eps >= 0 && eps <= 1) {
		return nil, loadlab.Invalid("beacon", "Drift: ε = %v, want a value in [0, 1]", eps)
	}
	if days < 0 {
		return nil, loadlab.Invalid("beacon", "Drift: days = %d, want ≥ 0", days)
	}
	w := math.Pow(1-eps, float64(days))
	var rows, cols []int
	var vals []float64
	for j := 0; j < n; j++ {
		i0, v0 := c0.Row(j)
		i1, v1 := c1.Row(j)
		a, b := 0, 0
		for a < len(i0) || b < len(i1) {
			var i int
			var v float64
			switch {
			case b == len(i1) || (a < len(i0) && i0[a] < i1[b]):
				i, v = i0[a], w*v0[a]
				a++
			case a == len(i0) || i1[b] < i0[a]:
				i, v = i1[b], (1-w)*v1[b]
				b++
			default:
				i, v = i0[a], w*v0[a]+(1-w)*v1[b]
				a, b = a+1, b+1
			}
			rows, cols, vals = append(rows, j), append(cols, i), append(vals, v)
		}
	}
	return anycast.NewSparseC(n, rows, cols, vals)
}
