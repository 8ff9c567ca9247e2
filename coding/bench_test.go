package coding

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
)

// BenchmarkRLNCDecode_l14_64KiB is the row of docs/benchmarks.md for the
// target of issue 30: RLNC decode of ℓ = 14 chunks of 64 KiB over GF(2⁸),
// ≥ 100 MB/s of decoded data on one core (the decoder runs on one
// goroutine). One iteration resets the decoder, adds the 14 coded chunks
// (innovation test and copy) and decodes them into a buffer, with the
// default kernel; cpu-ns/op is the process's CPU time per iteration.
func BenchmarkRLNCDecode_l14_64KiB(b *testing.B) {
	const ell, sz = 14, 64 << 10
	rng := rand.New(rand.NewPCG(3, 4))
	enc, err := NewEncoder(randBytes(rng, ell, sz))
	if err != nil {
		b.Fatal(err)
	}
	chunks, err := enc.Random(ell, rand.NewPCG(5, 6))
	if err != nil {
		b.Fatal(err)
	}
	d, err := NewDecoder(ell, sz)
	if err != nil {
		b.Fatal(err)
	}
	dst := randBytes(rng, ell, sz)
	b.SetBytes(ell * sz)
	c0 := cputime.Process()
	for b.Loop() {
		decodeAll(b, d, chunks, dst)
	}
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func decodeAll(b *testing.B, d *Decoder, chunks []Chunk, dst [][]byte) {
	d.Reset()
	for _, c := range chunks {
		if _, err := d.Add(c); err != nil {
			b.Fatal(err)
		}
	}
	if err := d.DecodeTo(dst); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDecodeKernels is BenchmarkRLNCDecode_l14_64KiB with each
// kernel of the data product in turn (the comparison of doc.go).
func BenchmarkDecodeKernels(b *testing.B) {
	const ell, sz = 14, 64 << 10
	rng := rand.New(rand.NewPCG(3, 4))
	enc, err := NewEncoder(randBytes(rng, ell, sz))
	if err != nil {
		b.Fatal(err)
	}
	chunks, err := enc.Random(ell, rand.NewPCG(5, 6))
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []kernel{kernelMatrix, kernelSlice, kernelTable} {
		b.Run(fmt.Sprintf("kernel=%s", kernelName[k]), func(b *testing.B) {
			defer func(old kernel) { defaultKernel = old }(defaultKernel)
			defaultKernel = k
			d, err := NewDecoder(ell, sz)
			if err != nil {
				b.Fatal(err)
			}
			dst := randBytes(rng, ell, sz)
			b.SetBytes(ell * sz)
			b.ReportAllocs()
			for b.Loop() {
				decodeAll(b, d, chunks, dst)
			}
		})
	}
}

// BenchmarkEncode makes ℓ = 14 random coded chunks of 64 KiB in one
// pass (MB/s of coded data).
func BenchmarkEncode(b *testing.B) {
	const ell, sz = 14, 64 << 10
	enc, err := NewEncoder(randBytes(rand.New(rand.NewPCG(3, 4)), ell, sz))
	if err != nil {
		b.Fatal(err)
	}
	src := rand.NewPCG(7, 8)
	b.SetBytes(ell * sz)
	for b.Loop() {
		if _, err := enc.Random(ell, src); err != nil {
			b.Fatal(err)
		}
	}
}

var kernelName = map[kernel]string{kernelMatrix: "matrix", kernelSlice: "slice", kernelTable: "table"}
