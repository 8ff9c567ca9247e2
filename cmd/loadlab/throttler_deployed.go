package main

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// deployedFlags are the flags of "throttler analyze" for the network as
// deployed (spec throttlers-deployed.md): a uniform delay, lost
// exchanges and random ticking, and the mean excess demand that gives
// the expected over-throttling.
type deployedFlags struct {
	delay      int
	loss, tick float64
	excess     float64
	over       bool // --excess was given
	lossy      bool // --loss or --tick was given
}

func (f *deployedFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.IntVar(&f.delay, "delay", 0, "uniform delay τ of every exchange, in update cycles (spec deployed §2)")
	fl.Float64Var(&f.loss, "loss", 0, "probability q in [0, 1) that an exchange is lost, applied by neither end (at most 256 servers)")
	fl.Float64Var(&f.tick, "tick", 1, "probability π in (0, 1] that a server updates in a cycle (at most 256 servers)")
	fl.Float64Var(&f.excess, "excess", 0, "mean excess demand r̄_total − l_total (load): also give the expected over-throttling (spec deployed §4)")
}

// read records which of the optional analyses the flags ask for, and
// refuses, before any computation, those the graph is too large for.
func (f *deployedFlags) read(cmd *cobra.Command, n int) error {
	f.over = cmd.Flags().Changed("excess")
	f.lossy = cmd.Flags().Changed("loss") || cmd.Flags().Changed("tick")
	switch {
	case f.delay < 0:
		return usagef("--delay = %d: want ≥ 0 cycles", f.delay)
	case f.lossy && n > consensus.SecondMomentMaxNodes:
		return usagef("--loss and --tick work on at most %d servers (the exact second-moment recursion), the graph has %d; above, simulate: throttler simulate --loss --tick, or consensus.EstimateRho with MonteCarlo.Network", consensus.SecondMomentMaxNodes, n)
	case f.over && n > spectral.DenseMaxNodes:
		return usagef("--excess works on the dense spectrum: at most %d servers, the graph has %d", spectral.DenseMaxNodes, n)
	}
	return nil
}

// any reports whether a deployed-network table is asked for.
func (f *deployedFlags) any() bool { return f.delay > 0 || f.lossy || f.over }

// delayTableDense is the table of the throttler under delay, loss and
// asynchrony from the dense spectrum: the stability limit a*(τ)/λ_n, the
// cycle γ*_H2(τ) and, at --gamma (or at γ*_H2(τ) without it), ρ₁ ρ₂ ρ₂T
// under delay (spec deployed §2.2–§2.4) and with --loss/--tick the
// expected ρ₂ (§2.6).
func delayTableDense(sp *consensus.Spectral, g *wgraph.Graph, gamma, sigma float64, f deployedFlags) (*table, error) {
	t := quantityTable("deployed network")
	tau := f.delay
	t.add("delay τ", tau, nil, nil, "cycles", "")
	limit, err := sp.DelayStabilityBound(tau)
	if err != nil {
		return nil, err
	}
	t.add("stability limit a*(τ)/λ_n", limit, nil, nil, "time", "exact")
	gs, rs, err := sp.GammaH2Delay(tau, sigma)
	if err != nil {
		return nil, err
	}
	t.add("γ*_H2(τ)", gs, nil, nil, "time", "exact")
	t.add("ρ₂ at γ*_H2(τ)", rs, nil, nil, "load²", "exact")
	how := "--gamma"
	if gamma == 0 {
		gamma, how = gs, "γ*_H2(τ)"
	}
	th := &consensus.Throttler{Graph: g, Gamma: gamma}
	if th.Gamma >= limit {
		t.add("γ used", th.Gamma, nil, nil, "time", how+": unstable under this delay, the limits diverge")
	} else {
		t.add("γ used", th.Gamma, nil, nil, "time", how)
		for _, tr := range []consensus.Traffic{consensus.Case1, consensus.Case2, consensus.Case2T} {
			rho, err := sp.RhoDelay(tr, tau, th.Gamma, sigma)
			if err != nil {
				return nil, err
			}
			t.add(rhoName(tr)+" under delay at γ used", rho, nil, nil, "load²", "exact")
		}
	}
	if f.lossy {
		if err := addSecondMomentRows(t, th, sigma, f); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// addSecondMomentRows adds the expected ρ₂ with lost exchanges and
// random ticking at the γ used (spec deployed §2.6).
func addSecondMomentRows(t *table, th *consensus.Throttler, sigma float64, f deployedFlags) error {
	sm, err := consensus.SecondMomentRho(th, consensus.Case2, f.delay, sigma, f.loss, f.tick)
	switch {
	case errors.Is(err, loadlab.ErrUnstable):
		t.add(fmt.Sprintf("ρ₂ with loss %g, ticks %g", f.loss, f.tick), "unstable", nil, nil, "load²", "not mean-square stable at γ used")
		return nil
	case err != nil:
		return err
	}
	t.add("exchange rate m", sm.MeanRate, nil, nil, "per link and cycle", "exact")
	t.add(fmt.Sprintf("ρ₂ with loss %g, ticks %g", f.loss, f.tick), sm.Rho, nil, nil, "load²", "second-moment recursion: "+sm.Status.String())
	t.add("fluctuation radius", sm.Radius, nil, nil, "", "mean-square stable below 1")
	return nil
}

// overTable is the expected over-throttling at the γ used and the cycle
// that minimises it (spec deployed §4.2, §4.3), for the mean excess
// demand --excess.
func overTable(sp *consensus.Spectral, gamma, sigma, excess float64, tau int) (*table, error) {
	t := quantityTable("over-throttling")
	t.add("mean excess demand", excess, nil, nil, "load", "r̄_total − l_total (--excess)")
	for _, tr := range []consensus.Traffic{consensus.Case1, consensus.Case2} {
		o, err := sp.Over(tr, gamma, sigma, excess)
		if err != nil {
			return nil, err
		}
		t.add(fmt.Sprintf("E O at γ used, %s", tr), o.Total, nil, nil, "load per cycle", "exact (Gaussian stationary regime)")
		t.add(fmt.Sprintf("E (r_total − l_total)₊, %s", tr), o.Unavoidable, nil, nil, "load per cycle", "rejected by the ideal throttler too (not in E O)")
	}
	if tau > 0 {
		o, err := sp.OverDelay(consensus.Case1, tau, gamma, sigma, excess)
		switch {
		case errors.Is(err, loadlab.ErrUnstable):
			t.add(fmt.Sprintf("E O at γ used, case 1, delay %d", tau), "unstable", nil, nil, "load per cycle", "γ used is beyond a*(τ)/λ_n")
		case err != nil:
			return nil, err
		default:
			t.add(fmt.Sprintf("E O at γ used, case 1, delay %d", tau), o.Total, nil, nil, "load per cycle", "exact (the delayed nodal ρ, spec deployed §4.2)")
		}
	}
	g, o, err := sp.GammaOver(sigma, excess)
	if err != nil {
		return nil, err
	}
	t.add("γ minimising E O, case 2", g, nil, nil, "time", "exact")
	t.add("E O there", o.Total, nil, nil, "load per cycle", "exact")
	return t, nil
}

// delayTableLarge is the deployed-network table above the dense size:
// the estimate of γ*_H2(τ), the certified stability decision under delay
// at --gamma (or at that estimate without it) and the estimates of
// ρ₁ ρ₂ ρ₂T there with 95 % intervals (spec deployed §2.5). A γ*_H2(τ)
// the estimator cannot resolve is reported as such, not as a number.
func (a *app) delayTableLarge(g *wgraph.Graph, gamma, sigma float64, f deployedFlags) (*table, error) {
	t := quantityTable("deployed network")
	tau := f.delay
	t.add("delay τ", tau, nil, nil, "cycles", "")
	ge, err := consensus.EstimateGammaH2Delay(g, tau, sigma, nil, rand.NewPCG(a.seed, 4))
	resolved := err == nil || errors.Is(err, loadlab.ErrNotConverged)
	if resolved {
		t.add("γ*_H2(τ)", ge.Gamma.Mean, ge.Gamma.Lo, ge.Gamma.Hi, "time", "estimate, 95 % interval")
	} else {
		t.add("γ*_H2(τ)", "unresolved", nil, nil, "time", err.Error())
	}
	how := "--gamma"
	if gamma == 0 {
		if !resolved {
			return t, nil
		}
		gamma, how = ge.Gamma.Mean, "estimate of γ*_H2(τ)"
	}
	th := &consensus.Throttler{Graph: g, Gamma: gamma}
	if b, serr := consensus.DelayStability(th, tau); serr != nil {
		t.add("γ used", gamma, nil, nil, "time", fmt.Sprintf("%s: not certified stable under this delay (λ_n ∈ %v)", how, b))
		return t, nil
	}
	t.add("γ used", gamma, nil, nil, "time", how+": certified stable under this delay")
	h, herr := consensus.EstimateH2Delay(th, tau, sigma, nil, rand.NewPCG(a.seed, 5))
	if herr != nil && !errors.Is(herr, loadlab.ErrNotConverged) {
		return nil, herr
	}
	for _, tr := range []consensus.Traffic{consensus.Case1, consensus.Case2, consensus.Case2T} {
		e := h.Of(tr)
		t.add(rhoName(tr)+" under delay at γ used", e.Mean, e.Lo, e.Hi, "load²", "estimate, 95 % interval")
	}
	if resolved {
		return t, errors.Join(err, herr)
	}
	return t, herr
}
