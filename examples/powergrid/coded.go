package main

import (
	"math"

	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
)

// CodedReport is step 6: nearest replica against coded delivery on the
// graph itself (spec coded-load §3), one time block of n requests.
type CodedReport struct {
	Files, Cache, Ell int
	Nearest, Coded    *codedload.Result
}

func (r *Report) coded(g *wgraph.Graph, cfg Config) error {
	progress(cfg.Progress, "5/6 coded-load simulator on the same graph")
	top, err := codedload.FromGraph(g)
	if err != nil {
		return err
	}
	n := g.Order()
	// The library and cache of the paper's figures (spec coded-load §7),
	// ℓ = round(ln n) pieces per file (the Θ(log n) of §4).
	c := CodedReport{Files: 100, Cache: 2, Ell: max(1, int(math.Round(math.Log(float64(n)))))}
	base := codedload.Config{Topology: top, Files: c.Files, Cache: c.Cache}
	nearest, coded := base, base
	nearest.Strategy = codedload.NearestReplica{}
	coded.Strategy = codedload.Coded{Ell: c.Ell}
	if c.Nearest, err = codedload.Run(nearest, mc.Source(cfg.Seed, 7)); err != nil {
		return err
	}
	if c.Coded, err = codedload.Run(coded, mc.Source(cfg.Seed, 7)); err != nil {
		return err
	}
	r.Coded = c
	progress(cfg.Progress, "6/6 done")
	return nil
}
