package codedload

import (
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
)

// TailPoint is one point of a tail study (spec §12.1): the point's X, its
// piece count, the mean maximum load with its 95 % interval, and for each
// threshold c the estimate of P[L_max > c] with its exact (Clopper–Pearson)
// 95 % interval over the runs.
type TailPoint struct {
	X       float64
	Ell     int
	MaxLoad loadlab.Estimate
	// Tail[i] estimates P[L_max > thresholds[i]]; its N is the runs.
	Tail []loadlab.Estimate
}

// Tails returns, for each threshold c, the share of the runs of p whose
// maximum load exceeds c, with its Clopper–Pearson 95 % interval (spec
// §12.1). It works on any PointResult, in particular on those of a
// sharded loadlab sweep. It returns an error wrapping loadlab.ErrInvalid
// if p has no runs or a threshold is not finite, and panics if a run is
// nil.
func Tails(p PointResult, thresholds []float64) ([]loadlab.Estimate, error) {
	if len(p.Runs) == 0 {
		return nil, loadlab.Invalid(pkg, "Tails: the point has no runs (PointResult.Runs is empty)")
	}
	if err := checkThresholds("Tails", thresholds); err != nil {
		return nil, err
	}
	out := make([]loadlab.Estimate, len(thresholds))
	for i, c := range thresholds {
		k := 0
		for _, r := range p.Runs {
			if r.MaxLoad > c {
				k++
			}
		}
		out[i] = mc.Binomial(k, len(p.Runs))
	}
	return out, nil
}

func checkThresholds(fn string, thresholds []float64) error {
	if len(thresholds) == 0 {
		return loadlab.Invalid(pkg, "%s: thresholds = [], want at least one", fn)
	}
	for i, c := range thresholds {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return loadlab.Invalid(pkg, "%s: thresholds[%d] = %v, want a finite value", fn, i, c)
		}
	}
	return nil
}

// TailStudy runs the points as Sweep(points, runs, seed, set) does (run r
// of point i on the streams loadlab.Stream(seed, i, r, ·)) and returns, at
// every point, the mean maximum load and P[L_max > c] for each threshold
// c with exact binomial 95 % intervals (spec §12.1). Build the points with
// SizePoints for a study against n. Errors are those of Sweep and of
// Tails; with a Precision, a point stopped at its cap gives every point's
// result with Sweep's error wrapping loadlab.ErrNotConverged.
func TailStudy(points []Point, runs int, thresholds []float64, seed uint64, set *SweepSettings) ([]TailPoint, error) {
	if err := checkThresholds("TailStudy", thresholds); err != nil {
		return nil, err
	}
	res, err := Sweep(points, runs, seed, set)
	if res == nil {
		return nil, err
	}
	out := make([]TailPoint, len(res))
	for i, p := range res {
		tail, terr := Tails(p, thresholds)
		if terr != nil {
			return nil, terr
		}
		out[i] = TailPoint{X: p.X, Ell: p.Runs[0].Ell, MaxLoad: p.MaxLoad, Tail: tail}
	}
	return out, err
}

// LineFit is the straight line y ≈ Intercept + Slope·x through per-point
// means (spec §12.2): the least-squares line over all the runs, that is
// the line through the means weighted by their run counts, with 95 %
// intervals from the per-point standard errors. N of each estimate is
// the number of points.
type LineFit struct {
	Slope, Intercept loadlab.Estimate
	// Runs is the total run count behind the means.
	Runs int
}

// FitLine fits y against x by least squares over the runs behind the
// means ys[i] (weights ys[i].N, spec §12.2) and returns the slope and the
// intercept with normal 95 % intervals whose variance comes from the
// per-point standard errors (ys[i].StdErr), so a point whose variance
// differs from the others' is weighed rightly in the error. The slope is
// that of the best straight line over the range of xs: where the mean is
// not linear in x, it is the average gradient over the design, and the
// interval covers that. It returns an error wrapping loadlab.ErrInvalid
// if the lengths differ, there are fewer than 2 points, an x or a mean is
// not finite, a StdErr is negative or not finite, an N is below 1, or all
// x are equal.
func FitLine(xs []float64, ys []loadlab.Estimate) (LineFit, error) {
	if err := checkFit(xs, ys); err != nil {
		return LineFit{}, err
	}
	var w, xbar, ybar float64
	for i, y := range ys {
		wi := float64(y.N)
		w += wi
		xbar += wi * xs[i]
		ybar += wi * y.Mean
	}
	xbar /= w
	ybar /= w
	var sxx, sxy float64
	for i, y := range ys {
		d := xs[i] - xbar
		sxx += float64(y.N) * d * d
		sxy += float64(y.N) * d * (y.Mean - ybar)
	}
	if !(sxx > 0) {
		return LineFit{}, loadlab.Invalid(pkg, "FitLine: xs = %v, want at least two different values", xs)
	}
	slope := sxy / sxx
	icpt := ybar - slope*xbar
	// Var(slope) = Σ (N_i d_i/Sxx)² SE_i², and the intercept ȳ − slope·x̄
	// has the weights N_i (1/W − x̄ d_i/Sxx) on the means.
	var vs, vi float64
	for i, y := range ys {
		d := xs[i] - xbar
		a := float64(y.N) * d / sxx
		b := float64(y.N) * (1/w - xbar*d/sxx)
		se2 := y.StdErr * y.StdErr
		vs += a * a * se2
		vi += b * b * se2
	}
	est := func(m, v float64) loadlab.Estimate {
		se := math.Sqrt(v)
		return loadlab.Estimate{Mean: m, Lo: m - z95*se, Hi: m + z95*se, StdErr: se, N: len(xs)}
	}
	return LineFit{Slope: est(slope, vs), Intercept: est(icpt, vi), Runs: int(w)}, nil
}

// z95 is the two-sided 95 % quantile of the normal law.
const z95 = 1.959963984540054

func checkFit(xs []float64, ys []loadlab.Estimate) error {
	if len(xs) != len(ys) {
		return loadlab.Invalid(pkg, "FitLine: len(xs) = %d, len(ys) = %d, want equal lengths", len(xs), len(ys))
	}
	if len(xs) < 2 {
		return loadlab.Invalid(pkg, "FitLine: %d points, want ≥ 2", len(xs))
	}
	for i, x := range xs {
		y := ys[i]
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			return loadlab.Invalid(pkg, "FitLine: xs[%d] = %v, want a finite value", i, x)
		case math.IsNaN(y.Mean) || math.IsInf(y.Mean, 0):
			return loadlab.Invalid(pkg, "FitLine: ys[%d].Mean = %v, want a finite value", i, y.Mean)
		case !(y.StdErr >= 0) || math.IsInf(y.StdErr, 1):
			return loadlab.Invalid(pkg, "FitLine: ys[%d].StdErr = %v, want a finite value ≥ 0", i, y.StdErr)
		case y.N < 1:
			return loadlab.Invalid(pkg, "FitLine: ys[%d].N = %d, want ≥ 1", i, y.N)
		}
	}
	return nil
}

// ScaledEll returns ℓ = max(1, round(c·ln n)), the piece count of the
// coded scheme with ℓ = c·ln n (spec §12.2). It returns an error wrapping
// loadlab.ErrInvalid unless c is finite and > 0 and n ≥ 1, and one
// wrapping loadlab.ErrTooLarge if ℓ exceeds 2^24.
func ScaledEll(c float64, n int) (int, error) {
	switch {
	case !(c > 0) || math.IsInf(c, 1):
		return 0, loadlab.Invalid(pkg, "ScaledEll: c = %v, want a finite value > 0", c)
	case n < 1:
		return 0, loadlab.Invalid(pkg, "ScaledEll: n = %d, want ≥ 1", n)
	}
	l := math.Round(c * math.Log(float64(n)))
	if l > maxSlots {
		return 0, loadlab.TooLarge(pkg, "ScaledEll: c·ln n = %v·ln %d, want ≤ 2^24", c, n)
	}
	return max(1, int(l)), nil
}

// SlopeCurve is the maximum load of one strategy against n with the
// fitted slope of E[L_max] against ln n (spec §12.2).
type SlopeCurve struct {
	Name string
	// C is the constant of ℓ = c·ln n (0 for a strategy with fixed ℓ).
	C      float64
	Points []PointResult // X = n
	// Fit is E[L_max] ≈ a + b·ln n over Points.
	Fit LineFit
}

// SlopeStudy runs every variant at every n in ns as CompareSizes does
// and fits each one's mean maximum load against ln n (FitLine, spec
// §12.2). For each c in cs, a variant with base's Coded strategy and
// ℓ = ScaledEll(c, n) is added after variants (named "coded c=…"), so
// variants may hold the baselines. A flat curve (slope interval
// containing 0, or a slope far below nearest replica's) is the numerical
// form of the O(1) claim. Errors are those of ScaledEll, CompareSizes and
// FitLine; an error wrapping loadlab.ErrInvalid if cs is not empty and
// base's strategy is not a Coded, or if no curve is asked for. It panics
// as CompareSizes does.
func SlopeStudy(ns []int, fam Family, base Config, cs []float64, variants []Variant, runs func(n int) int, seed uint64, set *SweepSettings) ([]SlopeCurve, error) {
	vs := slices.Clone(variants)
	for i, c := range cs {
		cd, ok := base.Strategy.(Coded)
		if !ok {
			return nil, loadlab.Invalid(pkg, "SlopeStudy: base.Strategy = %v, want a Coded for cs", base.Strategy)
		}
		if !(c > 0) || math.IsInf(c, 1) {
			return nil, loadlab.Invalid(pkg, "SlopeStudy: cs[%d] = %v, want a finite value > 0", i, c)
		}
		for _, n := range ns {
			if _, err := ScaledEll(c, n); err != nil {
				return nil, fmt.Errorf("cs[%d]: %w", i, err)
			}
		}
		cfg := base
		cfg.Strategy = cd
		vs = append(vs, Variant{Name: fmt.Sprintf("coded c=%g", c), Config: cfg,
			Ell: func(n int) int { l, _ := ScaledEll(c, n); return l }})
	}
	if len(vs) == 0 {
		return nil, loadlab.Invalid(pkg, "SlopeStudy: no cs and no variants, want at least one curve")
	}
	curves, err := CompareSizes(ns, fam, vs, runs, seed, set)
	if curves == nil {
		return nil, err
	}
	out := make([]SlopeCurve, len(curves))
	for i, cv := range curves {
		out[i] = SlopeCurve{Name: cv.Name, Points: cv.Points}
		if j := i - len(variants); j >= 0 {
			out[i].C = cs[j]
		}
		fit, ferr := fitAgainst(cv.Points, math.Log)
		if ferr != nil {
			return nil, fmt.Errorf("curve %q: %w", cv.Name, ferr)
		}
		out[i].Fit = fit
	}
	return out, err
}

// fitAgainst fits the mean maximum loads of pts against f(n).
func fitAgainst(pts []PointResult, f func(float64) float64) (LineFit, error) {
	xs := make([]float64, len(pts))
	ys := make([]loadlab.Estimate, len(pts))
	for i, p := range pts {
		xs[i], ys[i] = f(p.X), p.MaxLoad
	}
	return FitLine(xs, ys)
}
