package graphio

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxDepth is the deepest nesting of XML elements ReadGraphML reads; a
// deeper element is an error naming its line. GraphML itself nests a
// handful deep (graphml, graph, node, data and a drawing tool's
// elements inside data), and the limit keeps the memory of a read
// bounded whatever the input.
const MaxDepth = 256

// maxText bounds the text of one <data> or <default> element (1 MiB).
const maxText = maxLine

// graphmlNS prefixes the GraphML namespace (older files add /graphml);
// elements in another namespace (a drawing tool's) are skipped.
const graphmlNS = "http://graphml.graphdrawing.org/"

// ReadGraphML reads the <graph> of a GraphML document (a second one is
// an error). The weight of an edge is its <data> value for the <key>
// whose attr.name is Options.Weight (default "weight"), else the key's
// <default>, else Options.DefaultWeight; with none of them it is an
// error, as is a file that declares no such key (the message lists the
// keys it declares). Node labels are the node ids, or with Options.Label
// the values of a node key with that attr.name. A <hyperedge>, a nested
// graph and nesting deeper than MaxDepth are errors. Nodes are numbered
// in declaration order; an edge naming a node not declared before it is
// an error. Errors are *ParseError values naming the line and the
// element with its id or endpoints. It panics if r is nil.
func ReadGraphML(r io.Reader, opts *Options) (*Data, error) {
	mustIO("ReadGraphML", "r", r)
	o, err := settings(opts)
	if err != nil {
		return nil, err
	}
	gr := &graphmlReader{c: newCollector(o, costGraphML), opts: o, dec: xml.NewDecoder(bufio.NewReader(r))}
	if err := gr.run(); err != nil {
		return nil, err
	}
	if gr.graphs == 0 {
		return nil, &ParseError{Elem: "graphml", Msg: "no <graph> element", Err: errInvalid}
	}
	gr.c.data.Unweighted = !gr.sawWeight
	if o.Label != "" {
		gr.c.display = gr.labels
	}
	return gr.c.finish()
}

type graphmlReader struct {
	c     *collector
	opts  Options
	dec   *xml.Decoder
	stack []string // local names of the open elements ("" for foreign ones)
	// keys
	keys      []*gmlKey
	key       *gmlKey // the <key> being read
	weightKey *gmlKey // the edge key named Options.Weight, if any
	labelKey  *gmlKey // the node key named Options.Label, if any
	// the graph
	graphs    int
	inGraph   bool
	directed  bool // edgedefault of the graph
	sawWeight bool // an edge had a weight from the file
	// the node or edge being read, and the <data> or <default> text
	elem    *gmlElem
	capture string // "weight", "label" or "default" while reading such text
	text    strings.Builder
	// labels from Options.Label, in node order, and the node of each
	labels  []string
	labelOf map[string]*gmlElem
}

// gmlElem is a <node> or <edge> being read.
type gmlElem struct {
	node     bool
	id       string
	ends     [2]string
	directed bool
	line     int
	value    string // the weight or label text
	has      bool   // value was given by a <data>
}

// name is the element with its identifying attributes, for messages.
func (e *gmlElem) name() string {
	if e.node {
		return fmt.Sprintf("node id=%q", e.id)
	}
	s := "edge"
	if e.id != "" {
		s += fmt.Sprintf(" id=%q", e.id)
	}
	return s + fmt.Sprintf(" source=%q target=%q", e.ends[0], e.ends[1])
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
			err = gr.open(t)
		case xml.EndElement:
			err = gr.close(t)
		case xml.CharData:
			if gr.capture != "" {
				if gr.text.Len()+len(t) > maxText {
					return gr.elemErr(gr.top(), "", "", "text longer than %d bytes", maxText)
				}
				gr.text.Write(t)
			}
		}
		if err != nil {
			return err
		}
	}
}

// top is the innermost open element ("" if none or foreign).
func (gr *graphmlReader) top() string {
	if len(gr.stack) == 0 {
		return ""
	}
	return gr.stack[len(gr.stack)-1]
}

func (gr *graphmlReader) open(t xml.StartElement) error {
	if len(gr.stack) >= MaxDepth {
		return &ParseError{Line: gr.line(), Elem: t.Name.Local, Field: "depth", Value: fmt.Sprint(len(gr.stack) + 1),
			Msg: fmt.Sprintf("elements nested deeper than %d (graphio.MaxDepth)", MaxDepth), Err: errInvalid}
	}
	parent := gr.top()
	name := t.Name.Local
	if t.Name.Space != "" && !strings.HasPrefix(t.Name.Space, graphmlNS) {
		name = "" // a drawing tool's element: not GraphML
	}
	gr.stack = append(gr.stack, name)
	switch name {
	case "key":
		return gr.openKey(t, parent)
	case "default":
		if parent == "key" && gr.key != nil {
			gr.capture = "default"
			gr.text.Reset()
		}
	case "hyperedge":
		return gr.elemErr("hyperedge", "", "", "hyperedges are not supported")
	case "graph":
		return gr.openGraph(t)
	case "node":
		return gr.openNode(t, parent)
	case "edge":
		return gr.openEdge(t, parent)
	case "data":
		return gr.openData(t, parent)
	}
	return nil
}

func (gr *graphmlReader) close(t xml.EndElement) error {
	name := gr.top()
	gr.stack = gr.stack[:len(gr.stack)-1]
	switch name {
	case "graph":
		gr.inGraph = false
	case "key":
		gr.key = nil
	case "default", "data":
		return gr.closeText(name)
	case "node":
		return gr.closeNode()
	case "edge":
		return gr.closeEdge()
	}
	return nil
}

// closeText stores the text of a <default> or a captured <data>.
func (gr *graphmlReader) closeText(name string) error {
	what := gr.capture
	if what == "" || (name == "default") != (what == "default") {
		return nil
	}
	gr.capture = ""
	text := strings.TrimSpace(gr.text.String())
	if what == "default" {
		gr.key.def, gr.key.hasDef = text, true
		return nil
	}
	if text == "" {
		return gr.elemErr("data", gr.elemKeyName(what), "", "empty value in <%s>", gr.elem.name())
	}
	gr.elem.value, gr.elem.has = text, true
	return nil
}

func (gr *graphmlReader) elemKeyName(what string) string {
	if what == "label" {
		return gr.opts.Label
	}
	return gr.opts.Weight
}

func (gr *graphmlReader) openGraph(t xml.StartElement) error {
	if gr.inGraph {
		return gr.elemErr("graph", "", "", "nested graphs are not supported")
	}
	if gr.graphs > 0 {
		return gr.elemErr("graph", "", "", "a second graph: the reader reads one graph a file")
	}
	gr.graphs++
	gr.inGraph = true
	ed, _ := attr(t, "edgedefault")
	switch ed {
	case "", "undirected":
	case "directed":
		gr.directed = true
	default:
		return gr.elemErr("graph", "edgedefault", ed, "want directed or undirected")
	}
	return gr.resolveKeys()
}

func attr(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}
