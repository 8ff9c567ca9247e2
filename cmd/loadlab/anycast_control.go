package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/stability"
)

// maxSnapNodes bounds the network on which "anycast control" classifies
// its end state (a dense eigenproblem of the interior block).
const maxSnapNodes = 2000

// controlFlags are the flags of "anycast control".
type controlFlags struct {
	beta, period, rate, guard, x0, threshold float64
	steps, rows                              int
	noGuard, normalized                      bool
}

func (a *app) anycastControlCommand() *cobra.Command {
	var in networkInput
	var f controlFlags
	c := &cobra.Command{
		Use:   "control",
		Short: "The greedy heuristic as deployed: a discrete controller on measured loads, clamped to [g, 1 − g]",
		Long: `Runs FastRoute's greedy heuristic as a deployment runs it (spec §13.8):
every --period each node measures its proxy's load from the requests it
served (Poisson counts at --rate requests per unit of load per unit of
time; 0: exact loads), takes one Euler step of the law (24) with
sensitivity --beta, and clamps x into [--guard, 1 − --guard]. Prints the
traffic sent to L2, the overload and the time overloaded or
uncontrollable, the clamps and overshoots (steps that left [0, 1]), a
per-period table, and — when the run ends at an equilibrium — the longest
period for which that equilibrium is stable for the controller,
min −2 Re λ/|λ|² over the law's Jacobian.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			nw, err := in.load()
			if err != nil {
				return err
			}
			switch {
			case f.rows < 1:
				return usagef("--rows = %d: want ≥ 1", f.rows)
			case !(f.period > 0):
				return usagef("--period = %v: want > 0", f.period)
			case f.steps < 0:
				return usagef("--steps = %d: want ≥ 0", f.steps)
			case !(f.x0 >= 0 && f.x0 <= 1):
				return usagef("--x0 = %v: want a value in [0, 1]", f.x0)
			}
			ctl := &stability.Controller{Law: &stability.Law{Net: nw, Sensitivity: f.beta, Normalized: f.normalized},
				Period: f.period, Rate: f.rate, Guard: f.guard, NoGuard: f.noGuard, Threshold: f.threshold}
			if err := ctl.Validate(); err != nil {
				return err
			}
			x0 := make([]float64, nw.N())
			for i := range x0 {
				x0[i] = f.x0
			}
			p := a.startProgress(-1, "greedy controller")
			run, err := ctl.Run(x0, f.steps, nil, rand.NewPCG(a.seed, 6))
			p.done()
			if err != nil {
				return err
			}
			return a.emit(withNote(controlAnswer(ctl, run, f.rows), in.note()))
		},
	}
	in.register(c)
	c.Flags().Float64Var(&f.beta, "beta", 1, "sensitivity β of the law (1/(time·load))")
	c.Flags().Float64Var(&f.period, "period", 0.1, "measurement and update period Δt (time units)")
	c.Flags().IntVar(&f.steps, "steps", 1000, "periods to run")
	c.Flags().Float64Var(&f.rate, "rate", 0, "requests per unit of load per unit of time, for Poisson-measured loads; 0 means exact loads")
	c.Flags().Float64Var(&f.guard, "guard", 0, "keep x in [g, 1 − g]; 0 means 1e-3")
	c.Flags().BoolVar(&f.noGuard, "no-guard", false, "clamp x to [0, 1] instead (0 and 1 are then absorbing)")
	c.Flags().Float64Var(&f.x0, "x0", 0.5, "starting fraction x_i of every region")
	c.Flags().Float64Var(&f.threshold, "threshold", 0, "a node counts as overloaded when S > (1 + threshold)·T; 0 means 0.01")
	c.Flags().IntVar(&f.rows, "rows", 25, "rows of the per-period table (every k-th period)")
	c.Flags().BoolVar(&f.normalized, "normalized", false, "measure the overload relative to capacity, (T_i − S_i)/T_i")
	return c
}

// controlAnswer is the run's summary, a per-period table and the
// stability verdict of the end state.
func controlAnswer(ctl *stability.Controller, run *stability.ControllerRun, rows int) *answer {
	s := quantityTable("summary")
	span := float64(run.Steps) * ctl.Period
	s.add("periods", run.Steps, nil, nil, "", fmt.Sprintf("Δt = %g", ctl.Period))
	s.add("demand sent to L2", run.SecondTotal, nil, nil, "load·time", "∫ Σ A_j (1 − x_j)")
	s.add("overload", run.ExcessTotal, nil, nil, "load·time", "∫ Σ (S_i − T_i)₊")
	s.add("time overloaded", run.OverloadTime, nil, nil, "time", fmt.Sprintf("of %g", span))
	s.add("time uncontrollable", run.UncontrolledTime, nil, nil, "time", "some node meets (27)")
	s.add("clamped updates", run.Clamped, nil, nil, "", "guard or [0, 1]")
	s.add("overshoots", run.Overshoot, nil, nil, "", "Euler step left [0, 1]")
	notes := []string{verdict(ctl, run)}

	t := &table{name: "periods", cols: []string{"period", "time", "L2 demand", "overload", "overloaded nodes", "uncontrollable nodes"}}
	every := max(1, (run.Steps+rows-1)/rows)
	for k := 0; k < run.Steps; k += every {
		t.add(k, run.T[k], run.Second[k], run.Excess[k], run.Overloaded[k], run.Uncontrollable[k])
	}
	ans := &answer{tables: []*table{s, t}, value: run, notes: notes}
	if run.Steps > 0 {
		ans.draw = pointsPicture("Greedy controller as deployed", "time (time units of 1/β)", "load",
			false, series{name: "demand sent to L2", xs: run.T, ys: run.Second, line: true},
			series{name: "total overload Σ(S − T)₊", xs: run.T, ys: run.Excess, line: true})
	}
	return ans
}

// verdict classifies the end state and compares the period with the
// longest one for which it is stable (spec §13.8).
func verdict(ctl *stability.Controller, run *stability.ControllerRun) string {
	l := ctl.Law
	if l.Net.N() > maxSnapNodes {
		return fmt.Sprintf("End state not classified: N = %d > %d.", l.Net.N(), maxSnapNodes)
	}
	// States held at the guard count as on their face.
	tol := 1e-6
	if !ctl.NoGuard {
		tol = 1.5 * max(ctl.Guard, 1e-3)
	}
	eq, err := l.Snap(run.Final, tol)
	if err == nil {
		for i, x := range eq.X {
			if abs(x-run.Final[i]) > 10*tol {
				err = fmt.Errorf("node %d at %g, equilibrium at %g", i, run.Final[i], x)
				break
			}
		}
	}
	if err != nil {
		return fmt.Sprintf("The run did not end at an equilibrium of the law (within %.3g): no stability verdict.", 10*tol)
	}
	lim, err := l.PeriodLimit(eq)
	if err != nil {
		return "No stability verdict: " + err.Error()
	}
	switch {
	case lim == 0:
		return fmt.Sprintf("The end state is a %s equilibrium of the law: no period makes it stable.", eq.Class)
	case ctl.Period < lim:
		return fmt.Sprintf("The end state is a %s equilibrium; it is stable for the controller for periods < %.4g (this run: %g).", eq.Class, lim, ctl.Period)
	}
	return fmt.Sprintf("The end state is a %s equilibrium of the law, but the controller's period %g exceeds %.4g, the longest for which it is stable.", eq.Class, ctl.Period, lim)
}
