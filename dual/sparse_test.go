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

// agreementSizes are the random instances of the sparse/dense tests
// (N ≤ 200, where the dense path is quick).
var agreementSizes = []struct {
	seed  uint64
	n, k  int
	wc, c float64 // Quadratic weights
}{{1, 3, 2, 1, 4}, {2, 17, 3, 0.5, 2}, {3, 60, 6, 1, 4}, {4, 200, 6, 2, 1}, {5, 200, 10, 1, 8}}

func TestSolveSparseMatchesDense(t *testing.T) {
	// The dual step's products C μ and Cᵀ(A∘x) sum the same terms in the
	// same order for sparse C and for the compressed rows of the dense
	// copy, so the runs agree step for step; only SmoothBound's product
	// (dense rows by gonum's assembly kernel) may round differently.
	for _, in := range agreementSizes {
		sp, de := cdnPair(t, in.seed, 7, in.n, in.k)
		ps, err := Quadratic(sp, in.wc, in.c)
		require.NoError(t, err)
		pd, err := Quadratic(de, in.wc, in.c)
		require.NoError(t, err)
		for _, set := range []*Settings{nil, {Rule: Constant, MaxIter: 300, Fixed: true}} {
			rs, err := Solve(ps, set)
			require.NoError(t, err)
			rd, err := Solve(pd, set)
			require.NoError(t, err)
			assert.Equal(t, rd.Iter, rs.Iter, "N = %d", in.n)
			// 1e-12 relative: a few roundings of the step's sums, through
			// a step size that may differ in its last bits.
			assert.InDelta(t, rd.Best, rs.Best, 1e-12*(1+math.Abs(rd.Best)), "N = %d", in.n)
			assert.InDelta(t, rd.Upper, rs.Upper, 1e-12*(1+math.Abs(rd.Upper)), "N = %d", in.n)
			for i := range rd.X {
				assert.InDelta(t, rd.X[i], rs.X[i], 1e-10, "N = %d, x[%d]", in.n, i)
			}
		}
	}
}

// Primal on sparse C (PCG Newton systems, O(nnz) products) against
// Primal on the dense copy with the dense-Cholesky Newton systems (the
// solver before the change): both certify P* ∈ [Lower, Value], so the
// values differ by at most the two widths; f_j = (w/2)A_j(1 − x)² makes
// the reduced objective m-strongly convex with m = w·min_j A_j, so
// ‖x − x*‖₂² ≤ 2(Value − P*)/m ≤ 2·width/m for each.
func TestPrimalSparseMatchesDense(t *testing.T) {
	for _, in := range agreementSizes {
		sp, de := cdnPair(t, in.seed, 7, in.n, in.k)
		ps, err := Quadratic(sp, in.wc, in.c)
		require.NoError(t, err)
		pd, err := Quadratic(de, in.wc, in.c)
		require.NoError(t, err)
		rs, err := Primal(ps, nil)
		require.NoError(t, err, "N = %d", in.n)
		rp, err := Primal(pd, nil) // PCG on dense C
		require.NoError(t, err, "N = %d", in.n)
		rc, err := primal(pd, nil, newChol(in.n)) // dense Cholesky
		require.NoError(t, err, "N = %d", in.n)
		minA := math.Inf(1)
		for _, a := range sp.A {
			minA = math.Min(minA, a)
		}
		m := in.wc * minA
		// A width is Value − Lower plus the rounding of the two sums of
		// N terms (N·2⁻⁵² relative, doubled): it can be slightly negative.
		width := func(r *PrimalResult) float64 {
			return math.Max(0, r.Value-r.Lower) + float64(in.n)*4.5e-16*(1+math.Abs(r.Value))
		}
		for _, r := range []*PrimalResult{rp, rc} {
			ws, wr := width(rs), width(r)
			assert.InDelta(t, r.Value, rs.Value, ws+wr, "N = %d", in.n)
			d := 0.0
			for i := range r.X {
				d += (r.X[i] - rs.X[i]) * (r.X[i] - rs.X[i])
			}
			lim := math.Sqrt(2*ws/m) + math.Sqrt(2*wr/m)
			assert.LessOrEqual(t, math.Sqrt(d), lim, "N = %d: ‖x_sparse − x_dense‖", in.n)
		}
	}
}

// FastControl reads the same pairs of C in the same order through the
// sparse rows as through the dense matrix, so the rates, receptions,
// overhead, unreachable pairs and the measured runs (Poisson counts on
// the same stream) are identical.
func TestFastControlSparseMatchesDense(t *testing.T) {
	for _, in := range agreementSizes {
		sp, de := cdnPair(t, in.seed, 7, in.n, in.k)
		rng := rand.New(rand.NewPCG(in.seed, 3))
		mu := randMu(rng, in.n, 1)
		// Unreachable pairs: the same first pair, or none in both.
		_, es := Rates(nil, sp, mu, 2)
		_, ed := Rates(nil, de, mu, 2)
		var us, ud *UnreachableError
		assert.Equal(t, errors.As(ed, &ud), errors.As(es, &us))
		assert.Equal(t, ud, us, "N = %d", in.n)
		os, err := Overhead(sp, mu, 2)
		require.NoError(t, err)
		od, err := Overhead(de, mu, 2)
		require.NoError(t, err)
		assert.Equal(t, od, os, "N = %d", in.n)

		ps, err := Quadratic(sp, in.wc, in.c)
		require.NoError(t, err)
		pd, err := Quadratic(de, in.wc, in.c)
		require.NoError(t, err)
		for _, pol := range []Unreachable{Drop, Direct} {
			run := func(p *Problem) *Result {
				fc := &FastControl{Gamma: 20, Window: 2, Loss: 0.05, Delay: 1, Unreachable: pol, Src: rand.NewPCG(9, in.seed)}
				res, err := Solve(p, &Settings{FastControl: fc, MaxIter: 200, Fixed: true})
				require.NoError(t, err)
				return res
			}
			rs, rd := run(ps), run(pd)
			assert.Equal(t, rd.Packets, rs.Packets, "N = %d, %v", in.n, pol)
			assert.Equal(t, rd.Direct, rs.Direct, "N = %d, %v", in.n, pol)
			assert.Equal(t, rd.Mu, rs.Mu, "N = %d, %v", in.n, pol)
			// BetaErr divides by the exact β, whose dense product may
			// round differently in the last bit: 1e-12 relative.
			assert.InDelta(t, rd.BetaErr, rs.BetaErr, 1e-12*(1+rd.BetaErr))
		}
	}
}

// Rates and Receptions on a sparse network whose C is reachable (every
// C_ij > 0 has C_ji > 0): Rates equals the dense computation, and
// Receptions of those rates is γ β (spec §4.7 eq. (20)) for both forms.
func TestRatesReceptionsSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	de := randNetwork(rng, 30) // all entries positive
	sc, err := anycast.SparseOf(de.C)
	require.NoError(t, err)
	sp, err := anycast.NewNetwork(de.A, sc, de.T)
	require.NoError(t, err)
	mu := randMu(rng, 30, 1)
	rs, err := Rates(nil, sp, mu, 3)
	require.NoError(t, err)
	rd, err := Rates(nil, de, mu, 3)
	require.NoError(t, err)
	assert.True(t, mat.Equal(rd, rs))
	gs, err := Receptions(nil, sp, rs)
	require.NoError(t, err)
	gd, err := Receptions(nil, de, rd)
	require.NoError(t, err)
	assert.Equal(t, gd, gs)
	beta := must(Coupling(nil, de, mu))
	for i := range beta {
		// R_i = Σ_j γ μ_i-weighted terms: N roundings of order γβ_i.
		assert.InDelta(t, 3*beta[i], gs[i], 1e-13*30*(1+3*beta[i]))
	}
	// Reused dst is cleared (a sparse C writes only its nonzeros).
	dst := mat.NewDense(30, 30, nil)
	for i := 0; i < 30; i++ {
		dst.Set(i, i, -1)
	}
	_, err = Rates(dst, sp, mu, 3)
	require.NoError(t, err)
	assert.True(t, mat.Equal(rd, dst))
}

// Sweep runs Primal and FastControl Solves: on sparse and dense C the
// points agree; the gaps through P*, which each Primal certifies to
// 1e-9·max(1, |P*|), so to twice that.
func TestSweepSparseMatchesDense(t *testing.T) {
	sp, de := cdnPair(t, 6, 7, 40, 4)
	ps, err := Quadratic(sp, 1, 4)
	require.NoError(t, err)
	pd, err := Quadratic(de, 1, 4)
	require.NoError(t, err)
	ref, err := Primal(pd, nil)
	require.NoError(t, err)
	fc := FastControl{Gamma: 10, Unreachable: Direct}
	set := &Settings{MaxIter: 200}
	ws, err := Sweep(ps, fc, []float64{0.5, 2}, []float64{0, 0.1}, set, 3, 11)
	require.NoError(t, err)
	wd, err := Sweep(pd, fc, []float64{0.5, 2}, []float64{0, 0.1}, set, 3, 11)
	require.NoError(t, err)
	require.Len(t, ws, len(wd))
	tol := 2e-9 * math.Max(1, math.Abs(ref.Value))
	for k := range wd {
		assert.Equal(t, wd[k].Packets, ws[k].Packets)
		assert.InDelta(t, wd[k].BetaErr, ws[k].BetaErr, 1e-12*(1+wd[k].BetaErr))
		assert.InDelta(t, wd[k].Gap.Mean, ws[k].Gap.Mean, tol)
		assert.InDelta(t, wd[k].Gap.Lo, ws[k].Gap.Lo, tol)
		assert.InDelta(t, wd[k].Gap.Hi, ws[k].Gap.Hi, tol)
	}
}
