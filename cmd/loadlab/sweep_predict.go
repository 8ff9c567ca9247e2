package main

import (
	"encoding/json"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/size"
)

// sweepPredictJob is "nomadic-predict": competitive.PredictionStudy over
// the listed prediction errors (point i = noise index) with the
// configuration's runs as random instances per point. Run j of the plan
// is instance r = j mod runs of point i = j div runs:
// PredictionPoint.Run on loadlab.Stream(seed, i, r), recorded as its
// five ratios; the merge is competitive.SummarizePredictions per point.
type sweepPredictJob struct {
	points []competitive.PredictionPoint
	runs   int
	seed   uint64
}

// sweepPredictParams configures "nomadic-predict"; zero fields take
// PredictionPoint's defaults.
type sweepPredictParams struct {
	K        int       `json:"k"`
	Noises   []float64 `json:"noises"`
	Window   int       `json:"window"`
	Lambda   float64   `json:"lambda"`
	Workload string    `json:"workload"` // sticky (default) or uniform
	Slots    int       `json:"slots"`
	Setup    float64   `json:"setup"`
	Spread   float64   `json:"spread"`
	Persist  float64   `json:"persist"`
}

func newSweepPredict(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepPredictParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	if runs < 2 {
		return nil, loadlab.Invalid("sweep", "runs = %d, want ≥ 2 instances per point", runs)
	}
	if len(p.Noises) == 0 {
		return nil, loadlab.Invalid("sweep", "params.noises is empty, want at least one prediction error")
	}
	base := competitive.PredictionPoint{Servers: p.K, Window: p.Window, Lambda: p.Lambda, Slots: p.Slots, Setup: p.Setup, Spread: p.Spread, Persist: p.Persist}
	switch p.Workload {
	case "", "sticky":
	case "uniform":
		base.Workload = competitive.Uniform
	default:
		return nil, loadlab.Invalid("sweep", "params.workload = %q, want sticky or uniform", p.Workload)
	}
	if _, ok := size.Mul(len(p.Noises), runs); !ok {
		return nil, loadlab.TooLarge("sweep", "%d points × %d runs overflows int", len(p.Noises), runs)
	}
	j := &sweepPredictJob{runs: runs, seed: seed}
	for _, n := range p.Noises {
		pt := base
		pt.Noise = n
		if err := pt.Validate(); err != nil {
			return nil, err
		}
		j.points = append(j.points, pt)
	}
	return j, nil
}

func (j *sweepPredictJob) Prefix() []uint64 { return nil }
func (j *sweepPredictJob) Total() int       { return len(j.points) * j.runs }

func (j *sweepPredictJob) Path(idx int) []uint64 {
	return []uint64{j.seed, uint64(idx / j.runs), uint64(idx % j.runs)}
}

// Run returns instance idx's five ratios.
func (j *sweepPredictJob) Run(idx int) ([]float64, error) {
	k, r := idx/j.runs, idx%j.runs
	x, err := j.points[k].Run(loadlab.Stream(j.seed, uint64(k), uint64(r)))
	if err != nil {
		return nil, err
	}
	return []float64{x.Lookahead, x.Guarded, x.WFA, x.DTrack, x.NeverMigrate}, nil
}

func (j *sweepPredictJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("nomadic-predict", values, 5); err != nil {
		return sweepTable{}, err
	}
	sums := make([]competitive.PredictionSummary, len(j.points))
	for k, pt := range j.points {
		runs := make([]competitive.PredictionRun, j.runs)
		for r, v := range values[k*j.runs : (k+1)*j.runs] {
			runs[r] = competitive.PredictionRun{Lookahead: v[0], Guarded: v[1], WFA: v[2], DTrack: v[3], NeverMigrate: v[4]}
		}
		sums[k] = competitive.SummarizePredictions(pt, runs)
	}
	return sweepPredictTable(sums), nil
}

func (j *sweepPredictJob) Direct() (sweepTable, error) {
	sums, err := competitive.PredictionStudy(j.points, j.runs, j.seed)
	return sweepPredictTable(sums), err
}

// sweepPredictTable writes one row per point (as "loadlab nomadic predict").
func sweepPredictTable(sums []competitive.PredictionSummary) sweepTable {
	t := sweepTable{Columns: []string{"noise", "lookahead", "lookahead_lo", "lookahead_hi", "guarded", "guarded_lo", "guarded_hi",
		"wfa", "dtrack_rr", "never_migrate", "lookahead_max", "guarded_max", "guard_bound"}}
	for _, s := range sums {
		t.Rows = append(t.Rows, []any{s.Point.Noise, s.Lookahead.Mean, s.Lookahead.Lo, s.Lookahead.Hi, s.Guarded.Mean, s.Guarded.Lo, s.Guarded.Hi,
			s.WFA.Mean, s.DTrack.Mean, s.NeverMigrate.Mean, s.LookaheadMax, s.GuardedMax, s.Bound})
	}
	return t
}
