package spectral

import (
	"errors"
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/wgraph"
)

// ResistanceAnalysis keeps the symbolic analysis of a support graph's
// grounded Laplacian (the ground, the fill-reducing ordering, the
// elimination tree and the factor's pattern; spec sparse-cholesky.md §5,
// §8) for a sequence of weightings of its links: Factor(g) then costs the
// numeric factorisation alone, where NewResistance(g) would analyse g
// again. A link of the support that g lacks (weight zero) is kept in the
// pattern as an explicit zero, so every subgraph of the support has the
// support's pattern. It is safe for concurrent use.
type ResistanceAnalysis struct {
	support *wgraph.Graph
	ga      *groundedAnalysis // nil on the dense path
}

// AnalyzeResistance analyses the support graph for NewResistance's sparse
// path, by NewResistance's rule: when the sparse path should run (Path
// is Sparse) the analysis is kept; otherwise there is none to keep and
// Factor calls NewResistance. It returns the errors of NewResistance's
// analysis: one if support is disconnected or has no nodes, and one
// wrapping loadlab.ErrTooLarge above DenseMaxNodes when the sparse
// factor does not fit. It panics if support is nil.
func AnalyzeResistance(support *wgraph.Graph) (*ResistanceAnalysis, error) {
	if support == nil {
		panic("spectral: AnalyzeResistance: nil graph support")
	}
	if err := wgraph.CheckConnected(support); err != nil {
		return nil, err
	}
	ga, aerr := choosePath(support, sparseSettings)
	if ga == nil {
		if n := support.Order(); n > DenseMaxNodes {
			return nil, loadlab.TooLarge("spectral", "AnalyzeResistance: n = %d nodes > DenseMaxNodes = %d (the dense O(n³) path) and the sparse path is refused (%v); the estimate package estimates with 95 %% intervals", n, DenseMaxNodes, aerr)
		}
	}
	return &ResistanceAnalysis{support: support, ga: ga}, nil
}

// Path returns the path Factor takes: Sparse with the analysis kept,
// Dense when the support is better served by the dense path.
func (ra *ResistanceAnalysis) Path() Path {
	if ra.ga != nil {
		return Sparse
	}
	return Dense
}

// Report returns the predicted size and cost of the sparse factor, and
// the zero Report on the dense path.
func (ra *ResistanceAnalysis) Report() cholesky.Report {
	if ra.ga == nil {
		return cholesky.Report{}
	}
	return ra.ga.sym.Report()
}

// Factor returns the Resistance of g, whose edges must be links of the
// support (with any positive weights; a link g lacks counts as weight
// zero), from the kept analysis: the numeric factorisation and nothing
// more. Its values are those of NewResistance(g) to rounding (the ground
// and ordering are the support's, so not bit for bit); on the dense path
// it is NewResistance(g). It returns an error wrapping loadlab.ErrInvalid
// if g has another order than the support or an edge the support lacks
// (a pattern change is refused, never silently analysed afresh), and
// NewResistance's errors: one if g is disconnected, one wrapping
// loadlab.ErrIllConditioned if the factored matrix is too ill
// conditioned. It panics if g is nil.
func (ra *ResistanceAnalysis) Factor(g *wgraph.Graph) (*Resistance, error) {
	if g == nil {
		panic("spectral: ResistanceAnalysis.Factor: nil graph g")
	}
	if g.Order() != ra.support.Order() {
		return nil, loadlab.Invalid("spectral", "ResistanceAnalysis.Factor: the graph has %d nodes, the analysed support %d", g.Order(), ra.support.Order())
	}
	if ra.ga == nil {
		if ok, e := edgesWithin(ra.support, g); !ok {
			return nil, notInSupport("ResistanceAnalysis.Factor", e)
		}
		return NewResistance(g)
	}
	a, ok, e := laplacianOn(ra.support, g, 0, 1, ra.ga.r)
	if !ok {
		return nil, notInSupport("ResistanceAnalysis.Factor", e)
	}
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, err
	}
	sp, err := factorPinv(ra.ga, g, a)
	if err != nil {
		return nil, err
	}
	return &Resistance{n: g.Order(), g: g, sp: sp}, nil
}

// edgesWithin reports whether every edge of g is an edge of support (of
// the same order), and else returns the first that is not, as u, v.
func edgesWithin(support, g *wgraph.Graph) (bool, [2]int) {
	for u := range g.Order() {
		sv, k := support.Neighbors(u), 0
		for _, v := range g.Neighbors(u) {
			for k < len(sv) && sv[k] < v {
				k++
			}
			if k == len(sv) || sv[k] != v {
				return false, [2]int{u, int(v)}
			}
		}
	}
	return true, [2]int{}
}

// notInSupport is the error for an edge outside the analysed pattern.
func notInSupport(fn string, e [2]int) error {
	return loadlab.Invalid("spectral", "%s: the graph's edge {%d, %d} is not a link of the analysed support (a new pattern needs a new analysis)", fn, e[0], e[1])
}

// FactorGraph returns the sparse Cholesky factor of c I + s L(g) for a
// graph g whose edges are links of the graph sl was made from (with any
// weights; a link g lacks counts as weight zero), on sl's analysis: the
// numeric factorisation alone, for a sequence of weightings of one
// support. It returns Factor's errors, and one wrapping
// loadlab.ErrInvalid if g has another order or an edge outside sl's
// graph (a pattern change is refused, never silently analysed afresh).
// It panics if g is nil, and on the dense path (Path() == Dense with no
// analysis made).
func (sl *ShiftedLaplacian) FactorGraph(g *wgraph.Graph, c, s float64) (*cholesky.Factor, error) {
	if g == nil {
		panic("spectral: ShiftedLaplacian.FactorGraph: nil graph g")
	}
	if sl.sym == nil {
		panic("spectral: ShiftedLaplacian.FactorGraph: the graph is dense; no sparse analysis was made")
	}
	if g.Order() != sl.g.Order() {
		return nil, loadlab.Invalid("spectral", "ShiftedLaplacian.FactorGraph: the graph has %d nodes, the analysed one %d", g.Order(), sl.g.Order())
	}
	a, ok, e := laplacianOn(sl.g, g, c, s, -1)
	if !ok {
		return nil, notInSupport("ShiftedLaplacian.FactorGraph", e)
	}
	return sl.sym.Factor(a)
}

// factorPinv is newSparsePinv for g's grounded Laplacian a, built on the
// analysis ga.
func factorPinv(ga *groundedAnalysis, g *wgraph.Graph, a *cholesky.Matrix) (*sparsePinv, error) {
	f, err := ga.sym.Factor(a)
	if err != nil {
		if errors.Is(err, loadlab.ErrIllConditioned) {
			return nil, fmt.Errorf("spectral: the grounded Laplacian (L without row and column %d): %w", ga.r, err)
		}
		return nil, err
	}
	return pinvFromFactor(ga, g, f), nil
}
