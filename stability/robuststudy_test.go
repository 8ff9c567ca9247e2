package stability

import (
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// studyNet is a 40-node synthetic CDN at high utilisation, so that the
// optimum sheds load and a wrong C costs something.
func studyNet(t *testing.T) *anycast.Network {
	nw, err := anycast.GenerateCDN(loadlab.Stream(21), &anycast.CDNSettings{N: 40, K: 4})
	require.NoError(t, err)
	for j := range nw.A {
		nw.A[j] *= 1.3
	}
	require.NoError(t, nw.Validate())
	return nw
}

// TestDecideTruth: the decision taken on the true C loses nothing beyond
// the optimum's certified gap (relative 10⁻⁶ by default).
func TestDecideTruth(t *testing.T) {
	r, err := NewRobustness(studyNet(t), nil)
	require.NoError(t, err)
	d, err := r.Decide(r.Net.Sparse)
	require.NoError(t, err)
	assert.LessOrEqual(t, d.Loss, 2*r.Opt.Gap()+1e-12)
	assert.InDelta(t, r.Excess, d.Excess, 1e-9*(1+r.Excess)) // the same x up to the solver's certificate
}

// TestBeaconStudy: the loss of optimality of the decision taken on Ĉ
// shrinks as the beacon budget grows (a hundredfold budget: the error of
// Ĉ falls tenfold; the loss, quadratic in it near the optimum, by about
// a hundred), and the simultaneous set holds the true C in most
// campaigns (its miss probability is ≤ 5 %). The study does not depend
// on the number of goroutines.
func TestBeaconStudy(t *testing.T) {
	r, err := NewRobustness(studyNet(t), &RobustSettings{Runs: 4})
	require.NoError(t, err)
	pts, err := r.BeaconStudy([]int64{30, 3000}, 5)
	require.NoError(t, err)
	require.Len(t, pts, 2)
	assert.Greater(t, pts[0].Loss.Mean, 10*pts[1].Loss.Mean)
	for _, p := range pts {
		assert.GreaterOrEqual(t, p.Loss.Lo+1e-9, 0.0-p.Loss.HalfWidth()*2) // losses are ≥ 0
		assert.Equal(t, 4, p.Loss.N)
		assert.GreaterOrEqual(t, p.Covered, 0.5)
	}
	prev := runtime.GOMAXPROCS(1)
	again, err := r.BeaconStudy([]int64{30, 3000}, 5)
	runtime.GOMAXPROCS(prev)
	require.NoError(t, err)
	assert.Equal(t, pts, again)
}

// TestDriftStudy: a stale C loses nothing on day 0 (beyond the optimum's
// certificate), and more as the routing drifts away.
func TestDriftStudy(t *testing.T) {
	nw := studyNet(t)
	r, err := NewRobustness(nw, nil)
	require.NoError(t, err)
	other, err := anycast.GenerateCDN(loadlab.Stream(22), &anycast.CDNSettings{N: 40, K: 4})
	require.NoError(t, err)
	pts, err := r.DriftStudy(other.Sparse, 0.05, []int{0, 5, 30})
	require.NoError(t, err)
	assert.LessOrEqual(t, pts[0].Loss, 2*r.Opt.Gap()+1e-12)
	assert.Less(t, pts[1].Loss, pts[2].Loss)
	assert.Greater(t, pts[2].Loss, 100*r.Opt.Gap())
	assert.Equal(t, pts[0].Slack0, pts[0].Slack)
	_, err = beacon.Drift(r.Net.Sparse, other.Sparse, 0.05, 1)
	require.NoError(t, err)
}
