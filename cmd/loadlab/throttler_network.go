package main

import (
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/dataio"
)

// networkFlags are the flags of "throttler simulate" for an imperfect
// network (spec throttlers-deployed.md §1).
type networkFlags struct {
	delay    int
	delayLaw []float64
	loss     float64
	burst    float64
	tick     float64
	protocol *choice
	gammas   string // a file of per-server cycles γ_i, one row per server in node order
}

func (f *networkFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.IntVar(&f.delay, "delay", 0, "delay τ of every exchange, in cycles")
	fl.Float64SliceVar(&f.delayLaw, "delay-law", nil, "random delay of each exchange: P(0),P(1),… (summing to 1)")
	fl.Float64Var(&f.loss, "loss", 0, "probability q in [0, 1) that an exchange is lost")
	fl.Float64Var(&f.burst, "burst", 0, "mean length of a burst of losses (0: independent losses)")
	fl.Float64Var(&f.tick, "tick", 1, "probability π in (0, 1] that a server updates in a cycle")
	fl.Var(f.protocol, "protocol", "joint: a transfer is applied by both ends or by neither (conserves the total limit); separate: each end applies its own")
	fl.StringVar(&f.gammas, "gammas", "", "`FILE` of the servers' own update cycles γ_i (one row per server, in the graph's node order)")
}

// network is the Network the flags describe, or nil for the ideal one.
func (f *networkFlags) network(cmd *cobra.Command, n int, seed uint64) (*consensus.Network, error) {
	changed := false
	for _, name := range []string{"delay", "delay-law", "loss", "burst", "tick", "protocol", "gammas"} {
		changed = changed || cmd.Flags().Changed(name)
	}
	if !changed {
		return nil, nil
	}
	nw := &consensus.Network{Delay: f.delay, DelayLaw: f.delayLaw, Loss: f.loss, Burst: f.burst, Src: rand.NewPCG(seed, 6)}
	if f.protocol.val == "separate" {
		nw.Protocol = consensus.Separate
	}
	if cmd.Flags().Changed("tick") {
		nw.Tick = make([]float64, n)
		for i := range nw.Tick {
			nw.Tick[i] = f.tick
		}
	}
	if f.gammas != "" {
		g, err := readColumn(f.gammas, "", &dataio.TableOptions{})
		if err != nil {
			return nil, err
		}
		if len(g) != n {
			return nil, usagef("--gammas %s has %d rows, the graph %d servers", f.gammas, len(g), n)
		}
		nw.Gammas = g
	}
	return nw, nil
}

// withDelay returns the throttler flags with --gamma set to γ*_H2(τ)
// when a uniform --delay τ is given without --gamma (spec deployed
// §2.4), so that the default cycle is stable under the delay; the graph
// must then be dense-sized (throttler analyze --delay estimates it above).
func (f *networkFlags) withDelay(tf throttlerFlags) throttlerFlags {
	tf.delay = f.delay
	return tf
}
