package consensus

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// exactSparseCases probes GammaH2: σ, nil, empty and disconnected graphs
// (its refusal above the sparse limits is in denseTooLargeCases).
func exactSparseCases() []badarg.Case {
	g := mustGraph(gen.Cycle(6))
	two := mustGraph(wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}}))
	p := badarg.Probe{Func: "GammaH2"}
	cs := badarg.Probe{Func: "GammaH2", Err: inv, Text: "GammaH2: sigma = %v"}.Scalar("sigma", badarg.NonNegative, func(sg float64) error { _, _, err := GammaH2(g, sg); return err })
	return append(cs,
		p.Panics("g = nil", "consensus: GammaH2: nil graph g", func() { _, _, _ = GammaH2(nil, 1) }),
		badarg.Probe{Func: "GammaH2", Err: inv}.Fails("no nodes", "no nodes", func() error { _, _, err := GammaH2(&wgraph.Graph{}, 1); return err }),
		badarg.Probe{Func: "GammaH2", Err: loadlab.ErrDisconnected}.Fails("two components", "", func() error { _, _, err := GammaH2(two, 1); return err }),
	)
}
