package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// linkCV is the control variate of the link certificate's sketch (spec
// §13.13, "Control variate"): p(L), the Chebyshev interpolant of 1/λ of
// degree H on [a, b] of the input graph (the local path's polynomial,
// §13.12), with ‖p(L)b_e‖ of every candidate exact from its local
// moments. The sketch then bounds only ‖(L† − p(L))b_e‖ (or
// ‖(L_k† − p(L))b_e‖ at the answer), a small part of ‖L†b_e‖ on an
// expander, and ‖L†b_e‖ ≤ ‖p(L)b_e‖ + ‖(L† − p(L))b_e‖.
type linkCV struct {
	pl    localPlan
	pnorm []float64 // ‖p(L)b_e‖ per candidate
}

// linkCVWork is the work per endpoint of a candidate's moments (edge
// visits, on average): H = 3 on a random 6-regular graph, where the
// 1.5·10⁷ candidates within two hops of 10⁶ nodes make H = 4 cost more
// than the rest of the certificate.
const linkCVWork = 500

// linkCVRate is the largest Chebyshev rate ρ^(−H) at which the
// certificate uses the control variate (random 6-regular, H = 3: 0.12,
// which took the gap over the improvement from 2.3 to 0.89 at 10⁵
// nodes); on slowly mixing graphs (tori, grids) the polynomial leaves
// most of ‖L†b‖ to the sketch and only costs.
const linkCVRate = 0.25

// linkCVOff switches the control variate off (for the tests' comparison).
var linkCVOff bool

// newLinkCV returns the control variate of g's candidates, or nil when
// its polynomials converge too slowly there (rate above linkCVRate) or
// the depth is below 2.
func newLinkCV(g *wgraph.Graph, cands []wgraph.Edge) (*linkCV, error) {
	if linkCVOff {
		return nil, nil
	}
	pl, err := newLocalPlan(g, kpm.Depth(g, linkCVWork, localMaxDepth))
	if err != nil || pl.h < 2 || pl.rate() > linkCVRate {
		return nil, err
	}
	if err := size.Check("consensus", "AddLinks: control variate", len(cands), 8); err != nil {
		return nil, err
	}
	mc, err := newMomentCtx(g)
	if err != nil {
		return nil, err
	}
	cv := &linkCV{pl: pl, pnorm: make([]float64, len(cands))}
	d := quadCoef(pl.inv)
	mc.pairs(pl, len(cands), func(i int) (int, int) { return cands[i].U, cands[i].V }, func(i int, mu []float64) {
		var q float64
		for k, x := range mu {
			q += d[k] * x
		}
		cv.pnorm[i] = math.Sqrt(max(q, 0))
	})
	return cv, nil
}

// apply returns p(L) G for the node-major n × cols block gd of the
// sketch's columns G (applyPoly).
func (cv *linkCV) apply(g *wgraph.Graph, gd []float64, cols int) []float64 {
	return applyPoly(g, cv.pl.basis, cv.pl.inv, gd, cols)
}
