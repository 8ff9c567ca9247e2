package main

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/coding"
	"github.com/loadlab/loadlab/internal/mc"
)

// sweepReceptionJob is "coding-reception": coding.EstimateReception(q,
// ℓ, maxExtra, runs, seed), run r being ChunksToDecode(q, ℓ,
// loadlab.Stream(seed, r)), recorded as the number of chunks it needed.
// The merge summarises the counts as EstimateReception does: the
// fraction of runs that decoded from ℓ + δ chunks with its
// Clopper–Pearson interval, and the mean extra count.
type sweepReceptionJob struct {
	q, ell, maxExtra, runs int
	seed                   uint64
}

func newSweepReception(params json.RawMessage, seed uint64, runs int) (sweepJob, error) {
	var p struct {
		Q        int `json:"q"`         // field size: 2, 4, 16 or 256
		Ell      int `json:"ell"`       // pieces ℓ
		MaxExtra int `json:"max_extra"` // largest δ tabulated
	}
	if err := sweepStrictParams(params, &p); err != nil {
		return nil, err
	}
	// The checks of EstimateReception, before any shard file exists.
	switch {
	case !slices.Contains(coding.Fields, p.Q):
		return nil, loadlab.Invalid("sweep", "params.q = %d, want one of %v", p.Q, coding.Fields)
	case p.Ell < 1 || p.Ell > coding.MaxStudyEll:
		return nil, loadlab.Invalid("sweep", "params.ell = %d, want 1 … %d", p.Ell, coding.MaxStudyEll)
	case p.MaxExtra < 0 || p.MaxExtra > 1000:
		return nil, loadlab.Invalid("sweep", "params.max_extra = %d, want 0 … 1000", p.MaxExtra)
	case runs < 2:
		return nil, loadlab.Invalid("sweep", "runs = %d, want ≥ 2", runs)
	}
	return &sweepReceptionJob{q: p.Q, ell: p.Ell, maxExtra: p.MaxExtra, runs: runs, seed: seed}, nil
}

func (j *sweepReceptionJob) Prefix() []uint64 { return nil }

func (j *sweepReceptionJob) Run(r int) ([]float64, error) {
	n, err := coding.ChunksToDecode(j.q, j.ell, loadlab.Stream(j.seed, uint64(r)))
	return []float64{float64(n)}, err
}

func (j *sweepReceptionJob) Summarize(values [][]float64) (sweepTable, error) {
	if err := sweepCheckWidths("coding-reception", values, 1); err != nil {
		return sweepTable{}, err
	}
	within := make([]int, j.maxExtra+1)
	extra := make([]float64, len(values))
	for r, v := range values {
		d := int(v[0]) - j.ell
		extra[r] = float64(d)
		if d <= j.maxExtra {
			within[d]++
		}
	}
	decode := make([]loadlab.Estimate, j.maxExtra+1)
	k := 0
	for d := range decode {
		k += within[d]
		decode[d] = mc.Binomial(k, len(values))
	}
	return sweepReceptionTable(decode, sweepEstimate(extra)), nil
}

func (j *sweepReceptionJob) Direct() (sweepTable, error) {
	return j.DirectPrecise(loadlab.Precision{})
}

// DirectPrecise is EstimateReception with MonteCarlo.Precision = p.
func (j *sweepReceptionJob) DirectPrecise(p loadlab.Precision) (sweepTable, error) {
	rec, err := coding.EstimateReception(j.q, j.ell, j.maxExtra, j.runs, j.seed, &coding.MonteCarlo{Precision: p})
	if rec == nil {
		return sweepTable{}, err
	}
	return sweepReceptionTable(rec.Decode, rec.Extra), err
}

// sweepReceptionTable names the estimates: "P(decode from ℓ+δ)" for each
// δ, then "extra chunks".
func sweepReceptionTable(decode []loadlab.Estimate, extra loadlab.Estimate) sweepTable {
	rows := make([]sweepRow, 0, len(decode)+1)
	for d, e := range decode {
		rows = append(rows, sweepRow{fmt.Sprintf("P(decode from ℓ+%d)", d), e})
	}
	return sweepEstimateTable(append(rows, sweepRow{"extra chunks", extra}))
}
