package dual

import (
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// SweepPoint is one point of the FastControl trade-off (spec §4.7): what
// a measurement window costs in packets and what it leaves in error.
type SweepPoint struct {
	Window, Gamma, Loss float64

	// Packets is the mean number of FastControl packets sent per dual
	// step (W Σ r_ij, averaged over the run and the runs).
	Packets float64
	// BetaErr is the mean over runs of the RMS relative error
	// ‖β̂ − β‖₂/‖β‖₂ of the measured coupling factor.
	BetaErr float64
	// Gap is the steady-state gap P* − D(μ(k)) averaged over the last
	// quarter of the iterations of each run: its mean over the runs with
	// the 95% Student-t interval over runs (N = runs).
	Gap loadlab.Estimate
}

// Only the product γW enters the measurement: a window holds
// Poisson(W (1−loss) γ β_i) packets for proxy i and β̂_i is that count over
// γW, and the packets sent per step are W Σ r_ij ∝ γW. Sweeping W at a
// fixed γ therefore also sweeps γ (TestFastControlOnlyGammaWindowProduct).
//
// Sweep runs Algorithm 1 with FastControl measurements for every window
// in windows and every loss rate in losses, runs times each, and returns
// the trade-off points in the order window-major, loss-minor. fc gives γ,
// the delay and the Unreachable policy; its Window, Loss and Src are
// replaced. s gives the dual settings (step, iterations, warm start);
// its FastControl, Rule (Constant), Fixed and RecordDual are overridden. P* comes
// from the reference solver Primal; Sweep returns an error if Primal
// cannot certify it (the error wraps loadlab.ErrNotConverged). Runs are
// parallel and deterministic for a given seed: run r of point k draws
// from mc.Source(seed, k, r). It returns an error wrapping
// loadlab.ErrInvalid for runs < 1, no windows, a bad fc or s (named by
// the field), and loadlab.ErrTooLarge when the points times the runs do
// not fit in memory. It panics if p is nil.
func Sweep(p *Problem, fc FastControl, windows, losses []float64, s *Settings, runs int, seed uint64) ([]SweepPoint, error) {
	if runs < 1 {
		return nil, loadlab.Invalid("dual", "Sweep: runs = %d, want ≥ 1", runs)
	}
	if len(windows) == 0 {
		return nil, loadlab.Invalid("dual", "Sweep: no windows")
	}
	if len(losses) == 0 {
		losses = []float64{0}
	}
	npt, ok := size.Mul(len(windows), len(losses))
	if tot, ok2 := size.Mul(npt, runs); !ok || !ok2 || size.Check("dual", "Sweep: points × runs", tot, 64) != nil {
		return nil, loadlab.TooLarge("dual", "Sweep: %d windows × %d losses × %d runs", len(windows), len(losses), runs)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ref, err := Primal(p, nil)
	if err != nil {
		return nil, fmt.Errorf("dual: Sweep: reference optimum: %w", err)
	}
	pstar := ref.Value
	var base Settings
	if s != nil {
		base = *s
	}
	base.Rule = Constant
	base.Fixed = true
	base.RecordDual = true

	type job struct{ gap, berr, packets float64 }
	out := make([]job, npt*runs)
	errs := make([]error, npt*runs)
	mc.For(npt*runs, 0, func(idx int) {
		k, r := idx/runs, idx%runs
		f := fc
		f.Window = windows[k/len(losses)]
		f.Loss = losses[k%len(losses)]
		f.Src = mc.Source(seed, uint64(k), uint64(r))
		set := base
		set.FastControl = &f
		res, err := Solve(p, &set)
		if err != nil {
			errs[idx] = err
			return
		}
		tail := res.Dual[len(res.Dual)*3/4:]
		var g float64
		for _, d := range tail {
			g += pstar - d
		}
		out[idx] = job{gap: g / float64(len(tail)), berr: res.BetaErr, packets: res.Packets}
	})
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	pts := make([]SweepPoint, npt)
	gaps := make([]float64, runs)
	for k := range pts {
		pt := SweepPoint{Window: windows[k/len(losses)], Loss: losses[k%len(losses)], Gamma: fc.Gamma}
		for r := 0; r < runs; r++ {
			j := out[k*runs+r]
			gaps[r] = j.gap
			pt.BetaErr += j.berr / float64(runs)
			pt.Packets += j.packets / float64(runs)
		}
		sum := mc.Summarize(gaps)
		pt.Gap = loadlab.Estimate{Mean: sum.Mean, Lo: sum.Lo, Hi: sum.Hi, StdErr: sum.StdErr, N: sum.N}
		pts[k] = pt
	}
	return pts, nil
}
