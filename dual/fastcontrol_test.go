package dual

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// oneWay has C_01 = 0 while C_10 = 0.5: the rate r_01 of (19) is
// undefined (spec §4.7, open question §9.9).
func oneWay(t *testing.T) *Problem {
	nw, err := anycast.NewNetwork([]float64{1, 1.2}, mat.NewDense(2, 2, []float64{1, 0, 0.5, 0.5}), []float64{0.6, 0.5})
	require.NoError(t, err)
	p, err := Quadratic(nw, 1, 4)
	require.NoError(t, err)
	return p
}

func TestUnreachableReject(t *testing.T) {
	p := oneWay(t)
	_, err := Rates(nil, p.Net, []float64{1, 1}, 10)
	var ue *UnreachableError
	require.True(t, errors.As(err, &ue), "Rates must refuse C_01 = 0 < C_10: %v", err)
	assert.Equal(t, 0, ue.I)
	assert.Equal(t, 1, ue.J)
	assert.Contains(t, err.Error(), "C[0][1] = 0 but C[1][0] = 0.5")
	_, err = Solve(p, &Settings{FastControl: &FastControl{Gamma: 1}}) // Reject is the default
	assert.True(t, errors.As(err, &ue))
}

func TestUnreachableDropAndDirect(t *testing.T) {
	// Drop: β̂_1 misses exactly the term C_10 μ_0; Direct: β̂ = β exactly.
	p := oneWay(t)
	mu := []float64{0.7, 0.3}
	beta := must(Coupling(nil, p.Net, mu))
	for _, pol := range []Unreachable{Drop, Direct} {
		st, err := newFCState(p, &FastControl{Gamma: 3, Unreachable: pol}, mu)
		require.NoError(t, err)
		got := make([]float64, 2)
		st.measure(got, mu, 0)
		assert.InDelta(t, beta[0], got[0], tol, pol.String())
		want := beta[1]
		if pol == Drop {
			want -= p.Net.C.At(1, 0) * mu[0]
		}
		assert.InDelta(t, want, got[1], tol, pol.String())
	}
	// With Direct the optimum is the exact one; with Drop it is not.
	ref, err := Primal(p, nil)
	require.NoError(t, err)
	res, err := Solve(p, &Settings{Step: 0.2, MaxIter: 5000, Fixed: true, FastControl: &FastControl{Gamma: 1, Unreachable: Direct}})
	require.NoError(t, err)
	assert.InDelta(t, ref.Value, res.Best, 1e-9) // linear convergence on a smooth dual: 5000 steps suffice
	assert.Greater(t, res.Direct, 0.0)
	drop, err := Solve(p, &Settings{Step: 0.2, MaxIter: 5000, Fixed: true, FastControl: &FastControl{Gamma: 1, Unreachable: Drop}})
	require.NoError(t, err)
	assert.Greater(t, math.Abs(drop.Upper-ref.Value), 1e-6, "dropping a term must move the operating point")
}

func TestFastControlPoissonStatistics(t *testing.T) {
	// β̂_i = count/(γW), count ~ Poisson(W (1−loss) γ β_i): mean (1−loss)β_i,
	// variance (1−loss)β_i/(γW). Checked over 20000 windows; tolerances are
	// 5 standard errors (mean) and 5 standard errors of the sample variance.
	nw := twoNode()
	p, err := Quadratic(nw, 1, 4)
	require.NoError(t, err)
	mu := []float64{1, 2}
	beta := must(Coupling(nil, nw, mu)) // (1.9, 1.5), spec item 17
	const draws = 20000
	for _, loss := range []float64{0, 0.3} {
		fc := &FastControl{Gamma: 10, Window: 0.5, Loss: loss, Src: rand.NewPCG(3, 4)}
		st, err := newFCState(p, fc, mu)
		require.NoError(t, err)
		var s1, s2 [2]float64
		b := make([]float64, 2)
		for k := 0; k < draws; k++ {
			st.measure(b, mu, k)
			for i := range b {
				s1[i] += b[i]
				s2[i] += b[i] * b[i]
			}
		}
		for i := range b {
			m := s1[i] / draws
			v := s2[i]/draws - m*m
			wantM := (1 - loss) * beta[i]
			wantV := wantM / (fc.Gamma * fc.Window)
			assert.InDelta(t, wantM, m, 5*math.Sqrt(wantV/draws), "mean loss=%v", loss)
			// Var of the sample variance ≈ (μ4 − σ⁴)/n with μ4 = σ⁴(3 + 1/λ)·… ≈ 2σ⁴/n for large λ.
			assert.InDelta(t, wantV, v, 5*wantV*math.Sqrt(2.5/draws), "variance loss=%v", loss)
		}
	}
}

func TestFastControlOnlyGammaWindowProduct(t *testing.T) {
	// The count's mean is W γ β, so (γ, W) = (10, 2) and (20, 1) give the
	// same β̂ from the same stream, exactly.
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	mu := []float64{0.5, 0.2, 0.4}
	a, err := newFCState(p, &FastControl{Gamma: 10, Window: 2, Src: rand.NewPCG(9, 9)}, mu)
	require.NoError(t, err)
	b, err := newFCState(p, &FastControl{Gamma: 20, Window: 1, Src: rand.NewPCG(9, 9)}, mu)
	require.NoError(t, err)
	ba, bb := make([]float64, 3), make([]float64, 3)
	for k := 0; k < 100; k++ {
		a.measure(ba, mu, k)
		b.measure(bb, mu, k)
		for i := range ba {
			assert.InDelta(t, ba[i], bb[i], 1e-15*ba[i]) // count/20 both ways, up to one rounding
		}
	}
}

func TestFastControlDelay(t *testing.T) {
	// With Delay = d the nodes measure β(μ(k − d)), with μ(0) before the start.
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	mus := [][]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}}
	for _, d := range []int{0, 1, 2} {
		st, err := newFCState(p, &FastControl{Gamma: 2, Delay: d}, mus[0])
		require.NoError(t, err)
		got := make([]float64, 3)
		for k, mu := range mus {
			st.measure(got, mu, k)
			want := must(Coupling(nil, p.Net, mus[max(0, k-d)]))
			for i := range want {
				assert.InDelta(t, want[i], got[i], tol, "d=%d k=%d", d, k)
			}
		}
	}
}

func TestSweepTradeOff(t *testing.T) {
	// Longer windows mean more packets and a smaller β error: the error
	// is ≈ 1/√(γ W β) relative, so a 100× longer window cuts it ~10×.
	// Loss biases β̂ low and leaves a gap the window cannot remove.
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	pts, err := Sweep(p, FastControl{Gamma: 10}, []float64{0.1, 10}, []float64{0, 0.2}, &Settings{Step: 0.05, MaxIter: 2000}, 4, 1)
	require.NoError(t, err)
	require.Len(t, pts, 4)
	short, long := pts[0], pts[2] // loss 0
	// Packets per step are W times the rate γ Σ μ_i Σ_j C_ji/C_ij; the rate
	// follows the μ path, which noise shifts (the projection [·]⁺ rectifies
	// it), so the per-unit-window rates agree only to ~25%.
	assert.InEpsilon(t, short.Packets/short.Window, long.Packets/long.Window, 0.25)
	assert.Less(t, long.BetaErr, short.BetaErr/5)
	assert.Less(t, long.Gap.Mean, short.Gap.Mean)
	lossy := pts[3]
	assert.Greater(t, lossy.Gap.Mean, long.Gap.Mean, "20% loss biases β by 20%")
	// Same seed, same answer (parallel runs are deterministic).
	again, err := Sweep(p, FastControl{Gamma: 10}, []float64{0.1, 10}, []float64{0, 0.2}, &Settings{Step: 0.05, MaxIter: 2000}, 4, 1)
	require.NoError(t, err)
	assert.Equal(t, pts, again)
}

// Overhead on a large sparse network, whose N×N rates Rates refuses
// (N = 2¹⁸ would need 512 GiB: validate_test.go), answers in O(nnz).
func TestOverheadLargeSparse(t *testing.T) {
	n := 1 << 18
	nw := bigDiagonal(n)
	mu := make([]float64, n)
	mu[7] = 2
	ov, err := Overhead(nw, mu, 3)
	require.NoError(t, err)
	assert.Equal(t, 6.0, ov) // γ μ_7 C_77/C_77 (spec §4.7)
}
