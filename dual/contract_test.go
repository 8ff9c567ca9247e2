package dual

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Defects of issue 11, each a case that gave a number, a panic or an
// out-of-memory crash before and is now an error naming the value.

func TestRatesRejectBadArguments(t *testing.T) {
	nw := twoNode()
	for _, c := range []struct {
		mu    []float64
		gamma float64
		msg   string
	}{
		{[]float64{1, 2}, math.NaN(), "gamma = NaN"},
		{[]float64{1, 2}, -1, "gamma = -1"},
		{[]float64{math.NaN(), 2}, 10, "mu[0] = NaN"},
		{[]float64{1, math.Inf(1)}, 10, "mu[1] = +Inf"},
		{[]float64{1}, 10, "len(mu) = 1"},
	} {
		_, err := Rates(nil, nw, c.mu, c.gamma)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, c.msg)
		assert.ErrorContains(t, err, c.msg)
		_, err = Overhead(nw, c.mu, c.gamma)
		assert.ErrorContains(t, err, c.msg)
	}
	_, err := Receptions(nil, nw, mat.NewDense(2, 2, []float64{1, math.NaN(), 0, 1}))
	assert.ErrorContains(t, err, "r[0][1] = NaN")
	_, err = Receptions(nil, nw, mat.NewDense(1, 1, []float64{1}))
	assert.ErrorContains(t, err, "rates are 1×1")
}

func TestCostParametersValidated(t *testing.T) {
	// Hinge{C: NaN} gave D = NaN with no error.
	nw := item13()
	f := []Cost{QuadraticX{1, 2}, QuadraticX{1, 1.5}, QuadraticX{1, 1}}
	for _, c := range []struct {
		h   Cost
		msg string
	}{
		{Hinge{C: math.NaN(), T: 0.8}, "H[0]: Hinge.C = NaN"},
		{Hinge{C: -1, T: 0.8}, "H[0]: Hinge.C = -1"},
		{Overload{C: 1, T: math.Inf(1)}, "H[0]: Overload.T = +Inf"},
		{Delay{T: 0}, "H[0]: Delay.T = 0"},
		{Exp{Kappa: math.NaN(), T: 1}, "H[0]: Exp.Kappa = NaN"},
		{Func{}, "H[0]: Func.F is nil"},
		// exp(κ(S̄ − T)) overflows on [0, S̄]: D would be +Inf.
		{Exp{Kappa: 1000, T: 0}, "H[0](SMax[0] = 1.6) = +Inf"},
	} {
		_, err := NewProblem(nw, f, []Cost{c.h, Hinge{4, 0.9}, Hinge{4, 0.7}}, nil)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, c.msg)
		assert.ErrorContains(t, err, c.msg)
	}
	_, err := NewProblem(nw, []Cost{QuadraticX{W: math.Inf(1), A: 2}, f[1], f[2]}, []Cost{Hinge{4, 0.8}, Hinge{4, 0.9}, Hinge{4, 0.7}}, nil)
	assert.ErrorContains(t, err, "F[0]: QuadraticX.W = +Inf")
	// A cost whose copy of A_i is not the network's.
	_, err = NewProblem(nw, []Cost{QuadraticX{1, 2}, QuadraticX{1, 1.4}, f[2]}, []Cost{Hinge{4, 0.8}, Hinge{4, 0.9}, Hinge{4, 0.7}}, nil)
	assert.ErrorContains(t, err, "F[1] has A = 1.4 but Net.A[1] = 1.5")
}

func TestTheoremHelpersRejectBadArguments(t *testing.T) {
	// Iterations(NaN, 1, 1) returned math.MinInt64.
	_, err := Iterations(math.NaN(), 1, 1)
	assert.ErrorContains(t, err, "eps = NaN")
	_, err = Iterations(1e-300, 1e10, 1e10)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = Iterations(1, 1, -1)
	assert.ErrorContains(t, err, "r = -1")
	_, err = Step(1, 0)
	assert.ErrorContains(t, err, "g = 0")
	_, err = Step(math.Inf(1), 1)
	assert.ErrorContains(t, err, "eps = +Inf")
	_, err = Bound(1, 1, 1, 0)
	assert.ErrorContains(t, err, "k = 0")
	_, err = Bound(math.NaN(), 1, 1, 1)
	assert.ErrorContains(t, err, "r = NaN")
}

func TestSettingsRejectBadFields(t *testing.T) {
	p := must(Quadratic(item13(), 1, 4))
	for _, c := range []struct {
		s   Settings
		msg string
	}{
		{Settings{Eps: math.Inf(1)}, "Settings.Eps = +Inf"}, // was accepted (Step = +Inf was not)
		{Settings{Step: math.Inf(1)}, "Settings.Step = +Inf"},
		{Settings{Tol: -1}, "Settings.Tol = -1"}, // was "never stop early"; that is Fixed now
		{Settings{Tol: math.Inf(1)}, "Settings.Tol = +Inf"},
		{Settings{Record: -1}, "Settings.Record = -1"}, // was silently ignored
		{Settings{Rule: 9}, "Settings.Rule = 9"},
		{Settings{Rule: Accelerated, FastControl: &FastControl{Gamma: 1}}, "needs exact dual values"},
		{Settings{Rule: Accelerated, Step: 0.1}, "Settings.Step = 0.1, Eps = 0 with Rule = Accelerated"},
		{Settings{Rule: Accelerated, Eps: 0.1}, "Settings.Step = 0, Eps = 0.1 with Rule = Accelerated"},
	} {
		_, err := Solve(p, &c.s)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, c.msg)
		assert.ErrorContains(t, err, c.msg)
	}
	for _, c := range []struct {
		s   PrimalSettings
		msg string
	}{
		{PrimalSettings{GradTol: math.Inf(1)}, "PrimalSettings.GradTol = +Inf"},
		{PrimalSettings{Tol: math.Inf(1)}, "PrimalSettings.Tol = +Inf"},
	} {
		_, err := Primal(p, &c.s)
		assert.ErrorContains(t, err, c.msg)
	}
}

func TestSizesCheckedBeforeAllocating(t *testing.T) {
	// FastControl.Delay = 2⁴⁰ and RecordDual with MaxIter = 2⁴⁰ crashed
	// the process out of memory.
	p := must(Quadratic(item13(), 1, 4))
	_, err := Solve(p, &Settings{FastControl: &FastControl{Gamma: 1, Delay: 1 << 40}, MaxIter: 1})
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "FastControl.Delay")
	_, err = Solve(p, &Settings{RecordDual: true, MaxIter: 1 << 40})
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = Solve(p, &Settings{Record: 1, MaxIter: 1 << 40})
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = Sweep(p, FastControl{Gamma: 1}, make([]float64, 1<<20), make([]float64, 1<<20), nil, 1<<30, 1)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}

func TestProblemRecheckedAfterChange(t *testing.T) {
	// A problem whose network changed after NewProblem: NaN A gave
	// Best = −Inf with no error, A = −1 gave 0 and "converged",
	// len(T) = 1 and a 2×3 C panicked inside Solve and Primal.
	for _, c := range []struct {
		name   string
		change func(p *Problem)
		msg    string
	}{
		{"NaN A", func(p *Problem) { p.Net.A[1] = math.NaN() }, "A[1] = NaN"},
		{"negative A", func(p *Problem) { p.Net.A[0] = -1 }, "A[0] = -1"},
		{"short T", func(p *Problem) { p.Net.T = p.Net.T[:1] }, "len(T) = 1"},
		{"2×3 C", func(p *Problem) { p.Net.C = mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0}) }, "C is 2×3"},
		{"nil network", func(p *Problem) { p.Net = nil }, "Problem.Net is nil"},
		{"drifted T", func(p *Problem) { p.Net.T[2] = 0.5 }, "H[2] = {4 0.7} but Net.T[2] = 0.5"},
		{"nil cost", func(p *Problem) { p.H[0] = nil }, "H[0] is nil"},
	} {
		p := must(Quadratic(item13(), 1, 4))
		c.change(p)
		_, err := Solve(p, nil)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, c.name)
		assert.ErrorContains(t, err, c.msg, c.name)
		_, err = Primal(p, nil)
		assert.ErrorContains(t, err, c.msg, c.name)
		_, err = p.Eval(make([]float64, 3))
		assert.ErrorContains(t, err, c.msg, c.name)
		// The bounds and the objective re-validate too (before: NaN or a
		// panic from the changed network).
		for name, call := range map[string]func() error{
			"GBound":      func() error { _, err := p.GBound(); return err },
			"SmoothBound": func() error { _, err := p.SmoothBound(); return err },
			"MuBound":     func() error { _, err := p.MuBound(0); return err },
			"Reduced":     func() error { _, err := p.Reduced(make([]float64, 3)); return err },
			"Objective":   func() error { _, _, err := p.Objective(make([]float64, 3), make([]float64, 3)); return err },
		} {
			assert.ErrorContains(t, call(), c.msg, "%s: %s", c.name, name)
		}
		if p.Net != nil && c.name != "drifted T" && c.name != "nil cost" {
			_, err = Coupling(nil, p.Net, make([]float64, 3))
			assert.ErrorContains(t, err, c.msg, c.name+": Coupling")
		}
	}
	assert.PanicsWithValue(t, "dual: Solve with a nil *Problem", func() { _, _ = Solve(nil, nil) })
	assert.PanicsWithValue(t, "dual: Primal with a nil *Problem", func() { _, _ = Primal(nil, nil) })
}

func TestNewQuadraticReadsNetwork(t *testing.T) {
	nw := item13()
	p, err := NewQuadratic(nw, []float64{1, 2, 3}, []float64{4, 5, 6})
	require.NoError(t, err)
	for i := range 3 {
		assert.Equal(t, QuadraticX{W: float64(i + 1), A: nw.A[i]}, p.F[i])
		assert.Equal(t, Hinge{C: float64(i + 4), T: nw.T[i]}, p.H[i])
	}
	// The same weights everywhere is Quadratic.
	q := must(Quadratic(nw, 1, 4))
	r := must(NewQuadratic(nw, []float64{1, 1, 1}, []float64{4, 4, 4}))
	assert.Equal(t, q.F, r.F)
	assert.Equal(t, q.H, r.H)
	_, err = NewQuadratic(nw, []float64{1, 1}, []float64{1, 1, 1})
	assert.ErrorContains(t, err, "len(w) = 2")
	_, err = NewQuadratic(nw, []float64{1, 1, 1}, []float64{1, math.NaN(), 1})
	assert.ErrorContains(t, err, "c[1] = NaN")
	// Changing A in the network after construction is caught.
	nw.A[0] = 3
	assert.ErrorContains(t, p.Validate(), "F[0] has A = 2 but Net.A[0] = 3")
}

func TestSolveStatusAndPartialResult(t *testing.T) {
	// A run stopped short returns its partial result, its Status and
	// ErrNotConverged; with Fixed the same budget is not an error.
	p := must(Quadratic(item13(), 1, 4))
	res, err := Solve(p, &Settings{Step: 0.05, MaxIter: 3})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.NotNil(t, res)
	assert.Equal(t, loadlab.IterationLimit, res.Status)
	assert.Equal(t, 3, res.Iter)
	assert.LessOrEqual(t, res.Best, res.Upper)
	res, err = Solve(p, &Settings{Step: 0.05, MaxIter: 3, Fixed: true})
	require.NoError(t, err)
	assert.Equal(t, loadlab.IterationLimit, res.Status)
	// Fixed runs every step even after the certificate closed.
	res, err = Solve(p, &Settings{MaxIter: 5000, Fixed: true, RecordDual: true})
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, res.Status)
	assert.Equal(t, 5000, res.Iter)
	assert.Len(t, res.Dual, 5000)
}

func TestFastControlOverflowIsAnError(t *testing.T) {
	// γ = 1e300 with a window made the Poisson means +Inf: Packets and
	// BetaErr were NaN with no error; γ·W = 1e-600 underflowed to 0 and
	// β̂ = count/(γW) was NaN.
	p := must(Quadratic(item13(), 1, 4))
	src := rand.NewPCG(1, 1)
	_, err := Solve(p, &Settings{Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e300, Window: 1e30, Src: src}})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "Gamma·Window")
	_, err = Solve(p, &Settings{Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e-300, Window: 1e-300, Src: src}})
	assert.ErrorContains(t, err, "Gamma·Window")
	// γ μ_j C_ij/C_ji ≈ 1e307·100·6 overflows.
	mu0 := []float64{100, 100, 100}
	_, err = Solve(p, &Settings{Mu0: mu0, Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e307, Window: 1, Src: src}})
	assert.ErrorContains(t, err, "overflowed at step 0")
	_, err = Solve(p, &Settings{Mu0: mu0, Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e307}})
	assert.ErrorContains(t, err, "overflowed at step 0")
}

func TestAcceleratedOnNonSmoothDualStopsHonestly(t *testing.T) {
	// Forcing the accelerated rule on a piecewise-linear dual (LinearX and
	// Overload): LBound is +Inf, and the backtracking used to clamp L to
	// lFloor·LBound = +Inf, so the step vanished and the run "stagnated"
	// with L = +Inf. Now L stays finite; the run either certifies or stops
	// with a status and ErrNotConverged, and [Best, Upper] holds P* (the
	// LP reference is exact).
	rng := rand.New(rand.NewPCG(3, 3))
	nw := randNetwork(rng, 5)
	f, h := make([]Cost, 5), make([]Cost, 5)
	for i := range f {
		f[i] = LinearX{W: 1, A: nw.A[i]}
		h[i] = Overload{C: 3, T: nw.T[i]}
	}
	p := must(NewProblem(nw, f, h, nil))
	assert.True(t, math.IsInf(must(p.SmoothBound()), 1))
	ref := primalRef(t, p)
	res, err := Solve(p, &Settings{Rule: Accelerated, MaxIter: 2000})
	require.NotNil(t, res)
	if err != nil {
		assert.ErrorIs(t, err, loadlab.ErrNotConverged)
	}
	assert.False(t, math.IsInf(res.L, 0) || math.IsNaN(res.L), "L = %v", res.L)
	slack := 1e-9 * (1 + ref.Value)
	assert.LessOrEqual(t, res.Best, ref.Value+slack)
	assert.GreaterOrEqual(t, res.Upper, ref.Value-slack)
	t.Logf("%v after %d steps, gap %.3g", res.Status, res.Iter, res.Gap())
}

func TestGuaranteeStatesRule(t *testing.T) {
	p := must(Quadratic(item13(), 1, 4))
	res := must(Solve(p, nil))
	assert.Contains(t, res.Guarantee(), "Accelerated rule")
	assert.Contains(t, res.Guarantee(), "Beck–Teboulle")
	res = must(Solve(p, &Settings{Step: 0.05, MaxIter: 100, Fixed: true}))
	assert.Contains(t, res.Guarantee(), "Theorem III.3")
	assert.Contains(t, res.Guarantee(), fmt.Sprintf("%.3g", res.Bound))
	assert.NotContains(t, res.Guarantee(), "FastControl")
	res = must(Solve(p, &Settings{Step: 0.05, MaxIter: 100, Fixed: true, FastControl: &FastControl{Gamma: 10}}))
	assert.Contains(t, res.Guarantee(), "a reference only")
}

// TestReceptionsNilPanics: the documented panics name the argument
// (audit finding: a nil r was a bare nil dereference).
func TestReceptionsNilPanics(t *testing.T) {
	for _, c := range []struct {
		name string
		call func()
	}{
		{"nw", func() { Receptions(nil, nil, mat.NewDense(1, 1, nil)) }},
		{"r", func() { Receptions(nil, twoNode(), nil) }},
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "nil") || !strings.Contains(msg, c.name) {
					t.Errorf("nil %s: panic %q does not name the argument", c.name, msg)
				}
			}()
			c.call()
		}()
	}
}

// Coupling, Objective, Reduced and MuBound took data without checking it:
// NaN in gave NaN out (issue 11). Each is now an error naming the
// parameter and the value.
func TestHelpersRejectBadData(t *testing.T) {
	p := must(Quadratic(item13(), 1, 4))
	nan, inf := math.NaN(), math.Inf(1)
	ok3 := []float64{0.5, 0.5, 0.5}
	for _, c := range []struct {
		name string
		call func() error
		msg  string
	}{
		{"Coupling NaN μ", func() error { _, err := Coupling(nil, p.Net, []float64{0, nan, 0}); return err }, "mu[1] = NaN"},
		{"Coupling negative μ", func() error { _, err := Coupling(nil, p.Net, []float64{-1, 0, 0}); return err }, "mu[0] = -1"},
		{"Coupling short μ", func() error { _, err := Coupling(nil, p.Net, []float64{0}); return err }, "len(mu) = 1"},
		{"Reduced NaN x", func() error { _, err := p.Reduced([]float64{0, nan, 0}); return err }, "x[1] = NaN"},
		{"Reduced x > 1", func() error { _, err := p.Reduced([]float64{0, 0, 1.5}); return err }, "x[2] = 1.5"},
		{"Reduced short x", func() error { _, err := p.Reduced([]float64{0}); return err }, "len(x) = 1"},
		{"Objective NaN x", func() error { _, _, err := p.Objective([]float64{nan, 0, 0}, ok3); return err }, "x[0] = NaN"},
		{"Objective Inf s", func() error { _, _, err := p.Objective(ok3, []float64{0, inf, 0}); return err }, "s[1] = +Inf"},
		{"Objective negative s", func() error { _, _, err := p.Objective(ok3, []float64{0, 0, -0.5}); return err }, "s[2] = -0.5"},
		{"Objective s > S̄", func() error { _, _, err := p.Objective(ok3, []float64{0, 0, 100}); return err }, "s[2] = 100"},
		{"Objective short s", func() error { _, _, err := p.Objective(ok3, []float64{0}); return err }, "len(s) = 1"},
		{"MuBound NaN", func() error { _, err := p.MuBound(nan); return err }, "lower = NaN"},
		{"MuBound −Inf", func() error { _, err := p.MuBound(math.Inf(-1)); return err }, "lower = -Inf"},
	} {
		err := c.call()
		assert.ErrorIs(t, err, loadlab.ErrInvalid, c.name)
		assert.ErrorContains(t, err, c.msg, c.name)
	}
	// Valid data still gives the numbers (spec §8 item 13 network).
	beta, err := Coupling(nil, p.Net, []float64{1, 0, 0})
	require.NoError(t, err)
	assert.Equal(t, []float64{0.6, 0.2, 0.1}, beta)
	v, err := p.Reduced(make([]float64, 3))
	require.NoError(t, err)
	assert.InDelta(t, 0.5*(2+1.5+1), v, 1e-15) // f(0) = A/2, h(0) = 0
	assert.PanicsWithValue(t, "dual: Coupling with a nil *anycast.Network", func() { _, _ = Coupling(nil, nil, nil) })
	assert.Panics(t, func() { _, _ = Coupling(make([]float64, 2), p.Net, ok3) }, "dst of the wrong length")
}

// Rates on a large sparse network: its N×N result is refused before it
// is allocated (N = 2¹⁸ would need 512 GiB), while Overhead, O(nnz),
// answers. Before the fix Rates allocated the matrix unchecked.
func TestRatesTooLarge(t *testing.T) {
	n := 1 << 18
	idx := make([]int, n)
	one := make([]float64, n)
	for i := range idx {
		idx[i], one[i] = i, 1
	}
	sc, err := anycast.NewSparseC(n, idx, idx, one)
	require.NoError(t, err)
	nw, err := anycast.NewNetwork(one, sc, one)
	require.NoError(t, err)
	_, err = Rates(nil, nw, make([]float64, n), 1)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "N = 262144")
	mu := make([]float64, n)
	mu[7] = 2
	ov, err := Overhead(nw, mu, 3)
	require.NoError(t, err)
	assert.Equal(t, 6.0, ov) // γ μ_7 C_77/C_77 (spec §4.7)
}
