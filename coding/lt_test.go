package coding

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestLTDegreeLaw: the robust soliton law is a distribution (sum 1 to
// rounding, 1e-12 for k ≤ 10⁴ terms), β·μ(d) − ρ(d) is the spike τ(d) of
// spec §11.7 (R/(dk) below k/R, R ln(R/δ)/k at it, 0 above; checked here
// from a hand computation at k = 10), and k = 1 has μ(1) = 1.
func TestLTDegreeLaw(t *testing.T) {
	for _, c := range []struct {
		k        int
		c, delta float64
	}{{1, 0.1, 0.5}, {10, 0.1, 0.5}, {100, 0.03, 0.5}, {10000, 0.05, 0.01}} {
		l, err := NewLT(c.k, c.c, c.delta)
		require.NoError(t, err)
		mu := l.Degrees()
		sum := 0.0
		for _, p := range mu {
			require.GreaterOrEqual(t, p, 0.0)
			sum += p
		}
		assert.InDelta(t, 1, sum, 1e-12, "%+v", c)
		assert.Equal(t, c.k, l.K())
	}
	// k = 10, c = 0.1, δ = 0.5: R = 0.1·ln 20·√10 = 0.9473337, k/R = 10.56,
	// so the spike sits at d = 10: τ(10) = R ln(2R)/10 = 0.0605387, and
	// τ(d) = R/(10d) below (values worked out separately to 7 digits).
	l, _ := NewLT(10, 0.1, 0.5)
	r := 0.1 * math.Log(20) * math.Sqrt(10)
	assert.InDelta(t, 0.9473337, r, 1e-7)
	mu, beta := l.Degrees(), l.Beta()
	for d := 1; d <= 10; d++ {
		rho := 1.0 / 10
		if d > 1 {
			rho = 1 / float64(d*(d-1))
		}
		tau := r / float64(10*d)
		if d == 10 {
			tau = 0.0605387
		}
		assert.InDelta(t, tau, beta*mu[d-1]-rho, 1e-7, "d = %d", d)
	}
	one, _ := NewLT(1, 0.1, 0.5)
	assert.Equal(t, []float64{1}, one.Degrees())
}

// TestLTRoundTrip encodes random sources, peels the symbols one at a
// time until done, and checks the decoded bytes against the source and
// the symbols against a byte-by-byte exclusive or of their neighbours;
// at every step the revealed count is at most the GF(2) rank of the
// neighbour sets (a revealed chunk is a unit vector of their span), and
// at the end the rank is k.
func TestLTRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for _, k := range []int{1, 2, 7, 40} {
		l, err := NewLT(k, 0.1, 0.5)
		require.NoError(t, err)
		source := randBytes(rng, k, 33)
		d, err := NewLTDecoder(k, 33)
		require.NoError(t, err)
		var rows [][]byte
		for n := 0; !d.Done(); n++ {
			require.Less(t, n, 20*k+100, "k = %d: no end", k)
			s, err := l.Encode(source, rng)
			require.NoError(t, err)
			want := make([]byte, 33)
			for _, i := range s.Neighbours {
				for b := range want {
					want[b] ^= source[i][b]
				}
			}
			require.Equal(t, want, s.Data)
			require.NoError(t, d.Add(s))
			row := make([]byte, k)
			for _, i := range s.Neighbours {
				row[i] = 1
			}
			rows = append(rows, row)
			rk, _ := Rank(rows)
			require.LessOrEqual(t, d.Recovered(), rk)
		}
		got, err := d.Decode()
		require.NoError(t, err)
		assert.Equal(t, source, got, "k = %d", k)
		rk, _ := Rank(rows)
		assert.Equal(t, k, rk)
	}
	d, _ := NewLTDecoder(3, 1)
	_, err := d.Decode()
	assert.ErrorIs(t, err, ErrRankDeficient)
}

// TestLTReception: Luby's theorem (spec §11.7) bounds by δ the chance
// that kβ symbols do not decode, for c large enough; at k = 200, c = 0.5,
// δ = 0.5 (β = 2.33) the measured fraction's exact interval must reach
// down to δ or below (it is 0 in practice), and the mean overhead lies
// between 0 (peeling needs more than k symbols) and β − 1. At c = 0.05
// (β = 1.14) the bound is not meant to hold and does not: most receivers
// need more than kβ. The result does not depend on the workers.
func TestLTReception(t *testing.T) {
	l, err := NewLT(200, 0.5, 0.5)
	require.NoError(t, err)
	res, err := EstimateLTReception(l, 300, 3, &MonteCarlo{Workers: 1})
	require.NoError(t, err)
	assert.LessOrEqual(t, res.FailAtBeta.Lo, 0.5)
	assert.Greater(t, res.Overhead.Lo, 0.0)
	assert.Less(t, res.Overhead.Hi, l.Beta()-1)
	t.Logf("c = 0.5: overhead %.3f [%.3f, %.3f], β − 1 = %.3f, fail at kβ %.3f", res.Overhead.Mean, res.Overhead.Lo, res.Overhead.Hi, l.Beta()-1, res.FailAtBeta.Mean)
	again, err := EstimateLTReception(l, 300, 3, &MonteCarlo{Workers: 3})
	require.NoError(t, err)
	assert.Equal(t, res, again)
	small, _ := NewLT(200, 0.05, 0.5)
	res, err = EstimateLTReception(small, 100, 3, nil)
	require.NoError(t, err)
	assert.Greater(t, res.FailAtBeta.Lo, 0.5)
	t.Logf("c = 0.05: overhead %.3f [%.3f, %.3f], β − 1 = %.3f, fail at kβ %.3f", res.Overhead.Mean, res.Overhead.Lo, res.Overhead.Hi, small.Beta()-1, res.FailAtBeta.Mean)
}

// TestLTBrokenSource: a source that repeats one word draws the same
// symbol again and again; LTSymbolsToDecode stops at 10k + MaxExtraDraws
// symbols with an error wrapping loadlab.ErrNotConverged rather than
// looping.
func TestLTBrokenSource(t *testing.T) {
	l, err := NewLT(5, 0.1, 0.5)
	require.NoError(t, err)
	n, err := LTSymbolsToDecode(l, constSource(1<<63|12345))
	assert.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, 50+MaxExtraDraws, n)
}

type constSource uint64

func (c constSource) Uint64() uint64 { return uint64(c) }
