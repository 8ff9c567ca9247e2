package stability

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Rounding tolerances of the sparse–dense comparisons. The loads S_i sum
// ≤ N ≤ 200 products of size ≤ max A·max C in another order (and the
// integrator's products with C_ji A_j rounded first), so they differ by a
// few hundred ulps of (CᵀA)_i at most: relTol = 1e-12 relative to the
// scale of the quantity. Integrated trajectories carry that difference
// through ≤ 10⁴ steps of a contracting flow; odeTol = 1e-9 is 10× below
// the integration tolerance 1e-8 and far above the 1e-13 or so measured.
const (
	relTol = 1e-12
	odeTol = 1e-9
)

// randomState draws x ∈ [0, 1]^N with a quarter of the nodes on a face.
func randomState(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		switch rng.IntN(8) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = 1
		default:
			x[i] = rng.Float64()
		}
	}
	return x
}

func assertClose(t *testing.T, want, got []float64, tol float64, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	scale := 1.0
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range want {
		require.InDeltaf(t, want[i], got[i], tol*scale, "%s[%d]: dense against sparse (tolerance %g·%g)", what, i, tol, scale)
	}
}

func TestSparseLawMatchesDense(t *testing.T) {
	// Rate, the Jacobian (dense, factored, and its products), Euler steps
	// and the polytope slacks read C through the same Network methods and
	// agree to rounding; Integrate and IntegrateLogit to odeTol.
	for _, n := range []int{2, 30, 200} {
		sp, de := cdnPair(t, uint64(n), 1, n, min(n, 8))
		ls, ld := mustLaw(sp, 1), mustLaw(de, 1)
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		x := randomState(rng, n)
		assertClose(t, ld.Rate(nil, x), ls.Rate(nil, x), relTol, "Rate")
		jd := ld.Jacobian(nil, x)
		assert.True(t, mat.EqualApprox(jd, ls.Jacobian(nil, x), relTol), "Jacobian")
		op := ls.JacobianOp(x)
		assert.True(t, mat.EqualApprox(jd, op, relTol), "JacobianOp entries")
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		var jv mat.VecDense
		jv.MulVec(jd, mat.NewVecDense(n, v))
		assertClose(t, jv.RawVector().Data, op.MulVec(nil, v), relTol, "JacobianOp.MulVec")
		dt := 0.01
		es, err := ls.EulerStep(nil, x, dt)
		require.NoError(t, err)
		ed, err := ld.EulerStep(nil, x, dt)
		require.NoError(t, err)
		assertClose(t, ed, es, relTol, "EulerStep")
		for name, f := range map[string]func(*anycast.Network) ([]float64, error){"PolytopeSlack": PolytopeSlack, "ExtendedSlack": ExtendedSlack} {
			assertClose(t, must(f(de)), must(f(sp)), relTol, name)
		}
		assert.Equal(t, must(InPolytope(de)), must(InPolytope(sp)))
		assert.Equal(t, must(InExtended(de)), must(InExtended(sp)))
		x0 := randomInterior(rng, n)
		for _, set := range []*Settings{nil, {Direct: true}, {Times: []float64{10, 50, 100}}, {Step: 0.5}} {
			ts, err := ls.Integrate(x0, 100, set)
			require.NoError(t, err)
			td, err := ld.Integrate(x0, 100, set)
			require.NoError(t, err)
			require.Equal(t, td.Len(), ts.Len())
			assertClose(t, td.T, ts.T, odeTol, "T")
			assertClose(t, td.Final(), ts.Final(), odeTol, "Integrate final x")
			assertClose(t, td.Excess, ts.Excess, odeTol, "Excess")
		}
		z0 := make([]float64, n)
		for i := range z0 {
			z0[i] = logit(x0[i])
		}
		ts, err := ls.IntegrateLogit(z0, 100, &Settings{Times: []float64{100}})
		require.NoError(t, err)
		td, err := ld.IntegrateLogit(z0, 100, &Settings{Times: []float64{100}})
		require.NoError(t, err)
		assertClose(t, td.Final(), ts.Final(), odeTol, "IntegrateLogit")
	}
}

func TestSparseUncontrollableAndCornersMatchDense(t *testing.T) {
	// Uncontrollable, Corner (NodeRates, class, overloaded nodes) and
	// Linearize at that corner through both paths: the sparse Linearize
	// reads the spectrum off the diagonal without an eigendecomposition.
	for _, n := range []int{5, 60, 200} {
		sp, de := cdnPair(t, uint64(n)+7, 1, n, min(n, 6))
		ls, ld := mustLaw(sp, 2), mustLaw(de, 2)
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		x := randomState(rng, n)
		us, err := Uncontrollable(sp, x, 1e-9)
		require.NoError(t, err)
		ud, err := Uncontrollable(de, x, 1e-9)
		require.NoError(t, err)
		assert.Equal(t, ud, us)
		corner := make([]float64, n)
		for i := range corner {
			corner[i] = float64(rng.IntN(2))
		}
		cs, err := ls.Corner(corner)
		require.NoError(t, err)
		cd, err := ld.Corner(corner)
		require.NoError(t, err)
		assertClose(t, cd.NodeRates, cs.NodeRates, relTol, "NodeRates")
		assert.Equal(t, cd.Class, cs.Class)
		assert.Equal(t, cd.Overloaded, cs.Overloaded)
		es, err := ls.Linearize(corner)
		require.NoError(t, err)
		ed, err := ld.Linearize(corner)
		require.NoError(t, err)
		assert.Equal(t, ed.Class, es.Class)
		assertEigenClose(t, ed.Eigenvalues, es.Eigenvalues)
	}
}

// assertEigenClose compares sorted spectra entry by entry, relative to
// the largest modulus (eigenvalues of a nonsymmetric matrix carry an
// error of ε·‖J‖ times their condition number; 1e-9 allows condition
// numbers up to 10⁶, more than these small random instances have).
func assertEigenClose(t *testing.T, want, got []complex128) {
	t.Helper()
	require.Len(t, got, len(want))
	scale := 1.0
	for _, v := range want {
		scale = math.Max(scale, cmplxAbs(v))
	}
	for k := range want {
		assert.LessOrEqual(t, cmplxAbs(want[k]-got[k]), 1e-9*scale, "eigenvalue %d: dense %v, sparse %v", k, want[k], got[k])
	}
}

func cmplxAbs(z complex128) float64 { return math.Hypot(real(z), imag(z)) }

func TestSparseEquilibriaMatchDense(t *testing.T) {
	// Every isolated equilibrium of a 6-node CDN (3⁶ patterns), and the
	// interior equilibria through Snap and Linearize: the sparse path
	// solves and decomposes only the interior block.
	sp, de := cdnPair(t, 41, 1, 6, 3)
	ls, ld := mustLaw(sp, 1), mustLaw(de, 1)
	es, err := ls.Equilibria()
	require.NoError(t, err)
	ed, err := ld.Equilibria()
	require.NoError(t, err)
	require.Len(t, es, len(ed))
	require.NotEmpty(t, ed)
	interior := 0
	for k := range ed {
		assertClose(t, ed[k].X, es[k].X, relTol, "equilibrium X")
		assert.Equal(t, ed[k].Class, es[k].Class, "equilibrium %d", k)
		assertEigenClose(t, ed[k].Eigenvalues, es[k].Eigenvalues)
		_, in := faceSplit(ed[k].X)
		if len(in) == 0 {
			continue
		}
		interior++
		ss, err := ls.Snap(es[k].X, 1e-9)
		require.NoError(t, err)
		assertClose(t, ed[k].X, ss.X, relTol, "Snap")
	}
	assert.Positive(t, interior, "some equilibrium has interior nodes")
}

func TestSparseCornerSearchesMatchDense(t *testing.T) {
	// ClassifyCorners and SearchCorners update loads through Row; both
	// paths visit and classify the same vertices.
	sp, de := cdnPair(t, 5, 1, 12, 4)
	ls, ld := mustLaw(sp, 1), mustLaw(de, 1)
	cs, err := ls.ClassifyCorners()
	require.NoError(t, err)
	cd, err := ld.ClassifyCorners()
	require.NoError(t, err)
	assert.Equal(t, cd.Counts, cs.Counts)
	assert.Equal(t, cd.Stable, cs.Stable)
	ss, err := ls.SearchCorners(50, rand.NewPCG(1, 1))
	require.NoError(t, err)
	sd, err := ld.SearchCorners(50, rand.NewPCG(1, 1))
	require.NoError(t, err)
	assert.Equal(t, sd.Counts, ss.Counts)
	assert.Equal(t, sd.Stable, ss.Stable)
	as, us, err := ls.Attractors(4, 200, 2, nil)
	require.NoError(t, err)
	ad, ud, err := ld.Attractors(4, 200, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, ud, us)
	require.Len(t, as, len(ad))
	for k := range ad {
		assert.Equal(t, ad[k].Starts, as[k].Starts)
		assertClose(t, ad[k].X, as[k].X, odeTol, "attractor")
	}
}

func TestSparseCompareMatchesDense(t *testing.T) {
	// Greedy against optimal over 6 hours on a 120-node CDN: the greedy
	// integrations agree to odeTol, the dual iterations (dual's sparse and
	// dense paths) to rounding; the totals are integrals of those.
	sp, de := cdnPair(t, 8, 1, 120, 6)
	times := hourGrid(6, 4)
	dem, err := Diurnal(sp.T, times, nil, rand.NewPCG(6, 6))
	require.NoError(t, err)
	cs, err := Compare(sp, times, dem, nil)
	require.NoError(t, err)
	cd, err := Compare(de, times, dem, nil)
	require.NoError(t, err)
	for _, pair := range [][2]Policy{{cd.Greedy, cs.Greedy}, {cd.Optimal, cs.Optimal}} {
		d, s := pair[0], pair[1]
		assertClose(t, d.Second, s.Second, 1e-7, d.Name+" Second")
		assertClose(t, d.Excess, s.Excess, 1e-7, d.Name+" Excess")
		assertClose(t, d.Cost, s.Cost, 1e-7, d.Name+" Cost")
		assert.InDelta(t, d.ExcessTotal, s.ExcessTotal, 1e-7*(1+d.ExcessTotal))
		assert.Equal(t, d.OverloadHours, s.OverloadHours)
	}
	assert.InDelta(t, cd.DemandTotal, cs.DemandTotal, 1e-9*cd.DemandTotal)
}

func TestSparseTwoNodeIdentical(t *testing.T) {
	// The spec §8 two-node examples (C_ba over cbas, and the favourable
	// matrix) through the sparse path: every result is bit-identical to
	// the dense one (2-term sums in the same order).
	nets := []*anycast.Network{twoNode(favC, []float64{0.7, 0.7})}
	for _, cba := range cbas {
		nets = append(nets, seedNet(cba))
	}
	for _, de := range nets {
		sp, err := de.AsSparse()
		require.NoError(t, err)
		ls, ld := mustLaw(sp, 1), mustLaw(de, 1)
		ts, err := ls.Integrate([]float64{0.3, 0.8}, 200, nil)
		require.NoError(t, err)
		td, err := ld.Integrate([]float64{0.3, 0.8}, 200, nil)
		require.NoError(t, err)
		assert.Equal(t, td.X, ts.X)
		assert.Equal(t, td.S, ts.S)
		assert.Equal(t, td.Stats, ts.Stats)
		es, err := ls.Equilibria()
		require.NoError(t, err)
		ed, err := ld.Equilibria()
		require.NoError(t, err)
		require.Len(t, es, len(ed))
		for k := range ed {
			assert.Equal(t, ed[k].X, es[k].X)
			assert.Equal(t, ed[k].Class, es[k].Class)
			assertEigenClose(t, ed[k].Eigenvalues, es[k].Eigenvalues)
		}
		assert.Equal(t, must(Favorable(de)), must(Favorable(sp)))
		yad, ybd, errD := TwoNodeInterior(de)
		yas, ybs, errS := TwoNodeInterior(sp)
		assert.Equal(t, errD == nil, errS == nil)
		if errD == nil {
			assert.Equal(t, [2]float64{yad, ybd}, [2]float64{yas, ybs})
		}
		grid := []float64{0.2, 0.9, 1.6}
		ms, err := TwoNodeMap(sp, grid, grid, nil)
		require.NoError(t, err)
		md, err := TwoNodeMap(de, grid, grid, nil)
		require.NoError(t, err)
		assert.Equal(t, md, ms)
	}
}

func TestSparseEigenBlockSplit(t *testing.T) {
	// The face/interior split is exact: on a random sparse instance with
	// a third of the nodes on faces, the spectrum of the dense Jacobian
	// (gonum's mat.Eigen on N×N) equals the split's to rounding, and the
	// face nodes contribute their diagonal entries exactly.
	sp, _ := cdnPair(t, 77, 1, 90, 5)
	l := mustLaw(sp, 1)
	rng := rand.New(rand.NewPCG(7, 7))
	x := make([]float64, 90)
	for i := range x {
		x[i] = []float64{0, 1, rng.Float64()}[i%3]
	}
	var eig mat.Eigen
	require.True(t, eig.Factorize(l.Jacobian(nil, x), mat.EigenNone))
	want := eig.Values(nil)
	got, err := l.sparseEigen(x)
	require.NoError(t, err)
	sortEigen(want)
	sortEigen(got)
	assertEigenClose(t, want, got)
	op := l.JacobianOp(x)
	face, _ := faceSplit(x)
	exact := map[complex128]int{}
	for _, v := range got {
		exact[v]++
	}
	for _, i := range face {
		assert.Zero(t, op.R[i])
		assert.Positive(t, exact[complex(op.D[i], 0)], "D_%d = %v is an eigenvalue exactly", i, op.D[i])
	}
}
