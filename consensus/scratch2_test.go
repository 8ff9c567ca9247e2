package consensus

import (
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
	"math/rand/v2"
)

func TestScratchStar2(t *testing.T) {
	g, _ := gen.RandomRegular(2000, 4, mc.Source(7))
	cands, _ := Candidates(g, 2)
	sk, err := AddLinks(g, cands, 2, &LinkSettings{Objective: LinkRho2Star, GammaEvery: 2}, rand.NewPCG(1, 3))
	t.Logf("sketch %v: %+v %+v %+v refused %d rescored %d", err, sk.Steps, sk.Before, sk.After, sk.Refused, sk.Rescored)
}
