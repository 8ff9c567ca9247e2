package dual

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultCertifiesRandom: with default settings Solve certifies the
// default relative gap 10⁻⁶ on random instances with N = 5, 20, 50
// (several seeds), with per-node quadratic costs (NewQuadratic) and with
// the smooth mixed families (QuadraticX with Hinge, Delay or Exp), and
// its interval [Best, Upper] holds the reference optimum of Primal (the
// exact path, certified to 1e-9). Before the accelerated rule, the
// default Theorem III.3 step stopped at relative gaps of 3e-4 to 3e-3
// after 20 000 steps on such instances.
func TestDefaultCertifiesRandom(t *testing.T) {
	sizes := []int{5, 20, 50}
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for _, n := range sizes {
		for seed := 0; seed < seeds; seed++ {
			for _, kind := range []string{"quadratic", "mixed"} {
				name := fmt.Sprintf("N%d/seed%d/%s", n, seed, kind)
				rng := rand.New(rand.NewPCG(uint64(n), uint64(seed)))
				var p *Problem
				if kind == "quadratic" {
					nw := randNetwork(rng, n)
					w, c := make([]float64, n), make([]float64, n)
					for i := range w {
						w[i], c[i] = 0.5+rng.Float64(), 1+9*rng.Float64()
					}
					p = must(NewQuadratic(nw, w, c))
				} else {
					p = randProblem(rng, n, true)
				}
				ref := primalRef(t, p)
				res, err := Solve(p, nil)
				require.NoError(t, err, name)
				assert.Equal(t, loadlab.Success, res.Status, name)
				assert.Equal(t, Accelerated, res.Rule, name)
				// The reference is exact to its certificate 1e-9·(1+|P*|).
				slack := 1e-9 * (1 + math.Abs(ref.Value))
				assert.LessOrEqual(t, res.Best, ref.Value+slack, name)
				assert.GreaterOrEqual(t, res.Upper, ref.Value-slack, name)
				assert.LessOrEqual(t, res.Gap(), 1e-6*math.Abs(res.Upper), name)
				// The optimal point is unambiguous: X with its loads S, of
				// value Upper.
				assert.InDelta(t, res.Upper, p.Reduced(res.X), 1e-12*(1+res.Upper), name)
				obs := p.Net.Loads(nil, res.X)
				for i := range obs {
					assert.InDelta(t, obs[i], res.S[i], 1e-12*(1+obs[i]), name)
				}
				t.Logf("%s: %d steps, %d evals, %d restarts, L = %.3g (bound %.3g), gap %.2g", name, res.Iter, res.Evals, res.Restarts, res.L, res.LBound, res.Gap()/res.Upper)
			}
		}
	}
}
