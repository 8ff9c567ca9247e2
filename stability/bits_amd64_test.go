//go:build amd64 && !amd64.v3

package stability

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"gonum.org/v1/gonum/mat"
)

// plainLaw is randomNet's law (β = 1, demand up to 2, self-weight 0.5)
// with the rows of C normalised by a plain Go sum: gonum's floats.Sum
// sums in another order with and without its own assembly (tag noasm),
// which would change the instance itself.
func plainLaw(n int, seed uint64) *Law {
	rng := rand.New(rand.NewPCG(seed, 99))
	a, t := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = 2 * rng.Float64()
		t[i] = 0.2 + rng.Float64()
	}
	c := mat.NewDense(n, n, nil)
	for j := range n {
		row := c.RawRowView(j)
		var sum float64
		for i := range row {
			row[i] = rng.Float64()
			if i == j {
				row[i] += 0.5 * float64(n)
			}
			sum += row[i]
		}
		for i := range row {
			row[i] /= sum
		}
	}
	nw, err := anycast.NewNetwork(a, c, t)
	if err != nil {
		panic(err)
	}
	return mustLaw(nw, 1)
}

// sparseLaw is the greedy law with β = 1 on GenerateCDN(n, K = 10).
func sparseLaw(t *testing.T, n int) *Law {
	nw, err := anycast.GenerateCDN(rand.NewPCG(13, 1), &anycast.CDNSettings{N: n, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	return mustLaw(nw, 1)
}

// trajectoryHash is the FNV-1a hash of the bits of every time, state and
// load of tr.
func trajectoryHash(tr *Trajectory) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v float64) {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	for k, t := range tr.T {
		put(t)
		for i := range tr.X[k] {
			put(tr.X[k][i])
			put(tr.S[k][i])
		}
	}
	return h.Sum64()
}

// A dense integration whose nodes settle (so that the reduced operator,
// the six-state product and lagging steps run) and a sparse one have the
// same bits with and without the assembly kernels: the hashes are those
// of the pure-Go references, which .ci/run also runs with -tags noasm.
// (Only on amd64 without GOAMD64=v3: elsewhere the compiler may fuse
// other multiply-adds of the integration and change the last bits.) A
// change of these values is a change of the arithmetic, to be made on
// purpose and noted.
func TestTrajectoryBitsWithAndWithoutKernels(t *testing.T) {
	for _, c := range []struct {
		name string
		law  *Law
		want uint64
	}{
		{"dense N = 200", plainLaw(200, 200), 0xe5a084f19666fe00},
		{"sparse N = 300", sparseLaw(t, 300), 0xa7dc560861d49478},
	} {
		x0 := randomInterior(rand.New(rand.NewPCG(1, 1)), c.law.Net.N())
		tr, err := c.law.Integrate(x0, 1000, &Settings{AbsTol: 1e-8, RelTol: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		ones := 0
		for _, v := range tr.Final() {
			if v == 1 {
				ones++
			}
		}
		if c.law.Net.Sparse == nil && ones < c.law.Net.N()/reduceFraction {
			t.Errorf("%s: %d nodes settled at 1, want the reduced operator in use", c.name, ones)
		}
		if got := trajectoryHash(tr); got != c.want {
			t.Errorf("%s: hash %#x, want %#x (%d steps)", c.name, got, c.want, tr.Stats.Accepted)
		}
	}
}
