package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/competitive"
)

func (a *app) nomadicAdversaryCommand() *cobra.Command {
	var k, slots int
	var setup, eps float64
	c := &cobra.Command{
		Use:   "adversary",
		Short: "Each online algorithm against the cruel adversary built for it, and the lower bound",
		Long: `Builds, against each deterministic online algorithm, the cruel input of
spec §6.1 (k servers, --slots slots, setup cost --setup: the slot's hold
cost is --eps on the server the algorithm holds and 0 elsewhere) and
reports its cost over the offline optimum, beside the bound every
deterministic algorithm meets, k(C + (T−1)ε)/(kC + (T−1)ε).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			bound, err := competitive.CruelBound(k, slots, setup, eps)
			if err != nil {
				return err
			}
			t := &table{cols: []string{"algorithm", "ratio to optimum"}}
			var names []string
			var ratios []float64
			for _, al := range onlineAlgorithms(func() rand.Source { return rand.NewPCG(a.seed, 5) }) {
				if al.name == "Marking (randomised)" {
					continue
				}
				r, err := competitive.CruelRatio(al.alg, k, slots, setup, eps)
				if err != nil {
					return err
				}
				t.add(al.name, r)
				names, ratios = append(names, al.short), append(ratios, r)
			}
			note := fmt.Sprintf("Every deterministic online algorithm reaches at least %.6g here (spec §6.1); the randomised marking algorithm is left out (the adversary is built for deterministic ones).", bound)
			return a.emit(&answer{tables: []*table{t}, notes: []string{note}, draw: barsPicture("Against the cruel adversary", "cost / optimal cost", names, ratios)})
		},
	}
	c.Flags().IntVar(&k, "k", 8, "servers")
	c.Flags().IntVar(&slots, "slots", 1000, "slots T")
	c.Flags().Float64Var(&setup, "setup", 1, "setup cost C")
	c.Flags().Float64Var(&eps, "eps", 0.01, "hold cost ε of the held server in each slot")
	return c
}
