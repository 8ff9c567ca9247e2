package anycast

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A demand spread so wide that exp(σZ − σ²/2) underflows for ordinary
// draws is refused, naming the field: σ = 40 once gave A = 0 everywhere
// and every capacity replaced by 1, with no error. σ = 30, the largest
// allowed, keeps every demand positive.
func TestCDNSigmaBound(t *testing.T) {
	_, err := GenerateCDN(rand.NewPCG(1, 2), &CDNSettings{N: 100, K: 5, Sigma: 40})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "CDNSettings.Sigma = 40")
	assert.ErrorIs(t, (&CDNSettings{Sigma: 31}).Validate(), loadlab.ErrInvalid)
	nw, err := GenerateCDN(rand.NewPCG(1, 2), &CDNSettings{N: 100, K: 5, Sigma: 30})
	require.NoError(t, err)
	for j, a := range nw.A {
		// |Z| ≤ 8 for all 100 draws except with probability 1e-13.
		assert.Greater(t, a, 0.0, "A[%d]", j)
	}
}
