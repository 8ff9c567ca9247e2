package graphio

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	fdot "gonum.org/v1/gonum/graph/formats/dot"
	"gonum.org/v1/gonum/graph/formats/dot/ast"
)

// ReadDOT reads the graph of a DOT document with gonum's
// graph/encoding/dot (a file of several graphs is an error). Node labels
// are the DOT node ids, numbered in order of first appearance, or with
// Options.Label the values of that node attribute ("\\N" meaning the id).
// The weight of an edge is its Options.Weight attribute (default
// "weight"), set on the edge or by an "edge [weight=…]" statement at the
// top level before it, else Options.DefaultWeight; with none of them it
// is an error, and so is such a default statement inside a subgraph,
// whose scope the decoder does not keep. A digraph is directed input. DOT
// positions are not kept by the parser, so errors name the element and
// value but not the line. The whole document is held in memory, so a
// document longer than the memory budget allows (costDOTByte bytes a
// byte) is loadlab.ErrTooLarge. It panics if r is nil.
func ReadDOT(r io.Reader, opts *Options) (d *Data, err error) {
	mustIO("ReadDOT", "r", r)
	o, err := settings(opts)
	if err != nil {
		return nil, err
	}
	src, err := readAllMax(r, (budget-costFixed)/costDOTByte)
	if err != nil {
		return nil, err
	}
	f, err := fdot.ParseBytes(src)
	if err != nil {
		return nil, &ParseError{Elem: "graph", Msg: "malformed DOT: " + err.Error(), Err: errInvalid}
	}
	if len(f.Graphs) != 1 {
		return nil, &ParseError{Elem: "graph", Value: fmt.Sprint(len(f.Graphs)), Msg: fmt.Sprintf("%d graphs, want one a file", len(f.Graphs)), Err: errInvalid}
	}
	if err := scopedDefaults(f.Graphs[0].Stmts, false, o); err != nil {
		return nil, err
	}
	rec := &dotRecorder{weight: o.Weight, label: o.Label}
	if err := dot.UnmarshalMulti(src, rec); err != nil {
		return nil, &ParseError{Elem: "graph", Msg: "DOT: " + err.Error(), Err: errInvalid}
	}
	return rec.data(o, f.Graphs[0].Directed, len(src)*costDOTByte)
}

// readAllMax reads r to its end, or fails with loadlab.ErrTooLarge past
// limit bytes.
func readAllMax(r io.Reader, limit int) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(src) > limit {
		return nil, &ParseError{Elem: "graph", Msg: fmt.Sprintf("document longer than %d bytes, which the %s memory budget allows a DOT read", limit, bytesText(budget)), Err: errTooLarge}
	}
	return src, nil
}

// scopedDefaults returns an error for an "edge [weight=…]" or
// "node [label=…]" statement inside a subgraph: its scope is the
// subgraph, which the decoder does not keep.
func scopedDefaults(stmts []ast.Stmt, inSub bool, o Options) error {
	for _, s := range stmts {
		var sub []ast.Stmt
		switch s := s.(type) {
		case *ast.AttrStmt:
			if !inSub {
				continue
			}
			for _, a := range s.Attrs {
				key := unquote(a.Key)
				if (s.Kind == ast.EdgeKind && key == o.Weight) || (s.Kind == ast.NodeKind && o.Label != "" && key == o.Label) {
					return &ParseError{Elem: "subgraph", Field: a.Key, Value: a.Val, Msg: fmt.Sprintf("a default %s attribute inside a subgraph is not supported; set it on each %s or at the top level", s.Kind, s.Kind), Err: errInvalid}
				}
			}
		case *ast.Subgraph:
			sub = s.Stmts
		case *ast.EdgeStmt:
			for v, e := s.From, s.To; ; v, e = e.Vertex, e.To {
				if g, ok := v.(*ast.Subgraph); ok {
					if err := scopedDefaults(g.Stmts, true, o); err != nil {
						return err
					}
				}
				if e == nil {
					break
				}
			}
		}
		if err := scopedDefaults(sub, true, o); err != nil {
			return err
		}
	}
	return nil
}

// data makes the graph of the recorded nodes and lines.
func (r *dotRecorder) data(o Options, directed bool, base int) (*Data, error) {
	c := newCollector(o, costDOT)
	c.base = base
	for _, n := range r.nodes {
		if _, err := c.node(0, n.id); err != nil {
			return nil, err
		}
	}
	if o.Label != "" {
		labels, err := r.labels()
		if err != nil {
			return nil, err
		}
		c.display = labels
	}
	weighted := false
	for _, l := range r.lines {
		weighted = weighted || l.hasW
	}
	if !weighted && o.DefaultWeight == 0 && len(r.lines) > 0 {
		return nil, &ParseError{Elem: r.lines[0].name(directed), Field: o.Weight, Msg: fmt.Sprintf("no edge has this attribute (edge attributes in the file: %s); set Options.Weight to one of them, or Options.DefaultWeight to weigh the edges", r.edgeKeys()), Err: errInvalid}
	}
	c.data.Unweighted = !weighted
	for _, l := range r.lines {
		if err := addDOTLine(c, l, directed); err != nil {
			return nil, err
		}
	}
	return c.finish()
}

// labels returns the Options.Label value of every node.
func (r *dotRecorder) labels() ([]string, error) {
	out := make([]string, len(r.nodes))
	first := make(map[string]string, len(r.nodes))
	for i, n := range r.nodes {
		// The decoder leaves quotes on a value with an escape Go does not
		// know, such as graphviz's \N (the node's id).
		v, ok := unquote(n.label), n.hasLabel
		if !ok {
			return nil, &ParseError{Elem: "node " + n.id, Field: r.label, Msg: "node without this attribute (Options.Label)", Err: errInvalid}
		}
		if v == `\N` {
			v = n.id
		}
		if v == "" {
			return nil, &ParseError{Elem: "node " + n.id, Field: r.label, Value: v, Msg: "empty label", Err: errInvalid}
		}
		if o, dup := first[v]; dup {
			return nil, &ParseError{Elem: "node " + n.id, Field: r.label, Value: v, Msg: "label also of node " + o, Err: errInvalid}
		}
		first[v] = n.id
		out[i] = v
	}
	return out, nil
}

// edgeKeys lists the attribute keys the edges carry.
func (r *dotRecorder) edgeKeys() string {
	var keys []string
	for _, l := range r.lines {
		for _, a := range l.attrs {
			if !slices.Contains(keys, a.Key) {
				keys = append(keys, a.Key)
			}
		}
	}
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

func addDOTLine(c *collector, l *dotLine, directed bool) error {
	var w float64
	switch {
	case l.hasW:
		var err error
		if w, err = weight(0, c.opts.Weight, unquote(l.w)); err != nil {
			err.(*ParseError).Elem = l.name(directed)
			return err
		}
	case c.opts.DefaultWeight > 0:
		w = c.opts.DefaultWeight
		c.data.Defaulted++
	default:
		return &ParseError{Elem: l.name(directed), Field: c.opts.Weight, Msg: "no weight, while other edges have one; set Options.DefaultWeight to weigh the edges that have none", Err: errInvalid}
	}
	if err := c.add(0, l.from.id, l.to.id, w, directed); err != nil {
		err.(*ParseError).Elem = l.name(directed)
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
// lines in the order the decoder makes them, with the weight and label
// attributes (their own, or the top-level default in force when they were
// made), and answers no queries.
type dotRecorder struct {
	nodes         []*dotNode
	lines         []*dotLine
	weight, label string // the attribute names
	// defaults set by "edge [...]" and "node [...]" statements
	defW, defLabel       string
	hasDefW, hasDefLabel bool
}

var (
	_ encoding.MultiBuilder = (*dotRecorder)(nil)
	_ dot.AttributeSetters  = (*dotRecorder)(nil)
)

type dotNode struct {
	n        int64
	id       string
	label    string
	hasLabel bool
	rec      *dotRecorder
}

func (n *dotNode) ID() int64         { return n.n }
func (n *dotNode) SetDOTID(s string) { n.id = s }
func (n *dotNode) SetAttribute(a encoding.Attribute) error {
	if n.rec.label != "" && a.Key == n.rec.label {
		n.label, n.hasLabel = a.Value, a.Value != ""
	}
	return nil
}

type dotLine struct {
	from, to *dotNode
	id       int64
	attrs    encoding.Attributes
	w        string
	hasW     bool
	rec      *dotRecorder
}

func (l *dotLine) From() graph.Node { return l.from }
func (l *dotLine) To() graph.Node   { return l.to }
func (l *dotLine) ReversedLine() graph.Line {
	r := *l
	r.from, r.to = l.to, l.from
	return &r
}
func (l *dotLine) ID() int64 { return l.id }
func (l *dotLine) SetAttribute(a encoding.Attribute) error {
	if a.Key == l.rec.weight {
		// The decoder drops an attribute set to "": an empty weight.
		l.w, l.hasW = a.Value, true
	}
	return l.attrs.SetAttribute(a)
}

// name is the edge in messages.
func (l *dotLine) name(directed bool) string {
	op := " -- "
	if directed {
		op = " -> "
	}
	return "edge " + l.from.id + op + l.to.id
}

// DOTAttributeSetters records the defaults of "edge [...]" and
// "node [...]" statements, in force for the lines and nodes made after.
func (r *dotRecorder) DOTAttributeSetters() (g, n, e encoding.AttributeSetter) {
	return attrFunc(func(encoding.Attribute) error { return nil }),
		attrFunc(func(a encoding.Attribute) error {
			if r.label != "" && a.Key == r.label {
				r.defLabel, r.hasDefLabel = a.Value, a.Value != ""
			}
			return nil
		}),
		attrFunc(func(a encoding.Attribute) error {
			if a.Key == r.weight {
				r.defW, r.hasDefW = a.Value, a.Value != ""
			}
			return nil
		})
}

type attrFunc func(encoding.Attribute) error

func (f attrFunc) SetAttribute(a encoding.Attribute) error { return f(a) }

func (r *dotRecorder) NewNode() graph.Node {
	return &dotNode{n: int64(len(r.nodes)), rec: r, label: r.defLabel, hasLabel: r.hasDefLabel}
}
func (r *dotRecorder) AddNode(n graph.Node) {
	dn, ok := n.(*dotNode)
	if !ok || dn.n != int64(len(r.nodes)) {
		panic(fmt.Sprintf("graphio: unexpected node %v", n))
	}
	r.nodes = append(r.nodes, dn)
}
func (r *dotRecorder) NewLine(from, to graph.Node) graph.Line {
	return &dotLine{from: from.(*dotNode), to: to.(*dotNode), id: int64(len(r.lines)), rec: r, w: r.defW, hasW: r.hasDefW}
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
