package spectral

import (
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const eps = 0x1p-52 // float64 machine epsilon

// family is one deterministic family at one size, with its closed forms.
type family struct {
	name     string
	g        *wgraph.Graph
	spectrum []float64
	kf       float64
}

// families returns every family at a range of sizes small enough for the
// dense numerical methods (n ≤ 256).
func families() []family {
	var fs []family
	add := func(name string, g *wgraph.Graph, ev []float64, kf float64) {
		fs = append(fs, family{name, g, ev, kf})
	}
	for n := 1; n <= 40; n++ {
		add(fmt.Sprintf("P%d", n), graphtest.Must(gen.Path(n)), graphtest.Must(PathSpectrum(n)), graphtest.Must(PathKirchhoff(n)))
		add(fmt.Sprintf("K%d", n), graphtest.Must(gen.Complete(n)), graphtest.Must(CompleteSpectrum(n)), graphtest.Must(CompleteKirchhoff(n)))
		add(fmt.Sprintf("S%d", n), graphtest.Must(gen.Star(n)), graphtest.Must(StarSpectrum(n)), graphtest.Must(StarKirchhoff(n)))
		if n >= 3 {
			add(fmt.Sprintf("C%d", n), graphtest.Must(gen.Cycle(n)), graphtest.Must(CycleSpectrum(n)), graphtest.Must(CycleKirchhoff(n)))
		}
	}
	for _, n := range []int{64, 100, 200, 256} {
		add(fmt.Sprintf("P%d", n), graphtest.Must(gen.Path(n)), graphtest.Must(PathSpectrum(n)), graphtest.Must(PathKirchhoff(n)))
		add(fmt.Sprintf("C%d", n), graphtest.Must(gen.Cycle(n)), graphtest.Must(CycleSpectrum(n)), graphtest.Must(CycleKirchhoff(n)))
		add(fmt.Sprintf("K%d", n), graphtest.Must(gen.Complete(n)), graphtest.Must(CompleteSpectrum(n)), graphtest.Must(CompleteKirchhoff(n)))
		add(fmt.Sprintf("S%d", n), graphtest.Must(gen.Star(n)), graphtest.Must(StarSpectrum(n)), graphtest.Must(StarKirchhoff(n)))
	}
	for _, rc := range [][2]int{{1, 1}, {1, 5}, {2, 2}, {2, 3}, {3, 2}, {4, 7}, {8, 8}, {9, 16}, {16, 16}} {
		r, c := rc[0], rc[1]
		add(fmt.Sprintf("grid %dx%d", r, c), graphtest.Must(gen.Grid(r, c)), graphtest.Must(GridSpectrum(r, c)), graphtest.Must(GridKirchhoff(r, c)))
	}
	for _, rc := range [][2]int{{3, 3}, {3, 4}, {4, 3}, {5, 5}, {4, 8}, {7, 9}, {10, 10}, {12, 20}, {16, 16}} {
		r, c := rc[0], rc[1]
		add(fmt.Sprintf("torus %dx%d", r, c), graphtest.Must(gen.Torus(r, c)), graphtest.Must(TorusSpectrum(r, c)), graphtest.Must(TorusKirchhoff(r, c)))
	}
	for d := 0; d <= 8; d++ {
		add(fmt.Sprintf("Q%d", d), graphtest.Must(gen.Hypercube(d)), graphtest.Must(HypercubeSpectrum(d)), graphtest.Must(HypercubeKirchhoff(d)))
	}
	return fs
}

func maxDegree(g *wgraph.Graph) int {
	d := 0
	for u := range g.Order() {
		d = max(d, g.Degree(u))
	}
	return d
}

func TestClosedFormSpectra(t *testing.T) {
	for _, f := range families() {
		got, err := Spectrum(f.g)
		require.NoError(t, err, f.name)
		require.Len(t, f.spectrum, f.g.Order(), f.name)
		// A backward-stable symmetric eigensolver returns each eigenvalue
		// within about n·ε·‖L‖₂, and ‖L‖₂ ≤ 2·max degree; the closed forms
		// are accurate to a few ulps. Factor 4 for the constants.
		n := float64(f.g.Order())
		tol := 4 * n * eps * float64(2*max(maxDegree(f.g), 1))
		for i := range got {
			require.InDelta(t, f.spectrum[i], got[i], tol, "%s λ_%d", f.name, i+1)
		}
		for i := 1; i < len(f.spectrum); i++ {
			require.LessOrEqual(t, f.spectrum[i-1], f.spectrum[i], "%s not ascending", f.name)
		}
	}
}

func TestClosedFormKirchhoff(t *testing.T) {
	for _, f := range families() {
		n := f.g.Order()
		// Against the spectrum summed term by term: both are accurate to
		// a few ulps per term and the sums are compensated; 1e-13 is
		// about 450 ulps.
		assert.InEpsilon(t, graphtest.Must(KirchhoffFromSpectrum(f.spectrum))+1, f.kf+1, 1e-13, f.name)
		if n == 1 {
			continue
		}
		// Against the Cholesky of A = L + αJ/n: a backward-stable
		// inverse has relative error about κ(A)·n·ε, where the
		// eigenvalues of A are α (mean degree) and λ_2..λ_n; factor 4 for
		// the constants (the smallest graphs reach 0.75 κ n ε).
		got, err := KirchhoffIndex(f.g)
		require.NoError(t, err, f.name)
		alpha := 2 * float64(f.g.Size()) / float64(n)
		kappa := math.Max(f.spectrum[n-1], alpha) / math.Min(f.spectrum[1], alpha)
		assert.InEpsilon(t, f.kf, got, 4*kappa*float64(n)*eps, "%s (κ = %.3g)", f.name, kappa)
		// n tr L† by the numerical spectrum (spec §9 identity).
		ev, err := Spectrum(f.g)
		require.NoError(t, err)
		assert.InEpsilon(t, f.kf, graphtest.Must(KirchhoffFromSpectrum(ev)), 4*kappa*float64(n)*eps, "%s spectrum", f.name)
	}
}

func TestClosedFormSpecValues(t *testing.T) {
	// spec throttlers.md §9.
	const tol = 1e-6 // the spec prints six decimals
	assert.InDeltaSlice(t, []float64{0, 0.381966, 1.381966, 2.618034, 3.618034}, graphtest.Must(PathSpectrum(5)), tol)
	assert.InDeltaSlice(t, []float64{0, 1, 1, 3, 3, 4}, graphtest.Must(CycleSpectrum(6)), 4*eps)
	assert.Equal(t, []float64{0, 1, 1, 1, 5}, graphtest.Must(StarSpectrum(5)))
	assert.Equal(t, []float64{0, 4, 4, 4}, graphtest.Must(CompleteSpectrum(4)))
	assert.InDeltaSlice(t, []float64{0, 1, 2, 3, 3, 5}, graphtest.Must(GridSpectrum(2, 3)), 8*eps)
	// λ_2 + λ_n = 4 for every path (spec §9), to rounding of order 4ε.
	for n := 2; n <= 8; n++ {
		ev := graphtest.Must(PathSpectrum(n))
		assert.InDelta(t, 4, ev[1]+ev[n-1], 8*eps, "P%d", n)
	}
	// Kirchhoff indices, exact rationals from spec §9; the closed forms
	// are exact or within a few ulps.
	const rel = 1e-14
	assert.Equal(t, 20.0, graphtest.Must(PathKirchhoff(5)))
	assert.Equal(t, 35.0, graphtest.Must(PathKirchhoff(6)))
	assert.Equal(t, 17.5, graphtest.Must(CycleKirchhoff(6)))
	assert.Equal(t, 16.0, graphtest.Must(StarKirchhoff(5)))
	assert.Equal(t, 6.0, graphtest.Must(CompleteKirchhoff(7)))
	assert.InEpsilon(t, 71.0/5, graphtest.Must(GridKirchhoff(2, 3)), rel)
	assert.InEpsilon(t, 71.0/5, graphtest.Must(GridKirchhoff(3, 2)), rel)
	// Q_1 = K_2 (K_f = 1), Q_2 = C_4 (K_f = 5), Q_3: 8(3/2 + 3/4 + 1/6) = 58/3.
	assert.Equal(t, 0.0, graphtest.Must(HypercubeKirchhoff(0)))
	assert.InEpsilon(t, 1, graphtest.Must(HypercubeKirchhoff(1)), rel)
	assert.InEpsilon(t, 5, graphtest.Must(HypercubeKirchhoff(2)), rel)
	assert.InEpsilon(t, 58.0/3, graphtest.Must(HypercubeKirchhoff(3)), rel)
	// C_3 × C_3 is K_3 □ K_3 (rook's graph), spectrum {0, 3⁴, 6⁴}:
	// K_f = 9 (4/3 + 4/6) = 18.
	assert.InEpsilon(t, 18, graphtest.Must(TorusKirchhoff(3, 3)), rel)
}

// directProduct is n Σ 1/(a_i + b_j) over (i, j) ≠ (0, 0), term by term.
func directProduct(a, b []float64) float64 {
	var s dense.CompensatedSum
	for i, x := range a {
		for j, y := range b {
			if i != 0 || j != 0 {
				s.Add(1 / (x + y))
			}
		}
	}
	return float64(len(a)*len(b)) * s.Value()
}

func TestProductKirchhoffLarge(t *testing.T) {
	// The O(rows) closed forms against the O(rows·cols) double sum, for
	// sizes far beyond the dense solver. Both are compensated sums of
	// terms accurate to a few ulps (the resolvent's cancellation costs
	// O(ε) relative, see pathResolvent); 1e-13 is about 450 ulps.
	for _, rc := range [][2]int{{3, 1000}, {17, 400}, {100, 101}, {256, 256}, {500, 7}} {
		r, c := rc[0], rc[1]
		if c >= 3 && r >= 3 {
			assert.InEpsilon(t, directProduct(graphtest.Must(CycleSpectrum(r)), graphtest.Must(CycleSpectrum(c))), graphtest.Must(TorusKirchhoff(r, c)), 1e-13, "torus %dx%d", r, c)
		}
		assert.InEpsilon(t, directProduct(graphtest.Must(PathSpectrum(r)), graphtest.Must(PathSpectrum(c))), graphtest.Must(GridKirchhoff(r, c)), 1e-13, "grid %dx%d", r, c)
	}
	for d := 9; d <= 20; d++ {
		assert.InEpsilon(t, graphtest.Must(KirchhoffFromSpectrum(graphtest.Must(HypercubeSpectrum(d)))), graphtest.Must(HypercubeKirchhoff(d)), 1e-13, "Q%d", d)
	}
}

func TestResolvents(t *testing.T) {
	// The Chebyshev closed forms against direct sums, including tiny a
	// where a naive cosh/acosh evaluation would lose all digits. Each
	// direct term is exact to a few ulps; tolerance as above.
	for _, c := range []int{1, 2, 3, 10, 1001} {
		for _, sigma := range []float64{1e-9, 1e-4, 0.01, 0.3, 1} {
			a := 4 * sigma * sigma
			var sp, sc dense.CompensatedSum
			for j := range c {
				s := math.Sin(math.Pi * float64(j) / float64(2*c))
				sp.Add(1 / (a + 4*s*s))
				s = math.Sin(math.Pi * float64(j) / float64(c))
				sc.Add(1 / (a + 4*s*s))
			}
			assert.InEpsilon(t, sp.Value(), pathResolvent(c, sigma), 1e-13, "path c=%d σ=%g", c, sigma)
			assert.InEpsilon(t, sc.Value(), cycleResolvent(c, sigma), 1e-13, "cycle c=%d σ=%g", c, sigma)
		}
	}
}

func TestKirchhoffFromSpectrumEdgeCases(t *testing.T) {
	assert.Equal(t, 0.0, graphtest.Must(KirchhoffFromSpectrum([]float64{0})))
	_, err := KirchhoffFromSpectrum(nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = KirchhoffFromSpectrum([]float64{0, 0, 1})
	assert.ErrorIs(t, err, loadlab.ErrDisconnected)
	_, err = KirchhoffFromSpectrum([]float64{0, 2, 1})
	assert.ErrorContains(t, err, "ev[2] = 1, want finite and ascending")
	_, err = KirchhoffFromSpectrum([]float64{0, math.NaN()})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

// TestClosedFormErrors: a size outside a family's domain is ErrInvalid
// (not a panic), and one beyond memory ErrTooLarge.
func TestClosedFormErrors(t *testing.T) {
	for name, err := range map[string]error{
		"CycleSpectrum(2)":       second(CycleSpectrum(2)),
		"TorusKirchhoff(2, 5)":   second(TorusKirchhoff(2, 5)),
		"TorusKirchhoff(5, 2)":   second(TorusKirchhoff(5, 2)),
		"HypercubeSpectrum(31)":  second(HypercubeSpectrum(31)),
		"HypercubeSpectrum(-1)":  second(HypercubeSpectrum(-1)),
		"PathSpectrum(0)":        second(PathSpectrum(0)),
		"PathKirchhoff(0)":       second(PathKirchhoff(0)),
		"CycleKirchhoff(2)":      second(CycleKirchhoff(2)),
		"StarKirchhoff(0)":       second(StarKirchhoff(0)),
		"CompleteKirchhoff(-1)":  second(CompleteKirchhoff(-1)),
		"HypercubeKirchhoff(-1)": second(HypercubeKirchhoff(-1)),
		"GridKirchhoff(0, 4)":    second(GridKirchhoff(0, 4)),
		"GridSpectrum(3, 0)":     second(GridSpectrum(3, 0)),
		"StarSpectrum(0)":        second(StarSpectrum(0)),
		"CompleteSpectrum(0)":    second(CompleteSpectrum(0)),
		"Path(0)":                second(gen.Path(0)),
		"Cycle(2)":               second(gen.Cycle(2)),
		"Complete(0)":            second(gen.Complete(0)),
		"Star(0)":                second(gen.Star(0)),
		"Grid(0, 3)":             second(gen.Grid(0, 3)),
		"Torus(3, 2)":            second(gen.Torus(3, 2)),
		"Hypercube(31)":          second(gen.Hypercube(31)),
		"Hypercube(-1)":          second(gen.Hypercube(-1)),
	} {
		assert.ErrorIs(t, err, loadlab.ErrInvalid, name)
	}
	// Sizes too large for memory are errors, not out-of-memory crashes.
	for name, err := range map[string]error{
		"Complete(1<<20)":       second(gen.Complete(1 << 20)),
		"Complete(1<<40)":       second(gen.Complete(1 << 40)),
		"Path(1<<40)":           second(gen.Path(1 << 40)),
		"Cycle(1<<40)":          second(gen.Cycle(1 << 40)),
		"Star(1<<40)":           second(gen.Star(1 << 40)),
		"Grid(1<<20, 1<<20)":    second(gen.Grid(1<<20, 1<<20)),
		"Torus(1<<40, 1<<40)":   second(gen.Torus(1<<40, 1<<40)),
		"Hypercube(30)":         second(gen.Hypercube(30)),
		"PathSpectrum(1<<40)":   second(PathSpectrum(1 << 40)),
		"GridSpectrum(2^40)":    second(GridSpectrum(1<<40, 1<<40)),
		"TorusSpectrum(2^16)":   second(TorusSpectrum(1<<16, 1<<16)),
		"ProductSpectrum large": second(ProductSpectrum(make([]float64, 1<<16), make([]float64, 1<<16))),
	} {
		assert.ErrorIs(t, err, loadlab.ErrTooLarge, name)
	}
	_, err := GridFamily.Order(1 << 20)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = HypercubeFamily.Order(40)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = CycleFamily.Order(2)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

// second returns the error of a two-valued call.
func second[T any](_ T, err error) error { return err }

// TestHypercubeKirchhoffOverflow: K_f(Q_d) = 4^d Σ_j t_j/(2j) with
// t_j = C(d, j)/2^d, recomputed here from log-gamma (t_j ≤ 1, so nothing
// overflows before the final scaling). Lgamma is accurate to ~1e-15
// relative on arguments ≤ 517, i.e. ~4e-13 absolute on the exponents
// (≈ 360), so 1e-10 relative is ample. Beyond d = 516 the value exceeds
// MaxFloat64 and must be +Inf, not NaN.
func TestHypercubeKirchhoffOverflow(t *testing.T) {
	for _, d := range []int{100, 400, 516} {
		lgd, _ := math.Lgamma(float64(d + 1))
		var s float64
		for j := 1; j <= d; j++ {
			lj, _ := math.Lgamma(float64(j + 1))
			lr, _ := math.Lgamma(float64(d - j + 1))
			s += math.Exp(lgd-lj-lr-float64(d)*math.Ln2) / float64(2*j)
		}
		want := math.Ldexp(s, 2*d)
		got, err := HypercubeKirchhoff(d)
		require.NoError(t, err, "d = %d", d)
		assert.InEpsilon(t, want, got, 1e-10, "d = %d", d)
	}
	for _, d := range []int{517, 1030, 1 << 40, math.MaxInt} {
		got, err := HypercubeKirchhoff(d)
		require.NoError(t, err, "d = %d", d)
		assert.True(t, math.IsInf(got, 1), "d = %d: %v, want +Inf", d, got)
	}
}
