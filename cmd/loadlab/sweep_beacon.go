package main

import (
	"encoding/json"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/stability"
)

// sweepBeaconJob is "anycast-beacon": Robustness.BeaconStudy on a
// network. Run j of the plan is run r = j mod runs of budget k = j div
// runs: Robustness.Beacon(budgets[k]) on loadlab.Stream(seed, k, r),
// recorded as its loss, overload, robust verdict and coverage (0 or 1).
type sweepBeaconJob struct {
	r       *stability.Robustness
	budgets []int64
	runs    int
	seed    uint64
}

// sweepBeaconParams configures "anycast-beacon": the true network, the
// costs of P1 and the settings of beacon.EstimateC.
type sweepBeaconParams struct {
	Network  sweepNetParams `json:"network"`
	W        float64        `json:"w"`       // f_i = (w/2) A_i (1 − x_i)²; 0: 1
	Penalty  float64        `json:"penalty"` // h_i = (penalty/2) (S_i − T_i)₊²; 0: 1000
	Budgets  []int64        `json:"budgets"` // beacons per region
	Alpha    float64        `json:"alpha"`   // the confidence set's miss probability; 0: 0.05
	Support  int            `json:"support"`
	MinCount int64          `json:"min_count"`
}

func newSweepBeacon(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepBeaconParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	nw, err := p.Network.network()
	if err != nil {
		return nil, err
	}
	if len(p.Budgets) == 0 {
		return nil, loadlab.Invalid("sweep", "params.budgets is empty, want at least one budget")
	}
	for k, b := range p.Budgets {
		if b < 1 {
			return nil, loadlab.Invalid("sweep", "params.budgets[%d] = %d, want ≥ 1 beacon per region", k, b)
		}
	}
	if _, ok := size.Mul(len(p.Budgets), runs); !ok {
		return nil, loadlab.TooLarge("sweep", "%d budgets × %d runs overflows int", len(p.Budgets), runs)
	}
	set := &stability.RobustSettings{W: p.W, Penalty: p.Penalty, Runs: runs,
		Beacons: &beacon.Settings{Alpha: p.Alpha, Support: p.Support, MinCount: p.MinCount}}
	r, err := stability.NewRobustness(nw, set) // the optimum, computed by every shard
	if err != nil {
		return nil, err
	}
	return &sweepBeaconJob{r: r, budgets: p.Budgets, runs: runs, seed: seed}, nil
}

func (j *sweepBeaconJob) Prefix() []uint64 { return nil }
func (j *sweepBeaconJob) Total() int       { return len(j.budgets) * j.runs }

func (j *sweepBeaconJob) Path(idx int) []uint64 {
	return []uint64{j.seed, uint64(idx / j.runs), uint64(idx % j.runs)}
}

// Run returns the campaign's loss, overload, robust verdict and coverage.
func (j *sweepBeaconJob) Run(idx int) ([]float64, error) {
	k, r := idx/j.runs, idx%j.runs
	d, err := j.r.Beacon(j.budgets[k], loadlab.Stream(j.seed, uint64(k), uint64(r)))
	if err != nil {
		return nil, err
	}
	return []float64{d.Loss, d.Excess, float64(b2i(d.Robust)), float64(b2i(d.Covered))}, nil
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Summarize forms BeaconStudy's points from the runs, budget by budget
// in run order.
func (j *sweepBeaconJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("anycast-beacon", values, 4); err != nil {
		return sweepTable{}, err
	}
	pts := make([]stability.BeaconPoint, len(j.budgets))
	for k, b := range j.budgets {
		runs := values[k*j.runs : (k+1)*j.runs]
		var robust, covered int
		for _, v := range runs {
			robust += int(v[2])
			covered += int(v[3])
		}
		pts[k] = stability.BeaconPoint{Beacons: b, Loss: sweepEstimate(sweepColumn(runs, 0)), Excess: sweepEstimate(sweepColumn(runs, 1)),
			Robust: float64(robust) / float64(j.runs), Covered: float64(covered) / float64(j.runs)}
	}
	return sweepBeaconTable(pts), nil
}

func (j *sweepBeaconJob) Direct() (sweepTable, error) {
	pts, err := j.r.BeaconStudy(j.budgets, j.seed)
	return sweepBeaconTable(pts), err
}

// sweepBeaconTable writes the budget, the loss's and the overload's
// estimates and the two shares.
func sweepBeaconTable(pts []stability.BeaconPoint) sweepTable {
	t := sweepTable{Columns: []string{"beacons", "loss_mean", "loss_lo", "loss_hi", "loss_stderr", "loss_n",
		"excess_mean", "excess_lo", "excess_hi", "excess_stderr", "excess_n", "robust", "covered"}}
	for _, p := range pts {
		row := append([]any{int(p.Beacons)}, sweepCells(p.Loss)...)
		row = append(row, sweepCells(p.Excess)...)
		t.Rows = append(t.Rows, append(row, p.Robust, p.Covered))
	}
	return t
}
