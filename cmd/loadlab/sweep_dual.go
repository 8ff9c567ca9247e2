package main

import (
	"encoding/json"
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/size"
)

// sweepDualJob is "dual": dual.Sweep on the quadratic problem of a network.
// Run j of the plan is run r = j mod runs of point k = j div runs
// (window windows[k div nlosses], loss losses[k mod nlosses]): one
// dual.Solve with the settings dual.Sweep documents (Constant rule,
// Fixed, RecordDual, FastControl with that window and loss) on the
// stream loadlab.Stream(seed, k, r), recorded as its SteadyGap(P*),
// BetaErr and Packets.
type sweepDualJob struct {
	p             *dual.Problem
	fc            dual.FastControl
	windows, loss []float64 // loss: the losses, {0} if none were given
	base          dual.Settings
	direct        *dual.Settings // the configuration's settings, for --direct
	pstar         float64
	runs          int
	seed          uint64
}

// sweepDualParams configures "dual".
type sweepDualParams struct {
	Network     sweepNetParams `json:"network"`
	W           float64        `json:"w"` // quadratic costs of dual.Quadratic
	C           float64        `json:"c"`
	Gamma       float64        `json:"gamma"` // FastControl.Gamma
	Delay       int            `json:"delay"`
	Unreachable string         `json:"unreachable"` // "reject" (default), "drop", "direct"
	Windows     []float64      `json:"windows"`
	Losses      []float64      `json:"losses"` // empty: {0}
	Step        float64        `json:"step"`
	MaxIter     int            `json:"max_iter"`
	Eps         float64        `json:"eps"`
	Mu0         []float64      `json:"mu0"`
}

func newSweepDual(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepDualParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	nw, err := p.Network.network()
	if err != nil {
		return nil, err
	}
	prob, err := dual.Quadratic(nw, p.W, p.C)
	if err != nil {
		return nil, err
	}
	un, err := sweepPick("unreachable", p.Unreachable, "reject", "drop", "direct")
	if err != nil {
		return nil, err
	}
	fc := dual.FastControl{Gamma: p.Gamma, Delay: p.Delay, Unreachable: dual.Unreachable(un)}
	for _, w := range append([]float64{1}, p.Windows...) { // the FastControl fields, every window
		f := fc
		f.Window, f.Src = w, loadlab.Stream(0) // every run gets its own Src
		if err := f.Validate(); err != nil {
			return nil, err
		}
	}
	if len(p.Windows) == 0 {
		return nil, loadlab.Invalid("sweep", "params.windows is empty, want at least one window")
	}
	for i, l := range p.Losses {
		if !(l >= 0 && l < 1) {
			return nil, loadlab.Invalid("sweep", "params.losses[%d] = %v, want a value in [0, 1)", i, l)
		}
	}
	set := &dual.Settings{Step: p.Step, MaxIter: p.MaxIter, Eps: p.Eps, Mu0: p.Mu0}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	j := &sweepDualJob{p: prob, fc: fc, windows: p.Windows, loss: p.Losses, runs: runs, seed: seed, base: *set, direct: set}
	if len(j.loss) == 0 {
		j.loss = []float64{0}
	}
	if _, ok := size.Product(len(j.windows), len(j.loss), runs); !ok {
		return nil, loadlab.TooLarge("sweep", "%d windows × %d losses × %d runs overflows int", len(j.windows), len(j.loss), runs)
	}
	j.base.Rule, j.base.Fixed, j.base.RecordDual = dual.Constant, true, true
	ref, err := dual.Primal(prob, nil) // P*, computed by every shard
	if err != nil {
		return nil, fmt.Errorf("dual: reference optimum: %w", err)
	}
	j.pstar = ref.Value
	return j, nil
}

func (j *sweepDualJob) Prefix() []uint64 { return nil }
func (j *sweepDualJob) Total() int       { return len(j.windows) * len(j.loss) * j.runs }

func (j *sweepDualJob) Path(idx int) []uint64 {
	return []uint64{j.seed, uint64(idx / j.runs), uint64(idx % j.runs)}
}

// Run returns the run's gap, β error and packets.
func (j *sweepDualJob) Run(idx int) ([]float64, error) {
	k, r := idx/j.runs, idx%j.runs
	f := j.fc
	f.Window, f.Loss = j.windows[k/len(j.loss)], j.loss[k%len(j.loss)]
	f.Src = loadlab.Stream(j.seed, uint64(k), uint64(r))
	set := j.base
	set.FastControl = &f
	res, err := dual.Solve(j.p, &set)
	if err != nil {
		return nil, err
	}
	gap, err := res.SteadyGap(j.pstar)
	return []float64{gap, res.BetaErr, res.Packets}, err
}

// Summarize forms dual.Sweep's points from the runs, point by point in
// run order: the mean β error and packets, and the gap's estimate.
func (j *sweepDualJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("dual", values, 3); err != nil {
		return sweepTable{}, err
	}
	pts := make([]dual.SweepPoint, len(j.windows)*len(j.loss))
	for k := range pts {
		pt := dual.SweepPoint{Window: j.windows[k/len(j.loss)], Loss: j.loss[k%len(j.loss)], Gamma: j.fc.Gamma}
		runs := values[k*j.runs : (k+1)*j.runs]
		for _, v := range runs {
			pt.BetaErr += v[1] / float64(j.runs)
			pt.Packets += v[2] / float64(j.runs)
		}
		pt.Gap = sweepEstimate(sweepColumn(runs, 0))
		pts[k] = pt
	}
	return sweepDualTable(pts), nil
}

func (j *sweepDualJob) Direct() (sweepTable, error) {
	pts, err := dual.Sweep(j.p, j.fc, j.windows, j.loss, j.direct, j.runs, j.seed)
	return sweepDualTable(pts), err
}

// sweepDualTable writes window, gamma, loss, packets, beta_err and the gap's
// estimate.
func sweepDualTable(pts []dual.SweepPoint) sweepTable {
	t := sweepTable{Columns: []string{"window", "gamma", "loss", "packets", "beta_err", "gap_mean", "gap_lo", "gap_hi", "gap_stderr", "gap_n"}}
	for _, p := range pts {
		t.Rows = append(t.Rows, append([]any{p.Window, p.Gamma, p.Loss, p.Packets, p.BetaErr}, sweepCells(p.Gap)...))
	}
	return t
}
