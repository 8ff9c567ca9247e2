package dual

import (
	"errors"
	"github.com/loadlab/loadlab"
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

func TestFastControlSettingsErrors(t *testing.T) {
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	for _, c := range []struct {
		fc  FastControl
		msg string
	}{
		{FastControl{Gamma: 0}, "Gamma = 0"},
		{FastControl{Gamma: 1, Window: -1}, "Window = -1"},
		{FastControl{Gamma: 1, Loss: 1}, "Loss = 1"},
		{FastControl{Gamma: 1, Delay: -2}, "Delay = -2"},
		{FastControl{Gamma: 1, Unreachable: 7}, "Unreachable = 7"},
	} {
		_, err := Solve(p, &Settings{FastControl: &c.fc, MaxIter: 1})
		if assert.Error(t, err, c.msg) {
			assert.Contains(t, err.Error(), c.msg)
			assert.ErrorIs(t, err, loadlab.ErrInvalid)
		}
	}
	// A nil Src held in a field is a missing required field: an error
	// naming it, from Validate as well as Solve (docs/conventions.md §2;
	// it was a panic that Validate did not foresee). With Window = 0 no
	// source is needed.
	fc := &FastControl{Gamma: 1, Window: 1}
	assert.ErrorIs(t, fc.Validate(), loadlab.ErrInvalid)
	_, err = Solve(p, &Settings{FastControl: fc, MaxIter: 1})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "FastControl.Src is nil")
	assert.NoError(t, (&FastControl{Gamma: 1}).Validate())
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

// steadyGapCases: the tail is the last quarter of Dual (from index
// ⌊3·len/4⌋), hand-computed means of pstar − D over it.
var steadyGapCases = []struct {
	dual  []float64
	pstar float64
	want  float64
}{
	{[]float64{1, 2, 3, 4, 5, 6, 7, 8}, 10, 2.5}, // tail {7, 8}
	{[]float64{1, 2, 3, 4, 5, 6, 7}, 10, 3.5},    // ⌊21/4⌋ = 5: tail {6, 7}
	{[]float64{4}, 5, 1},                         // one value: the tail is all
	{[]float64{-1, 1, 3, 5}, 2, -3},              // a negative gap stays (a D above the P* given)
}

func TestSteadyGap(t *testing.T) {
	for _, c := range steadyGapCases {
		g, err := (&Result{Dual: c.dual}).SteadyGap(c.pstar)
		require.NoError(t, err)
		assert.Equal(t, c.want, g, "Dual %v", c.dual) // exact: small integers
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := (&Result{Dual: []float64{1}}).SteadyGap(bad)
		assert.ErrorIs(t, err, loadlab.ErrInvalid)
		assert.ErrorContains(t, err, "pstar =")
	}
	_, err := (&Result{}).SteadyGap(1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "RecordDual")
}

// TestSweepRunIsSolve checks the per-run rule Sweep documents: with one
// run per point, point k is a Solve with the Constant rule, Fixed and
// RecordDual, FastControl with that point's window and loss and Src =
// loadlab.Stream(seed, k, 0), measured by SteadyGap, BetaErr and
// Packets. The numbers must be equal: the same operations on the same
// inputs.
func TestSweepRunIsSolve(t *testing.T) {
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	fc := FastControl{Gamma: 10, Delay: 1}
	windows, losses := []float64{0.1, 10}, []float64{0, 0.2}
	pts, err := Sweep(p, fc, windows, losses, &Settings{Step: 0.05, MaxIter: 300}, 1, 9)
	require.NoError(t, err)
	ref, err := Primal(p, nil)
	require.NoError(t, err)
	for k, pt := range pts {
		f := fc
		f.Window, f.Loss, f.Src = windows[k/2], losses[k%2], loadlab.Stream(9, uint64(k), 0)
		res, err := Solve(p, &Settings{Step: 0.05, MaxIter: 300, Rule: Constant, Fixed: true, RecordDual: true, FastControl: &f})
		require.NoError(t, err)
		g, err := res.SteadyGap(ref.Value)
		require.NoError(t, err)
		assert.Equal(t, g, pt.Gap.Mean, "point %d", k)
		assert.Equal(t, res.BetaErr, pt.BetaErr, "point %d", k)
		assert.Equal(t, res.Packets, pt.Packets, "point %d", k)
		assert.Equal(t, 1, pt.Gap.N)
	}
}
