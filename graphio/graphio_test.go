package graphio

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// labelled returns the edges of d as label triples, for comparisons that
// do not depend on node numbering.
func labelled(d *Data) map[[2]string]float64 {
	out := map[[2]string]float64{}
	for _, e := range d.Graph.Edges() {
		a, b := d.Labels[e.U], d.Labels[e.V]
		if a > b {
			a, b = b, a
		}
		out[[2]string{a, b}] = e.W
	}
	return out
}

func mustRead(t *testing.T, read func(*strings.Reader, *Options) (*Data, error), src string, o *Options) *Data {
	t.Helper()
	d, err := read(strings.NewReader(src), o)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return d
}

func edgeList(r *strings.Reader, o *Options) (*Data, error) { return ReadEdgeList(r, o) }
func graphML(r *strings.Reader, o *Options) (*Data, error)  { return ReadGraphML(r, o) }
func dotRead(r *strings.Reader, o *Options) (*Data, error)  { return ReadDOT(r, o) }
func mtxRead(r *strings.Reader, o *Options) (*Data, error)  { return ReadMatrixMarket(r, o) }

func TestEdgeListFormats(t *testing.T) {
	// The same weighted triangle a–b–c plus pendant d, in every layout.
	want := map[[2]string]float64{{"a", "b"}: 2, {"b", "c"}: 1, {"a", "c"}: 0.5, {"c", "d"}: 1}
	for name, src := range map[string]string{
		"csv header":  "source,target,weight\na,b,2\nb,c,1\na,c,0.5\nc,d,1\n",
		"tsv":         "a\tb\t2\nb\tc\t1\na\tc\t0.5\nc\td\t1\n",
		"blanks":      "# comment\n\na  b 2\n b c   1\n% another\na c 0.5\nc d\n",
		"semicolon":   "a;b;2\nb;c;1\na;c;5e-1\nc;d;1\n",
		"named cols":  "w,to,from\n2,b,a\n1,c,b\n0.5,c,a\n1,d,c\n",
		"header u v":  "u,v\na,b\nb,c\na,c\nc,d\n",
		"extra field": "from,to,weight,colour\na,b,2,red\nb,c,1,red\na,c,0.5,blue\nc,d,1,red\n",
	} {
		o := &Options{}
		switch name {
		case "named cols":
			o = &Options{Source: "from", Target: "to", Weight: "w"}
		case "blanks":
			// "c d" has no weight while the other lines have one.
			o = &Options{DefaultWeight: 1}
		}
		d := mustRead(t, edgeList, src, o)
		if wantDef := map[bool]int{true: 1}[name == "blanks"]; d.Defaulted != wantDef {
			t.Errorf("%s: Defaulted = %d, want %d", name, d.Defaulted, wantDef)
		}
		got := labelled(d)
		if name == "header u v" {
			for k := range want {
				want := 1.0
				if got[k] != want {
					t.Errorf("%s: weight of %v = %v, want 1 (unweighted)", name, k, got[k])
				}
			}
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d edges, want %d", name, len(got), len(want))
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: weight of %v = %v, want %v", name, k, got[k], w)
			}
		}
		if d.Graph.Order() != 4 || len(d.Components) != 1 {
			t.Errorf("%s: order %d, components %v", name, d.Graph.Order(), d.Components)
		}
	}
}

func TestEdgeListLabelsInOrder(t *testing.T) {
	d := mustRead(t, edgeList, "x,y,1\nz,x,2\n", nil)
	if strings.Join(d.Labels, " ") != "x y z" {
		t.Errorf("labels %v, want x y z (order of first appearance)", d.Labels)
	}
	if d.Graph.Weight(0, 2) != 2 || d.Graph.Weight(0, 1) != 1 {
		t.Errorf("edges wrong: %v", d.Graph.Edges())
	}
}

func TestEdgeListErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		opts      *Options
		line      int
		field     string
		value     string
		sentinel  error
	}{
		{"bad number", "a,b,1\nb,c,x1\n", nil, 2, "column 3", "x1", loadlab.ErrInvalid},
		{"negative weight", "a,b,1\nb,c,-2\n", nil, 2, "column 3", "-2", loadlab.ErrInvalid},
		{"NaN weight", "a,b,NaN\n", nil, 1, "column 3", "NaN", loadlab.ErrInvalid},
		{"Inf weight", "a,b,1\na,c,+Inf\n", nil, 2, "column 3", "+Inf", loadlab.ErrInvalid},
		{"zero weight", "a,b,0\n", nil, 1, "column 3", "0", loadlab.ErrInvalid},
		{"missing column", "a,b,1\nc\n", nil, 2, "column 2", "c", loadlab.ErrInvalid},
		{"empty weight", "source,target,weight\na,b,\n", nil, 2, `column "weight"`, "", loadlab.ErrInvalid},
		{"duplicate", "a,b,1\nc,d,1\nb,a,2\n", nil, 3, "edge", "a b", loadlab.ErrInvalid},
		{"self-loop", "a,b,1\nc,c,1\n", nil, 2, "edge", "c c", loadlab.ErrInvalid},
		{"no such column", "p,q,r\na,b,1\n", &Options{Source: "s"}, 1, "header", "p,q,r", loadlab.ErrInvalid},
		{"sum overflow", "a,b,1e150\nb,a,3e150\n", &Options{Duplicates: SumDuplicates}, 2, "weight", "3e+150", loadlab.ErrInvalid},
		// A first line whose endpoints are numbers is data, never a header
		// (guards: an overflowing or mistyped weight made line 1 a header
		// and its edge vanished; alone, it gave an empty graph).
		{"overflow on line 1", "0 1 1e309\n1 2 1\n", nil, 1, "column 3", "1e309", loadlab.ErrInvalid},
		{"overflow alone", "0 1 1e309\n", nil, 1, "column 3", "1e309", loadlab.ErrInvalid},
		{"typo on line 1", "0 1 x\n1 2 1\n", nil, 1, "column 3", "x", loadlab.ErrInvalid},
		{"typo alone", "0,1,x\n", nil, 1, "column 3", "x", loadlab.ErrInvalid},
		{"inf", "0 1 2\n1 2 inf\n", nil, 2, "column 3", "inf", loadlab.ErrInvalid},
		{"nan", "0 1 nan\n", nil, 1, "column 3", "nan", loadlab.ErrInvalid},
		{"underflow", "a b 1e-400\n", nil, 1, "column 3", "1e-400", loadlab.ErrInvalid},
		// Names over names: line 1 is data, and its weight is not a number.
		{"names over names", "src_host,dst_host,latency\nweb,db,3\n", nil, 1, "column 3", "latency", loadlab.ErrInvalid},
		// A fourth field is an error, not dropped (guards: ignored).
		{"fourth column", "a b 1\nb c 2 7\n", nil, 2, "column 4", "7", loadlab.ErrInvalid},
		{"extra beyond header", "u,v,w\na,b,1,red\n", nil, 2, "column 4", "red", loadlab.ErrInvalid},
		{"short of header", "u,v,w,colour\na,b,1\n", nil, 2, `column "colour"`, "a,b,1", loadlab.ErrInvalid},
		// A third header column without a weight name is not taken as the
		// weight (guards: timestamps read as weights).
		{"unnamed third column", "source,target,timestamp\na,b,1700000000\n", nil, 1, "column 3", "timestamp", loadlab.ErrInvalid},
		{"two weight names", "u,v,w,weight\na,b,1,2\n", nil, 1, "header", "u,v,w,weight", loadlab.ErrInvalid},
		{"weight is an endpoint", "weight,source,target\n1,a,b\n", nil, 1, "header", "weight,source,target", loadlab.ErrInvalid},
		// An edge without a weight beside edges with one (guards: weight 1).
		{"missing weight", "a b 2\nb c\n", nil, 2, "column 3", "", loadlab.ErrInvalid},
		{"missing weight first", "a b\nb c 2\n", nil, 1, "column 3", "", loadlab.ErrInvalid},
		{"empty weight cell", "a,b,1\nb,c,\n", nil, 2, "column 3", "", loadlab.ErrInvalid},
		{"quoted label", "\"a,b\",c,1\n", nil, 1, "column 1", `"a`, loadlab.ErrInvalid},
		// A named weight column needs a header: line 1 is read as one.
		{"named weight, no header", "0 1 2\n", &Options{Weight: "latency"}, 1, "header", "0 1 2", loadlab.ErrInvalid},
	} {
		_, err := ReadEdgeList(strings.NewReader(c.src), c.opts)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, c.sentinel) {
			t.Errorf("%s: got %v, want a *ParseError wrapping %v", c.name, err, c.sentinel)
			continue
		}
		if pe.Line != c.line || pe.Field != c.field || pe.Value != c.value {
			t.Errorf("%s: error at line %d field %q value %q, want %d %q %q (%v)", c.name, pe.Line, pe.Field, pe.Value, c.line, c.field, c.value, err)
		}
	}
}

func TestRules(t *testing.T) {
	src := "a,b,1\nb,c,2\nb,a,3\nc,c,1\nd,e,1\n"
	if _, err := ReadEdgeList(strings.NewReader(src), &Options{Duplicates: SumDuplicates}); err == nil {
		t.Error("self-loop accepted by default")
	}
	d := mustRead(t, edgeList, src, &Options{Duplicates: SumDuplicates, SelfLoops: DropSelfLoops})
	if w := labelled(d)[[2]string{"a", "b"}]; w != 4 {
		t.Errorf("summed duplicate weight %v, want 1 + 3", w)
	}
	if d.Merged != 1 || d.SelfLoops != 1 {
		t.Errorf("Merged %d, SelfLoops %d, want 1, 1", d.Merged, d.SelfLoops)
	}
	if len(d.Components) != 2 || d.Components[0] != 3 || d.Components[1] != 2 {
		t.Errorf("components %v, want [3 2]", d.Components)
	}
	d = mustRead(t, edgeList, src, &Options{Duplicates: KeepFirst, SelfLoops: DropSelfLoops, Largest: true})
	if w := labelled(d)[[2]string{"a", "b"}]; w != 1 {
		t.Errorf("kept-first weight %v, want 1", w)
	}
	if d.Graph.Order() != 3 || strings.Join(d.Labels, " ") != "a b c" || len(d.Components) != 2 {
		t.Errorf("largest component: order %d labels %v components %v", d.Graph.Order(), d.Labels, d.Components)
	}
	if err := (&Options{Duplicates: 7}).Validate(); !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), "Options.Duplicates") {
		t.Errorf("bad option: %v", err)
	}
	if _, err := ReadEdgeList(strings.NewReader("a,b\n"), &Options{Delimiter: 'x'}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("bad delimiter accepted: %v", err)
	}
}

const sampleGraphML = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="d1" for="edge" attr.name="LinkSpeed" attr.type="double"/>
  <key id="d0" for="edge" attr.name="weight" attr.type="double"/>
  <graph id="G" edgedefault="undirected">
    <node id="Paris"/>
    <node id="London"/>
    <node id="Berlin"/>
    <node id="Oslo"/>
    <edge source="Paris" target="London"><data key="d0">2.5</data><data key="d1">10</data></edge>
    <edge source="Berlin" target="London"><data key="d1">40</data></edge>
    <edge source="Berlin" target="Paris"><data key="d0">0.25</data></edge>
  </graph>
</graphml>`

// The Berlin–London edge has no weight <data>, the Berlin–Paris edge no
// LinkSpeed: both need Options.DefaultWeight (graphml_test.go tests the
// errors without it).
func TestGraphML(t *testing.T) {
	d := mustRead(t, graphML, sampleGraphML, &Options{DefaultWeight: 1})
	if strings.Join(d.Labels, " ") != "Paris London Berlin Oslo" {
		t.Errorf("labels %v", d.Labels)
	}
	got := labelled(d)
	if got[[2]string{"London", "Paris"}] != 2.5 || got[[2]string{"Berlin", "London"}] != 1 || got[[2]string{"Berlin", "Paris"}] != 0.25 {
		t.Errorf("weights %v", got)
	}
	if len(d.Components) != 2 || d.Components[1] != 1 {
		t.Errorf("components %v, want [3 1] (Oslo isolated)", d.Components)
	}
	if d.Defaulted != 1 || d.Unweighted {
		t.Errorf("Defaulted = %d, Unweighted = %v, want 1, false", d.Defaulted, d.Unweighted)
	}
	d = mustRead(t, graphML, sampleGraphML, &Options{Weight: "LinkSpeed", DefaultWeight: 3})
	if got := labelled(d); got[[2]string{"London", "Paris"}] != 10 || got[[2]string{"Berlin", "Paris"}] != 3 {
		t.Errorf("LinkSpeed weights %v", got)
	}
}

func TestGraphMLErrors(t *testing.T) {
	directed := strings.Replace(sampleGraphML, `edgedefault="undirected"`, `edgedefault="directed"`, 1)
	for _, c := range []struct {
		name, src string
		line      int
		elem      string
	}{
		{"unknown node", strings.Replace(sampleGraphML, `target="Paris"`, `target="Rome"`, 1), 12, `edge source="Berlin" target="Rome"`},
		{"bad weight", strings.Replace(sampleGraphML, ">0.25<", ">-1<", 1), 12, `edge source="Berlin" target="Paris"`},
		{"directed", directed, 10, `edge source="Paris" target="London"`},
		{"malformed", strings.Replace(sampleGraphML, "</graph>", "</grph>", 1), 13, ""},
		{"twice", strings.Replace(sampleGraphML, `<node id="Oslo"/>`, `<node id="Paris"/>`, 1), 9, `node id="Paris"`},
	} {
		_, err := ReadGraphML(strings.NewReader(c.src), &Options{DefaultWeight: 1})
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%s: got %v", c.name, err)
			continue
		}
		if pe.Line != c.line || pe.Elem != c.elem {
			t.Errorf("%s: line %d elem %q, want %d %q (%v)", c.name, pe.Line, pe.Elem, c.line, c.elem, err)
		}
	}
	d, err := ReadGraphML(strings.NewReader(directed), &Options{Directed: Symmetrize, DefaultWeight: 1})
	if err != nil || d.Graph.Size() != 3 {
		t.Errorf("symmetrised directed GraphML: %v", err)
	}
}

// A GraphML key's <default> is the weight of an edge without <data> for
// it (GraphML specification §2.4.3; guards: such edges getting weight 1
// silently). A non-numeric default is an error, as a bad <data> is.
func TestGraphMLKeyDefault(t *testing.T) {
	const doc = `<graphml><key id="d0" for="edge" attr.name="weight" attr.type="double"><default>%s</default></key>
<graph edgedefault="undirected"><node id="a"/><node id="b"/><node id="c"/>
<edge source="a" target="b"/><edge source="b" target="c"><data key="d0">3</data></edge></graph></graphml>`
	d := mustRead(t, graphML, strings.Replace(doc, "%s", "2.5", 1), nil)
	if got, want := labelled(d), map[[2]string]float64{{"a", "b"}: 2.5, {"b", "c"}: 3}; !sameEdges(got, want) {
		t.Errorf("weights %v, want %v", got, want)
	}
	if _, err := ReadGraphML(strings.NewReader(strings.Replace(doc, "%s", "NaN", 1)), nil); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("NaN default: %v, want ErrInvalid", err)
	}
}

// A file without weights ("u v" lines, or a header naming only the
// endpoints) has weight 1 everywhere, reported as Unweighted; an edge
// without a weight beside others with one takes Options.DefaultWeight,
// counted, and is otherwise an error (TestEdgeListErrors).
func TestEdgeListDefaultWeight(t *testing.T) {
	d := mustRead(t, edgeList, "a b 2\nb c\n", &Options{DefaultWeight: 3})
	if got, want := labelled(d), map[[2]string]float64{{"a", "b"}: 2, {"b", "c"}: 3}; !sameEdges(got, want) || d.Defaulted != 1 || d.Unweighted {
		t.Errorf("weights %v, Defaulted %d, Unweighted %v; want %v, 1, false", got, d.Defaulted, d.Unweighted, want)
	}
	for _, src := range []string{"source,target\na,b\nb,c\n", "a b\nb c\n"} {
		d = mustRead(t, edgeList, src, nil)
		if got, want := labelled(d), map[[2]string]float64{{"a", "b"}: 1, {"b", "c"}: 1}; !sameEdges(got, want) || !d.Unweighted || d.Defaulted != 0 {
			t.Errorf("%q: weights %v, Unweighted %v, Defaulted %d; want %v, true, 0", src, got, d.Unweighted, d.Defaulted, want)
		}
	}
	d = mustRead(t, edgeList, "a b\nb c\n", &Options{DefaultWeight: 0.5})
	if got := labelled(d); got[[2]string{"a", "b"}] != 0.5 || d.Defaulted != 2 || !d.Unweighted {
		t.Errorf("unweighted file with DefaultWeight 0.5: %v, Defaulted %d", got, d.Defaulted)
	}
}

func TestDOT(t *testing.T) {
	src := `graph G { a -- b [weight=2]; b -- c; c -- a [weight="0.5"]; d }`
	d := mustRead(t, dotRead, src, &Options{DefaultWeight: 1})
	got := labelled(d)
	if strings.Join(d.Labels, " ") != "a b c d" || got[[2]string{"a", "b"}] != 2 || got[[2]string{"b", "c"}] != 1 || got[[2]string{"a", "c"}] != 0.5 || d.Defaulted != 1 {
		t.Errorf("labels %v weights %v Defaulted %d", d.Labels, got, d.Defaulted)
	}
	if _, err := ReadDOT(strings.NewReader(`digraph { a -> b; b -> a }`), &Options{DefaultWeight: 1}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("digraph accepted: %v", err)
	}
	d, err := ReadDOT(strings.NewReader(`digraph { a -> b; b -> a }`), &Options{Directed: Symmetrize, Duplicates: KeepFirst, DefaultWeight: 1})
	if err != nil || d.Graph.Size() != 1 || d.Merged != 1 {
		t.Errorf("symmetrised digraph: %v", err)
	}
	for _, bad := range []string{`graph { a -- b [weight=-1] }`, `graph { a -- b [weight=x] }`, `graph { a -- `, `graph { a -- b; a -- b }`} {
		if _, err := ReadDOT(strings.NewReader(bad), &Options{DefaultWeight: 1}); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%q: got %v", bad, err)
		}
	}
}

func TestMatrixMarket(t *testing.T) {
	adj := "%%MatrixMarket matrix coordinate real symmetric\n% path 1-2-3 and isolated 4\n4 4 2\n2 1 1.5\n3 2 2\n"
	d := mustRead(t, mtxRead, adj, nil)
	if d.Graph.Order() != 4 || d.Graph.Weight(0, 1) != 1.5 || d.Graph.Weight(1, 2) != 2 || len(d.Components) != 2 {
		t.Errorf("adjacency: %v, components %v", d.Graph.Edges(), d.Components)
	}
	lap := "%%MatrixMarket matrix coordinate real general\n3 3 7\n1 1 1.5\n1 2 -1.5\n2 1 -1.5\n2 2 3.5\n2 3 -2\n3 2 -2\n3 3 2\n"
	d = mustRead(t, mtxRead, lap, &Options{Matrix: Laplacian})
	if d.Graph.Weight(0, 1) != 1.5 || d.Graph.Weight(1, 2) != 2 || d.Graph.Size() != 2 {
		t.Errorf("Laplacian: %v", d.Graph.Edges())
	}
	for name, c := range map[string]struct {
		src  string
		opts *Options
	}{
		"not square":    {"%%MatrixMarket matrix coordinate real general\n3 4 0\n", nil},
		"truncated":     {"%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n", nil},
		"out of range":  {"%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n4 1 1\n", nil},
		"asymmetric":    {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n", nil},
		"upper in sym":  {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", nil},
		"negative adj":  {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 -1\n", nil},
		"bad diagonal":  {"%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 -1\n2 2 2\n", &Options{Matrix: Laplacian}},
		"array format":  {"%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n", nil},
		"too many":      {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 1\n2 1 1\n", nil},
		"huge":          {"%%MatrixMarket matrix coordinate real symmetric\n4000000000 4000000000 0\n", nil},
		"NaN":           {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 NaN\n", nil},
		"self-loop adj": {"%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n2 1 1\n", nil},
	} {
		_, err := ReadMatrixMarket(strings.NewReader(c.src), c.opts)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a *ParseError", name, err)
		}
	}
	if _, err := ReadMatrixMarket(strings.NewReader("%%MatrixMarket matrix coordinate real symmetric\n4000000000 4000000000 0\n"), nil); !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("huge matrix: %v, want ErrTooLarge", err)
	}
}

// randomGraph returns a random connected weighted graph on n nodes with
// m edges (gen.RandomConnectedSparse), its weights spread over many
// orders of magnitude so the writers' shortest exact form is exercised.
func randomGraph(n, m int, src rand.Source) *wgraph.Graph {
	g, err := gen.RandomConnectedSparse(n, 2*float64(m)/float64(n), 1, 1, src)
	if err != nil {
		panic(err)
	}
	r := rand.New(src)
	es := g.Edges()
	for i := range es {
		es[i].W = r.ExpFloat64() * float64(int(1)<<r.IntN(40)) * 1e-6
	}
	h, err := wgraph.FromEdges(n, es)
	if err != nil {
		panic(err)
	}
	return h
}

func TestRoundTrip(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		g := randomGraph(50, 120, rand.NewPCG(seed, 0))
		labels := make([]string, g.Order())
		for i := range labels {
			labels[i] = "srv-" + string(rune('A'+i%26)) + strings.Repeat("x", i/26)
		}
		var el, gm, mm bytes.Buffer
		if err := WriteEdgeList(&el, g, labels); err != nil {
			t.Fatal(err)
		}
		if err := WriteGraphML(&gm, g, labels); err != nil {
			t.Fatal(err)
		}
		if err := WriteMatrixMarket(&mm, g); err != nil {
			t.Fatal(err)
		}
		d1, err := ReadEdgeList(&el, nil)
		if err != nil {
			t.Fatal(err)
		}
		d2, err := ReadGraphML(&gm, nil)
		if err != nil {
			t.Fatal(err)
		}
		d3, err := ReadMatrixMarket(&mm, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref := labelled(&Data{Graph: g, Labels: labels})
		for name, d := range map[string]*Data{"edge list": d1, "GraphML": d2} {
			if got := labelled(d); !sameEdges(got, ref) {
				t.Errorf("seed %d %s: round trip changed the labelled edges", seed, name)
			}
		}
		if strings.Join(d2.Labels, ",") != strings.Join(labels, ",") {
			t.Errorf("seed %d GraphML: node order changed", seed)
		}
		if !sameGraph(d3.Graph, g) {
			t.Errorf("seed %d Matrix Market: round trip changed the graph", seed)
		}
	}
}

func sameEdges(a, b map[[2]string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, w := range a {
		if b[k] != w {
			return false
		}
	}
	return true
}

func sameGraph(a, b *wgraph.Graph) bool {
	if a.Order() != b.Order() || a.Size() != b.Size() {
		return false
	}
	ea, eb := a.Edges(), b.Edges()
	for i := range ea {
		if ea[i] != eb[i] {
			return false
		}
	}
	return true
}

func TestWriterLabels(t *testing.T) {
	g := randomGraph(3, 2, rand.NewPCG(1, 1))
	if err := WriteEdgeList(&bytes.Buffer{}, g, []string{"a", "b c", "d"}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("label with a blank accepted: %v", err)
	}
	if err := WriteGraphML(&bytes.Buffer{}, g, []string{"a", "a", "d"}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("duplicate label accepted: %v", err)
	}
	var b bytes.Buffer
	if err := WriteGraphML(&b, g, []string{`<&"'>`, "b", "c"}); err != nil {
		t.Fatal(err)
	}
	d, err := ReadGraphML(&b, nil)
	if err != nil || d.Labels[0] != `<&"'>` {
		t.Errorf("escaped label: %v %q", err, d.Labels)
	}
	defer func() {
		if recover() == nil {
			t.Error("wrong number of labels did not panic")
		}
	}()
	WriteEdgeList(&bytes.Buffer{}, g, []string{"a"})
}

func TestReadFile(t *testing.T) {
	if _, err := ReadFile("x.unknown", nil); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("unknown extension: %v", err)
	}
	dir := t.TempDir()
	path := dir + "/g.csv"
	if err := writeString(path, "a,b,1\nb,c,oops\n"); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, nil)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != path || !strings.Contains(err.Error(), path+":2:") {
		t.Errorf("file name not in error: %v", err)
	}
}
