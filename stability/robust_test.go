package stability

import (
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// rowVertices returns the vertices of {c ∈ [lo, hi]³ : Σ c = 1}: points
// with two coordinates at a bound and the third, 1 minus their sum,
// within its own bounds.
func rowVertices(lo, hi [3]float64) [][3]float64 {
	var out [][3]float64
	for a := 0; a < 3; a++ {
		for b := a + 1; b < 3; b++ {
			c := 3 - a - b
			for _, va := range []float64{lo[a], hi[a]} {
				for _, vb := range []float64{lo[b], hi[b]} {
					vc := 1 - va - vb
					if vc >= lo[c]-1e-15 && vc <= hi[c]+1e-15 {
						var v [3]float64
						v[a], v[b], v[c] = va, vb, math.Min(math.Max(vc, lo[c]), hi[c]) // rounding
						out = append(out, v)
					}
				}
			}
		}
	}
	return out
}

// boxRows expands the 3 × 3 set into dense per-entry bounds.
func boxRows(set *beacon.Box) (lo, hi [3][3]float64) {
	for j := 0; j < 3; j++ {
		cols, l, u, z := set.Row(j)
		for i := 0; i < 3; i++ {
			hi[j][i] = z
		}
		for k, i := range cols {
			lo[j][i], hi[j][i] = l[k], u[k]
		}
	}
	return lo, hi
}

// bruteForce evaluates, over every combination of row vertices of the
// set, the polytope slack and the sums Σ_{j≠i} C_ji A_j x_j, and returns
// the smallest slack and the largest and smallest sums per node. The
// three functions are linear in each row of C, so their extremes over
// the product of the rows' polytopes are met at vertex combinations.
func bruteForce(t *testing.T, set *beacon.Box, a, tcap, x []float64) (slack, sumHi, sumLo [3]float64) {
	lo, hi := boxRows(set)
	var vs [3][][3]float64
	for j := range vs {
		vs[j] = rowVertices(lo[j], hi[j])
		require.NotEmpty(t, vs[j])
	}
	for i := range slack {
		slack[i], sumHi[i], sumLo[i] = math.Inf(1), math.Inf(-1), math.Inf(1)
	}
	for _, r0 := range vs[0] {
		for _, r1 := range vs[1] {
			for _, r2 := range vs[2] {
				c := mat.NewDense(3, 3, append(append(r0[:], r1[:]...), r2[:]...))
				nw, err := anycast.NewNetwork(a, c, tcap)
				require.NoError(t, err)
				s, err := PolytopeSlack(nw)
				require.NoError(t, err)
				for i := 0; i < 3; i++ {
					slack[i] = math.Min(slack[i], s[i])
					var sum float64
					for j := 0; j < 3; j++ {
						if j != i {
							sum += c.At(j, i) * a[j] * x[j]
						}
					}
					sumHi[i], sumLo[i] = math.Max(sumHi[i], sum), math.Min(sumLo[i], sum)
				}
			}
		}
	}
	return slack, sumHi, sumLo
}

// TestRobustBruteForce checks RobustSlack and the bounds behind
// RobustUncontrollable against the vertices of small confidence sets
// (N = 3): sets from few beacons (wide intervals, unseen pairs) and many,
// per-entry and simultaneous. Both sides sum three products of numbers
// ≤ 2: 1e-12 covers their rounding.
func TestRobustBruteForce(t *testing.T) {
	// the second matrix has an unseen diagonal pair (C_11 = 0)
	for _, c := range []*mat.Dense{
		mat.NewDense(3, 3, []float64{0.6, 0.4, 0, 0.1, 0.8, 0.1, 0, 0.3, 0.7}),
		mat.NewDense(3, 3, []float64{0.5, 0.5, 0, 0.7, 0, 0.3, 0.2, 0.2, 0.6}),
	} {
		robustBruteForce(t, c)
	}
}

func robustBruteForce(t *testing.T, c *mat.Dense) {
	sc, err := anycast.SparseOf(c)
	require.NoError(t, err)
	a, tcap := []float64{1, 2, 1.5}, []float64{0.9, 1.2, 0.8}
	x := []float64{0.9, 0.4, 1}
	for r, b := range []int64{5, 12, 40, 400} {
		cnt, err := beacon.Draw(sc, []int64{b, b, b, b}[:3], loadlab.Stream(11, uint64(r)))
		require.NoError(t, err)
		h, err := beacon.EstimateC(cnt, nil)
		require.NoError(t, err)
		nw, err := anycast.NewNetwork(a, c, tcap)
		require.NoError(t, err)
		for _, set := range []*beacon.Box{h.Entry, h.Set} {
			slack, hiS, loS := bruteForce(t, set, a, tcap, x)
			got, err := RobustSlack(nw, set)
			require.NoError(t, err)
			w := []float64{a[0] * x[0], a[1] * x[1], a[2] * x[2]}
			hi, lo := columnBounds(set, w)
			for i := 0; i < 3; i++ {
				assert.InDelta(t, slack[i], got[i], 1e-12, "beacons %d node %d", b, i)
				assert.InDelta(t, hiS[i], hi[i], 1e-12, "beacons %d node %d", b, i)
				assert.InDelta(t, loS[i], lo[i], 1e-12, "beacons %d node %d", b, i)
			}
			// the set contains Ĉ, so the robust slack is below Ĉ's
			chat, err := h.Matrix()
			require.NoError(t, err)
			nh, err := anycast.NewNetwork(a, chat, tcap)
			require.NoError(t, err)
			sh, err := PolytopeSlack(nh)
			require.NoError(t, err)
			for i := range sh {
				assert.LessOrEqual(t, got[i], sh[i]+1e-12)
			}
		}
	}
}

// TestRobustUncontrollable: with many beacons the set is narrow and the
// verdicts agree with the true C; certain ⊆ possible always.
func TestRobustUncontrollable(t *testing.T) {
	c := mat.NewDense(3, 3, []float64{0.2, 0.8, 0, 0.1, 0.3, 0.6, 0.5, 0, 0.5})
	sc, err := anycast.SparseOf(c)
	require.NoError(t, err)
	nw, err := anycast.NewNetwork([]float64{1, 1, 1}, c, []float64{0.5, 0.5, 0.3})
	require.NoError(t, err)
	x := []float64{1, 0, 1}
	truth, err := Uncontrollable(nw, x, 0)
	require.NoError(t, err)
	// node 1 receives 0.8 from node 0 > 0.5; node 2 receives 0 + 0.6·0 = 0
	assert.Equal(t, []int{1}, truth)
	for _, b := range []int64{30, 100000} {
		cnt, err := beacon.Draw(sc, []int64{b, b, b}, loadlab.Stream(2, uint64(b)))
		require.NoError(t, err)
		h, err := beacon.EstimateC(cnt, nil)
		require.NoError(t, err)
		possible, certain, err := RobustUncontrollable(nw, h.Set, x, 0)
		require.NoError(t, err)
		assert.Subset(t, possible, certain)
		if b == 100000 {
			assert.Equal(t, truth, certain)
			assert.Contains(t, possible, 1)
		}
	}
	in, err := InRobustPolytope(nw, mustSet(t, sc, 100000))
	require.NoError(t, err)
	assert.False(t, in) // node 1's Σ_{j≠1} C_j1 A_j = 0.8 > 0.5
}

func mustSet(t *testing.T, sc *anycast.SparseC, b int64) *beacon.Box {
	n, _ := sc.Dims()
	bs := make([]int64, n)
	for j := range bs {
		bs[j] = b
	}
	cnt, err := beacon.Draw(sc, bs, loadlab.Stream(3))
	require.NoError(t, err)
	h, err := beacon.EstimateC(cnt, nil)
	require.NoError(t, err)
	return h.Set
}

// robustCases probes the robust checks and the studies of a wrong C
// (TestValidate runs them with the package's other cases).
func robustCases() []badarg.Case {
	nw := seedNet(0.3)
	sc, err := anycast.SparseOf(nw.C)
	if err != nil {
		panic(err)
	}
	cnt, err := beacon.Draw(sc, []int64{50, 50}, loadlab.Stream(1))
	if err != nil {
		panic(err)
	}
	h, err := beacon.EstimateC(cnt, nil)
	if err != nil {
		panic(err)
	}
	three, err := beacon.EstimateC(must3(beacon.NewCounts(3, 3, []int{0, 1, 2}, []int{0, 1, 2}, []int64{1, 1, 1})), nil)
	if err != nil {
		panic(err)
	}
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	good := []float64{1, 0}
	for _, fn := range []string{"RobustSlack", "InRobustPolytope", "RobustUncontrollable"} {
		call := map[string]func(*anycast.Network, *beacon.Box) error{
			"RobustSlack":      func(nw *anycast.Network, b *beacon.Box) error { _, err := RobustSlack(nw, b); return err },
			"InRobustPolytope": func(nw *anycast.Network, b *beacon.Box) error { _, err := InRobustPolytope(nw, b); return err },
			"RobustUncontrollable": func(nw *anycast.Network, b *beacon.Box) error {
				_, _, err := RobustUncontrollable(nw, b, good, 0)
				return err
			},
		}[fn]
		p := badarg.Probe{Func: fn, Err: inv}
		add(p.Fails("3 × 3 set, N = 2", "want N × N", func() error { return call(nw, three.Set) }),
			p.Fails("A[0] = NaN", "A[0] = NaN", func() error { return call(changed(func(n *anycast.Network) { n.A[0] = nan }), h.Set) }),
			p.Panics("nil set", "set is nil", func() { _ = call(nw, nil) }),
			p.Panics("nil nw", "nw is nil", func() { _ = call(nil, h.Set) }))
	}
	p := badarg.Probe{Func: "RobustUncontrollable", Err: inv}
	add(p.Slice("x", good, 0, badarg.Unit, func(x []float64) error { _, _, err := RobustUncontrollable(nw, h.Set, x, 0); return err })...)
	add(p.Scalar("tol", badarg.NonNegative, func(tol float64) error { _, _, err := RobustUncontrollable(nw, h.Set, good, tol); return err })...)

	r, err := NewRobustness(nw, nil)
	if err != nil {
		panic(err)
	}
	rs := func(s *RobustSettings) error { _, err := NewRobustness(nw, s); return err }
	p = badarg.Probe{Func: "NewRobustness", Err: inv}
	add(badarg.Fields(p, RobustSettings{}, badarg.NonNegative, rs, "W", "Penalty", "Runs")...)
	add(p.Fails("Runs = 1", "RobustSettings.Runs = 1", func() error { return rs(&RobustSettings{Runs: 1}) }),
		p.Fails("Dual.Tol = NaN", "Settings.Tol = NaN", func() error { return rs(&RobustSettings{Dual: &dual.Settings{Tol: nan}}) }),
		p.Fails("Beacons.Alpha = 2", "Settings.Alpha = 2", func() error { return rs(&RobustSettings{Beacons: &beacon.Settings{Alpha: 2}}) }),
		p.Fails("T[1] = 0", "T[1] = 0", func() error {
			_, err := NewRobustness(changed(func(n *anycast.Network) { n.T[1] = 0 }), nil)
			return err
		}),
		p.Panics("nil nw", "nw is nil", func() { _, _ = NewRobustness(nil, nil) }))
	add(badarg.Fields(badarg.Probe{Func: "RobustSettings.Validate", Err: inv}, RobustSettings{}, badarg.NonNegative,
		func(s *RobustSettings) error { return s.Validate() }, "W", "Penalty", "Runs")...)
	p = badarg.Probe{Func: "Robustness.Decide", Err: inv}
	add(p.Fails("3 × 3 C", "want N = 2", func() error { _, err := r.Decide(must3(three.Matrix())); return err }),
		p.Panics("nil c", "c is nil", func() { _, _ = r.Decide(nil) }))
	p = badarg.Probe{Func: "Robustness.Beacon", Err: inv}
	add(p.Fails("beacons = 0", "beacons = 0", func() error { _, err := r.Beacon(0, src1()); return err }),
		p.Panics("nil src", "src is nil", func() { _, _ = r.Beacon(10, nil) }))
	changedR := func(edit func(*Robustness)) *Robustness {
		c := *r
		c.Net = &anycast.Network{A: slices.Clone(r.Net.A), Sparse: r.Net.Sparse, T: slices.Clone(r.Net.T)}
		edit(&c)
		return &c
	}
	add(p.Fails("Net.T[0] = NaN", "T[0] = NaN", func() error {
		_, err := changedR(func(c *Robustness) { c.Net.T[0] = nan }).Beacon(10, src1())
		return err
	}),
		badarg.Probe{Func: "Robustness.Decide", Err: inv}.Fails("Net.Sparse = nil", "Net (with a sparse C)", func() error {
			_, err := changedR(func(c *Robustness) { c.Net.Sparse = nil }).Decide(sc)
			return err
		}),
		badarg.Probe{Func: "Robustness.DriftStudy", Err: inv}.Fails("Opt = nil", "Opt must be set", func() error {
			_, err := changedR(func(c *Robustness) { c.Opt = nil }).DriftStudy(sc, 0.1, []int{1})
			return err
		}))
	p = badarg.Probe{Func: "Robustness.BeaconStudy", Err: inv}
	add(p.Fails("no budgets", "no budgets", func() error { _, err := r.BeaconStudy(nil, 1); return err }),
		p.Fails("budgets[1] = -3", "budgets[1] = -3", func() error { _, err := r.BeaconStudy([]int64{5, -3}, 1); return err }))
	p = badarg.Probe{Func: "Robustness.DriftStudy", Err: inv}
	add(p.Fails("ε = NaN", "ε = NaN", func() error { _, err := r.DriftStudy(sc, nan, []int{1}); return err }),
		p.Fails("days = -1", "days = -1", func() error { _, err := r.DriftStudy(sc, 0.1, []int{-1}); return err }),
		p.Fails("no days", "no days", func() error { _, err := r.DriftStudy(sc, 0.1, nil); return err }),
		p.Panics("nil c1", "c1 is nil", func() { _, _ = r.DriftStudy(nil, 0.1, []int{1}) }))
	return cs
}

func must3[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestRobustSlackAtScale checks the O(nnz + N) bookkeeping of
// columnBounds against a direct O(N²) evaluation of the row extremes of
// spec §15.4 on a 400-node synthetic CDN measured with 300 beacons per
// region (every column has unseen pairs; some rows have unseen
// diagonals). Both sum 400 terms of size ≤ A_j: 1e-12 covers rounding.
func TestRobustSlackAtScale(t *testing.T) {
	nw, err := anycast.GenerateCDN(loadlab.Stream(40), &anycast.CDNSettings{N: 400, K: 6})
	require.NoError(t, err)
	b := make([]int64, 400)
	for j := range b {
		b[j] = 300
	}
	cnt, err := beacon.Draw(nw.Sparse, b, loadlab.Stream(41))
	require.NoError(t, err)
	h, err := beacon.EstimateC(cnt, nil)
	require.NoError(t, err)
	got, err := RobustSlack(nw, h.Set)
	require.NoError(t, err)
	for i := 0; i < 400; i++ {
		want := nw.T[i]
		for j := 0; j < 400; j++ {
			if j == i {
				continue
			}
			cols, lo, hi, z := h.Set.Row(j)
			var sumL float64
			li, ui := 0.0, z
			for k, c := range cols {
				sumL += lo[k]
				if c == i {
					li, ui = lo[k], hi[k]
				}
			}
			want -= nw.A[j] * math.Min(ui, 1-(sumL-li))
		}
		assert.InDelta(t, want, got[i], 1e-12, "node %d", i)
	}
}
