package graphio

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
)

// gml wraps keys and graph content in a GraphML document, one element a
// line after the first two (so line numbers in tests are easy to count).
func gml(keys, body string) string {
	return "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n" + keys + "\n<graph edgedefault=\"undirected\">\n" + body + "\n</graph></graphml>\n"
}

const (
	wKey     = `<key id="d0" for="edge" attr.name="weight" attr.type="double"/>`
	speedKey = `<key id="d1" for="edge" attr.name="LinkSpeed" attr.type="double"/>`
	labelKey = `<key id="d2" for="node" attr.name="label" attr.type="string"/>`
	abc      = `<node id="a"/><node id="b"/><node id="c"/>`
)

// Every GraphML error case: the error names the line, the element (with
// its id or endpoints), the field and the value.
func TestGraphMLErrorsNamed(t *testing.T) {
	for _, c := range []struct {
		name, src    string
		opts         *Options
		line         int
		elem, field  string
		value, inMsg string
	}{
		// The weight attribute named by Options.Weight is not declared
		// (guards: every edge silently got weight 1).
		{"no weight key", gml(speedKey, abc+"\n<edge source=\"a\" target=\"b\"><data key=\"d1\">10</data></edge>"), nil,
			5, "key", "attr.name", "weight", `d1 (for edge) "LinkSpeed"`},
		{"misspelt weight", gml(wKey, abc+"\n<edge source=\"a\" target=\"b\"><data key=\"d0\">2</data></edge>"), &Options{Weight: "Weight"},
			5, "key", "attr.name", "Weight", `d0 (for edge) "weight"`},
		// An edge without the weight <data> beside edges with one (guards:
		// weight 1 beside 1e10).
		{"edge without weight", gml(wKey, abc+"\n<edge source=\"a\" target=\"b\"><data key=\"d0\">1e10</data></edge>\n<edge id=\"e2\" source=\"b\" target=\"c\"/>"), nil,
			6, `edge id="e2" source="b" target="c"`, "weight", "", `no <data key="d0">`},
		{"second weight value", gml(wKey, abc+"\n<edge source=\"a\" target=\"b\"><data key=\"d0\">1</data><data key=\"d0\">2</data></edge>"), nil,
			5, "data", "key", "d0", "a second value"},
		{"two weight keys", gml(wKey+`<key id="d9" for="all" attr.name="weight"/>`, abc), nil,
			2, "key", "attr.name", "weight", "keys d0 and d9"},
		// Labels from a node attribute.
		{"no label key", gml(wKey, abc), &Options{Label: "label"},
			3, "key", "attr.name", "label", "no node key"},
		{"missing label", gml(labelKey, "<node id=\"a\"><data key=\"d2\">Paris</data></node>\n<node id=\"b\"/>"), &Options{Label: "label"},
			5, `node id="b"`, "label", "", `no <data key="d2">`},
		{"duplicate label", gml(labelKey, "<node id=\"a\"><data key=\"d2\">Paris</data></node>\n<node id=\"b\"><data key=\"d2\">Paris</data></node>"), &Options{Label: "label"},
			5, `node id="b"`, "label", "Paris", `label also of <node id="a"> on line 4`},
		// Structure that was skipped silently.
		{"second graph", gml(wKey, abc) + `<graph edgedefault="undirected"><node id="z"/></graph>`, nil,
			6, "graph", "", "", "a second graph"},
		{"node outside graph", "<graphml>\n<node id=\"a\"/>\n</graphml>", nil, 2, `node id="a"`, "", "", "child of <graph>"},
		{"edge in a node", gml(wKey, "<node id=\"a\">\n<edge source=\"a\" target=\"a\"/></node>"), nil, 5, `edge source="a" target="a"`, "", "", "child of <graph>"},
		{"key twice", gml(wKey+"\n"+wKey, abc), nil, 3, "key", "id", "d0", "declared twice"},
	} {
		_, err := ReadGraphML(strings.NewReader(c.src), c.opts)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%s: got %v, want a *ParseError wrapping ErrInvalid", c.name, err)
			continue
		}
		if pe.Line != c.line || pe.Elem != c.elem || pe.Field != c.field || pe.Value != c.value || !strings.Contains(pe.Msg, c.inMsg) {
			t.Errorf("%s: got line %d elem %q field %q value %q msg %q; want %d %q %q %q containing %q", c.name, pe.Line, pe.Elem, pe.Field, pe.Value, pe.Msg, c.line, c.elem, c.field, c.value, c.inMsg)
		}
	}
}

// Options.DefaultWeight weighs the edges without a weight, counted; a
// key's own <default> comes first and is not counted (it is the file's
// statement, TestGraphMLKeyDefault).
func TestGraphMLDefaultWeight(t *testing.T) {
	src := gml(wKey, abc+"\n<edge source=\"a\" target=\"b\"><data key=\"d0\">1e10</data></edge>\n<edge source=\"b\" target=\"c\"/>")
	d := mustRead(t, graphML, src, &Options{DefaultWeight: 2})
	if got, want := labelled(d), map[[2]string]float64{{"a", "b"}: 1e10, {"b", "c"}: 2}; !sameEdges(got, want) || d.Defaulted != 1 || d.Unweighted {
		t.Errorf("weights %v Defaulted %d Unweighted %v, want %v 1 false", got, d.Defaulted, d.Unweighted, want)
	}
	// No weight key at all: every edge takes the default.
	src = gml(speedKey, abc+"\n<edge source=\"a\" target=\"b\"/>\n<edge source=\"b\" target=\"c\"/>")
	d = mustRead(t, graphML, src, &Options{DefaultWeight: 1})
	if d.Graph.Size() != 2 || d.Defaulted != 2 || !d.Unweighted {
		t.Errorf("no weight key: %d edges, Defaulted %d, Unweighted %v", d.Graph.Size(), d.Defaulted, d.Unweighted)
	}
	// A key default is used before Options.DefaultWeight.
	src = gml(`<key id="d0" for="edge" attr.name="weight"><default>4</default></key>`, abc+"\n<edge source=\"a\" target=\"b\"/>")
	d = mustRead(t, graphML, src, &Options{DefaultWeight: 1})
	if d.Graph.Weight(0, 1) != 4 || d.Defaulted != 0 || d.Unweighted {
		t.Errorf("key default: weight %v, Defaulted %d, Unweighted %v; want 4, 0, false", d.Graph.Weight(0, 1), d.Defaulted, d.Unweighted)
	}
}

// Node labels from an attribute, kept through Options.Largest; edges
// still name the nodes by id.
func TestGraphMLLabels(t *testing.T) {
	src := gml(labelKey+wKey, `<node id="n0"><data key="d2"> Paris </data></node>
<node id="n1"><data key="d2">London</data></node>
<node id="n2"><data key="d2">Oslo</data></node>
<node id="n3"><data key="d2">Berlin</data></node>
<edge source="n0" target="n1"><data key="d0">2</data></edge>
<edge source="n3" target="n0"><data key="d0">3</data></edge>`)
	d := mustRead(t, graphML, src, &Options{Label: "label"})
	if strings.Join(d.Labels, ",") != "Paris,London,Oslo,Berlin" {
		t.Errorf("labels %q, want Paris,London,Oslo,Berlin (trimmed, in declaration order)", d.Labels)
	}
	if got, want := labelled(d), map[[2]string]float64{{"London", "Paris"}: 2, {"Berlin", "Paris"}: 3}; !sameEdges(got, want) {
		t.Errorf("edges %v, want %v", got, want)
	}
	d = mustRead(t, graphML, src, &Options{Label: "label", Largest: true})
	if strings.Join(d.Labels, ",") != "Paris,London,Berlin" {
		t.Errorf("largest component labels %q, want Paris,London,Berlin", d.Labels)
	}
}

// Elements of another namespace (a drawing tool's) are not GraphML, even
// when their local name is "node" or "data".
func TestGraphMLForeignElements(t *testing.T) {
	src := `<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml">
<key id="d0" for="edge" attr.name="weight"/><key id="d1" for="node" yfiles.type="nodegraphics"/>
<graph edgedefault="undirected">
<node id="a"><data key="d1"><y:ShapeNode><y:node id="x"/><y:data key="d0">7</y:data></y:ShapeNode></data></node>
<node id="b"/>
<edge source="a" target="b"><data key="d0">2</data></edge>
</graph></graphml>`
	for _, ns := range []string{"http://graphml.graphdrawing.org/xmlns", "http://graphml.graphdrawing.org/xmlns/graphml"} {
		d := mustRead(t, graphML, strings.Replace(src, "http://graphml.graphdrawing.org/xmlns", ns, 1), nil)
		if d.Graph.Order() != 2 || d.Graph.Weight(0, 1) != 2 {
			t.Errorf("namespace %s: order %d, weight %v; want 2, 2", ns, d.Graph.Order(), d.Graph.Weight(0, 1))
		}
	}
}

// nested yields a GraphML document whose graph holds depth nested
// elements, then closes them, without holding the document in memory.
type nested struct {
	depth, opened, closed int
	head, tail            string
	read                  int
}

func (r *nested) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		var s string
		switch {
		case r.head != "":
			s, r.head = r.head, ""
		case r.opened < r.depth:
			s = "<x>"
			r.opened++
		case r.closed < r.depth:
			s = "</x>"
			r.closed++
		case r.tail != "":
			s, r.tail = r.tail, ""
		default:
			r.read += n
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		if len(s) > len(p)-n {
			r.head = s[len(p)-n:] + r.head // the rest of a split token comes next
			s = s[:len(p)-n]
		}
		n += copy(p[n:], s)
	}
	r.read += n
	return n, nil
}

// 200 000 nested elements are an error naming the depth and the line,
// read with memory bounded by the limit, not by the input (guards: such
// a file was accepted, its nesting held by the decoder).
func TestGraphMLDepth(t *testing.T) {
	r := &nested{depth: 200_000, head: "<graphml>\n<graph>\n"}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ReadGraphML(r, nil)
	runtime.ReadMemStats(&after)
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) || pe.Field != "depth" || pe.Value != "257" || pe.Line != 3 {
		t.Fatalf("got %v, want a *ParseError at line 3 naming depth 257", err)
	}
	// The decoder reads ahead by its 4 KiB buffer: far less than the
	// 600 kB of the document. Allocations: the decoder's buffers and a
	// few hundred small tokens, well under 1 MiB.
	if r.read > 64<<10 {
		t.Errorf("read %d bytes of the document before failing, want ≤ 64 KiB", r.read)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
		t.Errorf("allocated %d bytes, want ≤ 1 MiB", a)
	}
	// MaxDepth itself is read.
	ok := &nested{depth: MaxDepth - 2, head: "<graphml><graph>", tail: `</graph></graphml>`}
	if _, err := ReadGraphML(ok, nil); err != nil {
		t.Errorf("nesting of MaxDepth: %v", err)
	}
}
