package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/par"
	"gonum.org/v1/gonum/stat/distuv"
)

// starCellsMax caps the number of cells of the certificate's grid of
// cycles (spec §13.17).
const starCellsMax = 1 << 16

// certifyStar sets r.lower to the certified lower bound of spec §13.17 on
// min over sets S of at most k candidates and cycles γ of ρ₂(S, γ):
// on (0, γ₀] the bound ½[T/γ₀ + (n − 1)/2] with T = (n − 1)²/(tr L +
// 2 Σ_{k largest} W_e) ≤ tr L_S† (the harmonic–arithmetic mean
// inequality); on each cell [a, b] of a fixed geometric grid from γ₀ to
// the sampler's cap, and on [cap, 2/λ_n⁻],
//
//	ρ₂(S, γ) ≥ ½[tr L_S†/b + tr Q_S(γ)] ≥ ψ_G(a, b) − ½ Σ_{k largest} (g_e/b − c⁻(a))⁺,
//
// g_e the Kirchhoff relaxation's upper bounds at no links (§13.13's
// sketch, probability 1 − Miss/2) and c⁻(a) each link's least rise of
// tr_{1⊥}Q (starLinks), and ψ_G(a, b) − ρ₂(G, γ_A)
// bounded below from the sampler's probes by a one-sided Student-t
// bound at level (Miss/2)/cells on the lower ends of their brackets (a
// union bound over the cells). Lower adds ρ₂(G, γ_A).Lo, the lower end
// of the interval After rests on.
func (r *linkRun) certifyStar() error {
	st := r.star
	if r.k == 0 {
		r.lower = r.out.After.Lo
		return nil
	}
	miss := r.set.Miss
	r.set.Miss = miss / 2 // the sketch's share; the cells take the other half
	defer func() { r.set.Miss = miss }()
	if err := r.startCV(); err != nil {
		return err
	}
	acc0, _, err := r.certSketch()
	if err != nil {
		return err
	}
	r.sk0 = math.Sqrt(2*r.res0) / r.l2lo
	_, top, err := r.sketchTop(acc0, r.certQuantile(), false)
	if err != nil {
		return err
	}
	g0 := 1 / (4 * st.lmax.Hi) // γ*_H2 ≥ 1/λ_n (EstimateGammaH2)
	first := 0.5 * (r.harmonicT()/g0 + float64(r.n-1)/2)
	rhoA := st.hs.summary(r.out.AfterGamma, sampleRho2)
	r.lower = min(first, rhoA.Lo+r.starCells(r.starLinks(top), g0, miss/2))
	r.out.Confidence = 1 - miss - st.lmax.Delta
	return nil
}

// starLinks returns the per-cell bound on the links' decrease of ρ₂
// (spec §13.17): for γ ∈ [a, b], ½ Σ_j (g_j/b − c⁻(a))⁺ over the k
// largest upper bounds g_j of the Kirchhoff relaxation's terms, where
// c⁻(a) bounds each link's rise of tr_{1⊥}Q from below: added in turn,
// link e raises it by γW‖Q_k b‖²/(1 − γWβ_k) (Sherman–Morrison), β_k =
// bᵀQ_k b ≥ β⁻ = 1 + γ(d_u + d_v)/4 and ‖Q_k b‖² ≥ β_k²/2 (§13.16), so
// by at least aW_min β⁻²/2/(1 − aW_min β⁻) at β⁻ of a and D_min (the
// least d_u + d_v over the candidates; W_min the least weight).
func (r *linkRun) starLinks(top []float64) func(a, b float64) float64 {
	wmin, dmin := math.Inf(1), math.Inf(1)
	for _, c := range r.cands {
		wmin = min(wmin, r.linkWeight(c))
		dmin = min(dmin, r.g.WeightedDegree(c.U)+r.g.WeightedDegree(c.V))
	}
	return func(a, b float64) float64 {
		beta := 1 + a*dmin/4 // β_e⁻ = 1 + a(d_u + d_v)/4 ≤ b_eᵀQ_k b_e on every graph with links added
		cost := math.Inf(1)  // a link with aWβ⁻ ≥ 1 is unstable: ρ₂ = +∞
		if den := 1 - a*wmin*beta; den > 0 {
			cost = a * wmin * beta * beta / 2 / den
		}
		var s float64
		for _, g := range top {
			s += max(g/b-cost, 0)
		}
		return s / 2
	}
}

// harmonicT returns (n − 1)²/(tr L + 2 Σ of the k largest candidate
// weights), a lower bound on tr L_S† of every S of at most k candidates:
// Σ 1/λ_i ≥ (n − 1)²/Σ λ_i over the n − 1 nonzero eigenvalues, and
// tr L_S = tr L + 2 Σ_{e∈S} W_e.
func (r *linkRun) harmonicT() float64 {
	trL := 0.0
	for v := range r.n {
		trL += r.g.WeightedDegree(v)
	}
	ws := make([]float64, len(r.cands))
	for i, c := range r.cands {
		ws[i] = r.linkWeight(c)
	}
	n1 := float64(r.n - 1)
	return n1 * n1 / (trL + 2*topSum(ws, min(r.k, len(ws))))
}

// starCells returns the least, over the cells [a, b] of the geometric
// grid from g0 to the sampler's cap and the cell [cap, 2/λ_n⁻], of the
// lower confidence bound of ψ_G(a, b) − ρ₂(G, γ_A) less the links'
// decrease links(a, b) (spec §13.17),
// each at level alpha/(number of events).
func (r *linkRun) starCells(links func(a, b float64) float64, g0, alpha float64) float64 {
	st := r.star
	hs := st.hs
	gA, gcap, gtop := r.out.AfterGamma, hs.gcap(), 2/st.lmax.Lo
	cells := min(max(r.n/2, 4096), starCellsMax)
	if !(gcap > g0) {
		cells, g0 = 0, gcap
	}
	events := cells + 1
	if hs.res.on {
		events += 2
	}
	np := len(hs.probes)
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(np - 1)}.Quantile(1 - alpha/float64(events))
	var tr [2]float64 // one-sided bounds of tr L† when it is estimated apart
	if hs.res.on {
		e := hs.res.est
		tr = [2]float64{e.Mean, e.Mean} // exact (exactTrace)
		if !hs.res.exact {
			t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(e.N - 1)}.Quantile(1 - alpha/float64(events))
			tr = [2]float64{e.Mean - t*e.StdErr, e.Mean + t*e.StdErr}
		}
	}
	bA := make([]float64, np) // the upper ends of b = (Pq)ᵀQ(γ_A)(Pq)
	var qw lanczos.QuadWork
	for i, p := range hs.probes {
		b, _ := p.ShiftedBounds(gA, hs.lmax, &qw)
		bA[i] = b[1]
	}
	cell := func(a, b float64, w *lanczos.QuadWork, buf []float64) float64 {
		c := 1/b - 1/gA
		for i, p := range hs.probes {
			bq, _ := p.Shifted(min(a, gcap), w) // Gauss: below (Pq)ᵀQ(a)(Pq)
			buf[i] = 0.5*min(c*(p.A-p.AHalf), c*(p.A+p.AHalf)) + 0.5*(bq-bA[i])
		}
		s := mc.Summarize(buf)
		v := s.Mean - tq*s.Std/math.Sqrt(float64(np))
		if hs.res.on {
			v += 0.5 * min(c*tr[0], c*tr[1])
		}
		return v - links(a, b)
	}
	ratio := math.Pow(gcap/g0, 1/float64(max(cells, 1)))
	pieces := par.Pieces(cells, 256, 64)
	mins := make([]float64, pieces)
	par.For(pieces, 0, func(pc int) {
		lo, hi := par.Bounds(cells, pieces, pc)
		var w lanczos.QuadWork
		buf := make([]float64, np)
		m := math.Inf(1)
		for j := lo; j < hi; j++ {
			a, b := g0*math.Pow(ratio, float64(j)), g0*math.Pow(ratio, float64(j+1))
			if j == cells-1 {
				b = gcap
			}
			m = min(m, cell(a, b, &w, buf))
		}
		mins[pc] = m
	})
	out := cell(gcap, gtop, &qw, make([]float64, np))

	for _, m := range mins {
		out = min(out, m)
	}
	return out
}
