package graphio

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

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

// Target (issue 14): a 10⁶-edge edge list in ≤ 1 s.
func BenchmarkReadEdgeList_1e6(b *testing.B) {
	src := benchInput(b, 200_000, 1_000_000, func(w *bytes.Buffer, d *Data) error { return WriteEdgeList(w, d.Graph, nil) })
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := ReadEdgeList(bytes.NewReader(src), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Target (issue 14): GraphML with 10⁵ edges in ≤ 1 s.
func BenchmarkReadGraphML_1e5(b *testing.B) {
	src := benchInput(b, 20_000, 100_000, func(w *bytes.Buffer, d *Data) error { return WriteGraphML(w, d.Graph, nil) })
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := ReadGraphML(bytes.NewReader(src), nil); err != nil {
			b.Fatal(err)
		}
	}
}
