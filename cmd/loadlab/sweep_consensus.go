package main

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/spectral"
)

// sweepConsensusParams configures the "consensus" sweep: consensus.EstimateRho
// on a throttler over a deterministic graph family member.
type sweepConsensusParams struct {
	Family  string  `json:"family"`  // spectral.Family name: path, cycle, star, complete, grid, torus, hypercube
	Size    int     `json:"size"`    // its size parameter k
	Gamma   float64 `json:"gamma"`   // update cycle γ
	Traffic string  `json:"traffic"` // "case 1", "case 2" or "case 2T"
	Sigma   float64 `json:"sigma"`   // demand noise σ
	Steps   int     `json:"steps"`   // MonteCarlo.Steps
	Burn    int     `json:"burn"`    // MonteCarlo.Burn
}

type sweepConsensusJob struct {
	th    *consensus.Throttler
	t     consensus.Traffic
	sigma float64
	m     consensus.MonteCarlo
}

// sweepMaxOrder bounds the graphs the command builds (the throttler's
// simulation is dense in places; larger studies call the library).
const sweepMaxOrder = 1 << 16

func newSweepConsensus(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p sweepConsensusParams
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	fam := slices.IndexFunc(spectral.AllFamilies(), func(f spectral.Family) bool { return f.String() == p.Family })
	if fam < 0 {
		return nil, loadlab.Invalid("sweep", "params.family = %q: unknown", p.Family)
	}
	f := spectral.AllFamilies()[fam]
	n, err := f.Order(p.Size)
	if err != nil {
		return nil, fmt.Errorf("params.size: %w", err)
	}
	if n > sweepMaxOrder {
		return nil, loadlab.TooLarge("sweep", "params.size = %d gives %d nodes, want at most %d", p.Size, n, sweepMaxOrder)
	}
	g, err := f.Graph(p.Size)
	if err != nil {
		return nil, fmt.Errorf("params.size: %w", err)
	}
	t := slices.IndexFunc([]consensus.Traffic{consensus.Case1, consensus.Case2, consensus.Case2T}, func(t consensus.Traffic) bool { return t.String() == p.Traffic })
	if t < 0 {
		return nil, loadlab.Invalid("sweep", "params.traffic = %q, want \"case 1\", \"case 2\" or \"case 2T\"", p.Traffic)
	}
	if !(p.Sigma >= 0) || math.IsInf(p.Sigma, 1) {
		return nil, loadlab.Invalid("sweep", "params.sigma = %v, want finite and ≥ 0", p.Sigma)
	}
	j := &sweepConsensusJob{
		th:    &consensus.Throttler{Graph: g, Gamma: p.Gamma},
		t:     consensus.Traffic(t + 1),
		sigma: p.Sigma,
		m:     consensus.MonteCarlo{Runs: runs, Steps: p.Steps, Burn: p.Burn, Seed: seed, Workers: 1},
	}
	if err := j.th.Validate(); err != nil {
		return nil, err
	}
	// An unstable γ is bad input: refuse it before any shard file exists,
	// by the family's closed-form spectrum (spec throttlers.md §4.1).
	ev, err := f.Spectrum(p.Size)
	if err != nil {
		return nil, fmt.Errorf("params.size: %w", err)
	}
	sp, err := consensus.SpectralFrom(ev)
	if err != nil {
		return nil, err
	}
	if _, err := sp.Rho(j.t, p.Gamma, p.Sigma); err != nil {
		return nil, fmt.Errorf("params.gamma: %w", err)
	}
	if err := j.m.Validate(); err != nil {
		return nil, err
	}
	return j, nil
}

// Prefix: run r of EstimateRho is SimulateRho on loadlab.Stream(Seed, r).
func (j *sweepConsensusJob) Prefix() []uint64 { return nil }

func (j *sweepConsensusJob) Run(r int) ([]float64, error) {
	x, err := consensus.SimulateRho(j.th, j.t, j.sigma, j.m.Steps, j.m.Burn, loadlab.Stream(j.m.Seed, uint64(r)))
	return []float64{x}, err
}

func (j *sweepConsensusJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("consensus", values, 1); err != nil {
		return sweepTable{}, err
	}
	return sweepEstimateTable([]sweepRow{{"rho", sweepEstimate(sweepColumn(values, 0))}}), nil
}

func (j *sweepConsensusJob) Direct() (sweepTable, error) { return j.DirectPrecise(loadlab.Precision{}) }

// DirectPrecise is EstimateRho with MonteCarlo.Precision = p.
func (j *sweepConsensusJob) DirectPrecise(p loadlab.Precision) (sweepTable, error) {
	m := j.m
	m.Workers, m.Precision = 0, p
	e, err := consensus.EstimateRho(j.th, j.t, j.sigma, m)
	return sweepEstimateTable([]sweepRow{{"rho", e}}), err
}
