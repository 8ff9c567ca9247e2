package main

import (
	"encoding/json"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/mc"
)

// dualJob is "dual": dual.Sweep on the quadratic problem of a network,
// run j being run r = j mod runs of point k = j div runs (window
// windows[k / len(losses)], loss losses[k mod len(losses)]) with seed
// path (seed, k, r).
type dualJob struct {
	p             *dual.Problem
	fc            dual.FastControl
	windows, loss []float64
	set           *dual.Settings
	pstar         float64
	runs, nlosses int
	seed          uint64
}

// dualParams configures "dual".
type dualParams struct {
	Network     netParams `json:"network"`
	W           float64   `json:"w"` // quadratic costs of dual.Quadratic
	C           float64   `json:"c"`
	Gamma       float64   `json:"gamma"` // FastControl.Gamma
	Delay       int       `json:"delay"`
	Unreachable string    `json:"unreachable"` // "reject" (default), "drop", "direct"
	Windows     []float64 `json:"windows"`
	Losses      []float64 `json:"losses"` // empty: {0}
	Step        float64   `json:"step"`
	MaxIter     int       `json:"max_iter"`
	Eps         float64   `json:"eps"`
	Mu0         []float64 `json:"mu0"`
}

func newDual(params json.RawMessage, seed uint64, runs int) (job, error) {
	var p dualParams
	if err := strictParams(params, &p); err != nil {
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
	un, err := pick("unreachable", p.Unreachable, "reject", "drop", "direct")
	if err != nil {
		return nil, err
	}
	fc := dual.FastControl{Gamma: p.Gamma, Delay: p.Delay, Unreachable: dual.Unreachable(un)}
	for _, w := range append([]float64{1}, p.Windows...) { // the FastControl fields, every window
		f := fc
		f.Window, f.Src = w, mc.Source(0) // dual.Sweep gives every run its own Src
		if err := f.Validate(); err != nil {
			return nil, err
		}
	}
	for i, l := range p.Losses {
		if !(l >= 0 && l < 1) {
			return nil, loadlab.Invalid("sweep", "params.losses[%d] = %v, want a value in [0, 1)", i, l)
		}
	}
	j := &dualJob{p: prob, fc: fc, windows: p.Windows, loss: p.Losses, runs: runs, seed: seed, nlosses: max(1, len(p.Losses)),
		set: &dual.Settings{Step: p.Step, MaxIter: p.MaxIter, Eps: p.Eps, Mu0: p.Mu0}}
	if j.pstar, err = dual.SweepOptimum(prob, fc, p.Windows, p.Losses, j.set, runs); err != nil {
		return nil, err
	}
	return j, nil
}

func (j *dualJob) Prefix() []uint64 { return nil }
func (j *dualJob) Total() int       { return len(j.windows) * j.nlosses * j.runs }

func (j *dualJob) Path(idx int) []uint64 {
	return []uint64{j.seed, uint64(idx / j.runs), uint64(idx % j.runs)}
}

// Run returns the run's gap, β error and packets.
func (j *dualJob) Run(idx int) ([]float64, error) {
	s, err := dual.SweepRun(j.p, j.fc, j.windows, j.loss, j.set, j.pstar, j.runs, j.seed, idx/j.runs, idx%j.runs)
	return []float64{s.Gap, s.BetaErr, s.Packets}, err
}

func (j *dualJob) Summarize(values [][]float64) (Table, error) {
	if err := checkWidths("dual", values, 3); err != nil {
		return Table{}, err
	}
	samples := make([]dual.SweepSample, len(values))
	for i, v := range values {
		samples[i] = dual.SweepSample{Gap: v[0], BetaErr: v[1], Packets: v[2]}
	}
	return dualTable(dual.SweepSummary(j.fc, j.windows, j.loss, j.runs, samples)), nil
}

func (j *dualJob) Direct() (Table, error) {
	pts, err := dual.Sweep(j.p, j.fc, j.windows, j.loss, j.set, j.runs, j.seed)
	return dualTable(pts), err
}

// dualTable writes window, gamma, loss, packets, beta_err and the gap's
// estimate.
func dualTable(pts []dual.SweepPoint) Table {
	t := Table{Columns: []string{"window", "gamma", "loss", "packets", "beta_err", "gap_mean", "gap_lo", "gap_hi", "gap_stderr", "gap_n"}}
	for _, p := range pts {
		t.Rows = append(t.Rows, append([]any{p.Window, p.Gamma, p.Loss, p.Packets, p.BetaErr}, cells(p.Gap)...))
	}
	return t
}
