package consensus_test

import (
	"fmt"
	"log"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/datasets"
)

// On the US power grid (4 941 servers) the H2-optimal update cycle and
// ρ₂ there are exact: each evaluation of ρ₂(γ) is one sparse Cholesky
// factorisation of 2I − γL with its selected inverse.
func ExampleGammaH2() {
	g := datasets.PowerGrid().Graph
	gamma, rho, err := consensus.GammaH2(g, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("γ*_H2 = %.6g, ρ₂(γ*_H2) = %.8g\n", gamma, rho)
	// Output:
	// γ*_H2 = 0.0992594, ρ₂(γ*_H2) = 66604.778
}
