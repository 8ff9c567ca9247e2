package dataio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/internal/size"
)

// pkgName prefixes the messages of the ParseErrors this package returns.
const pkgName = "dataio"

// Table is a numeric table: Rows[r][c] is row r, column c.
type Table struct {
	Columns []string // the header's names of the columns read, or nil if the file has none
	Rows    [][]float64
	// Lines[r] is the 1-based line of the file that holds row r.
	Lines []int
	// FileColumns[c] is the 1-based column of the file that column c
	// was read from (TableOptions.Columns and Skip choose them).
	FileColumns []int
	// Text[r][j] is the cell of row r in the j-th column of
	// TableOptions.Text, as written; TextColumns are those columns'
	// header names (nil without a header). Nil without TableOptions.Text.
	Text        [][]string
	TextColumns []string
	// Header holds the header line's names of every column of the file,
	// read or not, or nil if it has none.
	Header []string

	headerLine int // the header's line, 0 if none
}

// maxCells bounds a table (2^28 cells, 2 GiB of float64); a larger one
// is an ErrTooLarge error before it is read further.
const maxCells = 1 << 28

// ReadTable reads a numeric table. The separator is detected from the
// first line (comma, else semicolon, else tab, else blanks); lines
// starting with '#' and blank lines are skipped. The first line is a
// header as opts.Header says (by default: when none of its fields reads
// as a number or a date or time, and one at least is not empty); a first
// line with both is an error naming its first cell that is not a number.
// Every row must have the width of the first line and every cell read
// must be a finite number. opts chooses the columns; the columns read
// without being chosen are screened for an index or a timestamp, which
// is an error (see the package comment). Errors are *graphio.ParseError
// values naming the line, the column and the cell, or the errors of
// opts.Validate. It panics if r is nil.
func ReadTable(r io.Reader, opts *TableOptions) (*Table, error) {
	mustIO("ReadTable", "r", r)
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	tr := newTableReader(opts)
	return tr.read(r)
}

// newTableReader returns a reader of one table with options opts
// (validated), screening the columns it reads unless opts chooses them.
func newTableReader(opts *TableOptions) *tableReader {
	tr := &tableReader{width: -1, screen: true}
	if opts != nil {
		tr.opts = *opts
		tr.screen = opts.Columns == nil
	}
	return tr
}

func (tr *tableReader) read(r io.Reader) (*Table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<26)
	for sc.Scan() {
		tr.line++
		if err := tr.add(sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &graphio.ParseError{Pkg: pkgName, Line: tr.line + 1, Msg: err.Error(), Err: loadlab.ErrInvalid}
	}
	if len(tr.t.Rows) == 0 {
		return nil, &graphio.ParseError{Pkg: pkgName, Line: tr.line, Msg: "table has no data rows", Err: loadlab.ErrInvalid}
	}
	if tr.screen {
		if err := tr.screenColumns(); err != nil {
			return nil, err
		}
	}
	return &tr.t, nil
}

type tableReader struct {
	opts   TableOptions
	screen bool // screen the columns read for an index or a timestamp
	t      Table
	line   int
	sep    string   // "" for blanks
	width  int      // fields per line, −1 before the first line
	names  []string // the header's fields, all columns; nil if none
	keep   []int    // the 0-based file columns read, in order
	text   []int    // the 0-based file columns read as text, in order
	first  []string // the first data row's cells read, as written
	cells  int
}

func (tr *tableReader) add(text string) error {
	if tr.line == 1 {
		// A byte-order mark (spreadsheets write one) is an encoding
		// marker, not part of the first name or number.
		text = strings.TrimPrefix(text, "\ufeff")
	}
	s := strings.TrimSpace(text)
	if s == "" || s[0] == '#' {
		return nil
	}
	if tr.width < 0 {
		tr.sep = detect(s)
		f := fields(s, tr.sep)
		tr.width = len(f)
		if tr.isHeader(f) {
			tr.names = f
			tr.t.Header = f
			tr.t.headerLine = tr.line
			if err := tr.checkHeader(); err != nil {
				return err
			}
			return tr.resolve()
		}
		if err := tr.resolve(); err != nil {
			return err
		}
		return tr.row(f, s)
	}
	return tr.row(fields(s, tr.sep), s)
}

func (tr *tableReader) isHeader(f []string) bool {
	switch tr.opts.Header {
	case graphio.HeaderYes:
		return true
	case graphio.HeaderNo:
		return false
	}
	return allNames(f)
}

// allNames reports whether f is a header: no field reads as a number (a
// finite, overflowing or non-finite one) or as an ISO 8601 date or time,
// and at least one is not empty. Anything else is a data row, so a
// mistyped, empty or overflowing cell in the first row is an error, not
// a header that drops the row.
func allNames(f []string) bool {
	named := false
	for _, x := range f {
		if x == "" {
			continue
		}
		if numeric(x) || timestamp(x) {
			return false
		}
		named = true
	}
	return named
}

// numeric reports whether x reads as a float64, or would but for its
// magnitude (1e999).
func numeric(x string) bool {
	_, err := strconv.ParseFloat(x, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// row parses the data line s, split into f.
func (tr *tableReader) row(f []string, s string) error {
	if len(f) != tr.width {
		return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Field: "row", Value: s, Msg: fmt.Sprintf("%d fields, want %d as in the first line", len(f), tr.width), Err: loadlab.ErrInvalid}
	}
	tr.cells += len(tr.keep)
	if tr.cells > maxCells {
		return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Msg: fmt.Sprintf("more than %d cells", maxCells), Err: loadlab.ErrTooLarge}
	}
	row := make([]float64, len(tr.keep))
	for c, fc := range tr.keep {
		x := f[fc]
		v, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Field: tr.column(fc), Value: x, Msg: tr.notNumber(x, err), Err: loadlab.ErrInvalid}
		}
		row[c] = v
	}
	if tr.first == nil {
		tr.first = make([]string, len(tr.keep))
		for c, fc := range tr.keep {
			tr.first[c] = f[fc]
		}
	}
	tr.t.Rows = append(tr.t.Rows, row)
	tr.t.Lines = append(tr.t.Lines, tr.line)
	if tr.text != nil {
		cells := make([]string, len(tr.text))
		for j, fc := range tr.text {
			cells[j] = f[fc]
		}
		tr.t.Text = append(tr.t.Text, cells)
	}
	return nil
}

// notNumber says why cell x (err from strconv.ParseFloat) is refused.
func (tr *tableReader) notNumber(x string, err error) string {
	switch {
	case timestamp(x):
		return "an ISO 8601 date or time, not a number: a timestamp column; " + remedy
	case err == nil || errors.Is(err, strconv.ErrRange):
		return "not a finite number"
	case tr.names == nil && len(tr.t.Rows) == 0 && tr.opts.Header == graphio.HeaderDetect:
		return "not a number (the first line is not a header: a header has a name, and no number, in every column)"
	}
	return "not a number"
}

// remedy says how to read a table whose column is not data.
const remedy = "skip the column (TableOptions.Skip) or choose the columns to read (TableOptions.Columns)"

// checkHeader rejects a header that names a column twice (Column
// matches names case-insensitively, so it could only ever find the first).
func (tr *tableReader) checkHeader() error {
	seen := make(map[string]int, len(tr.names))
	for c, name := range tr.names {
		key := strings.ToLower(name)
		if first, dup := seen[key]; dup && name != "" {
			return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Field: fmt.Sprintf("column %d", c+1), Value: name,
				Msg: fmt.Sprintf("column name repeats column %d", first+1), Err: loadlab.ErrInvalid}
		}
		seen[key] = c
	}
	return nil
}

// resolve sets the file columns to read from the options and the header.
func (tr *tableReader) resolve() error {
	if err := tr.resolveText(); err != nil {
		return err
	}
	if tr.opts.Columns != nil {
		for k, spec := range tr.opts.Columns {
			c, err := tr.find("Columns", k, spec)
			if err != nil {
				return err
			}
			if i := slices.Index(tr.keep, c); i >= 0 {
				return tr.optionError("Columns", k, spec, fmt.Sprintf("column %d is already read as TableOptions.Columns[%d]", c+1, i))
			}
			if i := slices.Index(tr.text, c); i >= 0 {
				return tr.optionError("Columns", k, spec, fmt.Sprintf("column %d is read as text (TableOptions.Text[%d])", c+1, i))
			}
			tr.keep = append(tr.keep, c)
		}
	} else {
		skip := make(map[int]bool, len(tr.opts.Skip))
		for k, spec := range tr.opts.Skip {
			c, err := tr.find("Skip", k, spec)
			if err != nil {
				return err
			}
			skip[c] = true
		}
		for c := range tr.width {
			if !skip[c] && !slices.Contains(tr.text, c) {
				tr.keep = append(tr.keep, c)
			}
		}
		if len(tr.keep) == 0 && len(tr.opts.Skip) > 0 {
			return tr.optionError("Skip", 0, tr.opts.Skip[0], "every column is skipped")
		}
	}
	for _, c := range tr.keep {
		tr.t.FileColumns = append(tr.t.FileColumns, c+1)
		if tr.names != nil {
			tr.t.Columns = append(tr.t.Columns, tr.names[c])
		}
	}
	return nil
}

// resolveText sets the file columns read as text.
func (tr *tableReader) resolveText() error {
	for k, spec := range tr.opts.Text {
		c, err := tr.find("Text", k, spec)
		if err != nil {
			return err
		}
		if i := slices.Index(tr.text, c); i >= 0 {
			return tr.optionError("Text", k, spec, fmt.Sprintf("column %d is already read as TableOptions.Text[%d]", c+1, i))
		}
		tr.text = append(tr.text, c)
		if tr.names != nil {
			tr.t.TextColumns = append(tr.t.TextColumns, tr.names[c])
		}
	}
	return nil
}

// find returns the 0-based file column that spec (TableOptions.field[k])
// names.
func (tr *tableReader) find(field string, k int, spec string) (int, error) {
	if n, ok := columnNumber(spec); ok {
		if n > tr.width {
			return -1, tr.optionError(field, k, spec, fmt.Sprintf("the table has %d columns", tr.width))
		}
		return n - 1, nil
	}
	if tr.names == nil {
		return -1, tr.optionError(field, k, spec, "the table has no header line: choose columns by number")
	}
	for c, name := range tr.names {
		if strings.EqualFold(name, spec) {
			return c, nil
		}
	}
	return -1, tr.optionError(field, k, spec, fmt.Sprintf("no such column in the header %q", strings.Join(tr.names, string(sepOrBlank(tr.sep)))))
}

// optionError is a ParseError at the current line about TableOptions.field[k].
func (tr *tableReader) optionError(field string, k int, spec, msg string) error {
	return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Field: fmt.Sprintf("TableOptions.%s[%d]", field, k), Value: spec, Msg: msg, Err: loadlab.ErrInvalid}
}

func sepOrBlank(sep string) string {
	if sep == "" {
		return " "
	}
	return sep
}

// checkNames returns an error wrapping loadlab.ErrInvalid, naming the
// function and the column, unless the names read back as the header of a
// comma-separated table: no separator, quote or line break, not a number
// or a date or time (a header of such would be read as a data row), no
// repeats, no blank in a single name (it would split), at least one name.
func checkNames(fn string, names []string) error {
	if len(names) == 0 {
		return loadlab.Invalid("dataio", "%s: no columns", fn)
	}
	seen := make(map[string]bool, len(names))
	for i, s := range names {
		switch {
		case s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s, ",;\t\"\n\r") || s[0] == '#':
			return loadlab.Invalid("dataio", "%s: column %d = %q, want a name without separators, quotes, line breaks or edge blanks, not starting with '#'", fn, i, s)
		case len(names) == 1 && strings.ContainsAny(s, " \v\f"):
			return loadlab.Invalid("dataio", "%s: column %d = %q: the only column's name cannot hold a blank (a reader would split it)", fn, i, s)
		case numeric(s) || timestamp(s):
			return loadlab.Invalid("dataio", "%s: column %d = %q is a number or a date; a reader would take the header for a data row", fn, i, s)
		case seen[strings.ToLower(s)]:
			return loadlab.Invalid("dataio", "%s: column %d = %q repeats an earlier column name", fn, i, s)
		}
		seen[strings.ToLower(s)] = true
	}
	return nil
}

// column names the 0-based file column c: by its header name, or its
// 1-based number.
func (tr *tableReader) column(c int) string {
	if tr.names != nil && tr.names[c] != "" {
		return fmt.Sprintf("column %q", tr.names[c])
	}
	return fmt.Sprintf("column %d", c+1)
}

func detect(s string) string {
	for _, sep := range []string{",", ";", "\t"} {
		if strings.Contains(s, sep) {
			return sep
		}
	}
	return ""
}

func fields(s, sep string) []string {
	if sep == "" {
		return strings.Fields(s)
	}
	f := strings.Split(s, sep)
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// Column returns the index of the column named name (case-insensitive),
// or an error naming the missing column.
func (t *Table) Column(name string) (int, error) {
	for i, c := range t.Columns {
		if strings.EqualFold(c, name) {
			return i, nil
		}
	}
	return -1, &graphio.ParseError{Pkg: pkgName, Line: t.headerLine, Field: "header", Value: strings.Join(t.Columns, ","), Msg: fmt.Sprintf("no column named %q", name), Err: loadlab.ErrInvalid}
}

// WriteTable writes a tidy CSV: the header, then one line per row, each
// number in the shortest form that reads back exactly (NaN and ±Inf are
// written as NaN, +Inf and -Inf, which ReadTable refuses). It returns an
// error wrapping loadlab.ErrInvalid if a row's width differs from the
// header's, or if a column name could not be read back as that header by
// ReadTable (see checkNames). It panics if w is nil.
func WriteTable(w io.Writer, columns []string, rows [][]float64) error {
	mustIO("WriteTable", "w", w)
	if err := checkNames("WriteTable", columns); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.Join(columns, ","))
	bw.WriteByte('\n')
	var buf []byte
	for r, row := range rows {
		if len(row) != len(columns) {
			return loadlab.Invalid("dataio", "WriteTable: rows[%d] has %d values for %d columns", r, len(row), len(columns))
		}
		buf = buf[:0]
		for c, v := range row {
			if c > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// flat returns the rows of t as one row-major slice, checked for size.
func (t *Table) flat() ([]float64, error) {
	n, ok := size.Mul(len(t.Rows), len(t.Rows[0]))
	if !ok || n > maxCells {
		return nil, loadlab.TooLarge("dataio", "table of %d × %d", len(t.Rows), len(t.Rows[0]))
	}
	out := make([]float64, 0, n)
	for _, r := range t.Rows {
		out = append(out, r...)
	}
	return out, nil
}

// inFile adds the file name to a ParseError, or wraps another error with it.
func inFile(err error, file string) error {
	if err == nil || file == "" {
		return err
	}
	var pe *graphio.ParseError
	if errors.As(err, &pe) {
		if pe.File == "" {
			pe.File = file
		}
		return err
	}
	return fmt.Errorf("%s: %w", file, err)
}

// mustIO panics, naming the function and the argument, if x (an
// io.Reader or io.Writer) is nil: a programmer error
// (docs/conventions.md §2).
func mustIO(fn, name string, x any) {
	if x == nil {
		panic("dataio: " + fn + ": " + name + " is nil")
	}
}
