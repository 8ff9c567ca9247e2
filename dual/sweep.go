package dual

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
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
	pstar, err := SweepOptimum(p, fc, windows, losses, s, runs)
	if err != nil {
		return nil, err
	}
	losses = sweepLosses(losses)
	base := sweepBase(s)
	npt := len(windows) * len(losses)
	out := make([]SweepSample, npt*runs)
	errs := make([]error, npt*runs)
	mc.For(npt*runs, 0, func(idx int) {
		out[idx], errs[idx] = sweepRun(p, fc, windows, losses, base, pstar, seed, idx/runs, idx%runs)
	})
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	return SweepSummary(fc, windows, losses, runs, out), nil
}
