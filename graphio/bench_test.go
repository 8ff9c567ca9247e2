package graphio

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
)

// loopCPU runs f b.N times and reports CPU seconds per operation.
func loopCPU(b *testing.B, f func()) {
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		f()
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

// benchInput writes a random graph with m edges in the given format.
func benchInput(b *testing.B, n, m int, write func(*bytes.Buffer, *Data) error) []byte {
	b.Helper()
	g := randomGraph(n, m, rand.NewPCG(1, 2))
	var buf bytes.Buffer
	if err := write(&buf, &Data{Graph: g}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// Target (docs/benchmarks.md): a 10⁶-edge edge list in ≤ 1 s.
func BenchmarkReadEdgeList_1e6(b *testing.B) {
	src := benchInput(b, 200_000, 1_000_000, func(w *bytes.Buffer, d *Data) error { return WriteEdgeList(w, d.Graph, nil) })
	b.SetBytes(int64(len(src)))
	loopCPU(b, func() {
		if _, err := ReadEdgeList(bytes.NewReader(src), nil); err != nil {
			b.Fatal(err)
		}
	})
}

// Target (docs/benchmarks.md): GraphML with 10⁵ edges in ≤ 1 s.
func BenchmarkReadGraphML_1e5(b *testing.B) {
	src := benchInput(b, 20_000, 100_000, func(w *bytes.Buffer, d *Data) error { return WriteGraphML(w, d.Graph, nil) })
	b.SetBytes(int64(len(src)))
	loopCPU(b, func() {
		if _, err := ReadGraphML(bytes.NewReader(src), nil); err != nil {
			b.Fatal(err)
		}
	})
}
