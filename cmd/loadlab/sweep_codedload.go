package main

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
)

// The codedload sweeps: "codedload" (codedload.Sweep over listed
// points: a parameter sweep), "codedload-sizes" (codedload.Sweep over
// codedload.SizePoints: a server sweep) and "codedload-compare"
// (codedload.CompareSizes). The configuration's runs is Sweep's runs per
// point (CompareSizes: per size, unless size_runs is given); the plan's
// runs are the flattened (point, run) pairs, run j being run r of point
// i with seed path (seed, i, r): Point.Run(seed, i, r), as in
// codedload.Sweep.

// sweepCodedModel is the shared model and strategy of a codedload.Config.
type sweepCodedModel struct {
	Files     int                `json:"files"`
	Cache     int                `json:"cache"`
	Gamma     float64            `json:"gamma"`
	Strategy  sweepCodedStrategy `json:"strategy"`
	Placement string             `json:"placement"` // "proportional" (default), "uniform", "full"
	Requests  string             `json:"requests"`  // "exact" (default), "poisson"
	Ties      string             `json:"ties"`      // "random" (default), "lowest", "list"
}

// sweepCodedStrategy is a codedload.Strategy: its kind and the parameters of
// that kind (the others must be zero).
type sweepCodedStrategy struct {
	Kind     string  `json:"kind"` // "nearest" (default), "coded", "two-choice", "two-choice-global", "two-choice-stretch"
	Ell      int     `json:"ell"`
	ChunkCap int     `json:"chunk_cap"`
	Radius   int     `json:"radius"`
	Alpha    float64 `json:"alpha"`
	// Field is Coded.Field: 0 (ideal decoding) or 2, 4, 16, 256 (real
	// decoding of random linear chunks over GF(Field)).
	Field int `json:"field,omitempty"`
}

// sweepCodedFamily is a topology family; with N, one topology of it.
type sweepCodedFamily struct {
	Family string `json:"family"` // "torus", "hypercube", "rgg", "regular"
	Degree int    `json:"degree"` // of "regular"
	N      int    `json:"n"`      // servers (for "codedload" points)
}

func (s sweepCodedStrategy) strategy() (codedload.Strategy, error) {
	unused := func(name string, v bool) error {
		if v {
			return loadlab.Invalid("sweep", "params: strategy %q has no parameter %s", s.Kind, name)
		}
		return nil
	}
	var st codedload.Strategy
	var err error
	switch s.Kind {
	case "", "nearest":
		st, err = codedload.NearestReplica{}, unused("ell, chunk_cap, field, radius or alpha", s != sweepCodedStrategy{Kind: s.Kind})
	case "coded":
		st, err = codedload.Coded{Ell: s.Ell, ChunkCap: s.ChunkCap, Field: s.Field}, unused("radius or alpha", s.Radius != 0 || s.Alpha != 0)
	case "two-choice":
		st, err = codedload.TwoChoice{Radius: s.Radius}, unused("ell, chunk_cap, field or alpha", s.Ell != 0 || s.ChunkCap != 0 || s.Field != 0 || s.Alpha != 0)
	case "two-choice-global":
		st, err = codedload.TwoChoiceGlobal{}, unused("ell, chunk_cap, field, radius or alpha", s != sweepCodedStrategy{Kind: s.Kind})
	case "two-choice-stretch":
		st, err = codedload.TwoChoiceStretch{Alpha: s.Alpha}, unused("ell, chunk_cap, field or radius", s.Ell != 0 || s.ChunkCap != 0 || s.Field != 0 || s.Radius != 0)
	default:
		return nil, loadlab.Invalid("sweep", "params: strategy kind %q, want nearest, coded, two-choice, two-choice-global or two-choice-stretch", s.Kind)
	}
	return st, err
}

// sweepPick returns the index of name in names ("" is index 0).
func sweepPick(field, name string, names ...string) (int, error) {
	if name == "" {
		return 0, nil
	}
	if i := slices.Index(names, name); i >= 0 {
		return i, nil
	}
	return 0, loadlab.Invalid("sweep", "params: %s = %q, want one of %q", field, name, names)
}

// config returns the codedload.Config of m without a topology.
func (m sweepCodedModel) config() (codedload.Config, error) {
	st, err := m.Strategy.strategy()
	if err != nil {
		return codedload.Config{}, err
	}
	pl, err := sweepPick("placement", m.Placement, "proportional", "uniform", "full")
	if err != nil {
		return codedload.Config{}, err
	}
	rq, err := sweepPick("requests", m.Requests, "exact", "poisson")
	if err != nil {
		return codedload.Config{}, err
	}
	ti, err := sweepPick("ties", m.Ties, "random", "lowest", "list")
	if err != nil {
		return codedload.Config{}, err
	}
	return codedload.Config{Files: m.Files, Cache: m.Cache, Gamma: m.Gamma, Strategy: st,
		Placement: codedload.PlacementKind(pl), Requests: codedload.RequestMode(rq), Ties: codedload.TieRule(ti)}, nil
}

func (f sweepCodedFamily) family() (codedload.Family, error) {
	if f.Family != "regular" && f.Degree != 0 {
		return nil, loadlab.Invalid("sweep", "params: degree = %d is a parameter of family \"regular\" only", f.Degree)
	}
	switch f.Family {
	case "torus":
		return codedload.TorusFamily, nil
	case "hypercube":
		return codedload.HypercubeFamily, nil
	case "rgg":
		return codedload.RGGFamily, nil
	case "regular":
		return codedload.RegularFamily(f.Degree), nil
	}
	return nil, loadlab.Invalid("sweep", "params: family = %q, want torus, hypercube, rgg or regular", f.Family)
}

// sweepCodedloadJob runs the points of a codedload.Sweep, one (point, run)
// pair per run of the plan.
type sweepCodedloadJob struct {
	points []codedload.Point
	runs   int // Sweep's runs
	seed   uint64
	start  []int // run j of the plan is run j − start[i] of point i
	// direct computes the in-process result; table writes the points'
	// results.
	direct func(p loadlab.Precision) (sweepTable, error)
	table  func(res []codedload.PointResult) sweepTable
}

// setPoints validates the points as codedload.Sweep does (runs ≥ 0,
// the configuration of a point without Build) and lays out the
// flattened runs.
func (j *sweepCodedloadJob) setPoints(points []codedload.Point) error {
	j.points = points
	j.start = make([]int, len(points)+1)
	for i, p := range points {
		if p.Runs < 0 {
			return loadlab.Invalid("sweep", "point %d: runs = %d, want ≥ 0 (0: the configuration's runs)", i, p.Runs)
		}
		if p.Build == nil {
			if err := p.Config.Validate(); err != nil {
				return fmt.Errorf("point %d: %w", i, err)
			}
		}
		r := j.runs
		if p.Runs > 0 {
			r = p.Runs
		}
		if r > math.MaxInt-j.start[i] {
			return loadlab.TooLarge("sweep", "total runs overflow int at point %d", i)
		}
		j.start[i+1] = j.start[i] + r
	}
	return nil
}

func (j *sweepCodedloadJob) Prefix() []uint64 { return nil }
func (j *sweepCodedloadJob) Total() int       { return j.start[len(j.points)] }

// pair returns the point and run of plan run k.
func (j *sweepCodedloadJob) pair(k int) (i, r int) {
	i = sort.SearchInts(j.start, k+1) - 1
	return i, k - j.start[i]
}

func (j *sweepCodedloadJob) Path(k int) []uint64 {
	i, r := j.pair(k)
	return []uint64{j.seed, uint64(i), uint64(r)}
}

// Run returns the scalar fields of the run's codedload.Result, then its
// Hist.
func (j *sweepCodedloadJob) Run(k int) ([]float64, error) {
	i, r := j.pair(k)
	res, err := j.points[i].Run(j.seed, uint64(i), uint64(r))
	if err != nil {
		return nil, fmt.Errorf("point %d run %d: %w", i, r, err)
	}
	v := []float64{float64(res.Ell), float64(res.Requests), float64(res.Served), res.Outage, res.MaxLoad, res.Cost, float64(res.ChunkHops), float64(res.Fallbacks)}
	for _, h := range res.Hist {
		v = append(v, float64(h))
	}
	return v, nil
}

const sweepResultScalars = 8

func sweepUnpackResult(v []float64) *codedload.Result {
	res := &codedload.Result{Ell: int(v[0]), Requests: int(v[1]), Served: int(v[2]), Outage: v[3], MaxLoad: v[4], Cost: v[5], ChunkHops: int64(v[6]), Fallbacks: int(v[7])}
	for _, h := range v[sweepResultScalars:] {
		res.Hist = append(res.Hist, int(h))
	}
	return res
}

// Summarize forms codedload.Sweep's PointResults from the runs, point
// by point in run order: each metric's estimate over the runs.
func (j *sweepCodedloadJob) Summarize(values [][]float64) (sweepTable, error) {
	res := make([]codedload.PointResult, len(j.points))
	for i := range j.points {
		rs := make([]*codedload.Result, j.start[i+1]-j.start[i])
		ml, co, ou := make([]float64, len(rs)), make([]float64, len(rs)), make([]float64, len(rs))
		for r := range rs {
			v := values[j.start[i]+r]
			if len(v) < sweepResultScalars {
				return sweepTable{}, loadlab.Invalid("sweep", "codedload run %d: %d values, want ≥ %d", j.start[i]+r, len(v), sweepResultScalars)
			}
			rs[r] = sweepUnpackResult(v)
			ml[r], co[r], ou[r] = rs[r].MaxLoad, rs[r].Cost, rs[r].Outage
		}
		res[i] = codedload.PointResult{X: j.points[i].X, MaxLoad: sweepEstimate(ml), Cost: sweepEstimate(co), Outage: sweepEstimate(ou), Runs: rs}
	}
	return j.table(res), nil
}

func (j *sweepCodedloadJob) Direct() (sweepTable, error) { return j.direct(loadlab.Precision{}) }

// DirectPrecise is the library's loop with SweepSettings.Precision = p.
func (j *sweepCodedloadJob) DirectPrecise(p loadlab.Precision) (sweepTable, error) {
	return j.direct(p)
}

// sweepPointTable writes the sweep: point, x, metric and its estimate.
func sweepPointTable(res []codedload.PointResult) sweepTable {
	t := sweepTable{Columns: append([]string{"point", "x", "metric"}, sweepEstimateColumns...)}
	for i, p := range res {
		t.Rows = append(t.Rows, sweepPointRows([]any{i, p.X}, p)...)
	}
	return t
}

func sweepPointRows(key []any, p codedload.PointResult) [][]any {
	var rows [][]any
	for _, m := range []struct {
		name string
		e    loadlab.Estimate
	}{{"max load", p.MaxLoad}, {"cost", p.Cost}, {"outage", p.Outage}} {
		rows = append(rows, append(append(slices.Clip(key), m.name), sweepCells(m.e)...))
	}
	return rows
}

// sweepDirect is the in-process codedload.Sweep of j's points.
func (j *sweepCodedloadJob) sweepDirect(p loadlab.Precision) (sweepTable, error) {
	res, err := codedload.Sweep(j.points, j.runs, j.seed, &codedload.SweepSettings{Precision: p})
	if res == nil {
		return sweepTable{}, err
	}
	return j.table(res), err
}

// sweepCodedPoint is one point of the "codedload" sweep.
type sweepCodedPoint struct {
	X        float64          `json:"x"`
	Topology sweepCodedFamily `json:"topology"`
	Random   bool             `json:"random"` // a fresh topology for every run
	Runs     int              `json:"runs"`   // 0: the configuration's runs
	Model    sweepCodedModel  `json:"model"`
}

func newSweepCodedload(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p struct {
		Points []sweepCodedPoint `json:"points"`
	}
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	if len(p.Points) == 0 {
		return nil, loadlab.Invalid("sweep", "params.points is empty")
	}
	var pts []codedload.Point
	for i, q := range p.Points {
		pt, err := q.point()
		if err != nil {
			return nil, fmt.Errorf("params.points[%d]: %w", i, err)
		}
		pts = append(pts, pt)
	}
	j := &sweepCodedloadJob{runs: runs, seed: seed, table: sweepPointTable}
	j.direct = j.sweepDirect
	return j, j.setPoints(pts)
}

// point builds the point as codedload.SizePoints builds one of size N.
func (q sweepCodedPoint) point() (codedload.Point, error) {
	fam, err := q.Topology.family()
	if err != nil {
		return codedload.Point{}, err
	}
	base, err := q.Model.config()
	if err != nil {
		return codedload.Point{}, err
	}
	pts, err := codedload.SizePoints([]int{q.Topology.N}, base, fam, q.Random, nil)
	if err != nil {
		return codedload.Point{}, err
	}
	pts[0].X, pts[0].Runs = q.X, q.Runs
	return pts[0], nil
}

func newSweepCodedloadSizes(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p struct {
		Ns       []int            `json:"ns"`
		Topology sweepCodedFamily `json:"topology"`
		Random   bool             `json:"random"`
		LogEll   bool             `json:"log_ell"` // Coded.Ell = ⌈ln n⌉ (codedload.LogEll)
		Model    sweepCodedModel  `json:"model"`
		// Thresholds adds rows "P[max load > c]" (codedload.Tails) for
		// each c.
		Thresholds []float64 `json:"thresholds"`
	}
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	if len(p.Ns) == 0 || p.Topology.N != 0 {
		return nil, loadlab.Invalid("sweep", "params: ns = %v and topology.n = %d, want sizes in ns and no topology.n", p.Ns, p.Topology.N)
	}
	fam, err := p.Topology.family()
	if err != nil {
		return nil, err
	}
	base, err := p.Model.config()
	if err != nil {
		return nil, err
	}
	var ell func(int) int
	if p.LogEll {
		ell = codedload.LogEll
	}
	pts, err := codedload.SizePoints(p.Ns, base, fam, p.Random, ell)
	if err != nil {
		return nil, err
	}
	j := &sweepCodedloadJob{runs: runs, seed: seed, table: sweepPointTable}
	if p.Thresholds != nil {
		if _, err := codedload.Tails(codedload.PointResult{Runs: []*codedload.Result{{}}}, p.Thresholds); err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
		j.table = func(res []codedload.PointResult) sweepTable { return sweepTailTable(res, p.Thresholds) }
	}
	j.direct = j.sweepDirect
	return j, j.setPoints(pts)
}

// sweepTailTable is sweepPointTable with, per point, one row
// "P[max load > c]" per threshold c (codedload.Tails: Clopper–Pearson
// intervals; stderr is the plug-in one).
func sweepTailTable(res []codedload.PointResult, cs []float64) sweepTable {
	t := sweepPointTable(nil)
	for i, p := range res {
		t.Rows = append(t.Rows, sweepPointRows([]any{i, p.X}, p)...)
		tails, _ := codedload.Tails(p, cs) // cs checked, every point has runs
		for k, c := range cs {
			t.Rows = append(t.Rows, append([]any{i, p.X, fmt.Sprintf("P[max load > %g]", c)}, sweepCells(tails[k])...))
		}
	}
	return t
}

// newSweepCodedloadPreset is "codedload-preset": one of the authors'
// experiments (codedload.RunPreset), its curves' points in order.
func newSweepCodedloadPreset(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p struct {
		Preset string `json:"preset"`
	}
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	pre, err := codedload.LookupPreset(p.Preset)
	if err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	var pts []codedload.Point
	var names []string
	for _, c := range pre.Curves() {
		for _, q := range c.Points {
			pts = append(pts, q)
			names = append(names, c.Name)
		}
	}
	j := &sweepCodedloadJob{runs: runs, seed: seed}
	j.table = func(res []codedload.PointResult) sweepTable {
		t := sweepTable{Columns: append([]string{"curve", "point", "x", "metric"}, sweepEstimateColumns...)}
		for i, r := range res {
			t.Rows = append(t.Rows, sweepPointRows([]any{names[i], i, r.X}, r)...)
		}
		return t
	}
	j.direct = func(prec loadlab.Precision) (sweepTable, error) {
		cs, err := codedload.RunPreset(pre, runs, seed, &codedload.SweepSettings{Precision: prec})
		if cs == nil {
			return sweepTable{}, err
		}
		var res []codedload.PointResult
		for _, c := range cs {
			res = append(res, c.Points...)
		}
		return j.table(res), err
	}
	return j, j.setPoints(pts)
}
