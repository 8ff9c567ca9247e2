package main

import (
	"encoding/json"
	"strings"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/size"
)

// sweepAlphaJob is "nomadic-alpha": competitive.AlphaStudy over the grid
// ks × alphas × betas (point i in that order; betas only for policy B)
// with the configuration's runs as random instances per point. Run j of
// the plan is instance r = j mod runs of point i = j div runs:
// AlphaPoint.Run on loadlab.Stream(seed, i, r), recorded as its two
// ratios; the merge is competitive.SummarizeAlpha per point, with the
// point's adversary (deterministic) computed there.
type sweepAlphaJob struct {
	points []competitive.AlphaPoint
	runs   int
	seed   uint64
}

// sweepAlphaParams configures "nomadic-alpha"; zero fields take
// AlphaPoint's defaults.
type sweepAlphaParams struct {
	Ks             []int     `json:"ks"`
	Alphas         []float64 `json:"alphas"`
	Policy         string    `json:"policy"`   // RR (default), F or B
	Betas          []float64 `json:"betas"`    // policy B: empty means {0}
	Workload       string    `json:"workload"` // sticky (default) or uniform
	Slots          int       `json:"slots"`
	Setup          float64   `json:"setup"`
	Spread         float64   `json:"spread"`
	Persist        float64   `json:"persist"`
	Eps            float64   `json:"eps"`
	AdversarySlots int       `json:"adversary_slots"`
}

func newSweepAlpha(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepAlphaParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	if runs < 2 {
		return nil, loadlab.Invalid("sweep", "runs = %d, want ≥ 2 instances per point", runs)
	}
	if len(p.Ks) == 0 || len(p.Alphas) == 0 {
		return nil, loadlab.Invalid("sweep", "params.ks and params.alphas need at least one value each")
	}
	f := alphaFlags{ks: p.Ks, alphas: p.Alphas, betas: p.Betas, policy: p.Policy, workload: p.Workload, runs: runs}
	if f.policy == "" {
		f.policy = "RR"
	}
	if f.workload == "" {
		f.workload = "sticky"
	}
	f.base = competitive.AlphaPoint{Slots: p.Slots, Setup: p.Setup, Spread: p.Spread, Persist: p.Persist, Eps: p.Eps, AdversarySlots: p.AdversarySlots}
	pts, err := f.points()
	if err != nil {
		return nil, loadlab.Invalid("sweep", "params: %s", strings.TrimPrefix(err.Error(), "--"))
	}
	if _, ok := size.Mul(len(pts), runs); !ok {
		return nil, loadlab.TooLarge("sweep", "%d points × %d runs overflows int", len(pts), runs)
	}
	for _, pt := range pts {
		if err := pt.Validate(); err != nil {
			return nil, err
		}
	}
	return &sweepAlphaJob{points: pts, runs: runs, seed: seed}, nil
}

func (j *sweepAlphaJob) Prefix() []uint64 { return nil }
func (j *sweepAlphaJob) Total() int       { return len(j.points) * j.runs }

func (j *sweepAlphaJob) Path(idx int) []uint64 {
	return []uint64{j.seed, uint64(idx / j.runs), uint64(idx % j.runs)}
}

// Run returns instance idx's two ratios.
func (j *sweepAlphaJob) Run(idx int) ([]float64, error) {
	k, r := idx/j.runs, idx%j.runs
	res, err := j.points[k].Run(loadlab.Stream(j.seed, uint64(k), uint64(r)))
	if err != nil {
		return nil, err
	}
	return []float64{res.DTrack, res.NeverMigrate}, nil
}

func (j *sweepAlphaJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("nomadic-alpha", values, 2); err != nil {
		return sweepTable{}, err
	}
	sums := make([]competitive.AlphaSummary, len(j.points))
	for k, pt := range j.points {
		adv, err := pt.Adversary()
		if err != nil {
			return sweepTable{}, err
		}
		runs := make([]competitive.AlphaRun, j.runs)
		for r, v := range values[k*j.runs : (k+1)*j.runs] {
			runs[r] = competitive.AlphaRun{DTrack: v[0], NeverMigrate: v[1]}
		}
		sums[k] = competitive.SummarizeAlpha(pt, adv, runs)
	}
	return sweepAlphaTable(sums), nil
}

func (j *sweepAlphaJob) Direct() (sweepTable, error) {
	sums, err := competitive.AlphaStudy(j.points, j.runs, j.seed)
	return sweepAlphaTable(sums), err
}

// sweepAlphaTable writes one row per point (as "loadlab nomadic alpha").
func sweepAlphaTable(sums []competitive.AlphaSummary) sweepTable {
	t := sweepTable{Columns: []string{"k", "alpha", "policy", "beta", "bound", "limit", "adversary",
		"random_mean", "random_lo", "random_hi", "random_max", "never_migrate"}}
	for _, s := range sums {
		bound, limit := any("none"), any("none")
		if s.Bounded {
			bound, limit = s.Bound, s.Limit
		}
		t.Rows = append(t.Rows, []any{s.Point.Servers, s.Point.Alpha, s.Point.Policy.String(), s.Point.Beta, bound, limit,
			s.Adversary, s.Random.Mean, s.Random.Lo, s.Random.Hi, s.RandomMax, s.NeverMigrate.Mean})
	}
	return t
}
