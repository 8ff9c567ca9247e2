package graphio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/loadlab/loadlab"
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
	er := &edgeReader{opts: o, c: newCollector(o, costEdgeList), weightNamed: opts != nil && opts.Weight != ""}
	if er.weightNamed && o.Header == HeaderNo {
		return nil, loadlab.Invalid("graphio", "ReadEdgeList: Options.Weight = %q names a header column, but Options.Header = HeaderNo", o.Weight)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, utf8BOM) // encoding metadata, not data
		}
		if err := er.line(line, b); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Line: line + 1, Msg: err.Error(), Err: errInvalid}
	}
	if er.pending != nil {
		er.noHeader(er.pendingLine, true)
		if err := er.record(er.pendingLine, er.pending); err != nil {
			return nil, err
		}
	}
	er.c.data.Unweighted = !er.sawWeight
	er.c.data.Ignored = er.ignored
	return er.c.finish()
}

var utf8BOM = []byte("\ufeff")

// edgeReader is the state of ReadEdgeList between lines.
type edgeReader struct {
	opts        Options
	weightNamed bool // Options.Weight was given, not defaulted
	c           *collector
	delim       rune   // resolved delimiter, 0 until the first data line
	cols        [3]int // source, target, weight column; weight −1 if absent
	names       [3]string
	width       int  // fields of the header; 0 without one
	started     bool // the first data line (or header) has been seen
	fields      []string
	// pending holds a first line whose endpoints are names that are not
	// usual column names, until the next line says whether it is a header.
	pending     []string
	pendingLine int
	// Weights: the first line that gives one (or the header line naming
	// the weight column), the first line without one, and whether any
	// line gave one.
	weightedAt, missingAt int
	sawWeight             bool
	weightByHeader        bool
	ignored               []string
	ignoredUpTo           int      // columns below this are already in ignored
	header                []string // the header's names; nil without one
	firstData             int      // the first line, when detection read its names as data
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
	for k, f := range er.fields {
		if strings.HasPrefix(f, `"`) {
			return bad(n, fmt.Sprintf("column %d", k+1), f, "quoted fields are not supported (a quoted label may hide the delimiter); remove the quotes")
		}
	}
	if !er.started {
		er.started = true
		return er.first(n, er.fields)
	}
	if er.pending != nil {
		return er.second(n, er.fields)
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

func (er *edgeReader) record(n int, f []string) error {
	if err := er.checkWidth(n, f); err != nil {
		return err
	}
	u, v := f[er.cols[0]], f[er.cols[1]]
	if u == "" {
		return bad(n, er.names[0], u, "empty node label")
	}
	if v == "" {
		return bad(n, er.names[1], v, "empty node label")
	}
	ws, has := "", false
	if c := er.cols[2]; c >= 0 && c < len(f) && f[c] != "" {
		ws, has = f[c], true
	}
	w, err := er.weight(n, ws, has)
	if err != nil {
		return err
	}
	return er.c.add(n, u, v, w, false)
}

// checkWidth checks the number of fields of a data line: at least the
// columns read, and no more than three (no header) or the header's,
// unless Options.ExtraColumns = IgnoreExtra.
func (er *edgeReader) checkWidth(n int, f []string) error {
	if er.header == nil {
		switch {
		case len(f) < 2:
			return bad(n, "column 2", strings.Join(f, string(er.delim)), "missing column: want at least 2 fields, have %d", len(f))
		case len(f) > 3 && er.opts.ExtraColumns == RejectExtra:
			return bad(n, "column 4", f[3], "extra column: a line without a header has at most three fields (source, target, weight); set Options.ExtraColumns = IgnoreExtra to skip the rest")
		}
		er.ignore(f, 3)
		return nil
	}
	switch {
	case len(f) < er.width:
		return bad(n, er.columnName(len(f)), strings.Join(f, string(er.delim)), "missing field: the header has %d columns, this line %d", er.width, len(f))
	case len(f) > er.width && er.opts.ExtraColumns == RejectExtra:
		return bad(n, er.columnName(er.width), f[er.width], "extra field: the header has %d columns; set Options.ExtraColumns = IgnoreExtra to skip fields beyond them", er.width)
	}
	er.ignore(f, er.width)
	return nil
}

// ignore names in Data.Ignored the fields of f from column from on
// that no earlier line had.
func (er *edgeReader) ignore(f []string, from int) {
	for k := max(from, er.ignoredUpTo); k < len(f); k++ {
		er.ignored = append(er.ignored, er.columnName(k))
	}
	er.ignoredUpTo = max(er.ignoredUpTo, len(f))
}

// columnName names the column k (0-based): by its header name when it has
// one, else by position.
func (er *edgeReader) columnName(k int) string {
	if k < len(er.header) && er.header[k] != "" {
		return fmt.Sprintf("column %q", er.header[k])
	}
	return fmt.Sprintf("column %d", k+1)
}

// weight returns the weight of the edge on line n: its field ws if has,
// else Options.DefaultWeight, else 1 while no line gives a weight. An
// edge without a weight in a file where other edges have one is an
// error naming the first line of the two that lacks it.
func (er *edgeReader) weight(n int, ws string, has bool) (float64, error) {
	if has {
		w, err := weight(n, er.names[2], ws)
		if err != nil {
			if n == er.firstData {
				err.(*ParseError).Msg += fmt.Sprintf("; if line %d is a header, set Options.Header = HeaderYes", n)
			}
			return 0, err
		}
		er.sawWeight = true
		if er.weightedAt == 0 {
			er.weightedAt = n
		}
		if er.missingAt > 0 {
			return 0, er.missing(er.missingAt)
		}
		return w, nil
	}
	if d := er.opts.DefaultWeight; d > 0 {
		er.c.data.Defaulted++
		return d, nil
	}
	if er.weightedAt > 0 {
		return 0, er.missing(n)
	}
	if er.missingAt == 0 {
		er.missingAt = n
	}
	return 1, nil
}

// missing is the error of line n, which lacks a weight while the file
// gives others one.
func (er *edgeReader) missing(n int) error {
	why := fmt.Sprintf("line %d gives one", er.weightedAt)
	if er.weightByHeader {
		why = fmt.Sprintf("the header on line %d names a weight column", er.weightedAt)
	}
	return bad(n, er.names[2], "", "missing weight, while %s; set Options.DefaultWeight to weigh the edges that have none", why)
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
