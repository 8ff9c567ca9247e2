package anycast

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// CDNSettings are the parameters of GenerateCDN. A zero field takes the
// default in brackets; a negative, NaN or infinite one is an error naming
// the field.
type CDNSettings struct {
	N     int     // nodes (DNS region + proxy each) [1000]
	K     int     // proxies per region's split, 1 ≤ K ≤ N [min(10, N)]
	Decay float64 // weight length ℓ in units of the mean spacing 1/√N [1]
	Sigma float64 // log-normal demand spread σ of ln A_j, ≤ 30 [1]
	// Utilisations ρ_i = (Cᵀ A)_i / T_i are drawn uniformly from
	// [RhoLo, RhoHi] [0.5, 1.2]; RhoLo ≤ RhoHi.
	RhoLo, RhoHi float64
}

// Validate checks the settings (nil means defaults).
func (s *CDNSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.N < 0 {
		return loadlab.Invalid("anycast", "CDNSettings.N = %d, want 0 (default) or ≥ 1", s.N)
	}
	if s.K < 0 || (s.K > 0 && s.K > s.withDefaults().N) {
		return loadlab.Invalid("anycast", "CDNSettings.K = %d, want 0 (default) or in [1, N]", s.K)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Decay", s.Decay}, {"Sigma", s.Sigma}, {"RhoLo", s.RhoLo}, {"RhoHi", s.RhoHi}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return loadlab.Invalid("anycast", "CDNSettings.%s = %v, want 0 (default) or a finite value > 0", f.name, f.v)
		}
	}
	if s.Sigma > maxCDNSigma {
		return loadlab.Invalid("anycast", "CDNSettings.Sigma = %v, want ≤ %v (beyond it A_j = exp(σZ − σ²/2) underflows to 0 for ordinary draws Z)", s.Sigma, maxCDNSigma)
	}
	if d := s.withDefaults(); d.RhoLo > d.RhoHi {
		return loadlab.Invalid("anycast", "CDNSettings.RhoLo = %v > RhoHi = %v", d.RhoLo, d.RhoHi)
	}
	return nil
}

// maxCDNSigma bounds CDNSettings.Sigma so that exp(σZ − σ²/2) is a
// normal float64 for every |Z| ≤ 8 (σ²/2 + 8σ ≤ 708 for σ ≤ 30.4).
const maxCDNSigma = 30

// withDefaults returns a copy with zero fields replaced by defaults.
func (s *CDNSettings) withDefaults() CDNSettings {
	var d CDNSettings
	if s != nil {
		d = *s
	}
	if d.N == 0 {
		d.N = 1000
	}
	if d.K == 0 {
		d.K = min(10, d.N)
	}
	if d.Decay == 0 {
		d.Decay = 1
	}
	if d.Sigma == 0 {
		d.Sigma = 1
	}
	if d.RhoLo == 0 {
		d.RhoLo = 0.5
	}
	if d.RhoHi == 0 {
		d.RhoHi = 1.2
	}
	return d
}

// GenerateCDN draws a synthetic CDN with sparse C (the model of spec §1 at
// scale; the generator itself is this package's, not the paper's):
//
//   - N nodes, each a DNS region with its co-located proxy, uniform on the
//     unit square, numbered along a serpentine sweep of a grid of cells
//     (nearby nodes have nearby indices, for the memory locality of the
//     products with C);
//   - region j's traffic goes to its K nearest proxies i (itself first,
//     distance 0) with weights C_ji ∝ exp(−d_ji/ℓ), ℓ = Decay/√N,
//     normalised so that each row sums to 1 — every row has exactly K
//     stored entries;
//   - demand A_j = exp(σ Z_j − σ²/2), Z_j standard normal (log-normal,
//     mean 1);
//   - capacity T_i = (Cᵀ A)_i / ρ_i with ρ_i uniform on [RhoLo, RhoHi]:
//     at x = 1 proxy i runs at utilisation ρ_i, overloaded when ρ_i > 1.
//
// The draws come from src in this order: positions, demands,
// utilisations. It panics if src is nil; bad settings or an N over the
// memory budget are errors.
func GenerateCDN(src rand.Source, set *CDNSettings) (*Network, error) {
	if src == nil {
		panic("anycast: GenerateCDN with a nil rand.Source")
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	s := set.withDefaults()
	if err := size.Check("anycast", "GenerateCDN N·K", s.N*s.K, 24); err != nil {
		return nil, err
	}
	rng := rand.New(src)
	px, py := make([]float64, s.N), make([]float64, s.N)
	for j := range px {
		px[j], py[j] = rng.Float64(), rng.Float64()
	}
	localOrder(px, py, s.K)
	sc, err := nearestSplit(px, py, s.K, s.Decay/math.Sqrt(float64(s.N)))
	if err != nil {
		return nil, err
	}
	a := make([]float64, s.N)
	for j := range a {
		a[j] = math.Exp(s.Sigma*rng.NormFloat64() - s.Sigma*s.Sigma/2)
	}
	nw := &Network{A: a, Sparse: sc}
	t := nw.MaxLoads()
	for i := range t {
		rho := s.RhoLo + (s.RhoHi-s.RhoLo)*rng.Float64()
		t[i] /= rho
		if math.IsInf(t[i], 1) {
			return nil, loadlab.Invalid("anycast", "CDNSettings.RhoLo = %v: utilisation ρ = %v of node %d makes its capacity T = (CᵀA)_i/ρ overflow", s.RhoLo, rho, i)
		}
		if t[i] == 0 { // no demand reaches i (underflow of exp): any capacity
			t[i] = 1
		}
	}
	nw.T = t
	return nw, nw.Validate()
}

// localOrder renumbers the points along a serpentine sweep of the cells
// of the k-nearest grid (left to right in even cell rows, right to left in
// odd ones; drawing order within a cell), so that a region's K nearest
// proxies have nearby indices: the products with C then gather from a
// window of about 2√(NK) entries instead of the whole vector (≈ 2× faster
// at N = 10⁵, where the vector exceeds the core's cache). The positions
// stay i.i.d. uniform as a set; only their labels change.
func localOrder(px, py []float64, k int) {
	g := newGrid(px, py, k)
	order := make([]int, 0, len(px))
	for cy := 0; cy < g.m; cy++ {
		for c := 0; c < g.m; c++ {
			cx := c
			if cy%2 == 1 {
				cx = g.m - 1 - c
			}
			cell := cy*g.m + cx
			order = append(order, g.idx[g.start[cell]:g.start[cell+1]]...)
		}
	}
	qx, qy := slices.Clone(px), slices.Clone(py)
	for j, p := range order {
		px[j], py[j] = qx[p], qy[p]
	}
}

// nearestSplit builds C: row j over the k nearest points with weights
// exp(−d/ℓ), normalised.
func nearestSplit(px, py []float64, k int, ell float64) (*SparseC, error) {
	n := len(px)
	g := newGrid(px, py, k)
	rows, cols, vals := make([]int, 0, n*k), make([]int, 0, n*k), make([]float64, 0, n*k)
	var nb []neighbour
	for j := 0; j < n; j++ {
		nb = g.nearest(nb[:0], px[j], py[j], k)
		var sum float64
		for _, q := range nb {
			sum += math.Exp(-(math.Sqrt(q.d2) - math.Sqrt(nb[0].d2)) / ell)
		}
		for _, q := range nb {
			w := math.Exp(-(math.Sqrt(q.d2)-math.Sqrt(nb[0].d2))/ell) / sum
			rows, cols, vals = append(rows, j), append(cols, q.i), append(vals, w)
		}
	}
	return NewSparseC(n, rows, cols, vals)
}

// neighbour is a candidate point and its squared distance.
type neighbour struct {
	i  int
	d2 float64
}

// grid buckets points of the unit square in m×m cells for k-nearest
// searches by growing rings of cells.
type grid struct {
	m      int
	px, py []float64
	start  []int // cell c holds idx[start[c]:start[c+1]]
	idx    []int
}

// newGrid picks about k points per cell.
func newGrid(px, py []float64, k int) *grid {
	n := len(px)
	m := max(1, int(math.Sqrt(float64(n)/float64(k))))
	g := &grid{m: m, px: px, py: py, start: make([]int, m*m+1), idx: make([]int, n)}
	cell := make([]int, n)
	for i := range px {
		cell[i] = g.cell(px[i], py[i])
		g.start[cell[i]+1]++
	}
	for c := 0; c < m*m; c++ {
		g.start[c+1] += g.start[c]
	}
	next := slices.Clone(g.start[:m*m])
	for i, c := range cell {
		g.idx[next[c]] = i
		next[c]++
	}
	return g
}

// coord maps a coordinate in [0, 1) to a cell index in [0, m).
func (g *grid) coord(v float64) int { return min(g.m-1, max(0, int(v*float64(g.m)))) }

func (g *grid) cell(x, y float64) int { return g.coord(y)*g.m + g.coord(x) }

// nearest appends the k points nearest (x, y), by increasing distance
// (ties by index), to dst. Rings of cells grow until the k-th distance is
// no more than the distance to the unsearched cells.
func (g *grid) nearest(dst []neighbour, x, y float64, k int) []neighbour {
	cx, cy := g.coord(x), g.coord(y)
	w := 1 / float64(g.m)
	for r := 0; ; r++ {
		dst = dst[:0]
		for yy := max(0, cy-r); yy <= min(g.m-1, cy+r); yy++ {
			for xx := max(0, cx-r); xx <= min(g.m-1, cx+r); xx++ {
				c := yy*g.m + xx
				for _, i := range g.idx[g.start[c]:g.start[c+1]] {
					dx, dy := g.px[i]-x, g.py[i]-y
					dst = append(dst, neighbour{i, dx*dx + dy*dy})
				}
			}
		}
		covered := r >= g.m // every cell searched
		if len(dst) >= k || covered {
			slices.SortFunc(dst, func(a, b neighbour) int {
				if a.d2 != b.d2 {
					if a.d2 < b.d2 {
						return -1
					}
					return 1
				}
				return a.i - b.i
			})
			// points outside the ring are at least r·w away
			if covered || (len(dst) >= k && math.Sqrt(dst[k-1].d2) <= float64(r)*w) {
				return dst[:min(k, len(dst))]
			}
		}
	}
}
