package consensus

import (
	"github.com/loadlab/loadlab"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// kurtosisDF returns the degrees of freedom of the sample variance of
// vals matched by Satterthwaite's rule (spec throttlers.md §12.15): for
// N independent values of excess kurtosis κ, Var(s²) = σ⁴(2/(N − 1) +
// κ/N), so s² is taken as σ²χ²_ν/ν with ν = (N − 1)/(1 + κ̂(N − 1)/(2N)),
// κ̂ the sample excess kurtosis clamped at 0: N − 1 for a sample that
// looks normal, fewer when the tails are heavy.
func kurtosisDF(vals []float64) float64 {
	n := float64(len(vals))
	if len(vals) < 4 {
		return n - 1
	}
	k := stat.ExKurtosis(vals, nil)
	if !(k > 0) {
		return n - 1
	}
	return (n - 1) / (1 + k*(n-1)/(2*n))
}

// kurtosisT returns e, a lanczos.BracketEstimate of the mean of vals
// carrying the bias bound bias, with its 95 % interval rebuilt from the
// Student-t of kurtosisDF(vals) degrees of freedom, and that number. It
// is the interval the γ* searches invert (spec throttlers.md §12.15).
func kurtosisT(e loadlab.Estimate, bias float64, vals []float64) (loadlab.Estimate, float64) {
	df := kurtosisDF(vals)
	if len(vals) < 2 || df >= float64(len(vals)-1) {
		return e, float64(len(vals) - 1)
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975)
	e.Lo, e.Hi = e.Mean-t*e.StdErr-bias, e.Mean+t*e.StdErr+bias
	return e, df
}

// rho2Points is the number of equally spaced γ of γ*'s interval at which
// rho2Union evaluates ρ₂'s interval, besides γ̂.
const rho2Points = 16

// rho2Union returns rho2, the estimate of ρ₂ at γ̂ = gam.Mean, with its
// interval widened to the union of the intervals at rho2Points equally
// spaced γ of [gam.Lo, gam.Hi] (at = the estimate at γ): an interval of
// ρ₂(γ*) = min ρ₂, which holds it whenever γ* is in [Lo, Hi] and ρ₂'s
// interval at γ* holds ρ₂(γ*) (spec throttlers.md §12.15). gam.N = 0 (no
// root found) leaves rho2 as it is.
func rho2Union(gam, rho2 loadlab.Estimate, at func(float64) loadlab.Estimate) loadlab.Estimate {
	if gam.N == 0 {
		return rho2
	}
	for i := range rho2Points {
		r := at(gam.Lo + (gam.Hi-gam.Lo)*float64(i)/float64(rho2Points-1))
		rho2.Lo, rho2.Hi = min(rho2.Lo, r.Lo), max(rho2.Hi, r.Hi)
	}
	return rho2
}
