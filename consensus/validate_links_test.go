package consensus

import (
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
)

// linkCases probes AddLinks, its settings, Candidates and LinkStability.
func linkCases() []badarg.Case {
	g := path5()
	good := []wgraph.Edge{{U: 0, V: 2}, {U: 1, V: 3}}
	add := func(c []wgraph.Edge, k int, s *LinkSettings) error {
		_, err := AddLinks(g, c, k, s, rand.NewPCG(1, 1))
		return err
	}
	p := badarg.Probe{Func: "AddLinks", Err: inv}
	set := func(s *LinkSettings) error { return add(good, 1, s) }
	cs := badarg.Fields(p, LinkSettings{}, badarg.NonNegative, set, "Weight", "Sketch", "Pool", "CertSketch", "Confirm", "FrankWolfe", "Gamma", "GammaEvery")
	cs = append(cs,
		p.Fails("k = 3 > 2 candidates", "k = 3", func() error { return add(good, 3, nil) }),
		p.Fails("k = -1", "k = -1", func() error { return add(good, -1, nil) }),
		p.Fails("existing edge", "already an edge", func() error { return add([]wgraph.Edge{{U: 1, V: 2}}, 1, nil) }),
		p.Fails("self-loop", "self-loop", func() error { return add([]wgraph.Edge{{U: 2, V: 2}}, 1, nil) }),
		p.Fails("node 5", "want nodes in [0, 5)", func() error { return add([]wgraph.Edge{{U: 0, V: 5}}, 1, nil) }),
		p.Fails("W = -1", "candidates[0].W = -1", func() error { return add([]wgraph.Edge{{U: 0, V: 2, W: -1}}, 1, nil) }),
		p.Fails("W = NaN", "candidates[0].W = NaN", func() error { return add([]wgraph.Edge{{U: 0, V: 2, W: nan}}, 1, nil) }),
		p.Fails("W = Inf", "candidates[0].W = +Inf", func() error { return add([]wgraph.Edge{{U: 0, V: 2, W: inf}}, 1, nil) }),
		p.Fails("Method = 7", "LinkSettings.Method = 7", func() error { return set(&LinkSettings{Method: 7}) }),
		p.Fails("Objective = 7", "LinkSettings.Objective = 7", func() error { return set(&LinkSettings{Objective: 7}) }),
		p.Fails("LinkRho2 without Gamma", "LinkSettings.Gamma = 0", func() error { return set(&LinkSettings{Objective: LinkRho2}) }),
		p.Fails("Miss = 1", "LinkSettings.Miss = 1", func() error { return set(&LinkSettings{Miss: 1}) }),
		p.Fails("Miss = NaN", "LinkSettings.Miss = NaN", func() error { return set(&LinkSettings{Miss: nan}) }),
		p.Fails("Trace.RelAcc = 2", "TraceSettings.RelAcc = 2", func() error { return set(&LinkSettings{Trace: &estimate.TraceSettings{RelAcc: 2}}) }),
		p.Fails("Solver.Tol = NaN", "Settings.Tol = NaN", func() error { return set(&LinkSettings{Solver: &laplacian.Settings{Tol: nan}}) }),
		badarg.Probe{Func: "AddLinks", Err: loadlab.ErrDisconnected}.Fails("two components", "", func() error {
			_, err := AddLinks(twoComponents(), nil, 0, nil, nil)
			return err
		}),
		badarg.Probe{Func: "AddLinks", Err: tooLarge}.Fails("LinkExact at 2·10⁵ nodes", "AddLinks (LinkExact)", func() error {
			big := mustGraph(wgraph.FromEdges(200000, pathEdges(200000)))
			_, err := AddLinks(big, nil, 0, &LinkSettings{Method: LinkExact}, nil)
			return err
		}),
		p.Panics("g = nil", "nil graph", func() { _, _ = AddLinks(nil, good, 1, nil, nil) }),
		p.Panics("src = nil (LinkSketch)", "nil rand.Source", func() { _, _ = AddLinks(g, good, 1, &LinkSettings{Method: LinkSketch}, nil) }),
	)
	v := badarg.Probe{Func: "LinkSettings.Validate", Err: inv}
	cs = append(cs, v.Fails("Pool = -1", "LinkSettings.Pool = -1", func() error { return (&LinkSettings{Pool: -1}).Validate() }))
	c := badarg.Probe{Func: "Candidates", Err: inv}
	cs = append(cs,
		c.Fails("hops = 0", "hops = 0", func() error { _, err := Candidates(g, 0); return err }),
		c.Panics("g = nil", "nil graph", func() { _, _ = Candidates(nil, 1) }),
	)
	th := &Throttler{Graph: g, Gamma: 0.2}
	ls := badarg.Probe{Func: "LinkStability", Err: inv}
	stab := func(c []wgraph.Edge, w float64) error { _, err := LinkStability(th, c, w); return err }
	cs = append(cs, ls.Scalar("weight", badarg.Positive, func(w float64) error { return stab(good, w) })...)
	return append(cs,
		ls.Fails("self-loop", "candidates[0] = {1, 1}", func() error { return stab([]wgraph.Edge{{U: 1, V: 1}}, 1) }),
		ls.Fails("W = -2", "candidates[0].W = -2", func() error { return stab([]wgraph.Edge{{U: 0, V: 2, W: -2}}, 1) }),
		badarg.Probe{Func: "LinkStability", Err: ErrUnstable}.Fails("γ = 0.6", "", func() error {
			_, err := LinkStability(&Throttler{Graph: g, Gamma: 0.6}, good, 1)
			return err
		}),
		ls.Panics("th = nil", "", func() { _, _ = LinkStability(nil, good, 1) }),
	)
}

func pathEdges(n int) []wgraph.Edge {
	es := make([]wgraph.Edge, n-1)
	for i := range es {
		es[i] = wgraph.Edge{U: i, V: i + 1, W: 1}
	}
	return es
}
