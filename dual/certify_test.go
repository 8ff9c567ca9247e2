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
				assert.LessOrEqual(t, ref.Value-res.Best, res.Bound+slack, name+": FISTA bound")
				// The optimal point is unambiguous: X with its loads S, of
				// value Upper.
				assert.InDelta(t, res.Upper, must(p.Reduced(res.X)), 1e-12*(1+res.Upper), name)
				obs := p.Net.Loads(nil, res.X)
				for i := range obs {
					assert.InDelta(t, obs[i], res.S[i], 1e-12*(1+obs[i]), name)
				}
				t.Logf("%s: %d steps, %d evals, %d restarts, L = %.3g (bound %.3g), gap %.2g", name, res.Iter, res.Evals, res.Restarts, res.L, res.LBound, res.Gap()/res.Upper)
			}
		}
	}
}

// TestAcceleratedBoundAlongRun checks the a-priori guarantee of the
// accelerated rule (Beck and Teboulle 2009, Theorem 4.4, per restart
// epoch) numerically: after every budget K of a run, P* − Best ≤ Bound,
// with P* from the primal reference. Short budgets keep the gap far above
// rounding, where a wrong constant or radius would show.
func TestAcceleratedBoundAlongRun(t *testing.T) {
	var tight float64
	for seed := uint64(0); seed < 6; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		p := randProblem(rng, 3+rng.IntN(20), true)
		ref := primalRef(t, p)
		slack := 1e-9 * (1 + math.Abs(ref.Value)) // the reference's certificate
		for k := 1; k <= 40; k++ {
			res, err := Solve(p, &Settings{MaxIter: k, Fixed: true})
			require.NoError(t, err)
			require.Equal(t, Accelerated, res.Rule)
			gap := ref.Value - res.Best
			assert.LessOrEqual(t, gap, res.Bound+slack, "seed %d K %d", seed, k)
			if res.Bound > 0 && gap > 1e-6 {
				tight = math.Max(tight, gap/res.Bound)
			}
		}
	}
	t.Logf("largest gap/Bound: %.3g", tight)
}
