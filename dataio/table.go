package dataio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
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
	Columns []string // the header's names, or nil if the file has none
	Rows    [][]float64
}

// maxCells bounds a table (2^28 cells, 2 GiB of float64); a larger one
// is an ErrTooLarge error before it is read further.
const maxCells = 1 << 28

// ReadTable reads a numeric table. The separator is detected from the
// first line (comma, else semicolon, else tab, else blanks); lines
// starting with '#' and blank lines are skipped; the first line is a
// header when any of its fields is not a number. Every row must have the
// width of the first and every cell must be a finite number. It panics
// if r is nil.
func ReadTable(r io.Reader) (*Table, error) {
	mustIO("ReadTable", "r", r)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<26)
	tr := tableReader{width: -1}
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
	return &tr.t, nil
}

type tableReader struct {
	t     Table
	line  int
	sep   string // "" for blanks
	width int
	cells int
}

func (tr *tableReader) add(text string) error {
	s := strings.TrimSpace(text)
	if s == "" || s[0] == '#' {
		return nil
	}
	if tr.width < 0 {
		tr.sep = detect(s)
	}
	f := fields(s, tr.sep)
	if tr.width < 0 {
		tr.width = len(f)
		if isHeader(f) {
			tr.t.Columns = f
			return tr.checkHeader()
		}
	}
	if len(f) != tr.width {
		return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Field: "row", Value: s, Msg: fmt.Sprintf("%d fields, want %d as in the first line", len(f), tr.width), Err: loadlab.ErrInvalid}
	}
	tr.cells += len(f)
	if tr.cells > maxCells {
		return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Msg: fmt.Sprintf("more than %d cells", maxCells), Err: loadlab.ErrTooLarge}
	}
	row := make([]float64, len(f))
	for c, x := range f {
		v, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Field: tr.column(c), Value: x, Msg: "not a finite number", Err: loadlab.ErrInvalid}
		}
		row[c] = v
	}
	tr.t.Rows = append(tr.t.Rows, row)
	return nil
}

// checkHeader rejects a header that names a column twice (Column
// matches names case-insensitively, so it could only ever find the first).
func (tr *tableReader) checkHeader() error {
	seen := make(map[string]int, len(tr.t.Columns))
	for c, name := range tr.t.Columns {
		key := strings.ToLower(name)
		if first, dup := seen[key]; dup && name != "" {
			return &graphio.ParseError{Pkg: pkgName, Line: tr.line, Field: fmt.Sprintf("column %d", c+1), Value: name,
				Msg: fmt.Sprintf("column name repeats column %d", first+1), Err: loadlab.ErrInvalid}
		}
		seen[key] = c
	}
	return nil
}

// checkNames returns an error wrapping loadlab.ErrInvalid, naming the
// function and the column, unless the names read back as the header of a
// comma-separated table: no separator, quote or line break, not a number
// (a header of numbers would be read as a data row), no repeats, at least
// one name.
func checkNames(fn string, names []string) error {
	if len(names) == 0 {
		return loadlab.Invalid("dataio", "%s: no columns", fn)
	}
	seen := make(map[string]bool, len(names))
	for i, s := range names {
		_, numErr := strconv.ParseFloat(s, 64)
		switch {
		case s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s, ",;\t\"\n\r") || s[0] == '#':
			return loadlab.Invalid("dataio", "%s: column %d = %q, want a name without separators, quotes, line breaks or edge blanks, not starting with '#'", fn, i, s)
		case numErr == nil:
			return loadlab.Invalid("dataio", "%s: column %d = %q is a number; a reader would take the header for a data row", fn, i, s)
		case seen[strings.ToLower(s)]:
			return loadlab.Invalid("dataio", "%s: column %d = %q repeats an earlier column name", fn, i, s)
		}
		seen[strings.ToLower(s)] = true
	}
	return nil
}

func (tr *tableReader) column(c int) string {
	if tr.t.Columns != nil {
		return fmt.Sprintf("column %q", tr.t.Columns[c])
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

func isHeader(f []string) bool {
	for _, x := range f {
		if _, err := strconv.ParseFloat(x, 64); err != nil {
			return true
		}
	}
	return false
}

// Column returns the index of the column named name (case-insensitive),
// or an error naming the missing column.
func (t *Table) Column(name string) (int, error) {
	for i, c := range t.Columns {
		if strings.EqualFold(c, name) {
			return i, nil
		}
	}
	return -1, &graphio.ParseError{Pkg: pkgName, Line: 1, Field: "header", Value: strings.Join(t.Columns, ","), Msg: fmt.Sprintf("no column named %q", name), Err: loadlab.ErrInvalid}
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
	var pe *graphio.ParseError
	if errors.As(err, &pe) {
		if pe.File == "" {
			pe.File = file
		}
		return err
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

// mustIO panics, naming the function and the argument, if x (an
// io.Reader or io.Writer) is nil: a programmer error
// (docs/conventions.md §2).
func mustIO(fn, name string, x any) {
	if x == nil {
		panic("dataio: " + fn + ": " + name + " is nil")
	}
}
