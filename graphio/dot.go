package graphio

import (
	"fmt"
	"io"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	fdot "gonum.org/v1/gonum/graph/formats/dot"
)

// ReadDOT reads the first graph of a DOT document with gonum's
// graph/encoding/dot. Node labels are the DOT node ids, numbered in order
// of first appearance; the weight of an edge is its Options.Weight
// attribute (default "weight"), 1 if absent. A digraph is directed input.
// DOT positions are not kept by the parser, so errors name the element
// and value but not the line. It panics if r is nil.
func ReadDOT(r io.Reader, opts *Options) (d *Data, err error) {
	mustIO("ReadDOT", "r", r)
	o, err := settings(opts)
	if err != nil {
		return nil, err
	}
	src, err := io.ReadAll(io.LimitReader(r, 1<<31))
	if err != nil {
		return nil, err
	}
	f, err := fdot.ParseBytes(src)
	if err != nil {
		return nil, &ParseError{Elem: "graph", Msg: "malformed DOT: " + err.Error(), Err: errInvalid}
	}
	if len(f.Graphs) == 0 {
		return nil, &ParseError{Elem: "graph", Msg: "no graph", Err: errInvalid}
	}
	rec := &dotRecorder{}
	if err := dot.UnmarshalMulti(src, rec); err != nil {
		return nil, &ParseError{Elem: "graph", Msg: "DOT: " + err.Error(), Err: errInvalid}
	}
	c := newCollector(o)
	for _, n := range rec.nodes {
		if _, err := c.node(0, n.label); err != nil {
			return nil, err
		}
	}
	for _, l := range rec.lines {
		if err := addDOTLine(c, l, f.Graphs[0].Directed); err != nil {
			return nil, err
		}
	}
	return c.finish()
}

func addDOTLine(c *collector, l *dotLine, directed bool) error {
	ws := ""
	for _, a := range l.attrs {
		if a.Key == c.opts.Weight {
			ws = a.Value
			if ws == "" {
				return &ParseError{Elem: "edge", Field: c.opts.Weight, Value: ws, Msg: "empty weight", Err: errInvalid}
			}
		}
	}
	w, err := weight(0, c.opts.Weight, unquote(ws))
	if err != nil {
		err.(*ParseError).Elem = "edge " + l.from.label + " -- " + l.to.label
		return err
	}
	if err := c.add(0, l.from.label, l.to.label, w, directed); err != nil {
		err.(*ParseError).Elem = "edge"
		return err
	}
	return nil
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// dotRecorder is the smallest encoding.MultiBuilder: it records nodes and
// lines in the order the decoder makes them and answers no queries.
type dotRecorder struct {
	nodes []*dotNode
	lines []*dotLine
}

var _ encoding.MultiBuilder = (*dotRecorder)(nil)

type dotNode struct {
	id    int64
	label string
}

func (n *dotNode) ID() int64         { return n.id }
func (n *dotNode) SetDOTID(s string) { n.label = s }

type dotLine struct {
	from, to *dotNode
	id       int64
	attrs    encoding.Attributes
}

func (l *dotLine) From() graph.Node { return l.from }
func (l *dotLine) To() graph.Node   { return l.to }
func (l *dotLine) ReversedLine() graph.Line {
	return &dotLine{from: l.to, to: l.from, id: l.id, attrs: l.attrs}
}
func (l *dotLine) ID() int64 { return l.id }
func (l *dotLine) SetAttribute(a encoding.Attribute) error {
	return l.attrs.SetAttribute(a)
}

func (r *dotRecorder) NewNode() graph.Node {
	return &dotNode{id: int64(len(r.nodes))}
}
func (r *dotRecorder) AddNode(n graph.Node) {
	dn, ok := n.(*dotNode)
	if !ok || dn.id != int64(len(r.nodes)) {
		panic(fmt.Sprintf("graphio: unexpected node %v", n))
	}
	r.nodes = append(r.nodes, dn)
}
func (r *dotRecorder) NewLine(from, to graph.Node) graph.Line {
	return &dotLine{from: from.(*dotNode), to: to.(*dotNode), id: int64(len(r.lines))}
}
func (r *dotRecorder) SetLine(l graph.Line) { r.lines = append(r.lines, l.(*dotLine)) }

// The query methods of graph.Multigraph are never called by the decoder.
func (r *dotRecorder) Node(id int64) graph.Node {
	if id >= 0 && id < int64(len(r.nodes)) {
		return r.nodes[id]
	}
	return nil
}
func (r *dotRecorder) Nodes() graph.Nodes             { return graph.Empty }
func (r *dotRecorder) From(int64) graph.Nodes         { return graph.Empty }
func (r *dotRecorder) HasEdgeBetween(_, _ int64) bool { return false }
func (r *dotRecorder) Lines(_, _ int64) graph.Lines   { return graph.Empty }
