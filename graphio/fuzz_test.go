package graphio

import (
	"bytes"
	"errors"
	"strings"
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
	o := &Options{
		Duplicates:   Duplicates(flags % 3),
		SelfLoops:    SelfLoops(flags >> 2 & 1),
		Directed:     Directed(flags >> 3 & 1),
		Largest:      flags>>4&1 == 1,
		ExtraColumns: ExtraColumns(flags >> 6 & 1),
	}
	if flags>>5&1 == 1 {
		o.DefaultWeight = 2
	}
	if flags>>7&1 == 1 {
		o.Label = "label"
	}
	return o
}

// Seeds of the defects fixed: inputs that were read wrongly or silently,
// each now an error or read as its options say.

func FuzzReadEdgeList(f *testing.F) {
	f.Add([]byte("source,target,weight\na,b,2\nb,c,1\n"), uint8(0))
	f.Add([]byte("1 2\n2 3\n3 1\n1 1\n"), uint8(5))
	f.Add([]byte("a\tb\t1e300\nb\ta\t1e300\n"), uint8(1))
	for _, src := range []string{
		"0 1 1e309\n", "0 1 1e309\n1 2 1\n", "0 1 x\n1 2 3\n", "0,1,inf\n", "0 1 nan\n",
		"a b 1 2\n", "u,v,w\na,b,1,red\n", "u,v,w,colour\na,b,1\n", "from,to,weight,colour\na,b,2,red\n",
		"source,target,timestamp\na,b,17\n", "a b 2\nb c\n", "a b\nb c 2\n", "a,b,1\nb,c,\n",
		"\ufeffsource,target\na,b\n", "node_a,node_b\n1,2\n", "paris london\nlondon berlin\n",
		"weight,source,target\n1,a,b\n", "u,v,w,weight\na,b,1,2\n", "\"a,b\",c,1\n",
	} {
		f.Add([]byte(src), uint8(0))
		f.Add([]byte(src), uint8(1<<5|1<<6))
	}
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
	for _, src := range []string{
		gml(speedKey, abc+`<edge source="a" target="b"><data key="d1">10</data></edge>`),
		gml(wKey, abc+`<edge source="a" target="b"><data key="d0">1e10</data></edge><edge id="e2" source="b" target="c"/>`),
		gml(`<key id="d0" for="edge" attr.name="weight"><default>4</default></key>`, abc+`<edge source="a" target="b"/>`),
		gml(labelKey+wKey, `<node id="a"><data key="d2">Paris</data></node><node id="b"><data key="d2">Paris</data></node>`),
		gml(labelKey+wKey, `<node id="a"><data key="d2">Paris</data></node><node id="b"/><edge source="a" target="b"><data key="d0">2</data></edge>`),
		gml(wKey, abc) + `<graph><node id="z"/></graph>`,
		"<graphml><graph>" + strings.Repeat("<x>", 300) + strings.Repeat("</x>", 300) + "</graph></graphml>",
		gml(wKey, abc+`<edge source="a" target="b"><data key="d0">1</data><data key="d0">2</data></edge>`),
	} {
		f.Add([]byte(src), uint8(0))
		f.Add([]byte(src), uint8(1<<5|1<<7))
	}
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
	for _, src := range []string{
		`graph { edge [weight=3]; a -- b; b -- c [weight=2] }`,
		`graph { subgraph s { edge [weight=3]; a -- b } c -- d [weight=1] }`,
		`graph { a -- b [weight="1e10"]; b -- c }`,
		`graph { a -- b; b -- c }`,
		`graph { node [label="\N"]; a [label=A]; a -- b [weight=1] }`,
		`graph { a -- b [weight=1] } graph { c -- d }`,
	} {
		f.Add([]byte(src), uint8(0))
		f.Add([]byte(src), uint8(1<<5|1<<7))
	}
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
	for _, src := range []string{
		mtxSym + "50000000 50000000 0\n",
		mtxSym + "50000000 50000000 25000000\n2 1 1\n",
		mtxSym + "2100000 2100000 1\n2 1 1\n",
		mtxSym + "3 3 3\n2 1 1\n2 1 5\n3 2 2\n",
		"%%MatrixMarket matrix coordinate integer symmetric\n2 2 1\n2 1 1.5\n",
		"%%MatrixMarket matrix coordinate real general\n3 3 4\n1 2 0\n2 1 0\n3 1 2\n1 3 2\n",
		mtxSym + "2 2 3\n1 1 1\n1 1 1\n2 1 -2\n",
	} {
		f.Add([]byte(src), uint8(0))
		f.Add([]byte(src), uint8(1|1<<5))
	}
	f.Fuzz(func(t *testing.T, src []byte, flags uint8) {
		d, err := ReadMatrixMarket(bytes.NewReader(src), fuzzOptions(flags))
		if err != nil {
			checkErr(t, err)
			return
		}
		roundTrip(t, d)
	})
}
