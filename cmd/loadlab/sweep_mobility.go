package main

import (
	"encoding/json"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive/mobility"
)

// sweepMobilityParams configures the "mobility" sweep: mobility.Compare of
// the baselines (and, with Window > 0, the motion-aware algorithms) on
// one scenario at one sweep point.
type sweepMobilityParams struct {
	Scenario string            `json:"scenario"` // "mesh" or "chatroom"
	Mesh     mobility.Mesh     `json:"mesh"`     // for "mesh"; zero fields are defaults
	ChatRoom mobility.ChatRoom `json:"chatroom"` // for "chatroom"; zero fields are defaults
	Point    uint64            `json:"point"`    // sweep point of the seed path
	Window   int               `json:"window"`   // look-ahead of Target-Aware and Direction-Aware; 0 leaves them out
	Noise    float64           `json:"noise"`    // their prediction noise σ in metres
}

type sweepMobilityJob struct {
	sc    mobility.Scenario
	cs    []mobility.Contender
	runs  int
	seed  uint64
	point uint64
}

func newSweepMobility(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepMobilityParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	j := &sweepMobilityJob{cs: mobility.Baselines(), runs: runs, seed: seed, point: p.Point}
	switch p.Scenario {
	case "mesh":
		if err := p.Mesh.Validate(); err != nil {
			return nil, err
		}
		j.sc = p.Mesh
	case "chatroom":
		if err := p.ChatRoom.Validate(); err != nil {
			return nil, err
		}
		j.sc = p.ChatRoom
	default:
		return nil, loadlab.Invalid("sweep", "params.scenario = %q, want \"mesh\" or \"chatroom\"", p.Scenario)
	}
	if p.Window < 0 {
		return nil, loadlab.Invalid("sweep", "params.window = %d, want ≥ 0", p.Window)
	}
	if p.Window > 0 {
		ta, da := mobility.TargetAware(p.Window, p.Noise), mobility.DirectionAware(p.Window, p.Noise)
		j.cs = append(j.cs, ta, da)
	}
	return j, nil
}

// Prefix: run r of Compare is mobility.Play on the streams
// loadlab.Stream(seed, point, r, ·).
func (j *sweepMobilityJob) Prefix() []uint64 { return []uint64{j.point} }

// Run returns the costs of OPT and the contenders, then their ratios.
func (j *sweepMobilityJob) Run(r int) ([]float64, error) {
	cost, ratio, err := mobility.Play(j.sc, j.cs, j.seed, j.point, uint64(r))
	return append(cost, ratio...), err
}

func (j *sweepMobilityJob) names() []string {
	names := []string{"OPT"}
	for _, c := range j.cs {
		names = append(names, c.Name)
	}
	return names
}

func (j *sweepMobilityJob) Summarize(values [][]float64) (sweepTable, error) {
	k := len(j.cs) + 1
	if err := sweepCheckWidths("mobility", values, 2*k); err != nil {
		return sweepTable{}, err
	}
	var rows []sweepRow
	for i, name := range j.names() {
		rows = append(rows, sweepRow{name + " cost", sweepEstimate(sweepColumn(values, i))}, sweepRow{name + " ratio", sweepEstimate(sweepColumn(values, k+i))})
	}
	return sweepEstimateTable(rows), nil
}

func (j *sweepMobilityJob) Direct() (sweepTable, error) { return j.DirectPrecise(loadlab.Precision{}) }

// DirectPrecise is CompareWith with CompareSettings.Precision = p.
func (j *sweepMobilityJob) DirectPrecise(p loadlab.Precision) (sweepTable, error) {
	res, err := mobility.CompareWith(j.sc, j.cs, j.runs, j.seed, j.point, &mobility.CompareSettings{Precision: p})
	if res == nil {
		return sweepTable{}, err
	}
	var rows []sweepRow
	for _, r := range res {
		rows = append(rows, sweepRow{r.Name + " cost", r.Cost}, sweepRow{r.Name + " ratio", r.Ratio})
	}
	return sweepEstimateTable(rows), err
}
