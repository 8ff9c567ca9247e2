package dual

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// quad is the smooth problem of spec §8 item 23 on item 13's network.
func quad() *Problem { return must(Quadratic(item13(), 1, 4)) }

// problemMethods are the entry points that take a problem, each called
// with good arguments.
var problemMethods = map[string]func(*Problem) error{
	"Problem.Validate":    func(p *Problem) error { return p.Validate() },
	"Problem.Eval":        func(p *Problem) error { _, err := p.Eval(make([]float64, 3)); return err },
	"Problem.GBound":      func(p *Problem) error { _, err := p.GBound(); return err },
	"Problem.SmoothBound": func(p *Problem) error { _, err := p.SmoothBound(); return err },
	"Problem.MuBound":     func(p *Problem) error { _, err := p.MuBound(0); return err },
	"Problem.Reduced":     func(p *Problem) error { _, err := p.Reduced(make([]float64, 3)); return err },
	"Problem.Objective":   func(p *Problem) error { _, _, err := p.Objective(make([]float64, 3), make([]float64, 3)); return err },
	"Solve":               func(p *Problem) error { _, err := Solve(p, nil); return err },
	"Primal":              func(p *Problem) error { _, err := Primal(p, nil); return err },
}

// problemCases: a problem whose exported fields changed after NewProblem
// is validated again by every entry point that takes it (guards: a NaN
// A giving Best = −Inf, A = −1 giving 0 and "converged", a short T or a
// 2×3 C panicking inside Solve and Primal); a nil problem is a panic.
func problemCases() []badarg.Case {
	changes := []struct {
		name   string
		change func(p *Problem)
		text   string
	}{
		{"Net.A[1] = NaN", func(p *Problem) { p.Net.A[1] = nan }, "A[1] = NaN"},
		{"Net.A[0] = -1", func(p *Problem) { p.Net.A[0] = -1 }, "A[0] = -1"},
		{"len(Net.T) = 1", func(p *Problem) { p.Net.T = p.Net.T[:1] }, "len(T) = 1"},
		{"Net.C 2×3", func(p *Problem) { p.Net.C = mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0}) }, "C is 2×3"},
		{"Net = nil", func(p *Problem) { p.Net = nil }, "Problem.Net is nil"},
		{"Net.T[2] drifted from H[2]", func(p *Problem) { p.Net.T[2] = 0.5 }, "H[2] = {4 0.7} but Net.T[2] = 0.5"},
		{"Net.A[0] drifted from F[0]", func(p *Problem) { p.Net.A[0] = 3 }, "F[0] has A = 2 but Net.A[0] = 3"},
		{"H[0] = nil", func(p *Problem) { p.H[0] = nil }, "H[0] is nil"},
		{"F = F[:2]", func(p *Problem) { p.F = p.F[:2] }, "len(F) = 2"},
		{"SMax[1] = NaN", func(p *Problem) { p.SMax[1] = nan }, "SMax[1] = NaN"},
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(problemMethods) {
		f := problemMethods[name]
		p := badarg.Probe{Func: name, Err: inv}
		for _, c := range changes {
			cs = append(cs, p.Fails(c.name, c.text, func() error {
				q := quad()
				c.change(q)
				return f(q)
			}))
		}
	}
	for name, f := range map[string]func(){
		"Solve":  func() { _, _ = Solve(nil, nil) },
		"Primal": func() { _, _ = Primal(nil, nil) },
	} {
		cs = append(cs, badarg.Probe{Func: name}.Panics("p = nil", "dual: "+name+" with a nil *Problem", f))
	}
	return cs
}

// constructorCases probes NewProblem, NewQuadratic and Quadratic.
func constructorCases() []badarg.Case {
	nw := item13()
	f := []Cost{QuadraticX{1, 2}, QuadraticX{1, 1.5}, QuadraticX{1, 1}}
	h := []Cost{Hinge{4, 0.8}, Hinge{4, 0.9}, Hinge{4, 0.7}}
	newProblem := func(f, h []Cost, smax []float64) error { _, err := NewProblem(nw, f, h, smax); return err }
	p := badarg.Probe{Func: "NewProblem", Err: inv}
	cs := []badarg.Case{
		p.Fails("len(F) = 2", "len(F) = 2", func() error { return newProblem(f[:2], h, nil) }),
		p.Fails("len(H) = 1", "len(H) = 1", func() error { return newProblem(f, h[:1], nil) }),
		p.Fails("F[1] = nil", "F[1] is nil", func() error { return newProblem([]Cost{f[0], nil, f[2]}, h, nil) }),
		p.Fails("H[2] = nil", "H[2] is nil", func() error { return newProblem(f, []Cost{h[0], h[1], nil}, nil) }),
		// A cost whose copy of A_i is not the network's.
		p.Fails("F[1].A = 1.4", "F[1] has A = 1.4 but Net.A[1] = 1.5", func() error {
			return newProblem([]Cost{f[0], QuadraticX{1, 1.4}, f[2]}, h, nil)
		}),
		p.Fails("F[0].W = +Inf", "F[0]: QuadraticX.W = +Inf", func() error { return newProblem([]Cost{QuadraticX{W: inf, A: 2}, f[1], f[2]}, h, nil) }),
		// exp(κ(S̄ − T)) overflows on [0, S̄]: D would be +Inf.
		p.Fails("H[0] = Exp{1000, 0}", "H[0](SMax[0] = 1.6) = +Inf", func() error { return newProblem(f, []Cost{Exp{Kappa: 1000}, h[1], h[2]}, nil) }),
		p.Panics("nw = nil", "dual: NewProblem with a nil *anycast.Network", func() { _ = must(NewProblem(nil, f, h, nil)) }),
	}
	// S̄_i = +Inf removes the cap: only NaN and negative values are bad.
	for _, v := range []float64{nan, math.Inf(-1), -1} {
		label := fmt.Sprintf("SMax[1] = %v", v)
		cs = append(cs, p.Fails(label, label, func() error { return newProblem(f, h, []float64{1, v, 1}) }))
	}
	cs = append(cs, p.Lengths("SMax", []float64{1, 1, 1}, func(s []float64) error {
		if s == nil {
			s = []float64{} // nil SMax means the default caps: probe an empty one
		}
		return newProblem(f, h, s)
	})...)
	// Every cost parameter is validated, by name and position (guards:
	// Hinge{C: NaN} giving D = NaN with no error).
	for _, c := range []struct {
		h    Cost
		text string
	}{
		{Hinge{C: nan, T: 0.8}, "H[0]: Hinge.C = NaN"},
		{Hinge{C: -1, T: 0.8}, "H[0]: Hinge.C = -1"},
		{Overload{C: 1, T: inf}, "H[0]: Overload.T = +Inf"},
		{Delay{T: 0}, "H[0]: Delay.T = 0"},
		{Exp{Kappa: nan, T: 1}, "H[0]: Exp.Kappa = NaN"},
		{Func{}, "H[0]: Func.F is nil"},
	} {
		cs = append(cs, p.Fails(c.text, c.text, func() error { return newProblem(f, []Cost{c.h, h[1], h[2]}, nil) }))
	}
	for _, name := range []string{"NewQuadratic", "Quadratic"} {
		call := func(w, c float64, i int) error {
			if name == "Quadratic" {
				_, err := Quadratic(nw, w, c)
				return err
			}
			ws, cs := []float64{1, 1, 1}, []float64{1, 1, 1}
			ws[i], cs[i] = w, c
			_, err := NewQuadratic(nw, ws, cs)
			return err
		}
		p := badarg.Probe{Func: name, Err: inv}
		if name == "NewQuadratic" {
			cs = append(cs, p.Slice("w", []float64{1, 1, 1}, 1, badarg.Positive, func(w []float64) error { _, err := NewQuadratic(nw, w, []float64{1, 1, 1}); return err })...)
			cs = append(cs, p.Slice("c", []float64{1, 1, 1}, 1, badarg.Positive, func(c []float64) error { _, err := NewQuadratic(nw, []float64{1, 1, 1}, c); return err })...)
		} else {
			cs = append(cs, p.Scalar("w", badarg.Positive, func(w float64) error { return call(w, 1, 0) })...)
			cs = append(cs, p.Scalar("c", badarg.Positive, func(c float64) error { return call(1, c, 0) })...)
		}
		cs = append(cs, p.Panics("nw = nil", "dual: "+name+" with a nil *anycast.Network", func() {
			if name == "Quadratic" {
				_, _ = Quadratic(nil, 1, 1)
				return
			}
			_, _ = NewQuadratic(nil, nil, nil)
		}))
		cs = append(cs, p.Fails("nw.A[1] = NaN", "A[1] = NaN", func() error {
			bad := item13()
			bad.A[1] = nan
			if name == "Quadratic" {
				_, err := Quadratic(bad, 1, 1)
				return err
			}
			_, err := NewQuadratic(bad, []float64{1, 1, 1}, []float64{1, 1, 1})
			return err
		}))
	}
	return cs
}

// costCases probes the Validate method of every cost family.
func costCases() []badarg.Case {
	var cs []badarg.Case
	add := func(fn string, base any, d badarg.Domain, fields ...string) {
		p := badarg.Probe{Func: fn, Err: inv}
		switch b := base.(type) {
		case LinearX:
			cs = append(cs, badarg.Fields(p, b, d, func(c *LinearX) error { return c.Validate() }, fields...)...)
		case QuadraticX:
			cs = append(cs, badarg.Fields(p, b, d, func(c *QuadraticX) error { return c.Validate() }, fields...)...)
		case Hinge:
			cs = append(cs, badarg.Fields(p, b, d, func(c *Hinge) error { return c.Validate() }, fields...)...)
		case Overload:
			cs = append(cs, badarg.Fields(p, b, d, func(c *Overload) error { return c.Validate() }, fields...)...)
		case Delay:
			cs = append(cs, badarg.Fields(p, b, d, func(c *Delay) error { return c.Validate() }, fields...)...)
		case Exp:
			cs = append(cs, badarg.Fields(p, b, d, func(c *Exp) error { return c.Validate() }, fields...)...)
		}
	}
	add("LinearX.Validate", LinearX{1, 1}, badarg.NonNegative, "W", "A")
	add("QuadraticX.Validate", QuadraticX{1, 1}, badarg.NonNegative, "W", "A")
	add("Hinge.Validate", Hinge{1, 1}, badarg.NonNegative, "C", "T")
	add("Overload.Validate", Overload{1, 1}, badarg.NonNegative, "C", "T")
	add("Delay.Validate", Delay{1}, badarg.Positive, "T")
	add("Exp.Validate", Exp{1, 1}, badarg.Positive, "Kappa")
	add("Exp.Validate", Exp{1, 1}, badarg.Finite, "T")
	return append(cs, badarg.Probe{Func: "Func.Validate", Err: inv}.Fails("F = nil", "Func.F is nil", func() error { return Func{}.Validate() }))
}

// settingsCases probes Settings, PrimalSettings and FastControl through
// their Validate and the solvers.
func settingsCases() []badarg.Case {
	p := quad()
	var cs []badarg.Case
	for _, fn := range []string{"Settings.Validate", "Solve"} {
		call := func(s *Settings) error {
			if fn == "Solve" {
				_, err := Solve(p, s)
				return err
			}
			return s.Validate()
		}
		pr := badarg.Probe{Func: fn, Err: inv}
		cs = append(cs, badarg.Fields(pr, Settings{}, badarg.NonNegative, call, "Step", "Eps", "Tol", "MaxIter", "Record")...)
		cs = append(cs, pr.Entries("Settings.Mu0", []float64{0, 0, 0}, 1, badarg.NonNegative, func(mu []float64) error { return call(&Settings{Mu0: mu}) })...)
		cs = append(cs,
			pr.Fails("Rule = 9", "Settings.Rule = 9", func() error { return call(&Settings{Rule: 9}) }),
			pr.Fails("Accelerated with FastControl", "needs exact dual values", func() error {
				return call(&Settings{Rule: Accelerated, FastControl: &FastControl{Gamma: 1}})
			}),
			pr.Fails("Accelerated with Step", "Settings.Step = 0.1, Eps = 0 with Rule = Accelerated", func() error { return call(&Settings{Rule: Accelerated, Step: 0.1}) }),
			pr.Fails("Accelerated with Eps", "Settings.Step = 0, Eps = 0.1 with Rule = Accelerated", func() error { return call(&Settings{Rule: Accelerated, Eps: 0.1}) }),
		)
		cs = append(cs, fastControlCases(fn, func(fc *FastControl) error { return call(&Settings{FastControl: fc, MaxIter: 1}) })...)
	}
	pr := badarg.Probe{Func: "Solve", Err: inv}
	cs = append(cs, pr.Fails("len(Settings.Mu0) = 1", "len(Settings.Mu0) = 1, want N = 3", func() error { _, err := Solve(p, &Settings{Mu0: []float64{1}}); return err }))
	// Sizes are checked before allocating (guards: out-of-memory crashes).
	tl := badarg.Probe{Func: "Solve", Err: tooLarge}
	for _, c := range []struct {
		s    Settings
		text string
	}{
		{Settings{FastControl: &FastControl{Gamma: 1, Delay: 1 << 40}, MaxIter: 1}, "FastControl.Delay"},
		{Settings{RecordDual: true, MaxIter: 1 << 40}, ""},
		{Settings{Record: 1, MaxIter: 1 << 40}, ""},
	} {
		cs = append(cs, tl.Fails("beyond memory", c.text, func() error { _, err := Solve(p, &c.s); return err }))
	}
	// FastControl whose Poisson means or rates overflow (guards: NaN
	// packet counts, β̂ = count/(γW) = NaN).
	src := rand.NewPCG(1, 1)
	mu0 := []float64{100, 100, 100}
	for _, c := range []struct {
		s    Settings
		text string
	}{
		{Settings{Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e300, Window: 1e30, Src: src}}, "Gamma·Window"},
		{Settings{Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e-300, Window: 1e-300, Src: src}}, "Gamma·Window"},
		// γ μ_j C_ij/C_ji ≈ 1e307·100·6 overflows.
		{Settings{Mu0: mu0, Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e307, Window: 1, Src: src}}, "overflowed at step 0"},
		{Settings{Mu0: mu0, Step: 0.05, MaxIter: 50, Fixed: true, FastControl: &FastControl{Gamma: 1e307}}, "overflowed at step 0"},
	} {
		cs = append(cs, pr.Fails("FastControl overflows", c.text, func() error { _, err := Solve(p, &c.s); return err }))
	}
	for _, fn := range []string{"PrimalSettings.Validate", "Primal"} {
		call := func(s *PrimalSettings) error {
			if fn == "Primal" {
				_, err := Primal(p, s)
				return err
			}
			return s.Validate()
		}
		cs = append(cs, badarg.Fields(badarg.Probe{Func: fn, Err: inv}, PrimalSettings{}, badarg.NonNegative, call, "MaxIter", "GradTol", "Tol")...)
	}
	return append(cs, fastControlCases("FastControl.Validate", func(fc *FastControl) error { return fc.Validate() })...)
}

// fastControlCases probes every field of FastControl through call.
func fastControlCases(fn string, call func(*FastControl) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	base := FastControl{Gamma: 1, Window: 1, Src: rand.NewPCG(1, 1)}
	cs := badarg.Fields(p, base, badarg.Positive, call, "Gamma")
	cs = append(cs, badarg.Fields(p, base, badarg.NonNegative, call, "Window", "Delay")...)
	cs = append(cs, badarg.Fields(p, base, badarg.Unit, call, "Loss")...)
	return append(cs,
		p.Fails("Loss = 1", "FastControl.Loss = 1", func() error { return call(&FastControl{Gamma: 1, Loss: 1}) }),
		p.Fails("Unreachable = 7", "FastControl.Unreachable = 7", func() error { return call(&FastControl{Gamma: 1, Unreachable: 7}) }),
		// A nil Src held in a field is a missing required field.
		p.Fails("Src = nil with Window = 1", "FastControl.Src is nil", func() error { return call(&FastControl{Gamma: 1, Window: 1}) }),
	)
}

// pointCases probes the arguments of the problem's methods and of the
// network functions.
func pointCases() []badarg.Case {
	q := quad()
	ok3 := []float64{0.5, 0.5, 0.5}
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "Problem.Eval", Err: inv}
	add(p.Slice("mu", []float64{0, 0, 0}, 1, badarg.NonNegative, func(mu []float64) error { _, err := q.Eval(mu); return err })...)
	p = badarg.Probe{Func: "Problem.Reduced", Err: inv}
	add(p.Slice("x", ok3, 2, badarg.Unit, func(x []float64) error { _, err := q.Reduced(x); return err })...)
	p = badarg.Probe{Func: "Problem.Objective", Err: inv}
	add(p.Slice("x", ok3, 0, badarg.Unit, func(x []float64) error { _, _, err := q.Objective(x, ok3); return err })...)
	add(p.Slice("s", ok3, 1, badarg.NonNegative, func(s []float64) error { _, _, err := q.Objective(ok3, s); return err })...)
	add(p.Fails("s[2] = 100 > S̄", "s[2] = 100", func() error { _, _, err := q.Objective(ok3, []float64{0, 0, 100}); return err }))
	p = badarg.Probe{Func: "Problem.MuBound", Err: inv}
	add(p.Scalar("lower", badarg.Finite, func(x float64) error { _, err := q.MuBound(x); return err })...)

	nw := twoNode()
	p = badarg.Probe{Func: "Coupling", Err: inv}
	add(p.Slice("mu", []float64{1, 2}, 1, badarg.NonNegative, func(mu []float64) error { _, err := Coupling(nil, nw, mu); return err })...)
	add(p.Panics("nw = nil", "dual: Coupling with a nil *anycast.Network", func() { _, _ = Coupling(nil, nil, nil) }))
	add(p.Panics("len(dst) = 3", "", func() { _, _ = Coupling(make([]float64, 3), nw, []float64{1, 2}) }))
	for _, c := range []struct {
		name   string
		change func(*anycast.Network)
		text   string
	}{
		{"nw.A[0] = NaN", func(nw *anycast.Network) { nw.A[0] = nan }, "A[0] = NaN"},
		{"nw.A[1] = -1", func(nw *anycast.Network) { nw.A[1] = -1 }, "A[1] = -1"},
		{"len(nw.T) = 1", func(nw *anycast.Network) { nw.T = nw.T[:1] }, "len(T) = 1"},
		{"nw.C 2×3", func(nw *anycast.Network) { nw.C = mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0}) }, "C is 2×3"},
	} {
		add(p.Fails(c.name, c.text, func() error {
			bad := twoNode()
			c.change(bad)
			_, err := Coupling(nil, bad, []float64{1, 2})
			return err
		}))
	}
	for name, f := range map[string]func(mu []float64, gamma float64) error{
		"Rates":    func(mu []float64, g float64) error { _, err := Rates(nil, nw, mu, g); return err },
		"Overhead": func(mu []float64, g float64) error { _, err := Overhead(nw, mu, g); return err },
	} {
		p = badarg.Probe{Func: name, Err: inv}
		add(p.Slice("mu", []float64{1, 2}, 1, badarg.NonNegative, func(mu []float64) error { return f(mu, 10) })...)
		add(p.Scalar("gamma", badarg.Positive, func(g float64) error { return f([]float64{1, 2}, g) })...)
	}
	add(badarg.Probe{Func: "Rates"}.Panics("nw = nil", "nil", func() { _, _ = Rates(nil, nil, nil, 1) }))
	add(badarg.Probe{Func: "Rates"}.Panics("dst 3×3", "dst is 3×3", func() { _, _ = Rates(mat.NewDense(3, 3, nil), nw, []float64{1, 2}, 1) }))
	add(badarg.Probe{Func: "Overhead"}.Panics("nw = nil", "nil", func() { _, _ = Overhead(nil, nil, 1) }))
	add(badarg.Probe{Func: "Rates", Err: tooLarge}.Fails("N×N beyond memory", "N = 262144", func() error {
		_, err := Rates(nil, bigDiagonal(1<<18), make([]float64, 1<<18), 1)
		return err
	}))
	p = badarg.Probe{Func: "Receptions", Err: inv}
	add(
		p.Fails("r[0][1] = NaN", "r[0][1] = NaN", func() error {
			_, err := Receptions(nil, nw, mat.NewDense(2, 2, []float64{1, nan, 0, 1}))
			return err
		}),
		p.Fails("r[1][0] = -1", "r[1][0] = -1", func() error {
			_, err := Receptions(nil, nw, mat.NewDense(2, 2, []float64{1, 0, -1, 1}))
			return err
		}),
		p.Fails("r 1×1", "rates are 1×1", func() error { _, err := Receptions(nil, nw, mat.NewDense(1, 1, []float64{1})); return err }),
		// The documented panics name the argument (guards: a bare nil
		// dereference for r).
		p.Panics("nw = nil", "nil network nw", func() { _, _ = Receptions(nil, nil, mat.NewDense(1, 1, nil)) }),
		p.Panics("r = nil", "nil rate matrix r", func() { _, _ = Receptions(nil, nw, nil) }),
		p.Panics("len(dst) = 3", "len(dst) = 3", func() { _, _ = Receptions(make([]float64, 3), nw, mat.NewDense(2, 2, nil)) }),
	)
	return cs
}

// bigDiagonal is a sparse network of n nodes with C = I.
func bigDiagonal(n int) *anycast.Network {
	idx := make([]int, n)
	one := make([]float64, n)
	for i := range idx {
		idx[i], one[i] = i, 1
	}
	return must(anycast.NewNetwork(one, must(anycast.NewSparseC(n, idx, idx, one)), one))
}

// theoremCases probes the helpers of Theorem III.3 (guards: Iterations of
// a NaN returning math.MinInt64).
func theoremCases() []badarg.Case {
	p := badarg.Probe{Func: "Step", Err: inv}
	cs := p.Scalar("eps", badarg.Positive, func(x float64) error { _, err := Step(x, 1); return err })
	cs = append(cs, p.Scalar("g", badarg.Positive, func(x float64) error { _, err := Step(1, x); return err })...)
	p = badarg.Probe{Func: "Iterations", Err: inv}
	cs = append(cs, p.Scalar("eps", badarg.Positive, func(x float64) error { _, err := Iterations(x, 1, 1); return err })...)
	cs = append(cs, p.Scalar("g", badarg.Positive, func(x float64) error { _, err := Iterations(1, x, 1); return err })...)
	cs = append(cs, p.Scalar("r", badarg.NonNegative, func(x float64) error { _, err := Iterations(1, 1, x); return err })...)
	cs = append(cs, badarg.Probe{Func: "Iterations", Err: tooLarge}.Fails("K beyond 2^53", "", func() error { _, err := Iterations(1e-300, 1e10, 1e10); return err }))
	p = badarg.Probe{Func: "Bound", Err: inv}
	cs = append(cs, p.Scalar("r", badarg.NonNegative, func(x float64) error { _, err := Bound(x, 1, 1, 1); return err })...)
	cs = append(cs, p.Scalar("alpha", badarg.Positive, func(x float64) error { _, err := Bound(1, x, 1, 1); return err })...)
	cs = append(cs, p.Scalar("g", badarg.NonNegative, func(x float64) error { _, err := Bound(1, 1, x, 1); return err })...)
	return append(cs, p.Int("k", badarg.Positive, func(k int) error { _, err := Bound(1, 1, 1, k); return err })...)
}

// sweepCases probes Sweep and its per-run entry points.
func sweepCases() []badarg.Case {
	q := quad()
	fc := FastControl{Gamma: 10}
	set := &Settings{MaxIter: 20}
	var cs []badarg.Case
	f := func(fc FastControl, w, l []float64, s *Settings, runs int) error {
		_, err := Sweep(q, fc, w, l, s, runs, 1)
		return err
	}
	p := badarg.Probe{Func: "Sweep", Err: inv}
	cs = append(cs, p.Int("runs", badarg.Positive, func(n int) error { return f(fc, []float64{1}, nil, set, n) })...)
	cs = append(cs,
		p.Fails("windows = nil", "no windows", func() error { return f(fc, nil, nil, set, 1) }),
		p.Fails("Settings.Tol = NaN", "Settings.Tol = NaN", func() error { return f(fc, []float64{1}, nil, &Settings{Tol: nan}, 1) }),
		badarg.Probe{Func: "Sweep", Err: tooLarge}.Fails("points × runs beyond memory", "", func() error {
			return f(fc, make([]float64, 1<<20), make([]float64, 1<<20), nil, 1<<30)
		}),
		p.Panics("p = nil", "nil", func() { _, _ = Sweep(nil, fc, []float64{1}, nil, set, 1, 1) }),
	)
	// The windows and losses of a run are FastControl's fields.
	cs = append(cs, p.Fails("windows[0] = -1", "FastControl.Window = -1", func() error { _, err := Sweep(q, fc, []float64{-1}, nil, set, 1, 1); return err }))
	cs = append(cs, p.Fails("losses[0] = 1", "FastControl.Loss = 1", func() error { _, err := Sweep(q, fc, []float64{1}, []float64{1}, set, 1, 1); return err }))
	cs = append(cs, p.Fails("fc.Gamma = 0", "FastControl.Gamma = 0", func() error { _, err := Sweep(q, FastControl{}, []float64{1}, nil, set, 1, 1); return err }))

	// SteadyGap: a NaN or infinite P* must not give a NaN or infinite gap,
	// and a result without recorded dual values has no tail to average.
	rec := &Result{Dual: []float64{1, 2, 3, 4}}
	p = badarg.Probe{Func: "Result.SteadyGap", Err: inv}
	cs = append(cs, p.Scalar("pstar", badarg.Finite, func(x float64) error { _, err := rec.SteadyGap(x); return err })...)
	return append(cs, p.Fails("no recorded dual values", "", func() error { _, err := (&Result{}).SteadyGap(1); return err }))
}

// costMethods are the Value, Deriv, Curv, Sup and Tilt methods of the
// cost families: arithmetic with no error result, on problems that the
// solvers validate first.
func costMethods() map[string]string {
	m := map[string]string{}
	for _, typ := range []string{"LinearX", "QuadraticX", "Hinge", "Overload", "Delay", "Exp", "Func"} {
		for _, meth := range []string{"Value", "Deriv", "Curv", "Tilt"} {
			if typ == "Func" && meth == "Curv" {
				continue
			}
			m[typ+"."+meth] = "a cost's arithmetic at a point, without an error result: the solvers validate the problem (Problem.Validate) before they evaluate it"
		}
	}
	return m
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative, zero, wrong-length and nil inputs and bad fields:
// each gives the documented error, naming the input, or the documented
// panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(problemCases(), constructorCases(), costCases(), settingsCases(), pointCases(), theoremCases(), sweepCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, costMethods())
}

// TestValidateNilSettings: nil settings are valid, and FastControl with
// Window = 0 needs no source.
func TestValidateNilSettings(t *testing.T) {
	var s *Settings
	var ps *PrimalSettings
	assert.NoError(t, s.Validate())
	assert.NoError(t, ps.Validate())
	assert.NoError(t, (&FastControl{Gamma: 1}).Validate())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
