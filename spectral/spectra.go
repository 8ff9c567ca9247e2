package spectral

import (
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Closed-form Laplacian spectra and Kirchhoff indices of the unit-weight
// families of package wgraph/gen (spec throttlers.md §9, §12.4). Spectra
// are returned in ascending order with repeated eigenvalues listed as
// often as their multiplicity, exactly as Spectrum returns them. Each
// function returns an error wrapping
// loadlab.ErrInvalid for the sizes where the matching constructor does,
// and one wrapping loadlab.ErrTooLarge for a spectrum too large for
// memory.
//
// The eigenvalues 2 − 2cos θ are evaluated as 4 sin²(θ/2), which has no
// cancellation for small θ, so the smallest positive eigenvalues (and the
// Kirchhoff indices they dominate) are accurate to a few ulps.

// PathSpectrum returns the Laplacian spectrum of Path(n):
// λ_k = 2 − 2cos(πk/n) = 4 sin²(πk/(2n)), k = 0, …, n−1 (spec
// throttlers.md §9), all simple.
func PathSpectrum(n int) ([]float64, error) {
	if err := spectrumSize("PathSpectrum", n, 1); err != nil {
		return nil, err
	}
	ev := make([]float64, n)
	for k := range ev {
		s := math.Sin(math.Pi * float64(k) / float64(2*n))
		ev[k] = 4 * s * s
	}
	return ev, nil
}

// spectrumSize checks n ≥ min and that n eigenvalues fit in memory.
func spectrumSize(fn string, n, min int) error {
	if err := atLeast(fn, "n", n, min); err != nil {
		return err
	}
	return size.Check("spectral", fn+": n", n, 8)
}

// CycleSpectrum returns the Laplacian spectrum of Cycle(n):
// λ_k = 2 − 2cos(2πk/n) = 4 sin²(πk/n), k = 0, …, n−1 (spec §9). Every
// eigenvalue except 0 and, for even n, 4 is double (k and n−k).
func CycleSpectrum(n int) ([]float64, error) {
	if err := spectrumSize("CycleSpectrum", n, 3); err != nil {
		return nil, err
	}
	ev := make([]float64, 0, n)
	ev = append(ev, 0)
	for k := 1; 2*k <= n; k++ {
		s := math.Sin(math.Pi * float64(k) / float64(n))
		ev = append(ev, 4*s*s)
		if 2*k != n {
			ev = append(ev, 4*s*s)
		}
	}
	return ev, nil
}

// CompleteSpectrum returns the Laplacian spectrum of Complete(n):
// 0 and n with multiplicity n−1 (spec §9).
func CompleteSpectrum(n int) ([]float64, error) {
	if err := spectrumSize("CompleteSpectrum", n, 1); err != nil {
		return nil, err
	}
	ev := make([]float64, n)
	for k := 1; k < n; k++ {
		ev[k] = float64(n)
	}
	return ev, nil
}

// StarSpectrum returns the Laplacian spectrum of Star(n): 0, 1 with
// multiplicity n−2, and n (spec §9); {0} for n = 1.
func StarSpectrum(n int) ([]float64, error) {
	if err := spectrumSize("StarSpectrum", n, 1); err != nil {
		return nil, err
	}
	ev := make([]float64, n)
	for k := 1; k < n-1; k++ {
		ev[k] = 1
	}
	if n > 1 {
		ev[n-1] = float64(n)
	}
	return ev, nil
}

// ProductSpectrum returns the Laplacian spectrum of the Cartesian product
// of two graphs with spectra a and b: every sum a_i + b_j, sorted
// ascending. (L_{G□H} = L_G ⊗ I + I ⊗ L_H, whose eigenvectors are the
// Kronecker products of the factors' eigenvectors.) It returns an error
// wrapping loadlab.ErrTooLarge if the len(a)·len(b) sums would not fit in
// memory, and one wrapping loadlab.ErrInvalid for a NaN or infinite entry.
func ProductSpectrum(a, b []float64) ([]float64, error) {
	for _, s := range [...]struct {
		name string
		ev   []float64
	}{{"a", a}, {"b", b}} {
		for i, x := range s.ev {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, loadlab.Invalid("spectral", "ProductSpectrum: %s[%d] = %v, want finite", s.name, i, x)
			}
		}
	}
	n, ok := size.Mul(len(a), len(b))
	if !ok {
		return nil, loadlab.TooLarge("spectral", "ProductSpectrum: len(a)·len(b) = %d·%d overflows", len(a), len(b))
	}
	if err := size.Check("spectral", "ProductSpectrum: len(a)·len(b)", n, 8); err != nil {
		return nil, err
	}
	ev := make([]float64, 0, n)
	for _, x := range a {
		for _, y := range b {
			ev = append(ev, x+y)
		}
	}
	slices.Sort(ev)
	return ev, nil
}

// GridSpectrum returns the Laplacian spectrum of Grid(rows, cols), the
// product of two paths: 4 sin²(πi/(2 rows)) + 4 sin²(πj/(2 cols)).
func GridSpectrum(rows, cols int) ([]float64, error) {
	return productSpectrum("GridSpectrum", rows, cols, 1, PathSpectrum)
}

// productSpectrum returns the spectrum of the product of factor(rows) and
// factor(cols), both at least min.
func productSpectrum(fn string, rows, cols, min int, factor func(int) ([]float64, error)) ([]float64, error) {
	if err := atLeast(fn, "rows", rows, min); err != nil {
		return nil, err
	}
	if err := atLeast(fn, "cols", cols, min); err != nil {
		return nil, err
	}
	n, ok := size.Mul(rows, cols)
	if !ok || n > wgraph.MaxOrder {
		return nil, loadlab.TooLarge("spectral", "%s: rows×cols = %d×%d, want fewer than 2^31 nodes", fn, rows, cols)
	}
	if err := size.Check("spectral", fn+": rows×cols", n, 8); err != nil {
		return nil, err
	}
	a, err := factor(rows)
	if err != nil {
		return nil, err
	}
	b, err := factor(cols)
	if err != nil {
		return nil, err
	}
	return ProductSpectrum(a, b)
}

// TorusSpectrum returns the Laplacian spectrum of Torus(rows, cols), the
// product of two cycles: 4 sin²(πi/rows) + 4 sin²(πj/cols).
func TorusSpectrum(rows, cols int) ([]float64, error) {
	return productSpectrum("TorusSpectrum", rows, cols, 3, CycleSpectrum)
}

// HypercubeSpectrum returns the Laplacian spectrum of Hypercube(d):
// 2j with multiplicity C(d, j), j = 0, …, d (Q_d is the product of d
// copies of K_2, whose spectrum is {0, 2}), for 0 ≤ d ≤
// gen.MaxHypercubeDim.
func HypercubeSpectrum(d int) ([]float64, error) {
	if err := checkDim("HypercubeSpectrum", d); err != nil {
		return nil, err
	}
	ev := make([]float64, 0, 1<<d)
	c := 1 // C(d, j)
	for j := 0; j <= d; j++ {
		for range c {
			ev = append(ev, float64(2*j))
		}
		c = c * (d - j) / (j + 1)
	}
	return ev, nil
}

// KirchhoffFromSpectrum returns n Σ_{i≥2} 1/λ_i (spec throttlers.md §2),
// the Kirchhoff index of a connected graph with ascending Laplacian
// spectrum ev; ev[0], the zero eigenvalue, is skipped. The sum is
// compensated, so its error does not grow with n. It returns 0 for a
// single node, an error wrapping loadlab.ErrInvalid for an empty, NaN,
// infinite or unsorted spectrum, and one wrapping loadlab.ErrDisconnected
// if ev[1] ≤ 0 (a disconnected graph, or a λ₂ lost to rounding).
func KirchhoffFromSpectrum(ev []float64) (float64, error) {
	if len(ev) == 0 {
		return 0, loadlab.Invalid("spectral", "KirchhoffFromSpectrum: empty spectrum")
	}
	for i, l := range ev {
		if math.IsNaN(l) || math.IsInf(l, 0) || (i > 0 && l < ev[i-1]) {
			return 0, loadlab.Invalid("spectral", "KirchhoffFromSpectrum: ev[%d] = %v, want finite and ascending", i, l)
		}
	}
	if len(ev) == 1 {
		return 0, nil
	}
	if ev[1] <= 0 {
		return 0, loadlab.Wrap(loadlab.ErrDisconnected, "spectral", "KirchhoffFromSpectrum: ev[1] = %v, want > 0", ev[1])
	}
	var s dense.CompensatedSum
	for _, l := range ev[1:] {
		s.Add(1 / l)
	}
	return float64(len(ev)) * s.Value(), nil
}

// PathKirchhoff returns K_f(Path(n)) = (n³ − n)/6 (spec §9).
// It returns an error wrapping loadlab.ErrInvalid for n < 1.
func PathKirchhoff(n int) (float64, error) {
	if err := atLeast("PathKirchhoff", "n", n, 1); err != nil {
		return 0, err
	}
	x := float64(n)
	return (x - 1) * x * (x + 1) / 6, nil
}

// CycleKirchhoff returns K_f(Cycle(n)) = (n³ − n)/12 (spec §9).
// It returns an error wrapping loadlab.ErrInvalid for n < 3.
func CycleKirchhoff(n int) (float64, error) {
	if err := atLeast("CycleKirchhoff", "n", n, 3); err != nil {
		return 0, err
	}
	x := float64(n)
	return (x - 1) * x * (x + 1) / 12, nil
}

// CompleteKirchhoff returns K_f(Complete(n)) = n − 1 (spec §9).
// It returns an error wrapping loadlab.ErrInvalid for n < 1.
func CompleteKirchhoff(n int) (float64, error) {
	if err := atLeast("CompleteKirchhoff", "n", n, 1); err != nil {
		return 0, err
	}
	return float64(n - 1), nil
}

// StarKirchhoff returns K_f(Star(n)) = (n − 1)² (spec §9).
// It returns an error wrapping loadlab.ErrInvalid for n < 1.
func StarKirchhoff(n int) (float64, error) {
	if err := atLeast("StarKirchhoff", "n", n, 1); err != nil {
		return 0, err
	}
	x := float64(n - 1)
	return x * x, nil
}

// HypercubeKirchhoff returns K_f(Hypercube(d)) = 2^d Σ_{j=1}^{d} C(d, j)/(2j)
// (spec §2 with the spectrum of HypercubeSpectrum), in O(d) time. Unlike
// gen.Hypercube it accepts any d ≥ 0. K_f grows like 4^d/d and exceeds the
// float64 range from d = 517 on, where the result is +Inf (returned at
// once, without the O(d) loop). It returns an error wrapping
// loadlab.ErrInvalid for d < 0.
func HypercubeKirchhoff(d int) (float64, error) {
	if err := atLeast("HypercubeKirchhoff", "d", d, 0); err != nil {
		return 0, err
	}
	if d > hypercubeKirchhoffMaxD {
		return math.Inf(1), nil // K_f increases with d
	}
	var s dense.CompensatedSum
	c := 1.0 // C(d, j), exact while below 2^53
	for j := 1; j <= d; j++ {
		c = c * float64(d-j+1) / float64(j)
		s.Add(c / float64(2*j))
	}
	return math.Ldexp(s.Value(), d), nil
}

// hypercubeKirchhoffMaxD is the largest d with K_f(Q_d) < MaxFloat64
// (K_f(Q_516) ≈ 8.9e307, K_f(Q_517) ≈ 3.6e308).
const hypercubeKirchhoffMaxD = 516

// GridKirchhoff returns K_f(Grid(rows, cols)) in O(min(rows, cols))
// time. With a_i = 4 sin²(πi/(2 rows)) and b_j likewise,
//
//	K_f = n Σ_{(i,j)≠(0,0)} 1/(a_i + b_j)            (spec §2)
//	    = n [ (cols² − 1)/6 + Σ_{i≥1} S_P(cols, a_i) ],
//
// where S_P(c, a) = Σ_j 1/(a + b_j) has a closed form from Chebyshev
// polynomials (derived at pathResolvent in the source; spec
// throttlers.md §12.4), so the double sum collapses to a single one. It
// returns an error wrapping loadlab.ErrInvalid for rows or cols < 1.
func GridKirchhoff(rows, cols int) (float64, error) {
	if err := productKirchhoffSize("GridKirchhoff", rows, cols, 1); err != nil {
		return 0, err
	}
	if rows > cols {
		rows, cols = cols, rows
	}
	var s dense.CompensatedSum
	c := float64(cols)
	s.Add((c*c - 1) / 6) // Σ_{j≥1} 1/b_j = K_f(P_cols)/cols
	for i := 1; i < rows; i++ {
		s.Add(pathResolvent(cols, math.Sin(math.Pi*float64(i)/float64(2*rows))))
	}
	return float64(rows) * float64(cols) * s.Value(), nil
}

// productKirchhoffSize checks rows, cols ≥ min.
func productKirchhoffSize(fn string, rows, cols, min int) error {
	if err := atLeast(fn, "rows", rows, min); err != nil {
		return err
	}
	return atLeast(fn, "cols", cols, min)
}

// TorusKirchhoff returns K_f(Torus(rows, cols)) in O(min(rows, cols))
// time: with a_i = 4 sin²(πi/rows) and b_j = 4 sin²(πj/cols),
//
//	K_f = n [ (cols² − 1)/12 + Σ_{i≥1} S_C(cols, a_i) ],
//
// where S_C(c, a) = Σ_j 1/(a + b_j) has a closed form (derived at
// cycleResolvent in the source), and a_i = a_{rows−i} halves the
// remaining sum: a 1000×1000 torus is a sum of 500 terms. It returns an
// error wrapping loadlab.ErrInvalid for rows or cols < 3.
func TorusKirchhoff(rows, cols int) (float64, error) {
	if err := productKirchhoffSize("TorusKirchhoff", rows, cols, 3); err != nil {
		return 0, err
	}
	if rows > cols {
		rows, cols = cols, rows
	}
	var s dense.CompensatedSum
	c := float64(cols)
	s.Add((c*c - 1) / 12) // Σ_{j≥1} 1/b_j = K_f(C_cols)/cols
	for i := 1; 2*i <= rows; i++ {
		t := cycleResolvent(cols, math.Sin(math.Pi*float64(i)/float64(rows)))
		if 2*i != rows {
			t *= 2 // i and rows−i
		}
		s.Add(t)
	}
	return float64(rows) * float64(cols) * s.Value(), nil
}

// cycleResolvent returns Σ_{j=0}^{c−1} 1/(a + 4 sin²(πj/c)) for
// a = 4σ², σ > 0. [DERIVED] Writing a + 2 − 2cos θ = 2(cosh t − cos θ)
// with sinh(t/2) = σ, and using Π_j (z − cos(2πj/c)) = 2^{1−c}(T_c(z) − 1)
// (T_c the Chebyshev polynomial, T_c(cosh t) = cosh ct), the sum is
// half the logarithmic derivative in z:
//
//	Σ_j 1/(cosh t − cos θ_j) = c sinh(ct) / (sinh t (cosh ct − 1))
//	                         = c coth(ct/2) / sinh t.
//
// All quantities are formed from σ directly (sinh t = 2σ√(1+σ²)), so no
// cancellation occurs for small a.
func cycleResolvent(c int, sigma float64) float64 {
	t := 2 * math.Asinh(sigma)
	sinh := 2 * sigma * math.Sqrt(1+sigma*sigma)
	return float64(c) / (2 * sinh * math.Tanh(float64(c)*t/2))
}

// pathResolvent returns Σ_{j=0}^{c−1} 1/(a + 4 sin²(πj/(2c))) for
// a = 4σ², σ > 0. [DERIVED] The points cos(πj/c), j = 1..c−1, are the
// zeros of U_{c−1} (U_{c−1}(cosh t) = sinh(ct)/sinh t) and j = 0 gives
// z = 1, so
//
//	Σ_j 1/(cosh t − cos(πj/c)) = 1/(cosh t − 1) + (c coth(ct) − coth t)/sinh t,
//
// and the sum is half of that, with cosh t − 1 = a/2. The first term is
// exact and dominates when t is small, so the cancellation in the
// difference costs only absolute error of order ε/t², a few ulps of the
// result.
func pathResolvent(c int, sigma float64) float64 {
	a := 4 * sigma * sigma
	t := 2 * math.Asinh(sigma)
	root := math.Sqrt(1 + sigma*sigma)
	sinh := 2 * sigma * root
	coth := (1 + 2*sigma*sigma) / sinh
	return 1/a + (float64(c)/math.Tanh(float64(c)*t)-coth)/(2*sinh)
}

// atLeast returns an error unless the size parameter v ≥ min.
func atLeast(fn, name string, v, min int) error {
	if v < min {
		return loadlab.Invalid("spectral", "%s: %s = %d, want ≥ %d", fn, name, v, min)
	}
	return nil
}

// checkDim returns an error unless 0 ≤ d ≤ gen.MaxHypercubeDim.
func checkDim(fn string, d int) error {
	if d < 0 || d > gen.MaxHypercubeDim {
		return loadlab.Invalid("spectral", "%s: d = %d, want 0 ≤ d ≤ %d", fn, d, gen.MaxHypercubeDim)
	}
	return nil
}
