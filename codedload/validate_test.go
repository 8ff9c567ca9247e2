package codedload

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// exactCases probes the closed forms of spec §6: FileCost, Cost, Outage,
// the maxima of Poisson and binomial counts, Harmonic,
// ZipfPMF and the alias table.
func exactCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "FileCost", Err: inv}
	fileCost := func(p float64, m, ell int, balls []int) error { _, err := FileCost(p, m, ell, balls); return err }
	add(p.Scalar("p", badarg.Unit, func(x float64) error { return fileCost(x, 1, 1, nil) })...)
	add(p.Int("m", badarg.Positive, func(m int) error { return fileCost(0.1, m, 1, nil) })...)
	add(p.Int("ell", badarg.Positive, func(ell int) error { return fileCost(0.1, 1, ell, nil) })...)
	add(
		p.Fails("balls not increasing", "codedload: FileCost: balls[2] = 3", func() error { return fileCost(0.1, 1, 1, []int{1, 5, 3}) }),
		p.Fails("balls empty", "codedload: FileCost: balls = []", func() error { return fileCost(0.1, 1, 1, []int{}) }),
	)
	// Work beyond any budget is refused at once (guards: the infinite-grid
	// series of FileCost(1e-300, 1, 1, nil), ≈ 7e149 terms, never ending).
	tl := badarg.Probe{Func: "FileCost", Err: tooLarge}
	add(
		tl.Fails("p = 1e-300", "codedload: ", func() error { return fileCost(1e-300, 1, 1, nil) }),
		tl.Fails("p = 1e-14, ell = 1000", "codedload: ", func() error { return fileCost(1e-14, 1, 1000, nil) }),
		tl.Fails("m·ell overflows", "codedload: ", func() error { return fileCost(0.5, 1<<40, 1<<30, nil) }),
		tl.Fails("diameter·ell = 2e9 terms", "codedload: ", func() error { return fileCost(0.01, 2, 1<<20, (&Torus{Side: 2000}).Balls()) }),
	)
	p = badarg.Probe{Func: "Cost", Err: inv}
	add(p.Entries("p", []float64{0.5, 0.5}, 1, badarg.Unit, func(x []float64) error { _, err := Cost(x, 1, 1, nil); return err })...)
	add(p.Fails("p = nil", "codedload: ", func() error { _, err := Cost(nil, 1, 1, nil); return err }))
	add(p.Int("m", badarg.Positive, func(m int) error { _, err := Cost([]float64{1}, m, 1, nil); return err })...)
	p = badarg.Probe{Func: "Outage", Err: inv}
	add(p.Entries("p", []float64{0.5, 0.5}, 0, badarg.Unit, func(x []float64) error { _, err := Outage(x, 10, 1, 1); return err })...)
	// The sizes are named together: "n, m, ell = 0, 1, 1".
	p.Text = "n, m, ell = %v, 1, 1"
	add(p.Int("n", badarg.Positive, func(n int) error { _, err := Outage([]float64{1}, n, 1, 1); return err })...)
	p.Text = "n, m, ell = 10, %v, 1"
	add(p.Int("m", badarg.Positive, func(m int) error { _, err := Outage([]float64{1}, 10, m, 1); return err })...)
	p.Text = "n, m, ell = 10, 1, %v"
	add(p.Int("ell", badarg.Positive, func(l int) error { _, err := Outage([]float64{1}, 10, 1, l); return err })...)
	add(badarg.Probe{Func: "Outage", Err: tooLarge}.Fails("n·m·ell overflows", "codedload: ", func() error {
		_, err := Outage([]float64{0.5, 0.5}, 1<<40, 1<<30, 1<<10)
		return err
	}))
	for name, f := range map[string]func(int) (float64, error){"MaxPoissonMean": MaxPoissonMean, "MaxBinomialMean": MaxBinomialMean} {
		// Guards: MaxPoissonMean(-1) returning −2.19.
		add(badarg.Probe{Func: name, Err: inv}.Int("n", badarg.Positive, func(n int) error { _, err := f(n); return err })...)
	}
	for name, f := range map[string]func(int, float64) error{
		"Harmonic": func(k int, g float64) error { _, err := Harmonic(k, g); return err },
		"ZipfPMF":  func(k int, g float64) error { _, err := ZipfPMF(k, g); return err },
	} {
		// K and γ are the library size and the exponent of Config, and
		// named so.
		p = badarg.Probe{Func: name, Err: inv, Text: "Files = %v"}
		add(p.Int("k", badarg.Positive, func(k int) error { return f(k, 1) })...)
		p.Text = "Gamma = %v"
		add(p.Scalar("gamma", badarg.NonNegative, func(g float64) error { return f(10, g) })...)
		// Sizes refused before allocating (guards: an out-of-memory crash
		// for ZipfPMF(2^40), 2^40 powers summed by Harmonic).
		add(badarg.Probe{Func: name, Err: tooLarge}.Fails("k = 2^40", "codedload: ", func() error { return f(1<<40, 1) }))
	}
	p = badarg.Probe{Func: "NewAlias", Err: inv}
	add(p.Entries("w", []float64{1, 2, 3}, 1, badarg.NonNegative, func(w []float64) error { _, err := NewAlias(w); return err })...)
	add(
		p.Fails("w = nil", "codedload: ", func() error { _, err := NewAlias(nil); return err }),
		p.Fails("w all zero", "codedload: ", func() error { _, err := NewAlias([]float64{0, 0}); return err }),
		p.Fails("Σ w = +Inf", "codedload: ", func() error { _, err := NewAlias([]float64{1e308, 1e308}); return err }),
	)
	add(badarg.Probe{Func: "Alias.Draw"}.Panics("src = nil", "codedload: Alias.Draw: nil rand.Source", func() {
		must(NewAlias([]float64{1, 2})).Draw(nil)
	}))
	return cs
}

// topologyCases probes the closed-form topologies, the graph topologies
// and the families.
func topologyCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "NewTorus", Err: inv, Text: "torus Order = %v"}
	add(p.Int("n", badarg.Positive, func(n int) error { _, err := NewTorus(n); return err })...)
	add(p.Fails("n = 10, not a square", "", func() error { _, err := NewTorus(10); return err }))
	// Guards: NewTorus(2^40) accepted with side 2^20 although Validate caps
	// the side at 46340.
	for _, n := range []int{1 << 40, 46341 * 46341} {
		add(badarg.Probe{Func: "NewTorus", Err: tooLarge}.Fails("n beyond 46340²", "", func() error { _, err := NewTorus(n); return err }))
	}
	p = badarg.Probe{Func: "NewGrid", Err: inv, Text: "Grid Rows×Cols = %v×2"}
	add(p.Int("rows", badarg.Positive, func(r int) error { _, err := NewGrid(r, 2); return err })...)
	p.Text = "Grid Rows×Cols = 2×%v"
	add(p.Int("cols", badarg.Positive, func(c int) error { _, err := NewGrid(2, c); return err })...)
	// Guards: products that wrapped to a small value or to 0.
	for _, rc := range [][2]int{{1 << 40, 1 << 30}, {1 << 32, 1 << 32}} {
		add(badarg.Probe{Func: "NewGrid", Err: tooLarge}.Fails("rows·cols overflows", "", func() error { _, err := NewGrid(rc[0], rc[1]); return err }))
	}
	p = badarg.Probe{Func: "NewHypercube", Err: inv, Text: "hypercube Order = %v"}
	add(p.Int("n", badarg.Positive, func(n int) error { _, err := NewHypercube(n); return err })...)
	add(p.Fails("n = 3", "", func() error { _, err := NewHypercube(3); return err }))
	add(
		badarg.Probe{Func: "Torus.Validate", Err: inv}.Fails("Side = 0", "Torus.Side = 0", (&Torus{}).Validate),
		badarg.Probe{Func: "Torus.Validate", Err: inv}.Fails("Side = 46341", "Torus.Side = 46341", (&Torus{Side: 46341}).Validate),
		badarg.Probe{Func: "Torus.Validate", Err: inv}.Fails("Metric = 7", "Torus.Metric = 7", (&Torus{Side: 3, Metric: 7}).Validate),
		badarg.Probe{Func: "Grid.Validate", Err: inv}.Fails("Rows = 0", "Grid Rows×Cols = 0×3", (&Grid{Cols: 3}).Validate),
		badarg.Probe{Func: "Grid.Validate", Err: inv}.Fails("Cols = -1", "Grid Rows×Cols = 3×-1", (&Grid{Rows: 3, Cols: -1}).Validate),
		badarg.Probe{Func: "Hypercube.Validate", Err: inv}.Fails("Dim = -1", "Hypercube.Dim", (&Hypercube{Dim: -1}).Validate),
		badarg.Probe{Func: "Hypercube.Validate", Err: inv}.Fails("Dim = 31", "Hypercube.Dim", (&Hypercube{Dim: 31}).Validate),
	)
	// Distances between nodes out of range are programmer errors (guards:
	// Torus.Dist(-1, 5) returning 4).
	g := must(FromGraph(must(gen.Torus(3, 3))))
	for name, top := range map[string]Topology{"Torus.Dist": &Torus{Side: 10}, "Grid.Dist": &Grid{Rows: 2, Cols: 3}, "Hypercube.Dist": &Hypercube{Dim: 3}, "GraphTopology.Dist": g} {
		n := top.Order()
		add(badarg.Probe{Func: name}.Panics("u = -1", "", func() { top.Dist(-1, 0) }))
		add(badarg.Probe{Func: name}.Panics("v = n", "", func() { top.Dist(0, n) }))
	}
	add(badarg.Probe{Func: "Torus.Dist"}.Panics("u = -1", "codedload: Torus.Dist(-1, 5) with n = 100: node out of range", func() { (&Torus{Side: 10}).Dist(-1, 5) }))
	p = badarg.Probe{Func: "FromGraph", Err: inv}
	add(
		p.Fails("one node", "", func() error { _, err := FromGraph(must(wgraph.FromEdges(1, nil))); return err }),
		badarg.Probe{Func: "FromGraph", Err: loadlab.ErrDisconnected}.Fails("disconnected", "", func() error {
			_, err := FromGraph(must(wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}})))
			return err
		}),
		p.Panics("g = nil", "", func() { _, _ = FromGraph(nil) }),
	)
	p = badarg.Probe{Func: "NewRGG", Err: inv, Text: "RGG Order = %v"}
	add(p.Int("n", badarg.Positive, func(n int) error { _, err := NewRGG(n, 0, mc.Source(1)); return err })...)
	add(p.Fails("n = 1", "RGG Order = 1", func() error { _, err := NewRGG(1, 0, mc.Source(1)); return err }))
	p.Text = "RGG radius = %v"
	add(p.Scalar("r", badarg.Finite, func(r float64) error { _, err := NewRGG(50, r, mc.Source(1)); return err })...)
	p.Text = ""
	add(p.Panics("src = nil", "", func() { _, _ = NewRGG(50, 0, nil) }))
	p = badarg.Probe{Func: "NewRegular", Err: inv, Text: "regular graph Order = %v"}
	add(p.Int("n", badarg.Positive, func(n int) error { _, err := NewRegular(n, 3, mc.Source(1)); return err })...)
	p.Text = "regular graph Degree = %v"
	add(p.Int("d", badarg.Positive, func(d int) error { _, err := NewRegular(10, d, mc.Source(1)); return err })...)
	p.Text = ""
	add(
		p.Fails("d = n", "", func() error { _, err := NewRegular(10, 10, mc.Source(1)); return err }),
		p.Fails("n·d odd", "", func() error { _, err := NewRegular(9, 3, mc.Source(1)); return err }),
		p.Panics("src = nil", "", func() { _, _ = NewRegular(10, 3, nil) }),
	)
	for name, fam := range map[string]Family{"TorusFamily": TorusFamily, "HypercubeFamily": HypercubeFamily, "RGGFamily": RGGFamily, "RegularFamily": RegularFamily(3)} {
		p := badarg.Probe{Func: name, Err: inv, Text: "Order = %v"}
		add(p.Int("n", badarg.Positive, func(n int) error { _, err := fam(n, mc.Source(1)); return err })...)
	}
	add(badarg.Probe{Func: "RegularFamily", Err: inv, Text: "regular graph Degree = %v"}.Int("d", badarg.Positive, func(d int) error {
		_, err := RegularFamily(d)(10, mc.Source(1))
		return err
	})...)
	// Arguments that are program constants: documented panics naming them
	// (guards: RGGRadius(0) = NaN, BallRadius(t, 0) = 1).
	for _, n := range []int{0, 1, -3} {
		add(badarg.Probe{Func: "RGGRadius"}.Panics(fmt.Sprintf("n = %d", n), fmt.Sprintf("n = %d", n), func() { RGGRadius(n) }))
	}
	p = badarg.Probe{Func: "BallRadius"}
	add(
		p.Panics("size = -1", "size = -1", func() { BallRadius(&Hypercube{Dim: 4}, -1) }),
		p.Panics("size = 0", "size = 0", func() { BallRadius(&Torus{Side: 5}, 0) }),
		p.Panics("t = nil", "", func() { BallRadius(nil, 5) }),
		p.Panics("t invalid", "", func() { BallRadius(&Torus{Side: -1}, 5) }),
	)
	add(badarg.Probe{Func: "GridBall"}.Panics("d = 2^40", "", func() { GridBall(1 << 40) }))
	// The ball sizes of an invalid topology: documented panics.
	add(
		badarg.Probe{Func: "Torus.Balls"}.Panics("Side = -1", "", func() { (&Torus{Side: -1}).Balls() }),
		badarg.Probe{Func: "Hypercube.Balls"}.Panics("Dim = 40", "", func() { (&Hypercube{Dim: 40}).Balls() }),
	)
	return cs
}

// configCases probes Config, the strategies and Run.
func configCases() []badarg.Case {
	base := Config{Topology: &Torus{Side: 10}, Files: 10, Cache: 2}
	var cs []badarg.Case
	for _, fn := range []string{"Config.Validate", "Run"} {
		call := func(c *Config) error {
			if fn == "Run" {
				_, err := Run(*c, mc.Source(1))
				return err
			}
			return c.Validate()
		}
		p := badarg.Probe{Func: fn, Err: inv}
		cs = append(cs, badarg.Fields(p, base, badarg.Positive, call, "Files", "Cache")...)
		cs = append(cs, badarg.Fields(p, base, badarg.NonNegative, call, "Gamma")...)
		with := func(edit func(*Config)) func() error {
			return func() error {
				c := base
				edit(&c)
				return call(&c)
			}
		}
		cs = append(cs,
			p.Fails("Topology = nil", "Topology", with(func(c *Config) { c.Topology = nil })),
			p.Fails("Topology a nil *Torus", "Topology", with(func(c *Config) { c.Topology = (*Torus)(nil) })),
			p.Fails("Topology.Side = 0", "Torus.Side = 0", with(func(c *Config) { c.Topology = &Torus{} })),
			p.Fails("Strategy a nil *Coded", "Config.Strategy is a nil", with(func(c *Config) { var s *Coded; c.Strategy = s })),
			p.Fails("Coded.Ell = 0", "Coded.Ell = 0", with(func(c *Config) { c.Strategy = Coded{} })),
			p.Fails("Coded.Field = 3", "Coded.Field = 3", with(func(c *Config) { c.Strategy = Coded{Ell: 2, Field: 3} })),
			// The ℓ×ℓ bases of real decoding are checked before anything
			// is allocated: ℓ = 2^23 would need 2^47 bytes per file.
			badarg.Probe{Func: fn, Err: tooLarge}.Fails("Coded.Field with ℓ = 2^23", "decoding bases", with(func(c *Config) {
				c.Topology, c.Cache, c.Strategy = &Torus{Side: 2}, 1, Coded{Ell: 1 << 23, Field: 256}
			})),
			p.Fails("Placement = 9", "Config.Placement = 9", with(func(c *Config) { c.Placement = 9 })),
			p.Fails("Requests = 9", "Config.Requests = 9", with(func(c *Config) { c.Requests = 9 })),
			p.Fails("Ties = 9", "Config.Ties = 9", with(func(c *Config) { c.Ties = 9 })),
			p.Fails("Uniform with n·Cache < Files", "uniform placement needs", with(func(c *Config) {
				c.Topology, c.Placement, c.Files = &Torus{Side: 2}, Uniform, 100
			})),
			// Guards: Cache·Ell = 2^70 wrapping to 0 and passing, Run then
			// returning MaxLoad 0, Cost 0, Outage 1 with no error.
			badarg.Probe{Func: fn, Err: tooLarge}.Fails("Cache·Ell overflows", "Cache·Ell", with(func(c *Config) {
				c.Cache, c.Strategy = 1<<40, Coded{Ell: 1 << 30}
			})),
			badarg.Probe{Func: fn, Err: tooLarge}.Fails("Cache·Ell overflows, no result", "", func() error {
				c := base
				c.Cache, c.Strategy = 1<<40, Coded{Ell: 1 << 30}
				r, err := Run(c, mc.Source(1))
				if r != nil {
					return nil // a refusal returns no result
				}
				return err
			}),
		)
	}
	cs = append(cs, badarg.Probe{Func: "Run"}.Panics("src = nil", "", func() { _, _ = Run(base, nil) }))
	for name, s := range map[string]Strategy{
		"Coded.Validate":            Coded{Ell: 1, ChunkCap: -1},
		"TwoChoice.Validate":        TwoChoice{},
		"TwoChoiceStretch.Validate": TwoChoiceStretch{Alpha: -1},
	} {
		cs = append(cs, badarg.Probe{Func: name, Err: inv}.Fails(fmt.Sprintf("%+v", s), "", s.Validate))
	}
	cs = append(cs, badarg.Probe{Func: "Coded.Validate", Err: inv}.Fails("Field = 8", "Coded.Field = 8", Coded{Ell: 1, Field: 8}.Validate))
	cs = append(cs, badarg.Probe{Func: "Coded.Validate", Err: inv}.Int("Ell", badarg.Positive, func(l int) error { return Coded{Ell: l}.Validate() })...)
	return append(cs, badarg.Fields(badarg.Probe{Func: "TwoChoiceStretch.Validate", Err: inv}, TwoChoiceStretch{}, badarg.NonNegative,
		func(s *TwoChoiceStretch) error { return s.Validate() }, "Alpha")...)
}

// sweepCases probes Sweep, its settings and per-run entry points, and the
// size comparisons.
func sweepCases() []badarg.Case {
	pts := []Point{{X: 1, Config: Config{Topology: &Torus{Side: 4}, Files: 4, Cache: 1}}}
	bad := []Point{{X: 1, Config: Config{Topology: &Torus{Side: 4}, Files: 0, Cache: 1}}}
	neg := []Point{{X: 1, Config: pts[0].Config, Runs: -1}}
	var cs []badarg.Case
	sw := badarg.Probe{Func: "Sweep", Err: inv}
	cs = append(cs, sw.Int("runs", badarg.Positive, func(n int) error { _, err := Sweep(pts, n, 1, nil); return err })...)
	cs = append(cs, sw.Fails("Point.Runs = -1", "Runs = -1", func() error { _, err := Sweep(neg, 2, 1, nil); return err }))
	cs = append(cs, badarg.Probe{Func: "Sweep", Err: inv}.Fails("Config.Files = 0", "Config.Files = 0", func() error { _, err := Sweep(bad, 2, 1, nil); return err }))
	for _, fn := range []string{"SweepSettings.Validate", "Sweep"} {
		cs = append(cs, badarg.Fields(badarg.Probe{Func: fn, Err: inv}, SweepSettings{}, badarg.NonNegative, func(s *SweepSettings) error {
			if fn == "Sweep" {
				_, err := Sweep(pts, 2, 1, s)
				return err
			}
			return s.Validate()
		}, "Workers")...)
		// A bad Precision field is named through SweepSettings.
		cs = append(cs, badarg.Fields(badarg.Probe{Func: fn, Err: inv}, loadlab.Precision{Rel: 0.1}, badarg.NonNegative, func(p *loadlab.Precision) error {
			s := &SweepSettings{Precision: *p}
			if fn == "Sweep" {
				_, err := Sweep(pts, 2, 1, s)
				return err
			}
			return s.Validate()
		}, "Rel", "Abs", "MaxRuns", "Batch")...)
	}
	// The pilot is the point's runs: above the cap it is refused, and a
	// cap whose runs over all points would not fit is too large.
	cs = append(cs,
		sw.Fails("pilot above MaxRuns", "Sweep: pilot of point 0 = 30 runs, above Precision.MaxRuns = 20", func() error {
			_, err := Sweep(pts, 30, 1, &SweepSettings{Precision: loadlab.Precision{Rel: 0.1, MaxRuns: 20}})
			return err
		}),
		badarg.Probe{Func: "Sweep", Err: tooLarge}.Fails("points·MaxRuns", "Sweep: points·Precision.MaxRuns", func() error {
			_, err := Sweep(append(pts, pts...), 2, 1, &SweepSettings{Precision: loadlab.Precision{Rel: 0.1, MaxRuns: math.MaxInt / 2}})
			return err
		}),
		badarg.Probe{Func: "CompareSizes", Err: inv}.Fails("Precision.Abs = -1", "Precision.Abs = -1", func() error {
			_, err := CompareSizes([]int{16}, TorusFamily, []Variant{{Name: "nr", Config: pts[0].Config}}, func(int) int { return 2 }, 1,
				&SweepSettings{Precision: loadlab.Precision{Abs: -1}})
			return err
		}),
	)
	p := badarg.Probe{Func: "Point.Run", Err: inv}
	cs = append(cs, p.Fails("Config.Files = 0", "Config.Files = 0", func() error { _, err := bad[0].Run(1, 0, 0); return err }))
	runs := func(int) int { return 2 }
	variants := []Variant{{Name: "nr", Config: Config{Files: 4, Cache: 1}}}
	for name, f := range map[string]func(ns []int, fam Family, v []Variant, runs func(int) int) error{
		"CompareSizes": func(ns []int, fam Family, v []Variant, r func(int) int) error {
			_, err := CompareSizes(ns, fam, v, r, 1, nil)
			return err
		},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs,
			p.Fails("runs(n) = 0", "", func() error { return f([]int{16}, TorusFamily, variants, func(int) int { return 0 }) }),
			p.Fails("n = 10, no torus", "", func() error { return f([]int{10}, TorusFamily, variants, runs) }),
			p.Fails("MaxN = -1", "MaxN", func() error {
				return f([]int{16}, TorusFamily, []Variant{{Name: "nr", Config: variants[0].Config, MaxN: -1}}, runs)
			}),
			p.Panics("fam = nil", "", func() { _ = f([]int{16}, nil, variants, runs) }),
			p.Panics("runs = nil", "", func() { _ = f([]int{16}, TorusFamily, variants, nil) }),
		)
	}
	// An invalid configuration is CompareSizes' error.
	cs = append(cs, badarg.Probe{Func: "CompareSizes", Err: inv}.Fails("Config.Files = 0", "Config.Files = 0", func() error {
		_, err := CompareSizes([]int{16}, TorusFamily, []Variant{{Name: "nr", Config: Config{Cache: 1}}}, runs, 1, nil)
		return err
	}))
	p = badarg.Probe{Func: "SizePoints", Err: inv}
	cs = append(cs,
		p.Fails("n = 10, no torus", "", func() error {
			_, err := SizePoints([]int{10}, Config{Files: 4, Cache: 1}, TorusFamily, false, nil)
			return err
		}),
		p.Panics("fam = nil", "", func() { _, _ = SizePoints([]int{16}, Config{Files: 4, Cache: 1}, nil, false, nil) }),
	)
	return cs
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative, zero, wrong-length and nil inputs and bad fields:
// each gives the documented error, naming the input, or the documented
// panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(exactCases(), topologyCases(), configCases(), sweepCases(), theoremCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"NearestReplica.Validate":  "no parameters: always valid",
		"TwoChoiceGlobal.Validate": "no parameters: always valid",
		"LogEll":                   "defined for every int: 1 below n = 3",
		"Variant.At":               "arithmetic on a valid variant: the configuration it returns is validated by the Run that uses it",
		"Presets":                  "no arguments: a fixed list",
		"Preset.Curves":            "no arguments: the preset's fixed points",
	})
}

// TestValidateNilSettings: nil settings are the defaults.
func TestValidateNilSettings(t *testing.T) {
	var s *SweepSettings
	assert.NoError(t, s.Validate())
}

// theoremCases probes the theorem-shaped checks of spec §12: Tails,
// TailStudy, FitLine, ScaledEll, SlopeStudy, Regime and RegimeStudy.
func theoremCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	one := PointResult{Runs: []*Result{{MaxLoad: 1}}}
	p := badarg.Probe{Func: "Tails", Err: inv}
	add(p.Entries("thresholds", []float64{1, 2}, 1, badarg.Finite, func(x []float64) error { _, err := Tails(one, x); return err })...)
	add(p.Fails("thresholds = []", "thresholds = []", func() error { _, err := Tails(one, nil); return err }),
		p.Fails("no runs", "no runs", func() error { _, err := Tails(PointResult{}, []float64{1}); return err }))
	pts := must(SizePoints([]int{16}, Config{Files: 4, Cache: 1}, TorusFamily, false, nil))
	p = badarg.Probe{Func: "TailStudy", Err: inv}
	add(p.Entries("thresholds", []float64{1}, 0, badarg.Finite, func(x []float64) error { _, err := TailStudy(pts, 2, x, 1, nil); return err })...)
	add(p.Fails("runs = 0", "runs = 0", func() error { _, err := TailStudy(pts, 0, []float64{1}, 1, nil); return err }),
		p.Fails("Config.Files = 0", "Config.Files = 0", func() error {
			_, err := TailStudy([]Point{{Config: Config{Topology: pts[0].Config.Topology, Cache: 1}}}, 2, []float64{1}, 1, nil)
			return err
		}))
	est := loadlab.Estimate{Mean: 1, StdErr: 0.1, N: 5}
	xs, ys := []float64{1, 2}, []loadlab.Estimate{est, est}
	p = badarg.Probe{Func: "FitLine", Err: inv}
	add(p.Entries("xs", xs, 1, badarg.Finite, func(x []float64) error { _, err := FitLine(x, ys); return err })...)
	add(p.Scalar("ys[1].Mean", badarg.Finite, func(x float64) error {
		_, err := FitLine(xs, []loadlab.Estimate{est, {Mean: x, StdErr: 0.1, N: 5}})
		return err
	})...)
	for _, v := range badarg.NonNegative.Floats() {
		add(p.Fails(fmt.Sprintf("StdErr = %v", v), fmt.Sprintf("ys[1].StdErr = %v", v), func() error {
			_, err := FitLine(xs, []loadlab.Estimate{est, {Mean: 1, StdErr: v, N: 5}})
			return err
		}))
	}
	add(p.Int("ys[1].N", badarg.Positive, func(n int) error {
		_, err := FitLine(xs, []loadlab.Estimate{est, {Mean: 1, StdErr: 0.1, N: n}})
		return err
	})...)
	add(p.Fails("lengths differ", "len(xs) = 1", func() error { _, err := FitLine(xs[:1], ys); return err }),
		p.Fails("one point", "1 points", func() error { _, err := FitLine(xs[:1], ys[:1]); return err }),
		p.Fails("equal xs", "two different values", func() error { _, err := FitLine([]float64{1, 1}, ys); return err }))
	p = badarg.Probe{Func: "ScaledEll", Err: inv}
	add(p.Scalar("c", badarg.Positive, func(c float64) error { _, err := ScaledEll(c, 10); return err })...)
	add(p.Int("n", badarg.Positive, func(n int) error { _, err := ScaledEll(1, n); return err })...)
	add(badarg.Probe{Func: "ScaledEll", Err: tooLarge}.Fails("c = 1e9", "c·ln n", func() error { _, err := ScaledEll(1e9, 10); return err }))
	coded := Config{Files: 4, Cache: 1, Strategy: Coded{}}
	runs := func(int) int { return 2 }
	p = badarg.Probe{Func: "SlopeStudy", Err: inv}
	slope := func(base Config, cs []float64, vs []Variant) error {
		_, err := SlopeStudy([]int{16, 64}, TorusFamily, base, cs, vs, runs, 1, nil)
		return err
	}
	add(p.Entries("cs", []float64{1}, 0, badarg.Positive, func(x []float64) error { return slope(coded, x, nil) })...)
	add(p.Fails("base not coded", "want a Coded", func() error { return slope(Config{Files: 4, Cache: 1}, []float64{1}, nil) }),
		p.Fails("no curves", "no cs and no variants", func() error { return slope(coded, nil, nil) }),
		p.Fails("variant Config.Files = 0", "Config.Files = 0", func() error {
			return slope(coded, nil, []Variant{{Name: "nr", Config: Config{Cache: 1}}})
		}),
		p.Panics("fam = nil", "", func() { _, _ = SlopeStudy([]int{16}, nil, coded, []float64{1}, nil, runs, 1, nil) }))
	p = badarg.Probe{Func: "Regime.Validate", Err: inv}
	add(badarg.Fields(p, Regime{Alpha: 0.5, Beta: 0.25}, badarg.Unit, func(r *Regime) error { return r.Validate() }, "Alpha")...)
	for _, b := range []float64{nan, inf, -inf, -0.1, 0.6} {
		label := fmt.Sprintf("Regime.Beta = %v", b)
		add(p.Fails(label, label, func() error { return Regime{Alpha: 1, Beta: b}.Validate() }))
	}
	add(p.Fails("α + 2β < 1", "Regime.Alpha + 2·Regime.Beta", func() error { return Regime{Alpha: 0.5, Beta: 0.2}.Validate() }))
	p = badarg.Probe{Func: "Regime.Config", Err: inv}
	add(p.Fails("Regime.Alpha = -1", "Regime.Alpha = -1", func() error { _, err := Regime{Alpha: -1, Beta: 0.5}.Config(16); return err }),
		p.Fails("n = 10", "10", func() error { _, err := Regime{Alpha: 1, Beta: 0.5}.Config(10); return err }))
	add(badarg.Probe{Func: "Regime.Config", Err: tooLarge}.Fails("n·M entries", "codedload: ", func() error {
		_, err := Regime{Alpha: 1, Beta: 0.5}.Config(1 << 30)
		return err
	}))
	p = badarg.Probe{Func: "RegimeStudy", Err: inv}
	reg := Regime{Alpha: 0.5, Beta: 0.25}
	add(p.Fails("n = 9", "ns[1] = 9", func() error { _, err := RegimeStudy([]int{16, 9}, reg, runs, 1, nil); return err }),
		p.Fails("runs(n) = 1", "runs(16) = 1", func() error { _, err := RegimeStudy([]int{16}, reg, func(int) int { return 1 }, 1, nil); return err }),
		p.Fails("n = 20", "size 20", func() error { _, err := RegimeStudy([]int{20}, reg, runs, 1, nil); return err }),
		p.Fails("Regime.Beta = 0.1", "Regime.Alpha + 2·Regime.Beta", func() error {
			_, err := RegimeStudy([]int{16}, Regime{Alpha: 0.5, Beta: 0.1}, runs, 1, nil)
			return err
		}),
		p.Fails("one size", "1 points", func() error { _, err := RegimeStudy([]int{16}, reg, runs, 1, nil); return err }),
		p.Panics("runs = nil", "nil runs", func() { _, _ = RegimeStudy([]int{16}, reg, nil, 1, nil) }))
	add(badarg.Probe{Func: "LookupPreset", Err: inv}.Fails("unknown name", `preset "nope"`, func() error { _, err := LookupPreset("nope"); return err }))
	p = badarg.Probe{Func: "RunPreset", Err: inv}
	add(p.Fails("runs = -1", "runs = -1", func() error { _, err := RunPreset(must(LookupPreset("chunk")), -1, 1, nil); return err }),
		p.Fails("zero preset", `preset ""`, func() error { _, err := RunPreset(Preset{}, 1, 1, nil); return err }),
		p.Fails("Precision.Rel = -1", "Precision.Rel = -1", func() error {
			_, err := RunPreset(must(LookupPreset("chunk")), 1, 1, &SweepSettings{Precision: loadlab.Precision{Rel: -1}})
			return err
		}))
	good := Design{Target: 3}
	p = badarg.Probe{Func: "Design.Validate", Err: inv}
	add(badarg.Fields(p, good, badarg.Positive, func(d *Design) error { return d.Validate() }, "Target")...)
	add(badarg.Fields(p, good, badarg.NonNegative, func(d *Design) error { return d.Validate() }, "ChunkPrice", "Runs")...)
	add(p.Fails("Runs = 1", "Design.Runs = 1", func() error { d := good; d.Runs = 1; return d.Validate() }),
		p.Fails("Ells empty", "Design.Ells = []", func() error { d := good; d.Ells = []int{}; return d.Validate() }),
		p.Fails("Caps empty", "Design.Caps = []", func() error { d := good; d.Caps = []int{}; return d.Validate() }),
		p.Fails("Ells[1] = 0", "Design.Ells[1] = 0", func() error { d := good; d.Ells = []int{2, 0}; return d.Validate() }),
		p.Fails("Caps[0] = -1", "Design.Caps[0] = -1", func() error { d := good; d.Caps = []int{-1}; return d.Validate() }))
	p = badarg.Probe{Func: "DesignCoded", Err: inv}
	tor := must(NewTorus(16))
	add(p.Fails("Design.Target = 0", "Design.Target = 0", func() error {
		_, err := DesignCoded(Config{Topology: tor, Files: 4, Cache: 1}, Design{}, 1, nil)
		return err
	}),
		p.Fails("no topology", "Config.Topology is nil", func() error { _, err := DesignCoded(Config{Files: 4, Cache: 1}, good, 1, nil); return err }),
		p.Fails("Config.Cache = 0", "Config.Cache = 0", func() error { _, err := DesignCoded(Config{Topology: tor, Files: 4}, good, 1, nil); return err }))
	return cs
}
