package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/stability"
)

// dayFlags are the flags of "anycast day".
type dayFlags struct {
	trace                     string
	hours, periodMin, beta    float64
	gamma, window, loss, reqs float64
	delay, dualSteps          int
	fastControl               bool
}

func (a *app) anycastDayCommand() *cobra.Command {
	var in networkInput
	var f dayFlags
	c := &cobra.Command{
		Use:   "day",
		Short: "Greedy against optimal over a day of demand, with FastControl's loss, delay and control traffic",
		Long: `Runs the greedy law (24), the dual algorithm with exact β (Algorithm 1) and,
with --fastcontrol, the dual algorithm whose nodes learn β only from
FastControl packets (window, loss, delay; spec §4.7–4.8) over a demand
trace (spec §13.6): --trace FILE.csv (one row per period of --period
minutes, one column per region), or else a synthetic diurnal day built on
the network's demand A (stability.Diurnal, --hours long). Each policy is
scored on the demand sent to L2, the overload, the hours some proxy is
overloaded or uncontrollable, and the P1 cost (w = 1, penalty 1000); the
FastControl policy also on its control messages, in total and per HTTP
request at --requests-per-load requests per hour per unit of load.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			nw, err := in.load()
			if err != nil {
				return err
			}
			times, dem, err := f.demand(nw.A, a.seed)
			if err != nil {
				return err
			}
			set := &stability.CompareSettings{Sensitivity: f.beta, DualSteps: f.dualSteps}
			if f.fastControl {
				set.FastControl = &dual.FastControl{Gamma: f.gamma, Window: f.window / 3600, Loss: f.loss, Delay: f.delay,
					Unreachable: dual.Direct, Src: rand.NewPCG(a.seed, 7)}
			}
			if err := set.Validate(); err != nil {
				return err
			}
			p := a.startProgress(-1, "day of demand")
			cmp, err := stability.Compare(nw, times, dem, set)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(withNote(dayAnswer(cmp, f.reqs), in.note()))
		},
	}
	in.register(c)
	c.Flags().StringVar(&f.trace, "trace", "", "demand trace `FILE`.csv: one row per period, one column per region")
	c.Flags().Float64Var(&f.hours, "hours", 24, "length of the synthetic day (hours), without --trace")
	c.Flags().Float64Var(&f.periodMin, "period", 5, "measurement period (minutes)")
	c.Flags().Float64Var(&f.beta, "beta", 20, "sensitivity β of the greedy law (1/(hour·load))")
	c.Flags().IntVar(&f.dualSteps, "dual-steps", 20, "dual steps per period")
	c.Flags().BoolVar(&f.fastControl, "fastcontrol", false, "add the dual algorithm learning β from FastControl packets")
	c.Flags().Float64Var(&f.gamma, "gamma", 1e4, "FastControl packet rate γ per unit of μ (packets per hour)")
	c.Flags().Float64Var(&f.window, "window", 30, "FastControl measurement window (seconds); 0 means exact rates")
	c.Flags().Float64Var(&f.loss, "loss", 0, "probability that a FastControl packet is lost, in [0, 1)")
	c.Flags().IntVar(&f.delay, "delay", 0, "dual steps by which the measurement lags")
	c.Flags().Float64Var(&f.reqs, "requests-per-load", 3.6e6, "HTTP requests per hour that one unit of load stands for")
	return c
}

// demand returns the period grid and the demand of each period.
func (f *dayFlags) demand(base []float64, seed uint64) ([]float64, [][]float64, error) {
	switch {
	case !(f.periodMin > 0):
		return nil, nil, usagef("--period = %v: want > 0 minutes", f.periodMin)
	case !(f.reqs > 0):
		return nil, nil, usagef("--requests-per-load = %v: want > 0", f.reqs)
	case f.trace == "" && !(f.hours > 0 && f.hours <= 24*366):
		return nil, nil, usagef("--hours = %v: want a value in (0, 8784]", f.hours)
	}
	h := f.periodMin / 60
	if f.trace != "" {
		rows, err := dataio.ReadTraceFile(f.trace, nil)
		if err != nil {
			return nil, nil, err
		}
		times := make([]float64, len(rows))
		for k := range times {
			times[k] = float64(k) * h
		}
		return times, rows, nil
	}
	n := int(f.hours/h) + 1
	if n < 2 || n > 1<<20 {
		return nil, nil, usagef("--hours = %v at --period = %v min gives %d periods: want 2 to 2^20", f.hours, f.periodMin, n)
	}
	times := make([]float64, n)
	for k := range times {
		times[k] = float64(k) * h
	}
	dem, err := stability.Diurnal(base, times, nil, rand.NewPCG(seed, 8))
	return times, dem, err
}

// dayAnswer is one row per policy.
func dayAnswer(cmp *stability.Comparison, reqs float64) *answer {
	t := &table{name: "policies", cols: []string{"policy", "L2 demand (load·h)", "overload (load·h)", "hours overloaded", "hours uncontrollable", "P1 cost (·h)", "control messages", "per HTTP request"}}
	pols := []*stability.Policy{&cmp.Greedy, &cmp.Optimal}
	if cmp.FastControl != nil {
		pols = append(pols, cmp.FastControl)
	}
	var ss []series
	for _, p := range pols {
		msgs := p.ControlPackets + p.DirectReports
		t.add(p.Name, p.SecondTotal, p.ExcessTotal, p.OverloadHours, p.UncontrolledHours, p.CostTotal, msgs, p.Overhead(reqs))
		ss = append(ss, series{name: p.Name + ": total overload", xs: p.T, ys: p.Excess, line: true})
	}
	notes := []string{fmt.Sprintf("Demand over the trace: %.6g load·hours.", cmp.DemandTotal)}
	if opt := cmp.Optimal.CostTotal; opt > 0 {
		notes = append(notes, fmt.Sprintf("The greedy law's P1 cost is %.4g × the optimal algorithm's.", cmp.Greedy.CostTotal/opt))
	} else {
		notes = append(notes, "The optimal algorithm's P1 cost is 0: the demand fits the capacities.")
	}
	if fc := cmp.FastControl; fc != nil {
		notes = append(notes, fmt.Sprintf("FastControl: %.3g control messages per HTTP request (%.4g packets, %.4g direct reports).",
			fc.Overhead(reqs), fc.ControlPackets, fc.DirectReports))
	}
	draw := pointsPicture("Overload over the day", "time (hours)", "total overload Σ(S − T)₊ (load)", false, ss...)
	return &answer{tables: []*table{t}, value: cmp, notes: notes, draw: draw}
}
