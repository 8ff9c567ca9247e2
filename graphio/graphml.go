package graphio

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab/wgraph"
)

// ReadGraphML reads the first <graph> of a GraphML document. The weight
// of an edge is its <data> value for the <key> whose attr.name is
// Options.Weight (default "weight"); an edge without one has the key's
// <default> value, or weight 1 if the key has none. A <hyperedge> is an
// error (it is not an edge between two nodes).
// Nodes are numbered in declaration order; an edge naming an undeclared
// node is an error. Errors are *ParseError values naming the line and
// the element. It panics if r is nil.
func ReadGraphML(r io.Reader, opts *Options) (*Data, error) {
	mustIO("ReadGraphML", "r", r)
	o, err := settings(opts)
	if err != nil {
		return nil, err
	}
	gr := &graphmlReader{c: newCollector(o), weightKey: map[string]bool{}, dec: xml.NewDecoder(bufio.NewReader(r))}
	if err := gr.run(); err != nil {
		return nil, err
	}
	if !gr.sawGraph {
		return nil, &ParseError{Elem: "graphml", Msg: "no <graph> element", Err: errInvalid}
	}
	return gr.c.finish()
}

type graphmlReader struct {
	c         *collector
	dec       *xml.Decoder
	weightKey map[string]bool // ids of keys whose attr.name is the weight
	directed  bool            // edgedefault of the graph
	sawGraph  bool
	depth     int // nesting depth of <graph> (nested graphs are an error)
	// the edge being read
	inEdge   bool
	edge     [2]string
	edgeDir  bool
	edgeW    string
	edgeLine int
	dataKey  string
	text     strings.Builder
	// the weight key being read, its <default> and whether we are in it
	keyID     string
	inDefault bool
	defaultW  string
}

func (gr *graphmlReader) line() int {
	l, _ := gr.dec.InputPos()
	return l
}

func (gr *graphmlReader) elemErr(elem, field, value, format string, args ...any) error {
	return &ParseError{Line: gr.line(), Elem: elem, Field: field, Value: value, Msg: fmt.Sprintf(format, args...), Err: errInvalid}
}

func (gr *graphmlReader) run() error {
	for {
		tok, err := gr.dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return &ParseError{Line: gr.line(), Msg: "malformed XML: " + err.Error(), Err: errInvalid}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = gr.start(t)
		case xml.EndElement:
			err = gr.end(t)
		case xml.CharData:
			if gr.dataKey != "" || gr.inDefault {
				gr.text.Write(t)
			}
		}
		if err != nil {
			return err
		}
		if gr.sawGraph && gr.depth == 0 {
			return nil // only the first graph is read
		}
	}
}

func attr(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func (gr *graphmlReader) start(t xml.StartElement) error {
	switch t.Name.Local {
	case "key":
		id, _ := attr(t, "id")
		if name, _ := attr(t, "attr.name"); name == gr.c.opts.Weight {
			if f, ok := attr(t, "for"); !ok || f == "edge" || f == "all" {
				gr.weightKey[id] = true
				gr.keyID = id
			}
		}
	case "default":
		if gr.keyID != "" {
			gr.inDefault = true
			gr.text.Reset()
		}
	case "hyperedge":
		return gr.elemErr("hyperedge", "", "", "hyperedges are not supported")
	case "graph":
		return gr.startGraph(t)
	case "node":
		if gr.depth == 1 {
			id, ok := attr(t, "id")
			if !ok || id == "" {
				return gr.elemErr("node", "id", id, "missing node id")
			}
			if _, dup := gr.c.lookup(id); dup {
				return gr.elemErr("node", "id", id, "node declared twice")
			}
			_, err := gr.c.node(gr.line(), id)
			return err
		}
	case "edge":
		return gr.startEdge(t)
	case "data":
		if gr.inEdge {
			key, _ := attr(t, "key")
			if gr.weightKey[key] {
				gr.dataKey = key
				gr.text.Reset()
			}
		}
	}
	return nil
}

func (gr *graphmlReader) startGraph(t xml.StartElement) error {
	if gr.depth > 0 {
		return gr.elemErr("graph", "", "", "nested graphs are not supported")
	}
	gr.depth++
	gr.sawGraph = true
	ed, _ := attr(t, "edgedefault")
	switch ed {
	case "", "undirected":
	case "directed":
		gr.directed = true
	default:
		return gr.elemErr("graph", "edgedefault", ed, "want directed or undirected")
	}
	return nil
}

func (gr *graphmlReader) startEdge(t xml.StartElement) error {
	if gr.depth != 1 {
		return nil
	}
	s, ok1 := attr(t, "source")
	d, ok2 := attr(t, "target")
	if !ok1 || !ok2 {
		return gr.elemErr("edge", "source/target", s+" "+d, "missing endpoint")
	}
	gr.inEdge, gr.edge, gr.edgeW, gr.edgeLine = true, [2]string{s, d}, gr.defaultW, gr.line()
	gr.edgeDir = gr.directed
	if dir, ok := attr(t, "directed"); ok {
		switch dir {
		case "true":
			gr.edgeDir = true
		case "false":
			gr.edgeDir = false
		default:
			return gr.elemErr("edge", "directed", dir, "want true or false")
		}
	}
	return nil
}

func (gr *graphmlReader) end(t xml.EndElement) error {
	switch t.Name.Local {
	case "graph":
		gr.depth--
	case "key":
		gr.keyID = ""
	case "default":
		if gr.inDefault {
			gr.defaultW = strings.TrimSpace(gr.text.String())
			gr.inDefault = false
		}
	case "data":
		if gr.dataKey != "" {
			gr.edgeW = strings.TrimSpace(gr.text.String())
			gr.dataKey = ""
			if gr.edgeW == "" {
				return gr.elemErr("data", gr.c.opts.Weight, "", "empty weight")
			}
		}
	case "edge":
		if gr.inEdge {
			gr.inEdge = false
			return gr.finishEdge()
		}
	}
	return nil
}

func (gr *graphmlReader) finishEdge() error {
	for _, id := range gr.edge {
		if _, ok := gr.c.lookup(id); !ok {
			return &ParseError{Line: gr.edgeLine, Elem: "edge", Field: "source/target", Value: id, Msg: "unknown node label", Err: errInvalid}
		}
	}
	w, err := weight(gr.edgeLine, gr.c.opts.Weight, gr.edgeW)
	if err != nil {
		err.(*ParseError).Elem = "edge"
		return err
	}
	if err := gr.c.add(gr.edgeLine, gr.edge[0], gr.edge[1], w, gr.edgeDir); err != nil {
		err.(*ParseError).Elem = "edge"
		return err
	}
	return nil
}

// WriteGraphML writes g as an undirected GraphML document with a double
// edge attribute "weight" (key d0). labels gives the node ids (nil means
// n0, n1, …); it panics if labels is not nil and its length is not
// g.Order(). Duplicate or empty labels are an error. Weights are written
// in the shortest form that reads back exactly, so ReadGraphML returns
// the same graph and labels, isolated nodes included. It panics if w or
// g is nil.
func WriteGraphML(w io.Writer, g *wgraph.Graph, labels []string) error {
	mustIO("WriteGraphML", "w", w)
	mustGraph("WriteGraphML", g)
	name, err := xmlLabeller(g, labels)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(xml.Header)
	bw.WriteString(`<graphml xmlns="http://graphml.graphdrawing.org/xmlns">` + "\n")
	bw.WriteString(`  <key id="d0" for="edge" attr.name="weight" attr.type="double"/>` + "\n")
	bw.WriteString(`  <graph id="G" edgedefault="undirected">` + "\n")
	for i := 0; i < g.Order(); i++ {
		fmt.Fprintf(bw, "    <node id=\"%s\"/>\n", name(i))
	}
	for _, e := range g.Edges() {
		fmt.Fprintf(bw, "    <edge source=\"%s\" target=\"%s\"><data key=\"d0\">%s</data></edge>\n",
			name(e.U), name(e.V), strconv.FormatFloat(e.W, 'g', -1, 64))
	}
	bw.WriteString("  </graph>\n</graphml>\n")
	return bw.Flush()
}

// xmlLabeller returns escaped node ids after checking labels.
func xmlLabeller(g *wgraph.Graph, labels []string) (func(int) string, error) {
	if labels == nil {
		return func(i int) string { return "n" + strconv.Itoa(i) }, nil
	}
	if len(labels) != g.Order() {
		panic(fmt.Sprintf("graphio: %d labels for %d nodes", len(labels), g.Order()))
	}
	esc := make([]string, len(labels))
	seen := make(map[string]bool, len(labels))
	for i, l := range labels {
		if l == "" || seen[l] || !validXML(l) {
			return nil, bad(0, fmt.Sprintf("labels[%d]", i), l, "empty, duplicate or not valid XML text")
		}
		seen[l] = true
		var b strings.Builder
		xml.EscapeText(&b, []byte(l))
		esc[i] = strings.ReplaceAll(b.String(), `"`, "&#34;")
	}
	return func(i int) string { return esc[i] }, nil
}

// validXML reports whether s is valid UTF-8 made of XML characters and
// without leading or trailing blanks (which attribute normalisation would
// change).
func validXML(s string) bool {
	if strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if r == '\uFFFD' || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == '\t' || r == '\n' || r == '\r' {
			return false
		}
	}
	return true
}
