package codedload

import (
	"math"
	"math/rand/v2"
	"slices"
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

// bruteReal is an independent simulator of coded delivery with real
// decoding on the side×side torus (spec §11.6), written plainly: iid
// placement of m·ℓ copies per server by inverse-CDF sampling of the
// uniform law, a uniform vector over GF(q) per copy (q = 2 or 4, as
// {0, 1} or {0, 1, x, x+1} = {0, 1, 2^85, 2^170} in GF(2⁸)), exactly n
// requests, each taking every copy of its file in order of distance
// (random among equidistant ones) until the vectors taken have rank ℓ by
// a Gaussian elimination of its own; a file whose copies never reach
// rank ℓ is in outage. It returns the maximum load, the mean extra
// chunks per served request and the outage fraction.
func bruteReal(side, files, m, ell, q int, rnd *rand.Rand) (maxLoad, extra, outage float64) {
	n := side * side
	el := []byte{0, 1, coding.Exp(85), coding.Exp(170)}[:q]
	type cp struct {
		s   int
		vec []byte
	}
	copies := make([][]cp, files)
	for s := range n {
		for range m * ell {
			f := rnd.IntN(files)
			v := make([]byte, ell)
			for i := range v {
				v[i] = el[rnd.IntN(q)]
			}
			copies[f] = append(copies[f], cp{s, v})
		}
	}
	rank := func(rows [][]byte) int { // plain Gaussian elimination over GF(2⁸)
		a := make([][]byte, len(rows))
		for i := range rows {
			a[i] = slices.Clone(rows[i])
		}
		r := 0
		for c := 0; c < ell && r < len(a); c++ {
			p := slices.IndexFunc(a[r:], func(x []byte) bool { return x[c] != 0 })
			if p < 0 {
				continue
			}
			a[r], a[r+p] = a[r+p], a[r]
			for i := r + 1; i < len(a); i++ {
				f := coding.Div(a[i][c], a[r][c])
				for j := range a[i] {
					a[i][j] ^= coding.Mul(f, a[r][j])
				}
			}
			r++
		}
		return r
	}
	wrap := func(x int) int { x = max(x, -x); return min(x, side-x) }
	load := make([]int, n)
	served, extras, out := 0, 0, 0
	for range n {
		u, k := rnd.IntN(n), rnd.IntN(files)
		all := make([][]byte, len(copies[k]))
		for i, c := range copies[k] {
			all[i] = c.vec
		}
		if len(all) < ell || rank(all) < ell {
			out++
			continue
		}
		dist := func(s int) int { return wrap(u/side-s/side) + wrap(u%side-s%side) }
		order := slices.Clone(copies[k])
		rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		slices.SortStableFunc(order, func(a, b cp) int { return dist(a.s) - dist(b.s) })
		var taken [][]byte
		for _, c := range order {
			load[c.s]++
			if taken = append(taken, c.vec); len(taken) >= ell && rank(taken) == ell {
				break
			}
		}
		served++
		extras += len(taken) - ell
	}
	return float64(slices.Max(load)) / float64(ell), float64(extras) / float64(served), float64(out) / float64(n)
}

// TestDecodingMatchesBruteForce: Run with Coded.Field and the
// independent simulator bruteReal have the same law, so their means over
// independent runs (maximum load, extra chunks per served request,
// outage) differ by at most z = 4 standard errors of the difference. On
// a 12×12 torus with ℓ = 4 and q = 2 or 4: with 20 files (about 29 copies
// each) extra chunks are common; with 100 files (about 6 copies each)
// so are files with fewer than ℓ copies or copies that do not span.
func TestDecodingMatchesBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("brute-force simulator: a few seconds")
	}
	const side, ell, R = 12, 4, 120
	tor := &Torus{Side: side}
	rnd := rand.New(rand.NewPCG(41, 42))
	for _, files := range []int{20, 100} {
		for _, q := range []int{2, 4} {
			cfg := Config{Topology: tor, Files: files, Cache: 1, Strategy: Coded{Ell: ell, Field: q}}
			rs := runs(t, cfg, uint64(50+q+files), R)
			got := [3]mc.Summary{
				mean(rs, maxLoad),
				mean(rs, func(r *Result) float64 { return float64(r.ExtraChunks) / float64(r.Served) }),
				mean(rs, func(r *Result) float64 { return r.Outage }),
			}
			var xs [3][]float64
			for range R {
				a, b, c := bruteReal(side, files, 1, ell, q, rnd)
				xs[0], xs[1], xs[2] = append(xs[0], a), append(xs[1], b), append(xs[2], c)
			}
			for i, name := range []string{"max load", "extra chunks", "outage"} {
				want := mc.Summarize(xs[i])
				assert.InDelta(t, want.Mean, got[i].Mean, z*math.Hypot(want.StdErr, got[i].StdErr), "K = %d, q = %d, %s", files, q, name)
				t.Logf("K = %d, q = %d, %s: Run %.4f ± %.4f, brute %.4f ± %.4f", files, q, name, got[i].Mean, got[i].StdErr, want.Mean, want.StdErr)
			}
		}
	}
}
