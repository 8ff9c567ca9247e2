package cholesky

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/wgraph/gen"
)

func TestZZExpander(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("EXPN"))
	if n == 0 {
		t.Skip()
	}
	g, err := gen.RandomRegular(n, 6, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("graph built")
	a := &Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		nb := g.Neighbors(i)
		ins := false
		for _, e := range nb {
			if !ins && int(e) > i {
				a.Ind, a.Val = append(a.Ind, i), append(a.Val, 7)
				ins = true
			}
			a.Ind, a.Val = append(a.Ind, int(e)), append(a.Val, -1)
		}
		if !ins {
			a.Ind, a.Val = append(a.Ind, i), append(a.Val, 7)
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	for _, o := range []Ordering{Auto} {
		t0, c0 := time.Now(), cputime.Process()
		_, err := Analyze(a, &Settings{Ordering: o})
		fmt.Printf("n=%d %v: %.2f s wall, %.2f s cpu, err=%v (too large %v)\n", n, o, time.Since(t0).Seconds(), (cputime.Process() - c0).Seconds(), err, errors.Is(err, loadlab.ErrTooLarge))
	}
}
