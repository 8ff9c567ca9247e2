package graphio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/loadlab/loadlab"
)

// Every reader: no panic on any input; an error is a *ParseError or a
// named loadlab error; a graph read once is written and read again to
// the same labelled edges (the invariant of the writers).

func checkErr(t *testing.T, err error) {
	var pe *ParseError
	if !errors.As(err, &pe) && !errors.Is(err, loadlab.ErrInvalid) && !errors.Is(err, loadlab.ErrTooLarge) {
		t.Fatalf("error is neither a *ParseError nor a named error: %v", err)
	}
}

func roundTrip(t *testing.T, d *Data) {
	var b bytes.Buffer
	if err := WriteGraphML(&b, d.Graph, d.Labels); err != nil {
		// labels from an edge list can hold characters GraphML cannot
		// keep (control characters, invalid UTF-8): the writer says so.
		checkErr(t, err)
		return
	}
	d2, err := ReadGraphML(&b, nil)
	if err != nil {
		t.Fatalf("GraphML written by WriteGraphML does not read back: %v\n%s", err, b.String())
	}
	if !sameEdges(labelled(d), labelled(d2)) || len(d.Labels) != len(d2.Labels) {
		t.Fatalf("GraphML round trip changed the graph")
	}
	b.Reset()
	if err := WriteMatrixMarket(&b, d.Graph); err != nil {
		t.Fatal(err)
	}
	d3, err := ReadMatrixMarket(&b, nil)
	if err != nil || !sameGraph(d.Graph, d3.Graph) {
		t.Fatalf("Matrix Market round trip: %v", err)
	}
}

func fuzzOptions(flags uint8) *Options {
	return &Options{
		Duplicates: Duplicates(flags % 3),
		SelfLoops:  SelfLoops(flags >> 2 & 1),
		Directed:   Directed(flags >> 3 & 1),
		Largest:    flags>>4&1 == 1,
	}
}

func FuzzReadEdgeList(f *testing.F) {
	f.Add([]byte("source,target,weight\na,b,2\nb,c,1\n"), uint8(0))
	f.Add([]byte("1 2\n2 3\n3 1\n1 1\n"), uint8(5))
	f.Add([]byte("a\tb\t1e300\nb\ta\t1e300\n"), uint8(1))
	f.Fuzz(func(t *testing.T, src []byte, flags uint8) {
		d, err := ReadEdgeList(bytes.NewReader(src), fuzzOptions(flags))
		if err != nil {
			checkErr(t, err)
			return
		}
		roundTrip(t, d)
	})
}

func FuzzReadGraphML(f *testing.F) {
	f.Add([]byte(sampleGraphML), uint8(0))
	f.Add([]byte(`<graphml><graph edgedefault="directed"><node id="a"/><node id="b"/><edge source="a" target="b"/></graph></graphml>`), uint8(8))
	f.Fuzz(func(t *testing.T, src []byte, flags uint8) {
		d, err := ReadGraphML(bytes.NewReader(src), fuzzOptions(flags))
		if err != nil {
			checkErr(t, err)
			return
		}
		roundTrip(t, d)
	})
}

func FuzzReadDOT(f *testing.F) {
	f.Add([]byte(`graph G { a -- b [weight=2]; b -- c; d }`), uint8(0))
	f.Add([]byte(`digraph { a -> b -> a }`), uint8(9))
	f.Fuzz(func(t *testing.T, src []byte, flags uint8) {
		d, err := ReadDOT(bytes.NewReader(src), fuzzOptions(flags))
		if err != nil {
			checkErr(t, err)
			return
		}
		roundTrip(t, d)
	})
}

func FuzzReadMatrixMarket(f *testing.F) {
	f.Add([]byte("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1.5\n3 2 2\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n"), uint8(0))
	f.Fuzz(func(t *testing.T, src []byte, flags uint8) {
		d, err := ReadMatrixMarket(bytes.NewReader(src), fuzzOptions(flags))
		if err != nil {
			checkErr(t, err)
			return
		}
		roundTrip(t, d)
	})
}
