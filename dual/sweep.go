package dual

import (
	"fmt"
	"math"

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
// its FastControl, Rule (Constant), Fixed and RecordDual (true) are
// overridden. P* comes from the reference solver Primal; Sweep returns
// an error if Primal cannot certify it (the error wraps
// loadlab.ErrNotConverged).
//
// Run r of point k (window windows[k / len(losses)], loss
// losses[k mod len(losses)]) is one Solve with those settings and
// fc.Src = loadlab.Stream(seed, k, r), measured by Result.SteadyGap(P*),
// BetaErr and Packets: the runs are parallel, and the points are the
// same for any number of goroutines and when the runs are computed
// elsewhere (loadlab sweep). It returns an error wrapping
// loadlab.ErrInvalid for runs < 1, no windows, a bad fc or s (named by
// the field), and loadlab.ErrTooLarge when the points times the runs do
// not fit in memory. It panics if p is nil.
func Sweep(p *Problem, fc FastControl, windows, losses []float64, s *Settings, runs int, seed uint64) ([]SweepPoint, error) {
	if len(losses) == 0 {
		losses = []float64{0}
	}
	pstar, err := sweepCheck(p, windows, losses, s, runs)
	if err != nil {
		return nil, err
	}
	base := Settings{}
	if s != nil {
		base = *s
	}
	base.Rule, base.Fixed, base.RecordDual = Constant, true, true
	npt := len(windows) * len(losses)
	out := make([][3]float64, npt*runs) // gap, β error, packets
	errs := make([]error, npt*runs)
	mc.For(npt*runs, 0, func(idx int) {
		k, r := idx/runs, idx%runs
		f := fc
		f.Window, f.Loss = windows[k/len(losses)], losses[k%len(losses)]
		f.Src = loadlab.Stream(seed, uint64(k), uint64(r))
		set := base
		set.FastControl = &f
		res, err := Solve(p, &set)
		if err != nil {
			errs[idx] = err
			return
		}
		out[idx][0], errs[idx] = res.SteadyGap(pstar)
		out[idx][1], out[idx][2] = res.BetaErr, res.Packets
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
		for r, x := range out[k*runs : (k+1)*runs] {
			gaps[r] = x[0]
			pt.BetaErr += x[1] / float64(runs)
			pt.Packets += x[2] / float64(runs)
		}
		sum := mc.Summarize(gaps)
		pt.Gap = loadlab.Estimate{Mean: sum.Mean, Lo: sum.Lo, Hi: sum.Hi, StdErr: sum.StdErr, N: sum.N}
		pts[k] = pt
	}
	return pts, nil
}

// sweepCheck validates the arguments of Sweep (losses not empty) and
// returns P*, the reference optimum of Primal.
func sweepCheck(p *Problem, windows, losses []float64, s *Settings, runs int) (float64, error) {
	if runs < 1 {
		return 0, loadlab.Invalid("dual", "Sweep: runs = %d, want ≥ 1", runs)
	}
	if len(windows) == 0 {
		return 0, loadlab.Invalid("dual", "Sweep: no windows")
	}
	npt, ok := size.Mul(len(windows), len(losses))
	if tot, ok2 := size.Mul(npt, runs); !ok || !ok2 || size.Check("dual", "Sweep: points × runs", tot, 64) != nil {
		return 0, loadlab.TooLarge("dual", "Sweep: %d windows × %d losses × %d runs", len(windows), len(losses), runs)
	}
	if err := s.Validate(); err != nil {
		return 0, err
	}
	ref, err := Primal(p, nil)
	if err != nil {
		return 0, fmt.Errorf("dual: Sweep: reference optimum: %w", err)
	}
	return ref.Value, nil
}

// SteadyGap returns the mean of P* − D(μ(k)) over the last quarter of
// the recorded dual values (k ≥ ⌊3·len(Dual)/4⌋), pstar standing for
// P*: the gap a run settles at when a constant step meets measured β
// (spec §4.7: FastControl noise keeps the iterates from converging, so
// the tail of D, not its best value, is what a deployment sees). It is
// the gap Sweep averages over runs. It returns an error wrapping
// loadlab.ErrInvalid if pstar is not finite or no dual values were
// recorded (Settings.RecordDual unset).
func (r *Result) SteadyGap(pstar float64) (float64, error) {
	if math.IsNaN(pstar) || math.IsInf(pstar, 0) {
		return 0, loadlab.Invalid("dual", "SteadyGap: pstar = %v, want the finite optimum P*", pstar)
	}
	if len(r.Dual) == 0 {
		return 0, loadlab.Invalid("dual", "SteadyGap: Result.Dual is empty, want a run with Settings.RecordDual")
	}
	tail := r.Dual[len(r.Dual)*3/4:]
	var g float64
	for _, d := range tail {
		g += pstar - d
	}
	return g / float64(len(tail)), nil
}
