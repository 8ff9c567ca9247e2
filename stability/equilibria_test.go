package stability

import (
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// The analytic Jacobian (spec §5.4) against gonum's central differences.
func TestJacobianFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 4))
	for trial := 0; trial < 30; trial++ {
		n := 1 + rng.IntN(7)
		l := mustLaw(randomNet(rng, n, 4, 0), 0.5+3*rng.Float64())
		l.Normalized = trial%2 == 1
		x := randomInterior(rng, n)
		got := l.Jacobian(nil, x)
		want := mat.NewDense(n, n, nil)
		fd.Jacobian(want, func(y, x []float64) { l.Rate(y, x) }, x, &fd.JacobianSettings{Formula: fd.Central})
		// Central differences with gonum's default step h ≈ 6e-6 err by
		// O(h²·|F'''|) + O(ε/h·|F|) ≈ 1e-10 relative to the scale of F;
		// 1e-7 of that scale leaves a wide margin.
		tol := 1e-7 * l.scale()
		assert.True(t, mat.EqualApprox(got, want, tol), "trial %d:\n%v\n%v", trial,
			mat.Formatted(got), mat.Formatted(want))
	}
}

func sortedReal(ev []complex128) []float64 {
	out := make([]float64, len(ev))
	for i, v := range ev {
		out[i] = real(v)
	}
	sort.Float64s(out)
	return out
}

// The closed form of the corner eigenvalues against mat.Eigen of the
// analytic Jacobian, on every corner of random networks.
func TestCornerClosedFormVsEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for trial := 0; trial < 6; trial++ {
		n := 2 + rng.IntN(5)
		l := mustLaw(randomNet(rng, n, 3, 0), 1+rng.Float64())
		l.Normalized = trial%2 == 0
		x := make([]float64, n)
		for m := 0; m < 1<<n; m++ {
			for i := range x {
				x[i] = float64(m >> i & 1)
			}
			c, err := l.Corner(x)
			require.NoError(t, err)
			e, err := l.Linearize(x)
			require.NoError(t, err)
			for _, v := range e.Eigenvalues {
				assert.Zero(t, imag(v)) // the Jacobian is diagonal
			}
			// A diagonal matrix's eigenvalues are its entries: the
			// solver returns them to within rounding of ε·‖J‖.
			assert.InDeltaSlice(t, sortedReal(c.Eigenvalues), sortedReal(e.Eigenvalues), 1e-13*l.scale())
			assert.Equal(t, c.Class, e.Class)
			assert.Equal(t, c.Overloaded, e.Overloaded)
		}
	}
}

// ClassifyCorners (Gray code, incremental loads) against Corner on every
// vertex.
func TestClassifyCornersBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 6; trial++ {
		n := 3 + rng.IntN(6)
		l := mustLaw(randomNet(rng, n, 4, 0), 1)
		l.Normalized = trial%2 == 1
		cs, err := l.ClassifyCorners()
		require.NoError(t, err)
		var counts [numClasses]int
		var stable, uncontr []uint64
		x := make([]float64, n)
		for m := uint64(0); m < 1<<n; m++ {
			for i := range x {
				x[i] = float64(m >> i & 1)
			}
			c, err := l.Corner(x)
			require.NoError(t, err)
			counts[c.Class]++
			if c.Class == Stable {
				stable = append(stable, m)
				if c.Uncontrollable() {
					uncontr = append(uncontr, m)
				}
			}
		}
		assert.Equal(t, 1<<n, cs.Visited)
		assert.Equal(t, counts, cs.Counts)
		assert.ElementsMatch(t, stable, cs.Stable)
		assert.ElementsMatch(t, uncontr, cs.Uncontrollable)
		for c := Class(0); c < numClasses; c++ {
			assert.Equal(t, counts[c], cs.Count(c))
		}
	}
}

// SearchCorners reports only genuinely stable vertices and, on these
// instances, finds every stable vertex that full enumeration finds.
func TestSearchCorners(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for trial := 0; trial < 8; trial++ {
		n := 4 + rng.IntN(7)
		l := mustLaw(randomNet(rng, n, 6, 0), 1)
		all, err := l.ClassifyCorners()
		require.NoError(t, err)
		found, err := l.SearchCorners(200, rand.NewPCG(uint64(trial), 1))
		require.NoError(t, err)
		assert.Subset(t, all.Stable, found.Stable)
		assert.Subset(t, all.Uncontrollable, found.Uncontrollable)
		if len(all.Stable) > 0 {
			assert.NotEmpty(t, found.Stable, "trial %d", trial)
		}
	}
	// The seed example: the search lands on (1, 0).
	l := mustLaw(seedNet(0.3), 1)
	found, err := l.SearchCorners(10, rand.NewPCG(1, 2))
	require.NoError(t, err)
	assert.Equal(t, []uint64{1}, found.Uncontrollable)
}

// Every equilibrium found by enumeration is a zero of (24), the corners
// are all there, and the spectrum at a mixed equilibrium is the union of
// the boundary diagonal entries and the interior block's spectrum
// (spec §5.4).
func TestEquilibriaStructure(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 10; trial++ {
		n := 2 + rng.IntN(3)
		l := mustLaw(randomNet(rng, n, 3, 0.5), 1+rng.Float64())
		eqs, err := l.Equilibria()
		require.NoError(t, err)
		corners := 0
		for _, e := range eqs {
			// The interior balance is solved by LU: residuals of a few
			// ε·N·scale, far below 1e-13·scale only when N ≤ 4 and the
			// systems are well conditioned, as here.
			f := l.Rate(nil, e.X)
			for _, v := range f {
				assert.InDelta(t, 0, v, 1e-13*l.scale())
			}
			var in, bd []int
			for i, v := range e.X {
				if v == 0 || v == 1 {
					bd = append(bd, i)
				} else {
					in = append(in, i)
				}
			}
			if len(in) == 0 {
				corners++
			}
			var want []float64
			for _, i := range bd {
				want = append(want, l.gain(i)*(1-2*e.X[i])*(l.Net.T[i]-e.S[i]))
			}
			if len(in) > 0 {
				m := mat.NewDense(len(in), len(in), nil)
				for a, i := range in {
					for b, k := range in {
						m.Set(a, b, -l.gain(i)*e.X[i]*(1-e.X[i])*l.Net.C.At(k, i)*l.Net.A[k])
					}
				}
				var eig mat.Eigen
				require.True(t, eig.Factorize(m, mat.EigenNone))
				for _, v := range eig.Values(nil) {
					want = append(want, real(v))
				}
			}
			sort.Float64s(want)
			// Both spectra come from backward-stable eigensolvers on
			// matrices of norm ≤ scale: agreement to ~1e-13·scale.
			assert.InDeltaSlice(t, want, sortedReal(e.Eigenvalues), 1e-11*l.scale())
		}
		assert.Equal(t, 1<<n, corners)
	}
}

// randomInPolytope returns a random network with A ∈ Π_C, with the
// tightest inequality at fraction f of capacity.
func randomInPolytope(rng *rand.Rand, n int, f float64) *anycast.Network {
	nw := randomNet(rng, n, 1, 0)
	scaleInto(nw, f)
	return nw
}

// Spec §5.4 "link to Π_C": with A ∈ Π_C every stable equilibrium has no
// overloaded node at x_i = 0 and S ≤ T; the same holds in Π′_C ⊇ Π_C (§5.5).
func TestPolytopeLinkEquilibria(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for trial := 0; trial < 30; trial++ {
		n := 2 + rng.IntN(3)
		var nw *anycast.Network
		if trial%2 == 0 {
			nw = randomInPolytope(rng, n, rng.Float64())
			require.True(t, must(InPolytope(nw)))
		} else {
			nw = randomNet(rng, n, 30, 1)
			if !must(InExtended(nw)) {
				continue
			}
		}
		assert.True(t, must(InExtended(nw)))
		l := mustLaw(nw, 1)
		eqs, err := l.Equilibria()
		require.NoError(t, err)
		for _, e := range eqs {
			if e.Class != Stable {
				continue
			}
			assert.False(t, e.Uncontrollable(), "trial %d x = %v", trial, e.X)
			// S ≤ T exactly in theory; 1e-12 allows the rounding of
			// the LU solve behind an interior S_i = T_i.
			for i := range e.S {
				assert.LessOrEqual(t, e.S[i], nw.T[i]+1e-12)
			}
		}
	}
}

// Property: for random (A, C, T) with A in Π_C, integration from random
// starts never ends in a locally uncontrollable overload (spec §5.3), and
// the same for the larger region Π′_C. Outside it, the same machinery does
// find uncontrollable overloads, so the check is not vacuous.
func TestPropertyNoUncontrollableInPolytope(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	insideTrials, outsideHits, resolved, unresolvedTotal := 0, 0, 0, 0
	for trial := 0; trial < 60; trial++ {
		n := 2 + rng.IntN(7)
		var nw *anycast.Network
		switch trial % 3 {
		case 0:
			nw = randomInPolytope(rng, n, rng.Float64())
		case 1:
			nw = randomNet(rng, n, 20, 1)
		default:
			nw = randomNet(rng, n, 20, 0)
		}
		inside := must(InExtended(nw))
		l := mustLaw(nw, 1)
		for start := 0; start < 3; start++ {
			tr, err := l.Integrate(randomInterior(rng, n), 500, &Settings{Times: []float64{500}})
			require.NoError(t, err)
			x := tr.Final()
			bad := must(Uncontrollable(nw, x, uncontrolledTol))
			if inside {
				insideTrials++
				assert.Empty(t, bad, "trial %d: A ∈ Π′_C but x = %v", trial, x)
			} else if len(bad) > 0 {
				outsideHits++
			}
		}
		if !inside {
			continue
		}
		// The equilibria these trajectories reach are stable, carry no
		// overload and have no overloaded node at x_i = 0 (spec §5.4).
		found, unresolved, err := l.Attractors(3, 500, uint64(trial), nil)
		require.NoError(t, err)
		// An end state may stay unresolved when some node is within
		// ~1e-5 of balance at its limit (a nearly non-hyperbolic
		// equilibrium that the logit approaches at rate 1e-5); such
		// starts are counted, not failed.
		unresolvedTotal += unresolved
		for _, e := range found {
			resolved += e.Starts
		}
		for _, e := range found {
			assert.False(t, e.Uncontrollable(), "trial %d", trial)
			assert.NotEqual(t, Unstable, e.Class, "trial %d", trial)
			for i := range e.S {
				// S ≤ T up to the rounding of the LU solve (see
				// TestPolytopeLinkEquilibria).
				assert.LessOrEqual(t, e.S[i], nw.T[i]+1e-12, "trial %d node %d", trial, i)
			}
		}
	}
	assert.Greater(t, insideTrials, 60)
	assert.Greater(t, resolved, 10*unresolvedTotal)
	assert.Greater(t, outsideHits, 0)
}

// The normalised variant has the same equilibria with rates scaled by 1/T.
func TestNormalizedVariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	nw := randomNet(rng, 4, 3, 0.5)
	l := mustLaw(nw, 2)
	ln := &Law{Net: nw, Sensitivity: 2, Normalized: true}
	x := randomInterior(rng, 4)
	f, fn := l.Rate(nil, x), ln.Rate(nil, x)
	for i := range f {
		assert.InDelta(t, f[i]/nw.T[i], fn[i], exactTol)
	}
	e1, err := l.Equilibria()
	require.NoError(t, err)
	e2, err := ln.Equilibria()
	require.NoError(t, err)
	require.Equal(t, len(e1), len(e2))
	for k := range e1 {
		assert.InDeltaSlice(t, e1[k].X, e2[k].X, exactTol)
	}
}

// FuzzIntegrate checks the contract of Integrate on the seed example:
// bad input is an ErrInvalid error naming it, a stop short is
// ErrNotConverged with a Status, and a solution starts at 0, ends at t1,
// stays in [0, 1]² and keeps a coordinate on its face (spec §5.1).
func FuzzIntegrate(f *testing.F) {
	f.Add(1.0, 0.5, 0.5, 1e-8, 10.0, false, 0.0)
	f.Add(-1.0, 2.0, math.NaN(), -1.0, 0.0, true, 0.0)
	f.Add(5.0, 0.0, 0.7, 1e-6, 50.0, false, 0.01)
	f.Add(5.0, 1.0, 0.3, 0.0, 1e3, true, 1e-9)
	l := mustLaw(seedNet(0.3), 1)
	f.Fuzz(func(t *testing.T, beta, xa, xb, tol, t1 float64, direct bool, step float64) {
		l := &Law{Net: l.Net, Sensitivity: beta}
		set := &Settings{AbsTol: tol, RelTol: tol, Direct: direct, MaxSteps: 2000, Step: step}
		t1 = math.Min(t1, 1e3)
		tr, err := l.Integrate([]float64{xa, xb}, t1, set)
		if l.Validate() != nil || set.Validate() != nil || !(t1 > 0) || !(xa >= 0 && xa <= 1) || !(xb >= 0 && xb <= 1) {
			require.ErrorIs(t, err, loadlab.ErrInvalid)
			if set.Validate() != nil && l.Validate() == nil && t1 > 0 && xa >= 0 && xa <= 1 && xb >= 0 && xb <= 1 {
				assert.ErrorContains(t, err, "Settings.")
			}
			return
		}
		if err != nil {
			// The only other outcomes: too many RK4 steps (before any
			// work) or a stop short with the partial trajectory.
			if errors.Is(err, loadlab.ErrTooLarge) {
				assert.Nil(t, tr)
				return
			}
			require.ErrorIs(t, err, loadlab.ErrNotConverged)
			require.NotNil(t, tr)
			assert.NotEqual(t, loadlab.Success, tr.Status)
			return
		}
		assert.Equal(t, loadlab.Success, tr.Status)
		assert.Equal(t, 0.0, tr.T[0])
		assert.Equal(t, t1, tr.T[tr.Len()-1])
		x0 := []float64{xa, xb}
		for _, x := range tr.X {
			for i, v := range x {
				require.Truef(t, v >= 0 && v <= 1, "x = %v outside [0, 1] (β=%v x0=(%v,%v) tol=%v)", v, beta, xa, xb, tol)
				if x0[i] == 0 || x0[i] == 1 {
					require.Equal(t, x0[i], v, "face x_%d = %v left", i, x0[i])
				}
			}
		}
	})
}

// The targeted mode: attractors reached by integration.
func TestAttractors(t *testing.T) {
	l := mustLaw(seedNet(0.3), 1)
	found, unresolved, err := l.Attractors(12, 200, 1, nil)
	require.NoError(t, err)
	assert.Zero(t, unresolved)
	require.Len(t, found, 1)
	assert.Equal(t, []float64{1, 0}, found[0].X)
	assert.Equal(t, 12, found[0].Starts)
	assert.True(t, found[0].Uncontrollable())

	fav, err := anycast.NewNetwork([]float64{100, 100}, favC, []float64{0.7, 0.7})
	require.NoError(t, err)
	found, _, err = mustLaw(fav, 1).Attractors(8, 300, 1, nil)
	require.NoError(t, err)
	require.Len(t, found, 1)
	// The snapped interior state solves a 2×2 balance exactly up to
	// rounding (exactTol).
	assert.InDeltaSlice(t, []float64{0.0056, 0.0084}, found[0].X, exactTol)

	// Stable corners reached are among those full enumeration finds,
	// and the result does not depend on scheduling.
	rng := rand.New(rand.NewPCG(13, 13))
	for trial := 0; trial < 4; trial++ {
		l := mustLaw(randomNet(rng, 8, 8, 0), 1)
		all, err := l.ClassifyCorners()
		require.NoError(t, err)
		a, ua, err := l.Attractors(16, 300, uint64(trial), nil)
		require.NoError(t, err)
		b, ub, err := l.Attractors(16, 300, uint64(trial), nil)
		require.NoError(t, err)
		assert.Equal(t, ua, ub)
		require.Equal(t, len(a), len(b))
		total := ua
		for k := range a {
			assert.Equal(t, a[k].X, b[k].X)
			total += a[k].Starts
			var mask uint64
			corner := true
			for i, v := range a[k].X {
				switch v {
				case 1:
					mask |= 1 << i
				case 0:
				default:
					corner = false
				}
			}
			if corner && a[k].Class == Stable {
				assert.Contains(t, all.Stable, mask)
			}
		}
		assert.Equal(t, 16, total)
	}

	// N = 100 inside Π_C: no attractor is an uncontrollable overload.
	big := mustLaw(randomInPolytope(rng, 100, 0.9), 1)
	found, unresolved, err = big.Attractors(4, 300, 3, nil)
	require.NoError(t, err)
	assert.NotEmpty(t, found)
	assert.Zero(t, unresolved)
	for _, a := range found {
		assert.False(t, a.Uncontrollable())
	}
}

// TestAttractorsIsAttract checks the per-start rule Attractors
// documents: start k is Attract(t1, loadlab.Stream(seed, k), s), and the
// result is GroupAttractors of the starts' equilibria, also when the
// starts are computed one at a time in reverse order (as other
// processes would), on random 8-node networks with several attractors.
// The results must be equal: the same operations on the same streams.
func TestAttractorsIsAttract(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	several := false
	for trial := range 3 {
		l := mustLaw(randomNet(rng, 8, 8, 0), 1)
		want, wantU, err := l.Attractors(12, 300, uint64(trial), nil)
		require.NoError(t, err)
		several = several || len(want) > 1
		ends := make([]*Equilibrium, 12)
		for k := len(ends) - 1; k >= 0; k-- {
			ends[k], err = l.Attract(300, loadlab.Stream(uint64(trial), uint64(k)), nil)
			require.NoError(t, err)
		}
		got, gotU := GroupAttractors(ends)
		assert.Equal(t, wantU, gotU)
		assert.Equal(t, want, got, "trial %d", trial)
	}
	assert.True(t, several, "no trial had two attractors: the grouping order was not tested")
	l := mustLaw(seedNet(0.3), 1)
	for _, c := range []struct {
		t1   float64
		s    *Settings
		want string
	}{
		{0, nil, "t1 = 0"},
		{math.Inf(1), nil, "t1 = +Inf"},
		{math.NaN(), nil, "t1 = NaN"},
		{10, &Settings{RelTol: -1}, "RelTol = -1"},
	} {
		_, err := l.Attract(c.t1, loadlab.Stream(1), c.s)
		assert.ErrorIs(t, err, loadlab.ErrInvalid)
		assert.ErrorContains(t, err, c.want)
	}
	_, err := (&Law{Sensitivity: 1}).Attract(10, loadlab.Stream(1), nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid, "a law without a network")
}

// TestGroupAttractors groups hand-made equilibria by face pattern: an
// interior coordinate is any value other than 0 and 1, the first
// equilibrium of a pattern stands for it, the most frequent pattern
// comes first and ties keep the order of first appearance.
func TestGroupAttractors(t *testing.T) {
	a1, a2 := &Equilibrium{X: []float64{1, 0}}, &Equilibrium{X: []float64{1, 0}}
	b := &Equilibrium{X: []float64{0.25, 0}}
	b2 := &Equilibrium{X: []float64{0.75, 0}} // same pattern (interior, 0)
	c := &Equilibrium{X: []float64{0, 1}}
	d := &Equilibrium{X: []float64{0, 0}}
	found, unresolved := GroupAttractors([]*Equilibrium{c, nil, b, a1, d, b2, a2, nil})
	assert.Equal(t, 2, unresolved)
	require.Len(t, found, 4)
	for k, want := range []struct {
		e      *Equilibrium
		starts int
	}{{b, 2}, {a1, 2}, {c, 1}, {d, 1}} {
		assert.Same(t, want.e, found[k].Equilibrium, "attractor %d", k)
		assert.Equal(t, want.starts, found[k].Starts, "attractor %d", k)
	}
	found, unresolved = GroupAttractors(nil)
	assert.Empty(t, found)
	assert.Zero(t, unresolved)
}

// FuzzLinearize checks that accepted states are equilibria in the cube,
// that eigenvalues come sorted with a class that matches their signs, and
// that at a vertex the closed form of Corner agrees with mat.Eigen.
func FuzzLinearize(f *testing.F) {
	f.Add(1.0, 0.0, false)
	f.Add(0.5, math.NaN(), true)
	f.Add(0.0, 1.0, true)
	l := mustLaw(seedNet(0.3), 1)
	zt := ZeroTol * l.scale()
	f.Fuzz(func(t *testing.T, xa, xb float64, corner bool) {
		x := []float64{xa, xb}
		var e *Equilibrium
		var err error
		if corner {
			e, err = l.Corner(x)
		} else {
			e, err = l.Linearize(x)
		}
		if err != nil {
			require.ErrorIs(t, err, loadlab.ErrInvalid)
			return
		}
		for i, v := range e.X {
			require.True(t, v >= 0 && v <= 1, "x[%d] = %v accepted", i, v)
		}
		for i, v := range l.Rate(nil, e.X) {
			require.LessOrEqual(t, math.Abs(v), zt, "F_%d(x) = %v: not an equilibrium", i, v)
		}
		require.Len(t, e.Eigenvalues, 2)
		var neg, zero, pos int
		for k, v := range e.Eigenvalues {
			if k > 0 {
				require.LessOrEqual(t, real(e.Eigenvalues[k-1]), real(v), "not sorted: %v", e.Eigenvalues)
			}
			switch r := real(v); {
			case math.Abs(r) <= zt:
				zero++
			case r < 0:
				neg++
			default:
				pos++
			}
		}
		require.Equal(t, classify(neg, zero, pos), e.Class)
		if pos > 0 {
			require.Contains(t, []Class{Unstable, Saddle}, e.Class)
		}
		if !corner {
			return
		}
		assert.Equal(t, sortedFloats(e.NodeRates), []float64{real(e.Eigenvalues[0]), real(e.Eigenvalues[1])})
		lin, err := l.Linearize(x)
		require.NoError(t, err)
		// A 2×2 eigenproblem of a diagonal matrix: exact up to a few ulps
		// of the scale.
		for k := range lin.Eigenvalues {
			assert.InDelta(t, real(e.Eigenvalues[k]), real(lin.Eigenvalues[k]), 1e-13*l.scale())
		}
	})
}

// Vertex (0, 1) of the two-node example at C_ba = 0.3 has eigenvalues
// (0.4, 0): the positive one proves instability (spec §5.4), so the class
// is Unstable, not NonHyperbolic, by Corner, Linearize and the sweep.
func TestPositiveEigenvalueDecides(t *testing.T) {
	l := mustLaw(seedNet(0.3), 1)
	c, err := l.Corner([]float64{0, 1})
	require.NoError(t, err)
	// λ = T_i − S_i with S_i a sum of two products of O(1) numbers: a
	// few ulps of 0.7.
	assert.InDeltaSlice(t, []float64{0.4, 0}, c.NodeRates, 1e-15)
	assert.Equal(t, Unstable, c.Class)
	e, err := l.Linearize([]float64{0, 1})
	require.NoError(t, err)
	assert.Equal(t, Unstable, e.Class)
	// The same order of eigenvalues from both: sorted.
	assert.Equal(t, c.Eigenvalues, e.Eigenvalues)
	cs, err := l.ClassifyCorners()
	require.NoError(t, err)
	assert.Zero(t, cs.Count(NonHyperbolic))
	// A positive and a negative rate with a zero one is a saddle; no
	// positive rate and a zero one stays non-hyperbolic.
	assert.Equal(t, Saddle, classify(1, 1, 1))
	assert.Equal(t, NonHyperbolic, classify(1, 1, 0))
	assert.Equal(t, Unstable, classify(0, 1, 1))
	assert.Equal(t, Stable, classify(2, 0, 0))
}
