package coding_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/coding"
)

// A file of three chunks is coded into random linear combinations; a
// receiver adds chunks until it can decode.
func Example() {
	source := [][]byte{[]byte("cod"), []byte("ed "), []byte("lb!")}
	enc, _ := coding.NewEncoder(source)
	chunks, _ := enc.Random(5, rand.NewPCG(1, 2))
	dec, _ := coding.NewDecoder(3, 3)
	for i, c := range chunks {
		innovative, _ := dec.Add(c)
		fmt.Printf("chunk %d innovative %v, rank %d\n", i, innovative, dec.Rank())
		if dec.CanDecode() {
			break
		}
	}
	data, _ := dec.Decode()
	fmt.Printf("%s%s%s\n", data[0], data[1], data[2])
	// Output:
	// chunk 0 innovative true, rank 1
	// chunk 1 innovative true, rank 2
	// chunk 2 innovative true, rank 3
	// coded lb!
}

// The exact probability that ℓ = 14 random chunks over GF(2⁸) decode,
// with δ = 1 extra, and the mean number of extra chunks needed.
func ExampleDecodeProb() {
	p0, _ := coding.DecodeProb(256, 14, 0)
	p1, _ := coding.DecodeProb(256, 14, 1)
	mean, _, _ := coding.ExpectedExtra(256, 14)
	fmt.Printf("P(14 decode) = %.6f, P(15 decode) = %.8f, E[extra] = %.6f\n", p0, p1, mean)
	// Output:
	// P(14 decode) = 0.996078, P(15 decode) = 0.99998468, E[extra] = 0.003937
}

// The MDS reference: any ℓ = 2 of n = 4 Reed–Solomon chunks decode.
func ExampleMDS() {
	m, _ := coding.NewMDS(2, 4)
	chunks, _ := m.Encode([][]byte{[]byte("ab"), []byte("cd")})
	got, _ := m.Decode([][]byte{nil, nil, chunks[2], chunks[3]})
	fmt.Printf("%s %s\n", got[0], got[1])
	// Output:
	// ab cd
}

// Measured against exact: over GF(2) only about 29 % of the sets of
// ℓ = 8 random chunks decode.
func ExampleEstimateReception() {
	res, _ := coding.EstimateReception(2, 8, 1, 10000, 1, nil)
	exact, _ := coding.DecodeProb(2, 8, 0)
	e := res.Decode[0]
	fmt.Printf("exact %.4f, measured %.4f in [%.4f, %.4f]\n", exact, e.Mean, e.Lo, e.Hi)
	// Output:
	// exact 0.2899, measured 0.2918 in [0.2829, 0.3008]
}
