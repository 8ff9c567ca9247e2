package main

import (
	"encoding/json"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/stability"
)

// sweepStudyJob is "stability-study": stability.Study over the grid
// loads × self_corrs (point k = load index·len(self_corrs) + self-correlation
// index) with the configuration's runs as instances per point. Run j of
// the plan is instance r = j mod runs of point k = j div runs:
// StudyPoint.Run on loadlab.Stream(seed, k, r), recorded as the Gap's
// eight numbers; the merge is stability.SummarizeGaps per point.
type sweepStudyJob struct {
	points []stability.StudyPoint
	runs   int
	seed   uint64
}

// sweepStudyParams configures "stability-study"; zero fields take
// StudyPoint's defaults.
type sweepStudyParams struct {
	N           int       `json:"n"`
	K           int       `json:"k"`
	Loads       []float64 `json:"loads"`      // utilisation levels u
	SelfCorrs   []float64 `json:"self_corrs"` // empty: {0}, C as generated
	Sensitivity float64   `json:"sensitivity"`
	T1          float64   `json:"t1"`
	W           float64   `json:"w"`
	Penalty     float64   `json:"penalty"`
}

func newSweepStudy(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepStudyParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	if len(p.Loads) == 0 {
		return nil, loadlab.Invalid("sweep", "params.loads is empty, want at least one load level")
	}
	if len(p.SelfCorrs) == 0 {
		p.SelfCorrs = []float64{0}
	}
	if _, ok := size.Product(len(p.Loads), len(p.SelfCorrs), runs); !ok {
		return nil, loadlab.TooLarge("sweep", "%d loads × %d self-correlations × %d runs overflows int", len(p.Loads), len(p.SelfCorrs), runs)
	}
	if runs < 2 {
		return nil, loadlab.Invalid("sweep", "runs = %d, want ≥ 2 instances per point", runs)
	}
	j := &sweepStudyJob{runs: runs, seed: seed}
	for _, u := range p.Loads {
		for _, s := range p.SelfCorrs {
			pt := stability.StudyPoint{N: p.N, K: p.K, Load: u, SelfCorr: s, Sensitivity: p.Sensitivity, T1: p.T1, W: p.W, Penalty: p.Penalty}
			if err := pt.Validate(); err != nil {
				return nil, err
			}
			j.points = append(j.points, pt)
		}
	}
	return j, nil
}

func (j *sweepStudyJob) Prefix() []uint64 { return nil }
func (j *sweepStudyJob) Total() int       { return len(j.points) * j.runs }

func (j *sweepStudyJob) Path(idx int) []uint64 {
	return []uint64{j.seed, uint64(idx / j.runs), uint64(idx % j.runs)}
}

// Run returns instance idx's Gap.
func (j *sweepStudyJob) Run(idx int) ([]float64, error) {
	k, r := idx/j.runs, idx%j.runs
	g, err := j.points[k].Run(loadlab.Stream(j.seed, uint64(k), uint64(r)))
	if err != nil {
		return nil, err
	}
	return []float64{g.GreedySecond, g.OptimalSecond, g.GreedyExcess, g.OptimalExcess,
		float64(g.Uncontrollable), g.GreedyCost, g.OptimalCost, g.Demand}, nil
}

func (j *sweepStudyJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("stability-study", values, 8); err != nil {
		return sweepTable{}, err
	}
	sums := make([]stability.StudySummary, len(j.points))
	for k, pt := range j.points {
		gaps := make([]*stability.Gap, j.runs)
		for r, v := range values[k*j.runs : (k+1)*j.runs] {
			gaps[r] = &stability.Gap{GreedySecond: v[0], OptimalSecond: v[1], GreedyExcess: v[2], OptimalExcess: v[3],
				Uncontrollable: int(v[4]), GreedyCost: v[5], OptimalCost: v[6], Demand: v[7]}
		}
		sums[k] = stability.SummarizeGaps(pt, gaps)
	}
	return sweepStudyTable(sums), nil
}

func (j *sweepStudyJob) Direct() (sweepTable, error) {
	sums, err := stability.Study(j.points, j.runs, j.seed)
	return sweepStudyTable(sums), err
}

// sweepStudyTable writes one row per point: load, self-correlation, the
// cost ratio's estimate, the share of instances with an uncontrollable
// overload and the greedy and optimal overload shares.
func sweepStudyTable(sums []stability.StudySummary) sweepTable {
	t := sweepTable{Columns: []string{"load", "self_corr", "cost_ratio", "cost_ratio_lo", "cost_ratio_hi",
		"uncontrollable", "uncontrollable_lo", "uncontrollable_hi", "greedy_excess", "optimal_excess", "greedy_second", "optimal_second"}}
	for _, s := range sums {
		t.Rows = append(t.Rows, []any{s.Point.Load, s.Point.SelfCorr, s.CostRatio.Mean, s.CostRatio.Lo, s.CostRatio.Hi,
			s.Uncontrollable.Mean, s.Uncontrollable.Lo, s.Uncontrollable.Hi,
			s.GreedyExcess.Mean, s.OptimalExcess.Mean, s.GreedySecond.Mean, s.OptimalSecond.Mean})
	}
	return t
}
