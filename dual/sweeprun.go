package dual

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// Per-run entry points of Sweep, for sweeps split across processes
// (package sweep): run r of point k draws from mc.Source(seed, k, r)
// only and the summary sees the runs in index order k·runs + r, so
// recombining runs computed anywhere gives Sweep's result bit for bit.

// SweepSample is what one run of Sweep measures.
type SweepSample struct {
	// Gap is P* − D(μ(k)) averaged over the last quarter of the
	// iterations; BetaErr and Packets are those of the run's Result.
	Gap, BetaErr, Packets float64
}

// SweepOptimum validates the arguments of Sweep(p, fc, windows, losses,
// s, runs, seed) and returns P*, the reference optimum of Primal every
// run's gap is measured from. Errors are those of Sweep before its runs.
// It panics if p is nil.
func SweepOptimum(p *Problem, fc FastControl, windows, losses []float64, s *Settings, runs int) (float64, error) {
	if runs < 1 {
		return 0, loadlab.Invalid("dual", "Sweep: runs = %d, want ≥ 1", runs)
	}
	if len(windows) == 0 {
		return 0, loadlab.Invalid("dual", "Sweep: no windows")
	}
	losses = sweepLosses(losses)
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

// sweepLosses is losses, or {0} if empty.
func sweepLosses(losses []float64) []float64 {
	if len(losses) == 0 {
		return []float64{0}
	}
	return losses
}

// sweepBase returns the settings of every run of Sweep.
func sweepBase(s *Settings) Settings {
	var base Settings
	if s != nil {
		base = *s
	}
	base.Rule = Constant
	base.Fixed = true
	base.RecordDual = true
	return base
}

// SweepRun returns run r of point k (window windows[k/len(losses)], loss
// losses[k%len(losses)]) of Sweep(p, fc, windows, losses, s, runs, seed),
// with pstar from SweepOptimum for the same arguments. It returns an
// error wrapping loadlab.ErrInvalid if k or r is out of range or pstar is
// not finite, and the
// error of the run's Solve. It panics if p is nil.
func SweepRun(p *Problem, fc FastControl, windows, losses []float64, s *Settings, pstar float64, runs int, seed uint64, k, r int) (SweepSample, error) {
	losses = sweepLosses(losses)
	if k < 0 || k >= len(windows)*len(losses) || r < 0 || r >= runs {
		return SweepSample{}, loadlab.Invalid("dual", "SweepRun: point k = %d, run r = %d, want 0 ≤ k < %d and 0 ≤ r < %d", k, r, len(windows)*len(losses), runs)
	}
	if math.IsNaN(pstar) || math.IsInf(pstar, 0) {
		return SweepSample{}, loadlab.Invalid("dual", "SweepRun: pstar = %v, want the finite optimum from SweepOptimum", pstar)
	}
	if err := s.Validate(); err != nil {
		return SweepSample{}, err
	}
	return sweepRun(p, fc, windows, losses, sweepBase(s), pstar, seed, k, r)
}

// sweepRun is SweepRun with base = sweepBase(s) and valid arguments.
func sweepRun(p *Problem, fc FastControl, windows, losses []float64, base Settings, pstar float64, seed uint64, k, r int) (SweepSample, error) {
	f := fc
	f.Window = windows[k/len(losses)]
	f.Loss = losses[k%len(losses)]
	f.Src = mc.Source(seed, uint64(k), uint64(r))
	set := base
	set.FastControl = &f
	res, err := Solve(p, &set)
	if err != nil {
		return SweepSample{}, err
	}
	tail := res.Dual[len(res.Dual)*3/4:]
	var g float64
	for _, d := range tail {
		g += pstar - d
	}
	return SweepSample{Gap: g / float64(len(tail)), BetaErr: res.BetaErr, Packets: res.Packets}, nil
}

// SweepSummary returns Sweep's points from its samples in index order
// (samples[k·runs + r] is run r of point k). It panics if the number of
// samples is not len(windows)·len(losses)·runs (a programmer error).
func SweepSummary(fc FastControl, windows, losses []float64, runs int, samples []SweepSample) []SweepPoint {
	losses = sweepLosses(losses)
	npt := len(windows) * len(losses)
	if runs < 1 || len(samples) != npt*runs {
		panic(fmt.Sprintf("dual: SweepSummary: %d samples for %d points × %d runs", len(samples), npt, runs))
	}
	pts := make([]SweepPoint, npt)
	gaps := make([]float64, runs)
	for k := range pts {
		pt := SweepPoint{Window: windows[k/len(losses)], Loss: losses[k%len(losses)], Gamma: fc.Gamma}
		for r := 0; r < runs; r++ {
			j := samples[k*runs+r]
			gaps[r] = j.Gap
			pt.BetaErr += j.BetaErr / float64(runs)
			pt.Packets += j.Packets / float64(runs)
		}
		sum := mc.Summarize(gaps)
		pt.Gap = loadlab.Estimate{Mean: sum.Mean, Lo: sum.Lo, Hi: sum.Hi, StdErr: sum.StdErr, N: sum.N}
		pts[k] = pt
	}
	return pts
}
