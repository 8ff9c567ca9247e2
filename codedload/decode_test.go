package codedload

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab/coding"
	"github.com/loadlab/loadlab/internal/mc"
)

// TestDecodingExtraChunks: with many copies per file, the extra chunks a
// request needs beyond ℓ have the law of coding.ChunksToDecode (spec
// §11.6: the ℓ + δ nearest copies carry independent uniform vectors), so
// their mean per served request is coding.ExpectedExtra(q, ℓ) (spec
// §11.3). Requests of one run share copies, so the run means (30 runs)
// are the independent observations; the mean over runs must lie within
// 4 standard errors of the formula (a false alarm has probability
// ~6e-5). Each file has about 320 copies, so conditioning on the copies
// spanning changes nothing visible.
func TestDecodingExtraChunks(t *testing.T) {
	tor, err := NewTorus(400)
	require.NoError(t, err)
	for _, q := range []int{2, 16} {
		const ell, runs = 4, 30
		xs := make([]float64, runs)
		for r := range xs {
			res, err := Run(Config{Topology: tor, Files: 10, Cache: 2, Strategy: Coded{Ell: ell, Field: q}}, mc.Source(7, uint64(r)))
			require.NoError(t, err)
			require.Zero(t, res.Undecodable)
			xs[r] = float64(res.ExtraChunks) / float64(res.Served)
		}
		e := mc.Estimate(xs)
		want, _, err := coding.ExpectedExtra(float64(q), ell)
		require.NoError(t, err)
		assert.InDelta(t, want, e.Mean, 4*e.StdErr, "q = %d", q)
	}
}

// TestDecodingUndecodable: Uniform placement with n·M = K deals every
// file exactly ℓ copies and nothing else, so a file decodes with
// probability DecodeProb(q, ℓ, 0) and the expected fraction of requests
// in outage is 1 − DecodeProb (spec §11.3, §11.6). Over 40 runs of 100
// files the fraction must lie within 4 standard errors of it (run
// fractions as independent observations). With Field 0 no request is in
// outage.
func TestDecodingUndecodable(t *testing.T) {
	tor, err := NewTorus(100)
	require.NoError(t, err)
	cfg := Config{Topology: tor, Files: 100, Cache: 1, Placement: Uniform}
	for _, q := range []int{2, 4} {
		const ell, runs = 3, 40
		cfg.Strategy = Coded{Ell: ell, Field: q}
		xs := make([]float64, runs)
		for r := range xs {
			res, err := Run(cfg, mc.Source(11, uint64(r)))
			require.NoError(t, err)
			require.Equal(t, res.Requests-res.Served, res.Undecodable)
			assert.InDelta(t, float64(res.Undecodable)/float64(res.Requests), res.Outage, 1e-15)
			xs[r] = res.Outage
		}
		e := mc.Estimate(xs)
		p, _ := coding.DecodeProb(float64(q), ell, 0)
		assert.InDelta(t, 1-p, e.Mean, 4*e.StdErr, "q = %d", q)
	}
	cfg.Strategy = Coded{Ell: 3}
	res, err := Run(cfg, mc.Source(11, 0))
	require.NoError(t, err)
	assert.Zero(t, res.Outage)
}

// TestDecodingAccounting: every chunk sent is counted once: the loads
// sum to ℓ·Served + ExtraChunks, the histogram to n servers, and the cost
// is the hops over ℓ·Requests; the same seed gives the same run; a
// huge field makes extra chunks rare and the run close to the ideal one
// (same placement and requests, so the same outage).
func TestDecodingAccounting(t *testing.T) {
	tor, _ := NewTorus(256)
	for _, ties := range []TieRule{TieRandom, TieLowest, TieListOrder} {
		for _, pl := range []PlacementKind{Proportional, Uniform, Full} {
			cfg := Config{Topology: tor, Files: 20, Cache: 2, Gamma: 0.8, Placement: pl, Ties: ties, KeepLoads: true, Strategy: Coded{Ell: 5, ChunkCap: 2, Field: 2}}
			res, err := Run(cfg, rand.NewPCG(3, uint64(pl)))
			require.NoError(t, err)
			sum := int64(0)
			for _, x := range res.Loads {
				sum += int64(x)
			}
			assert.Equal(t, 5*int64(res.Served)+res.ExtraChunks, sum, "ties %d, placement %d", ties, pl)
			assert.Greater(t, res.ExtraChunks, int64(0))
			assert.InDelta(t, float64(res.ChunkHops)/(5*float64(res.Requests)), res.Cost, 1e-12)
			n := 0
			for _, h := range res.Hist {
				n += h
			}
			assert.Equal(t, 256, n)
			again, _ := Run(cfg, rand.NewPCG(3, uint64(pl)))
			assert.Equal(t, res, again)
			cfg.Strategy = Coded{Ell: 5, ChunkCap: 2}
			ideal, _ := Run(cfg, rand.NewPCG(3, uint64(pl)))
			cfg.Strategy = Coded{Ell: 5, ChunkCap: 2, Field: 256}
			real, _ := Run(cfg, rand.NewPCG(3, uint64(pl)))
			assert.Equal(t, ideal.Requests, real.Requests)
			assert.Equal(t, ideal.Served, real.Served+real.Undecodable)
			// Over GF(2⁸) about one request in 255 takes one chunk more
			// (0.08 % of the 5 chunks per request on average) and the tie
			// draws differ: 5 % of the cost is far above either effect.
			assert.LessOrEqual(t, math.Abs(real.Cost-ideal.Cost), 0.05*ideal.Cost)
		}
	}
}
