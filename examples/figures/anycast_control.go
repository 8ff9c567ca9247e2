package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func init() {
	register(plots.Figure{
		Name:    "anycast-controller-period",
		Caption: "The greedy heuristic as a discrete controller (stability.Controller, spec §13.8) on two nodes (A = (2, 2), T = (1, 1), C_aa = C_bb = 0.9, β = 20 per hour per unit of load, exact loads): as the period Δt shrinks its state at t = 30 min tends to the ODE's with error proportional to Δt (explicit Euler, first order: the fitted slope is 1); the interior equilibrium x = (½, ½) stays stable only below Law.PeriodLimit Δt* = 4/β = 12 min, and at 1.1 Δt* the controller ends in a period-two oscillation around it (x_a between 0.35 and 0.65) instead of settling.",
		Make:    threeSteps(fixed(periodSettings), periodCompute, periodDraw),
		Seconds: 1,
	})
}

// periodParams are the settings of anycast-controller-period (one size
// in both modes: the figure costs milliseconds).
type periodParams struct {
	beta    float64   // greedy sensitivity (1/(hour·load))
	x0      []float64 // start state
	t1      float64   // time of the error (hours)
	steps   []int     // periods per t1 of the convergence panel
	factors []float64 // periods of the trajectory panel, as multiples of Δt*
	hours   float64   // length of the trajectory panel
}

var periodSettings = periodParams{beta: 20, x0: []float64{0.3, 0.8}, t1: 0.5,
	steps: []int{8, 16, 32, 64, 128, 256, 512, 1024}, factors: []float64{0.5, 0.9, 1.1}, hours: 8}

// periodData holds the two panels' data.
type periodData struct {
	limit       float64   // Δt* (hours)
	dts, errs   []float64 // convergence panel: Δt (hours), L1 error at t1
	slope       float64   // least-squares slope of log error on log Δt
	ode         *stability.Trajectory
	runs        []*stability.Trajectory // one per factor
	tail        []float64               // per factor: range of x_a over the last hour
	clamps      []int
	tab         *plots.Table
	odeAtT1     []float64
	maxClampsLR int // clamps in the convergence runs (0: pure Euler)
}

// periodLaw is the symmetric pair of spec §13.8's test: equilibrium
// (½, ½), Jacobian eigenvalues −0.5β and −0.4β, so Δt* = 4/β.
func periodLaw(beta float64) (*stability.Law, error) {
	nw, err := anycast.NewNetwork([]float64{2, 2}, mat.NewDense(2, 2, []float64{0.9, 0.1, 0.1, 0.9}), []float64{1, 1})
	if err != nil {
		return nil, err
	}
	return stability.NewLaw(nw, beta)
}

func periodCompute(cfg plots.Config, p periodParams) (*periodData, error) {
	law, err := periodLaw(p.beta)
	if err != nil {
		return nil, err
	}
	eq, err := law.Linearize([]float64{0.5, 0.5})
	if err != nil {
		return nil, err
	}
	d := &periodData{tab: plots.NewTable("panel", "period_h", "t_h", "x_a", "x_b", "error_L1")}
	if d.limit, err = law.PeriodLimit(eq); err != nil {
		return nil, err
	}
	ref, err := law.Integrate(p.x0, p.t1, &stability.Settings{AbsTol: 1e-12, RelTol: 1e-12, Times: []float64{p.t1}})
	if err != nil {
		return nil, err
	}
	d.odeAtT1 = ref.Final()
	for _, n := range p.steps {
		dt := p.t1 / float64(n)
		run, err := (&stability.Controller{Law: law, Period: dt}).Run(p.x0, n, nil, nil)
		if err != nil {
			return nil, err
		}
		e := math.Abs(run.Final[0]-d.odeAtT1[0]) + math.Abs(run.Final[1]-d.odeAtT1[1])
		d.dts, d.errs = append(d.dts, dt), append(d.errs, e)
		d.maxClampsLR = max(d.maxClampsLR, run.Clamped)
		d.tab.Add("convergence", dt, p.t1, run.Final[0], run.Final[1], e)
	}
	// The slope is fitted on the four shortest periods, where the
	// second-order term of the error is below 1 % of the first.
	var lx, ly []float64
	for k := len(d.dts) - 4; k < len(d.dts); k++ {
		lx, ly = append(lx, math.Log(d.dts[k])), append(ly, math.Log(d.errs[k]))
	}
	_, d.slope = stat.LinearRegression(lx, ly, nil, false)
	if err := periodTrajectories(law, p, d); err != nil {
		return nil, err
	}
	cfg.Logf("anycast-controller-period: Δt* = %.4g h, slope %.4f", d.limit, d.slope)
	return d, nil
}

// periodTrajectories runs the ODE and the controller at each factor of
// Δt* for the trajectory panel.
func periodTrajectories(law *stability.Law, p periodParams, d *periodData) error {
	grid := make([]float64, 241)
	for k := range grid {
		grid[k] = p.hours * float64(k) / float64(len(grid)-1)
	}
	var err error
	if d.ode, err = law.Integrate(p.x0, p.hours, &stability.Settings{Times: grid}); err != nil {
		return err
	}
	for k, t := range d.ode.T {
		if k%4 == 0 {
			d.tab.Add("trajectory", 0.0, t, d.ode.X[k][0], d.ode.X[k][1], math.NaN())
		}
	}
	for _, f := range p.factors {
		dt := f * d.limit
		n := int(math.Floor(p.hours/dt + 1e-9))
		run, err := (&stability.Controller{Law: law, Period: dt, Every: 1}).Run(p.x0, n, nil, nil)
		if err != nil {
			return err
		}
		tr := run.Trajectory
		lo, hi := math.Inf(1), math.Inf(-1)
		for k, t := range tr.T {
			d.tab.Add("trajectory", dt, t, tr.X[k][0], tr.X[k][1], math.NaN())
			if t >= p.hours-1 {
				lo, hi = math.Min(lo, tr.X[k][0]), math.Max(hi, tr.X[k][0])
			}
		}
		d.runs, d.tail, d.clamps = append(d.runs, tr), append(d.tail, hi-lo), append(d.clamps, run.Clamped)
	}
	return nil
}

func periodDraw(p periodParams, d *periodData) *plots.Result {
	left := plots.New("Controller → ODE as the period shrinks", "period Δt (minutes)", fmt.Sprintf("|x(t) − x_{ODE}(t)|_{1} at t = %g min", 60*p.t1), plots.LogX(), plots.LogY(), plots.LegendAt(true, true))
	mins := make([]float64, len(d.dts))
	ref := make([]float64, len(d.dts))
	for k, dt := range d.dts {
		mins[k] = 60 * dt
		ref[k] = d.errs[len(d.errs)-1] * dt / d.dts[len(d.dts)-1]
	}
	plots.AddLine(left, 0, "controller, exact loads", mins, d.errs)
	plots.AddCurve(left, 7, "slope 1: error proportional to Δt", mins, ref)
	right := plots.New(fmt.Sprintf("Node a around its equilibrium; Δt* = %.3g min", 60*d.limit), "time (hours)", "x_{a} (share of region a's demand sent to L1)", plots.YRange(0.2, 0.8))
	plots.AddCurve(right, 7, "ODE (24)", d.ode.T, column(d.ode.X, 0))
	for i, tr := range d.runs {
		name := fmt.Sprintf("Δt = %g Δt* (%.3g min)", p.factors[i], 60*p.factors[i]*d.limit)
		plots.AddLine(right, i, name, tr.T, column(tr.X, 0))
	}
	heads := []plots.Headline{
		plots.Near("slope of log error on log Δt, four shortest Δt", d.slope, 1, 0.05, "1: explicit Euler is first order (spec §13.8)"),
		plots.Near("Law.PeriodLimit Δt* (minutes)", 60*d.limit, 12, 1e-9, "4/β with β = 20/h: 12 min (spec §13.8)"),
		plots.Within("clamped updates in the convergence runs", float64(d.maxClampsLR), 0, 0, "0: the runs are pure Euler"),
	}
	for i, f := range p.factors {
		if f < 1 {
			heads = append(heads, plots.Within(fmt.Sprintf("Δt = %g Δt*: range of x_a in the last hour", f), d.tail[i], 0, 1e-3, "→ 0: stable below Δt* (spec §13.8)"))
		} else {
			heads = append(heads, plots.Within(fmt.Sprintf("Δt = %g Δt*: range of x_a in the last hour", f), d.tail[i], 0.05, 1, "> 0: unstable above Δt* (spec §13.8)"))
		}
	}
	ps := plots.NewPanels(1, 2, left, plots.LegendOutside(right))
	ps.ColWeights = []float64{1, 1.45}
	return &plots.Result{Plot: ps, Width: 27 * cm, Height: 11 * cm, Data: d.tab, Headlines: heads}
}

// column returns column i of the rows xs.
func column(xs [][]float64, i int) []float64 {
	out := make([]float64, len(xs))
	for k, x := range xs {
		out[k] = x[i]
	}
	return out
}
