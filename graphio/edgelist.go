package graphio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/loadlab/loadlab/wgraph"
)

// maxLine bounds one line of a text file (1 MiB); a longer line is an error.
const maxLine = 1 << 20

// ReadEdgeList reads a weighted edge list (see the package comment for
// the format and Options for the rules). Errors are *ParseError values
// naming the line, column and value. It panics if r is nil.
func ReadEdgeList(r io.Reader, opts *Options) (*Data, error) {
	mustIO("ReadEdgeList", "r", r)
	o, err := settings(opts)
	if err != nil {
		return nil, err
	}
	er := &edgeReader{opts: o, c: newCollector(o), cols: [3]int{0, 1, 2}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		if err := er.line(line, sc.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Line: line + 1, Msg: err.Error(), Err: errInvalid}
	}
	return er.c.finish()
}

// edgeReader is the state of ReadEdgeList between lines.
type edgeReader struct {
	opts    Options
	c       *collector
	delim   rune   // resolved delimiter, 0 until the first data line
	cols    [3]int // source, target, weight column; weight −1 if absent
	names   [3]string
	started bool // the first data line (or header) has been seen
	headed  bool // a header line resolved the columns
	fields  []string
}

func (er *edgeReader) line(n int, b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] == '#' || b[0] == '%' {
		return nil
	}
	s := string(b)
	if er.delim == 0 {
		er.delim = detectDelim(s, er.opts.Delimiter)
	}
	er.fields = split(er.fields[:0], s, er.delim)
	if !er.started {
		er.started = true
		if er.isHeader(er.fields) {
			return er.header(n, er.fields)
		}
		er.names = [3]string{"column 1", "column 2", "column 3"}
	}
	return er.record(n, er.fields)
}

func detectDelim(s string, set rune) rune {
	switch {
	case set != 0:
		return set
	case strings.ContainsRune(s, ','):
		return ','
	case strings.ContainsRune(s, ';'):
		return ';'
	case strings.ContainsRune(s, '\t'):
		return '\t'
	}
	return ' '
}

// split appends the fields of s to dst: by runs of blanks for ' ', else
// by the delimiter with each field trimmed.
func split(dst []string, s string, d rune) []string {
	if d == ' ' {
		return append(dst, strings.Fields(s)...)
	}
	w := utf8.RuneLen(d)
	for {
		i := strings.IndexRune(s, d)
		if i < 0 {
			return append(dst, strings.TrimSpace(s))
		}
		dst = append(dst, strings.TrimSpace(s[:i]))
		s = s[i+w:]
	}
}

var headerNames = map[string]bool{
	"source": true, "target": true, "weight": true, "u": true, "v": true, "w": true,
	"from": true, "to": true, "node1": true, "node2": true, "src": true, "dst": true,
	"i": true, "j": true, "head": true, "tail": true, "capacity": true, "conductance": true,
}

func (er *edgeReader) isHeader(f []string) bool {
	switch er.opts.Header {
	case HeaderYes:
		return true
	case HeaderNo:
		return false
	}
	if er.opts.Source != "" || er.opts.Target != "" {
		return true
	}
	if len(f) >= 3 {
		if _, err := strconv.ParseFloat(f[2], 64); err != nil {
			return true
		}
	}
	return len(f) >= 2 && headerNames[strings.ToLower(f[0])] && headerNames[strings.ToLower(f[1])]
}

// header resolves the columns from a header line.
func (er *edgeReader) header(n int, f []string) error {
	find := func(name string, def int) (int, error) {
		if name == "" {
			if def < len(f) {
				return def, nil
			}
			return -1, nil
		}
		for i, h := range f {
			if strings.EqualFold(h, name) {
				return i, nil
			}
		}
		return -1, bad(n, "header", strings.Join(f, string(er.delim)), "no column named %q", name)
	}
	var err error
	if er.cols[0], err = find(er.opts.Source, 0); err != nil {
		return err
	}
	if er.cols[1], err = find(er.opts.Target, 1); err != nil {
		return err
	}
	if er.cols[0] < 0 || er.cols[1] < 0 {
		return bad(n, "header", strings.Join(f, string(er.delim)), "want at least two columns")
	}
	er.cols[2] = er.weightColumn(f)
	er.headed = true
	if er.opts.Weight != "weight" && er.cols[2] < 0 {
		return bad(n, "header", strings.Join(f, string(er.delim)), "no column named %q", er.opts.Weight)
	}
	for k, c := range er.cols {
		if c >= 0 {
			er.names[k] = fmt.Sprintf("column %q", f[c])
		}
	}
	return nil
}

// weightColumn finds the weight column of a header: the one named by
// Options.Weight, else the third column if the header has one.
func (er *edgeReader) weightColumn(f []string) int {
	for i, h := range f {
		if strings.EqualFold(h, er.opts.Weight) {
			return i
		}
	}
	if er.opts.Weight == "weight" && len(f) >= 3 && er.opts.Source == "" && er.opts.Target == "" {
		return 2
	}
	return -1
}

func (er *edgeReader) record(n int, f []string) error {
	need := max(er.cols[0], er.cols[1]) + 1
	if len(f) < need {
		return bad(n, er.names[1], strings.Join(f, string(er.delim)), "missing column: want at least %d fields, have %d", need, len(f))
	}
	u, v := f[er.cols[0]], f[er.cols[1]]
	if u == "" {
		return bad(n, er.names[0], u, "empty node label")
	}
	if v == "" {
		return bad(n, er.names[1], v, "empty node label")
	}
	ws := ""
	if c := er.cols[2]; c >= len(f) && er.headed {
		// A header that names a weight column makes it required:
		// a short row is a missing value, not a weight of 1.
		return bad(n, er.names[2], strings.Join(f, string(er.delim)), "missing weight: want %d fields, have %d", c+1, len(f))
	}
	if c := er.cols[2]; c >= 0 && c < len(f) {
		ws = f[c]
		if ws == "" {
			return bad(n, er.names[2], ws, "empty weight")
		}
	}
	w, err := weight(n, er.names[2], ws)
	if err != nil {
		return err
	}
	return er.c.add(n, u, v, w, false)
}

// WriteEdgeList writes g as a comma-separated edge list with the header
// "source,target,weight", one edge a line with U < V in g's edge order.
// labels names the nodes (nil means 0..n−1); a label that contains a
// comma, a quote, a blank or starts with '#' or '%' is an error, since no
// reader could split it back. It panics if labels is not nil and its
// length is not g.Order(), or if w or g is nil. Weights are written in
// the shortest form that reads back exactly.
func WriteEdgeList(w io.Writer, g *wgraph.Graph, labels []string) error {
	mustIO("WriteEdgeList", "w", w)
	mustGraph("WriteEdgeList", g)
	name, err := labeller(g, labels)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("source,target,weight\n")
	var buf []byte
	for _, e := range g.Edges() {
		buf = append(buf[:0], name(e.U)...)
		buf = append(buf, ',')
		buf = append(buf, name(e.V)...)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, e.W, 'g', -1, 64)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// labeller returns the function naming node i, after checking labels.
func labeller(g *wgraph.Graph, labels []string) (func(int) string, error) {
	if labels == nil {
		return strconv.Itoa, nil
	}
	if len(labels) != g.Order() {
		panic(fmt.Sprintf("graphio: %d labels for %d nodes", len(labels), g.Order()))
	}
	seen := make(map[string]bool, len(labels))
	for i, l := range labels {
		if l == "" || strings.ContainsAny(l, ",;\"\t\n\r ") || l[0] == '#' || l[0] == '%' {
			return nil, bad(0, fmt.Sprintf("labels[%d]", i), l, "label cannot be written to an edge list")
		}
		if seen[l] {
			return nil, bad(0, fmt.Sprintf("labels[%d]", i), l, "duplicate label")
		}
		seen[l] = true
	}
	return func(i int) string { return labels[i] }, nil
}
