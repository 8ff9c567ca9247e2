package dual

import (
	"github.com/loadlab/loadlab"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// linearP1 solves P1 with f_i = W_i A_i (1 − x_i) and h_i = C_i (S_i − T_i)₊
// as a linear program with gonum's simplex, independently of this
// package's solvers. Variables z = (x, S, u, s1, s2, s3, s4) ≥ 0:
//
//	B x − S + s1 = 0       (9)
//	S − u + s2 = T         u ≥ S − T, so u ≥ (S − T)₊ at the optimum
//	x + s3 = 1
//	S + s4 = S̄
//
// minimising −Σ W_i A_i x_i + Σ C_i u_i, plus the constant Σ W_i A_i. The
// slacks form a feasible starting basis (x = S = u = 0).
func linearP1(p *Problem, w, c []float64) (float64, error) {
	n := p.N()
	nw := p.Net
	rows, cols := 4*n, 7*n
	a := mat.NewDense(rows, cols, nil)
	b := make([]float64, rows)
	obj := make([]float64, cols)
	var konst float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, nw.A[j]*nw.C.At(j, i)) // B_ij = A_j C_ji
		}
		a.Set(i, n+i, -1)
		a.Set(n+i, n+i, 1)
		a.Set(n+i, 2*n+i, -1)
		b[n+i] = nw.T[i]
		a.Set(2*n+i, i, 1)
		b[2*n+i] = 1
		a.Set(3*n+i, n+i, 1)
		b[3*n+i] = p.SMax[i]
		obj[i] = -w[i] * nw.A[i]
		obj[2*n+i] = c[i]
		konst += w[i] * nw.A[i]
	}
	basis := make([]int, rows)
	for r := 0; r < rows; r++ {
		a.Set(r, 3*n+r, 1)
		basis[r] = 3*n + r
	}
	v, _, err := lp.Simplex(obj, a, b, 1e-12, basis)
	return v + konst, err
}

func TestLinearCostsAgainstSimplex(t *testing.T) {
	// P1 with linear costs is an LP: the dual's best value, its upper
	// bound and the Theorem III.3 guarantee are checked against simplex.
	rng := rand.New(rand.NewPCG(31, 31))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(5)
		nw := randNetwork(rng, n)
		w := make([]float64, n)
		c := make([]float64, n)
		f := make([]Cost, n)
		h := make([]Cost, n)
		for i := range f {
			w[i], c[i] = 0.5+rng.Float64(), 1+3*rng.Float64()
			f[i] = LinearX{W: w[i], A: nw.A[i]}
			h[i] = Overload{C: c[i], T: nw.T[i]}
		}
		// Every other trial caps S below the largest load, so that the
		// constraint S ≤ S̄ binds in some LPs.
		var smax []float64
		if trial%2 == 1 {
			smax = nw.MaxLoads()
			floats.Scale(0.7, smax)
		}
		p, err := NewProblem(nw, f, h, smax)
		require.NoError(t, err)
		pstar, err := linearP1(p, w, c)
		require.NoError(t, err)
		// Simplex stops when reduced costs are below 1e-12; with O(N)
		// pivots on order-one data its value is exact to ~1e-10.
		const lpTol = 1e-10

		g := must(p.GBound())
		alpha := 0.1 / (g * g)
		res, err := Solve(p, &Settings{Step: alpha, MaxIter: 20000, Fixed: true})
		require.NoError(t, err)
		assert.LessOrEqual(t, res.Best, pstar+lpTol, "weak duality")
		assert.GreaterOrEqual(t, res.Upper, pstar-lpTol, "Upper is a feasible value")
		assert.LessOrEqual(t, pstar-res.Best, res.Bound+lpTol, "Theorem III.3")
		// Regression check, not a theorem: on these seeds the bang-bang
		// dual gets within 1e-3 of the LP optimum (largest seen 7.4e-4),
		// far inside the asymptotic term αG²/2 = 0.05.
		assert.LessOrEqual(t, pstar-res.Best, 1e-3*math.Max(1, pstar), "trial %d", trial)

		// Primal recognises the LP and solves it by simplex in another
		// formulation (overload variables, S eliminated) with a dual
		// simplex for the certificate: it must agree with linearP1 and
		// certify itself to its default Tol (1e-9 relative).
		ref, err := Primal(p, nil)
		require.NoError(t, err)
		assert.True(t, ref.LP, "trial %d", trial)
		assert.True(t, ref.Status.Converged(), "trial %d: certificate %g", trial, ref.Value-ref.Lower)
		assert.InDelta(t, pstar, ref.Value, lpTol*math.Max(1, pstar), "trial %d", trial)
		assert.LessOrEqual(t, ref.Lower, pstar+lpTol, "weak duality")
		assert.LessOrEqual(t, ref.Value-ref.Lower, 1e-9*math.Max(1, ref.Value))
		_, viol := objective(p, ref.X, ref.S)
		assert.LessOrEqual(t, viol, 0.0, "S = S^obs(x) is feasible")
	}
}

func TestPrimalCertificateHonest(t *testing.T) {
	// Primal never reports Converged without a closed certificate. The
	// projected-Newton path on nearly piecewise-linear problems (every
	// node LinearX and Overload except one QuadraticX, so not an LP)
	// stalls on some draws; whatever happens, Converged must be
	// equivalent to Value − Lower ≤ Tol·max(1, |Value|), and the
	// interval [Lower, Value] must contain the optimum the dual method
	// brackets.
	rng := rand.New(rand.NewPCG(32, 32))
	var stalled, closedN int
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(5)
		nw := randNetwork(rng, n)
		f := make([]Cost, n)
		h := make([]Cost, n)
		for i := range f {
			f[i] = LinearX{W: 0.5 + rng.Float64(), A: nw.A[i]}
			h[i] = Overload{C: 1 + 3*rng.Float64(), T: nw.T[i]}
		}
		f[0] = QuadraticX{W: 1, A: nw.A[0]}
		p, err := NewProblem(nw, f, h, nil)
		require.NoError(t, err)
		ref, err := Primal(p, nil)
		if err != nil {
			// Stopped short: the partial result comes with the error.
			require.ErrorIs(t, err, loadlab.ErrNotConverged)
			require.NotNil(t, ref)
			assert.NotEqual(t, loadlab.Success, ref.Status)
		}
		require.False(t, ref.LP)
		const certTol = 1e-9 // PrimalSettings.Tol default
		assert.Equal(t, ref.Value-ref.Lower <= certTol*math.Max(1, math.Abs(ref.Value)), ref.Status.Converged(), "trial %d", trial)
		assert.LessOrEqual(t, ref.Lower, ref.Value, "trial %d", trial)
		res, err := Solve(p, &Settings{Step: 0.1 / (must(p.GBound()) * must(p.GBound())), MaxIter: 5000, Fixed: true})
		require.NoError(t, err)
		// Both methods bound the same P*: their intervals must meet. Slack:
		// rounding of N order-one terms.
		assert.LessOrEqual(t, res.Best, ref.Value+1e-12, "trial %d", trial)
		assert.LessOrEqual(t, ref.Lower, res.Upper+1e-12, "trial %d", trial)
		if ref.Status.Converged() {
			closedN++
		} else {
			stalled++
		}
	}
	t.Logf("Newton certificate closed on %d draws, open on %d", closedN, stalled)

	// A run cut short by MaxIter is not converged, and says so.
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	ref, err := Primal(p, &PrimalSettings{MaxIter: 1})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.IterationLimit, ref.Status)
	assert.Greater(t, ref.Value-ref.Lower, 1e-9)
}
