package spectral_test

import (
	"testing"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/spectral"
)

// BenchmarkResistanceApplyPowerGrid times x = L† b_e for one link of the
// US power grid (4941 nodes, the sparse path), the per-link step of the
// weight designs' exact oracles (spec throttlers.md §13.12): Apply (a
// workspace allocated per call) and ApplyTo (the caller's workspace).
func BenchmarkResistanceApplyPowerGrid(b *testing.B) {
	g := datasets.PowerGrid().Graph
	r, err := spectral.NewResistance(g)
	if err != nil {
		b.Fatal(err)
	}
	n := g.Order()
	e := g.Edges()[0]
	rhs, x, work := make([]float64, n), make([]float64, n), make([]float64, n)
	rhs[e.U], rhs[e.V] = 1, -1
	b.Run("Apply", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.Apply(x, rhs)
		}
	})
	b.Run("ApplyTo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.ApplyTo(x, rhs, work)
		}
	})
}

// BenchmarkResistanceFactorPowerGrid times one factorisation of the US
// power grid's grounded Laplacian as the weight designs' exact oracle
// needs it at each evaluation (spec throttlers.md §13.12): by
// NewResistance, which analyses the pattern afresh (the ground, both
// orderings under cholesky.Auto, the elimination tree), and by
// ResistanceAnalysis.Factor on the analysis of the support, kept.
func BenchmarkResistanceFactorPowerGrid(b *testing.B) {
	g := datasets.PowerGrid().Graph
	ra, err := spectral.AnalyzeResistance(g)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("NewResistance", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := spectral.NewResistance(g); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ResistanceAnalysis.Factor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ra.Factor(g); err != nil {
				b.Fatal(err)
			}
		}
	})
}
