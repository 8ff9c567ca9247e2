package anycast

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// twoC is the two-node C of spec §8 items 1 and 17.
func twoC() *mat.Dense { return mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}) }

func twoNet() *Network { return must(NewNetwork([]float64{1, 1}, twoC(), []float64{0.7, 0.7})) }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// networkCases probes NewNetwork, Validate (after a change of a field)
// and LoadOp and Form, which validate the network as it is now.
func networkCases() []badarg.Case {
	a, t := []float64{1, 1}, []float64{0.7, 0.7}
	p := badarg.Probe{Func: "NewNetwork", Err: inv}
	newNet := func(a []float64, c mat.Matrix, t []float64) error { _, err := NewNetwork(a, c, t); return err }
	// a and t become the fields A and T, and are named so.
	cs := p.Slice("A", a, 1, badarg.NonNegative, func(x []float64) error { return newNet(x, twoC(), t) })
	cs = append(cs, p.Slice("T", t, 0, badarg.Positive, func(x []float64) error { return newNet(a, twoC(), x) })...)
	cs = append(cs,
		p.Fails("c = nil", "", func() error { return newNet(a, nil, t) }),
		p.Fails("c[0][1] = NaN", "C[0][1] = NaN", func() error { return newNet(a, mat.NewDense(2, 2, []float64{0.1, nan, 0.5, 0.5}), t) }),
		p.Fails("row 1 sums to 1.1", "row 1", func() error { return newNet(a, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.6, 0.5}), t) }),
		p.Fails("c 2×3", "", func() error { return newNet(a, mat.NewDense(2, 3, nil), t) }),
		p.Fails("Σ A overflows", "", func() error { return newNet([]float64{math.MaxFloat64, math.MaxFloat64}, twoC(), t) }),
	)
	// Every function of a network validates it as it is now.
	changes := []struct {
		name   string
		change func(*Network)
		text   string
	}{
		{"A[1] = NaN", func(nw *Network) { nw.A[1] = nan }, "A[1] = NaN"},
		{"T[0] = -1", func(nw *Network) { nw.T[0] = -1 }, "T[0] = -1"},
		{"len(A) = 1", func(nw *Network) { nw.A = nw.A[:1] }, "len(A) = 1"},
		{"C[1][0] = +Inf", func(nw *Network) { nw.C.Set(1, 0, inf) }, "C[1][0] = +Inf"},
		{"C = nil", func(nw *Network) { nw.C = nil }, ""},
	}
	for name, f := range map[string]func(*Network) error{
		"Network.Validate": func(nw *Network) error { return nw.Validate() },
		"Network.LoadOp":   func(nw *Network) error { _, err := nw.LoadOp(); return err },
		"LoadOp.Form":      func(nw *Network) error { return new(LoadOp).Form(nw) },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		for _, c := range changes {
			cs = append(cs, p.Fails(c.name, c.text, func() error {
				nw := twoNet()
				c.change(nw)
				return f(nw)
			}))
		}
	}
	return append(cs,
		badarg.Probe{Func: "Network.Validate"}.Panics("nw = nil", "", func() { _ = (*Network)(nil).Validate() }),
		badarg.Probe{Func: "LoadOp.Form"}.Panics("nw = nil", "anycast: LoadOp.Form: nw is nil", func() { _ = new(LoadOp).Form(nil) }),
	)
}

// productCases probes the products and accessors: a slice of the wrong
// length or an index out of range is a documented panic.
func productCases(t *testing.T) []badarg.Case {
	dense := twoNet()
	sparse := must(NewNetwork([]float64{1, 1}, must(SparseOf(twoC())), []float64{0.7, 0.7}))
	x := []float64{0.5, 0.5}
	var cs []badarg.Case
	add := func(name string, c ...badarg.Case) {
		for i := range c {
			c[i].Func = name
		}
		cs = append(cs, c...)
	}
	p := badarg.Probe{Panic: true}
	for _, nw := range []*Network{dense, sparse} {
		for name, f := range map[string]func(dst, x []float64) []float64{"Network.Loads": nw.Loads, "Network.MulC": nw.MulC, "Network.MulCT": nw.MulCT} {
			add(name, p.Lengths("x", x, func(v []float64) error { f(nil, v); return nil })...)
			add(name, p.Panics("len(dst) = 3", "", func() { f(make([]float64, 3), x) }))
		}
		for name, f := range map[string]func(i int){
			"Network.At":  func(i int) { nw.At(i, 0) },
			"Network.Row": func(i int) { nw.Row(i) },
			"Network.Col": func(i int) { nw.Col(i) },
		} {
			add(name, p.Panics("index = -1", "", func() { f(-1) }), p.Panics("index = N", "", func() { f(2) }))
		}
		op, err := nw.LoadOp()
		require.NoError(t, err)
		add("LoadOp.Mul", p.Lengths("x", x, func(v []float64) error { op.Mul(nil, v); return nil })...)
		add("LoadOp.Mul", p.Panics("len(dst) = 1", "", func() { op.Mul(make([]float64, 1), x) }))
		add("LoadOp.MulRows",
			p.Panics("hi > N", "MulRows", func() { op.MulRows(make([]float64, 2), x, 1, 3) }),
			p.Panics("lo < 0", "MulRows", func() { op.MulRows(make([]float64, 1), x, -1, 0) }),
			p.Panics("len(dst) ≠ hi − lo", "MulRows", func() { op.MulRows(make([]float64, 2), x, 0, 1) }),
			p.Panics("len(x) = 1", "MulRows", func() { op.MulRows(make([]float64, 1), x[:1], 0, 1) }),
		)
	}
	s := sparse.Sparse
	add("SparseC.At", p.Panics("j = 2", "", func() { s.At(2, 0) }), p.Panics("i = -1", "", func() { s.At(0, -1) }))
	add("SparseC.Row", p.Panics("j = 2", "", func() { s.Row(2) }), p.Panics("j = -1", "", func() { s.Row(-1) }))
	add("SparseC.Col", p.Panics("i = 2", "", func() { s.Col(2) }), p.Panics("i = -1", "", func() { s.Col(-1) }))
	return cs
}

// reducedCases probes the documented panics of Reduced: a nil operator
// or source, mask lengths, the receiver as its own source, ranges and
// lengths of the products.
func reducedCases(t *testing.T) []badarg.Case {
	rng := rand.New(rand.NewPCG(8, 3))
	op, err := randomNetwork(rng, 20).LoadOp()
	require.NoError(t, err)
	ones := randomOnes(rng, 20, 0.5, nil)
	var r Reduced
	require.True(t, r.Reduce(op, ones))
	xf := make([]float64, r.Cols())
	p := badarg.Probe{Panic: true}
	var cs []badarg.Case
	add := func(name string, c ...badarg.Case) {
		for i := range c {
			c[i].Func = name
		}
		cs = append(cs, c...)
	}
	add("Reduced.Reduce",
		p.Panics("op = nil", "anycast: Reduced.Reduce: op is nil", func() { new(Reduced).Reduce(nil, ones) }),
		p.Panics("len(ones) = 19", "len(ones) = 19", func() { new(Reduced).Reduce(op, ones[:19]) }),
	)
	add("Reduced.Narrow",
		p.Panics("src = nil", "anycast: Reduced.Narrow: src is nil", func() { new(Reduced).Narrow(nil, ones) }),
		p.Panics("len(ones) = 19", "len(ones) = 19", func() { new(Reduced).Narrow(&r, ones[:19]) }),
		p.Panics("r is src", "the receiver is the source", func() { r.Narrow(&r, ones) }),
	)
	add("Reduced.Rank", p.Panics("j = 20", "", func() { r.Rank(20) }), p.Panics("j = -1", "", func() { r.Rank(-1) }))
	for name, f := range map[string]func(dst, xf []float64, lo, hi int){
		"Reduced.MulRows":    r.MulRows,
		"Reduced.MulFree":    r.MulFree,
		"Reduced.MulSettled": func(dst, xf []float64, lo, hi int) { r.MulSettled([][]float64{dst}, [][]float64{xf}, lo, hi) },
	} {
		add(name,
			p.Panics("len(dst) ≠ hi − lo", "len(dst) = 3", func() { f(make([]float64, 3), xf, 0, 4) }),
			p.Panics("len(xf) ≠ Cols", "len(xf)", func() { f(make([]float64, 4), xf[:len(xf)-1], 0, 4) }),
			p.Panics("hi > N", "want rows in [0, 20)", func() { f(make([]float64, 8), xf, 16, 24) }),
			p.Panics("lo < 0", "want rows in [0, 20)", func() { f(make([]float64, 4), xf, -1, 3) }),
		)
	}
	add("Reduced.MulSettled", p.Panics("len(dst) ≠ len(xf)", "2 states for 1 outputs", func() {
		r.MulSettled([][]float64{make([]float64, 4)}, [][]float64{xf, xf}, 0, 4)
	}))
	return cs
}

// sparseCases probes NewSparseC and SparseOf: every bad entry is an
// *EntryError naming its row and column, wrapping ErrInvalid.
func sparseCases() []badarg.Case {
	rows, cols, vals := []int{0, 0, 1}, []int{0, 1, 1}, []float64{0.4, 0.6, 1}
	newC := func(n int, r, c []int, v []float64) error { _, err := NewSparseC(n, r, c, v); return err }
	p := badarg.Probe{Func: "NewSparseC", Err: inv}
	cs := p.Int("n", badarg.Positive, func(n int) error { return newC(n, nil, nil, nil) })
	// An entry is named by its place in C.
	p.Text = "C[0][0] = "
	cs = append(cs, p.Entries("vals", vals, 0, badarg.Unit, func(v []float64) error { return newC(2, rows, cols, v) })...)
	p.Text = ""
	cs = append(cs,
		p.Fails("len(rows) ≠ len(vals)", "len(rows) = 2", func() error { return newC(2, rows[:2], cols, vals) }),
		p.Fails("cols[2] = 2", "C[1][2]", func() error { return newC(2, rows, []int{0, 1, 2}, vals) }),
		p.Fails("rows[0] = -1", "C[-1][0]", func() error { return newC(2, []int{-1, 0, 1}, cols, vals) }),
		p.Fails("a duplicate", "duplicate", func() error { return newC(2, []int{0, 0, 1}, []int{1, 1, 1}, vals) }),
		p.Fails("an empty row", "row 1", func() error { return newC(2, []int{0, 0}, []int{0, 1}, vals[:2]) }),
		p.Fails("row 0 sums to 0.9", "row 0", func() error { return newC(2, rows, cols, []float64{0.3, 0.6, 1}) }),
	)
	p = badarg.Probe{Func: "SparseOf", Err: inv}
	return append(cs,
		p.Fails("c 2×3", "C is 2×3", func() error { _, err := SparseOf(mat.NewDense(2, 3, nil)); return err }),
		p.Fails("c[1][1] = NaN", "C[1][1] = NaN", func() error { _, err := SparseOf(mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, nan})); return err }),
		p.Panics("c = nil", "anycast: SparseOf: c is nil", func() { _, _ = SparseOf(nil) }),
	)
}

// cdnCases probes GenerateCDN and CDNSettings.Validate.
func cdnCases() []badarg.Case {
	var cs []badarg.Case
	for _, fn := range []string{"CDNSettings.Validate", "GenerateCDN"} {
		call := func(s *CDNSettings) error {
			if fn == "GenerateCDN" {
				_, err := GenerateCDN(rand.NewPCG(1, 2), s)
				return err
			}
			return s.Validate()
		}
		p := badarg.Probe{Func: fn, Err: inv}
		base := CDNSettings{N: 100, K: 5}
		cs = append(cs, badarg.Fields(p, base, badarg.NonNegative, call, "N", "K", "Decay", "Sigma", "RhoLo", "RhoHi")...)
		cs = append(cs,
			p.Fails("K > N", "CDNSettings.K = 101", func() error { return call(&CDNSettings{N: 100, K: 101}) }),
			// A spread so wide that exp(σZ − σ²/2) underflows for ordinary
			// draws (guards: σ = 40 giving A = 0 everywhere and every
			// capacity replaced by 1, with no error).
			p.Fails("Sigma = 40", "CDNSettings.Sigma = 40", func() error { return call(&CDNSettings{N: 100, K: 5, Sigma: 40}) }),
			p.Fails("Sigma = 31", "CDNSettings.Sigma = 31", func() error { return call(&CDNSettings{Sigma: 31}) }),
			p.Fails("RhoLo > RhoHi", "CDNSettings.RhoLo = 2 > RhoHi = 1.5", func() error { return call(&CDNSettings{RhoLo: 2, RhoHi: 1.5}) }),
		)
	}
	return append(cs,
		badarg.Probe{Func: "GenerateCDN", Err: tooLarge}.Fails("N beyond memory", "", func() error {
			_, err := GenerateCDN(rand.NewPCG(1, 2), &CDNSettings{N: math.MaxInt / 2})
			return err
		}),
		badarg.Probe{Func: "GenerateCDN"}.Panics("src = nil", "nil rand.Source", func() { _, _ = GenerateCDN(nil, nil) }),
	)
}

// twinCases probes AsDense and AsSparse: both validate the network as it
// is now (its fields may have changed since NewNetwork).
func twinCases() []badarg.Case {
	var cs []badarg.Case
	for _, fn := range []string{"Network.AsDense", "Network.AsSparse"} {
		call := func(nw *Network) error {
			var err error
			if fn == "Network.AsDense" {
				_, err = nw.AsDense()
			} else {
				_, err = nw.AsSparse()
			}
			return err
		}
		nw, err := NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{1, 0, 0, 1}), []float64{1, 1})
		if err != nil {
			panic(err)
		}
		nw.A[1] = math.NaN()
		p := badarg.Probe{Func: fn, Err: inv}
		cs = append(cs,
			p.Fails("A[1] = NaN after NewNetwork", "A[1] = NaN", func() error { return call(nw) }),
			p.Panics("nw = nil", "", func() { _ = call(nil) }),
		)
	}
	return cs
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative, zero, wrong-length and nil inputs and bad
// settings fields: each gives the documented error, naming the input,
// or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(networkCases(), productCases(t), reducedCases(t), sparseCases(), cdnCases(), twinCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}

// TestValidateNilSettings: nil settings are the defaults.
func TestValidateNilSettings(t *testing.T) {
	var s *CDNSettings
	assert.NoError(t, s.Validate())
}
