package dual

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// family lists one member of every cost family of spec §7 with its
// natural domain [lo, hi] for the sub-problem.
var families = []struct {
	name   string
	c      Cost
	lo, hi float64
}{
	{"LinearX", LinearX{W: 1.3, A: 2}, 0, 1},
	{"QuadraticX", QuadraticX{W: 0.7, A: 1.5}, 0, 1},
	{"Hinge", Hinge{C: 4, T: 0.8}, 0, 2.5},
	{"Overload", Overload{C: 2, T: 0.8}, 0, 2.5},
	{"Delay", Delay{T: 0.9}, 0, 0.9},
	{"Exp", Exp{Kappa: 3, T: 0.7}, 0, 2},
}

func TestTiltClosedFormsByHand(t *testing.T) {
	// Spec §7 table, evaluated by hand.
	const tol = 1e-15 // one or two roundings of numbers of order 1
	// x sub-problem: λ = −A β.
	q := QuadraticX{W: 2, A: 1.5}
	assert.InDelta(t, 1-0.5/2, q.Tilt(-1.5*0.5, 0, 1), tol) // x* = 1 − β/W
	assert.Equal(t, 0.0, q.Tilt(-1.5*3, 0, 1))              // β > W clips to 0
	l := LinearX{W: 2, A: 1.5}
	assert.Equal(t, 1.0, l.Tilt(-1.5*1.9, 0, 1)) // β < W
	assert.Equal(t, 0.0, l.Tilt(-1.5*2.1, 0, 1)) // β > W
	assert.Equal(t, 1.0, l.Tilt(-1.5*2, 0, 1))   // tie: documented convention x = 1
	// S sub-problem: λ = μ.
	h := Hinge{C: 4, T: 0.8}
	assert.InDelta(t, 0.8+0.6/4, h.Tilt(0.6, 0, 10), tol) // T + μ/c
	assert.Equal(t, 0.8, h.Tilt(0, 0, 10))                // μ = 0: convention S = T
	d := Delay{T: 0.9}
	assert.InDelta(t, 0.9-math.Sqrt(0.9/4), d.Tilt(4, 0, 0.9), tol) // T − √(T/μ)
	assert.Equal(t, 0.0, d.Tilt(1/0.9, 0, 0.9))                     // μ ≤ 1/T
	e := Exp{Kappa: 3, T: 0.7}
	assert.InDelta(t, 0.7+math.Log(5.0/3)/3, e.Tilt(5, 0, 10), tol) // T + ln(μ/κ)/κ
	assert.Equal(t, 0.0, e.Tilt(0.1, 0, 10))                        // T + ln(μ/κ)/κ < 0
	// A huge μ must not push the Delay solution onto its barrier.
	assert.Less(t, d.Tilt(1e40, 0, 0.9), 0.9)
	assert.False(t, math.IsInf(d.Value(d.Tilt(1e40, 0, 0.9)), 1))
}

func TestTiltMatchesGenericSolver(t *testing.T) {
	// The generic solver (bisection on DF, golden section on F) must find
	// the closed-form minimiser. Bisection runs to adjacent floats, so
	// the minimiser agrees to a few ulps of the domain; golden section
	// resolves z to ~1e-9·(hi−lo) (its stopping rule), so its objective
	// agrees to rounding (1e-12) while z only to 1e-8.
	rng := rand.New(rand.NewPCG(1, 1))
	for _, fam := range families {
		withD := Func{F: fam.c.Value, DF: fam.c.Deriv}
		noD := Func{F: fam.c.Value}
		for trial := 0; trial < 200; trial++ {
			lambda := 6 * (rng.Float64() - 0.3)
			if fam.lo == 0 && fam.hi == 1 {
				lambda = -6 * rng.Float64() // x sub-problem: λ = −A β ≤ 0
			}
			lo, hi := fam.lo, fam.hi
			if fam.name == "Delay" {
				hi = math.Nextafter(hi, 0) // keep the barrier out of the golden search
			}
			want := fam.c.Tilt(lambda, lo, hi)
			obj := func(z float64) float64 { return fam.c.Value(z) - lambda*z }
			got := withD.Tilt(lambda, lo, hi)
			if fam.name == "LinearX" || fam.name == "Overload" {
				// Flat objective in z only at a tie; otherwise an end point.
				assert.InDelta(t, obj(want), obj(got), 1e-12, "%s λ=%v", fam.name, lambda)
			} else {
				assert.InDelta(t, want, got, 1e-12, "%s bisection λ=%v", fam.name, lambda)
			}
			gz := noD.Tilt(lambda, lo, hi)
			gtol := 1e-12
			if fam.name == "Overload" {
				// At a kink the objective is off by slope × Δz, not Δz²:
				// slope ≤ C + |λ| ≤ 6, Δz ≤ 1e-9·(hi − lo).
				gtol = 6 * 1e-9 * (hi - lo)
			}
			assert.InDelta(t, obj(want), obj(gz), gtol, "%s golden value λ=%v", fam.name, lambda)
			if fam.name != "LinearX" && fam.name != "Hinge" && fam.name != "Overload" {
				assert.InDelta(t, want, gz, 1e-7, "%s golden λ=%v", fam.name, lambda)
			}
		}
	}
}

func TestTiltIsMinimumOnGrid(t *testing.T) {
	// Brute force: no grid point beats Tilt (up to rounding of the values).
	rng := rand.New(rand.NewPCG(2, 2))
	for _, fam := range families {
		for trial := 0; trial < 50; trial++ {
			lambda := 8 * (rng.Float64() - 0.5)
			z := fam.c.Tilt(lambda, fam.lo, fam.hi)
			best := fam.c.Value(z) - lambda*z
			for k := 0; k <= 1000; k++ {
				y := fam.lo + (fam.hi-fam.lo)*float64(k)/1000
				v := fam.c.Value(y) - lambda*y
				assert.GreaterOrEqual(t, v, best-1e-12, "%s λ=%v z=%v y=%v", fam.name, lambda, z, y)
			}
		}
	}
}

func TestFuncUnboundedAbove(t *testing.T) {
	// φ(z) = z⁴ on [0, ∞): argmin z⁴ − λz is (λ/4)^{1/3}.
	f := Func{F: func(z float64) float64 { return z * z * z * z }, DF: func(z float64) float64 { return 4 * z * z * z }}
	assert.InEpsilon(t, math.Cbrt(100.0/4), f.Tilt(100, 0, math.Inf(1)), 1e-14) // bisection to adjacent floats
	assert.Equal(t, 0.0, f.Tilt(-1, 0, math.Inf(1)))
}

func TestDerivativesConsistent(t *testing.T) {
	// Deriv and Curv against central differences of Value and Deriv;
	// the step 1e-6 gives truncation error ~1e-12·φ''' and rounding
	// ~1e-16/1e-6 = 1e-10 relative, hence 1e-6 tolerance.
	for _, fam := range families {
		for k := 1; k < 20; k++ {
			z := fam.lo + (fam.hi-fam.lo)*float64(k)/20 + 1e-3
			if z >= fam.hi {
				continue
			}
			h := 1e-6
			fd := (fam.c.Value(z+h) - fam.c.Value(z-h)) / (2 * h)
			assert.InDelta(t, fd, fam.c.Deriv(z), 1e-6*(1+math.Abs(fd)), "%s z=%v", fam.name, z)
			cd := (fam.c.Deriv(z+h) - fam.c.Deriv(z-h)) / (2 * h)
			assert.InDelta(t, cd, fam.c.(Curver).Curv(z), 1e-5*(1+math.Abs(cd)), "%s z=%v", fam.name, z)
		}
	}
}

func TestGenericCostsSolveItem23(t *testing.T) {
	// Spec §8 item 23 with every cost wrapped in Func (bisection on the
	// derivative): the dual reaches the same optimum as the closed forms.
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	f := make([]Cost, 3)
	h := make([]Cost, 3)
	for i := range f {
		f[i] = Func{F: p.F[i].Value, DF: p.F[i].Deriv}
		h[i] = Func{F: p.H[i].Value, DF: p.H[i].Deriv}
	}
	g, err := NewProblem(p.Net, f, h, nil)
	require.NoError(t, err)
	set := &Settings{Step: 0.05, MaxIter: 20000, Fixed: true}
	want, err := Solve(p, set)
	require.NoError(t, err)
	got, err := Solve(g, set)
	require.NoError(t, err)
	// Bisection ends at adjacent floats, so each sub-problem is exact to
	// a few ulps; the trajectories agree to ~1e-12 after 20000 steps.
	assert.InDelta(t, want.Best, got.Best, 1e-12)
	assert.InDelta(t, 0.4319010, got.Best, 5e-8) // spec item 23, 7 digits
}
