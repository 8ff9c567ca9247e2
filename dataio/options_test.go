package dataio

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/graphio"
)

// wantParse fails unless err is a *graphio.ParseError wrapping
// loadlab.ErrInvalid at line, naming field and value, whose message
// holds each of msg.
func wantParse(t *testing.T, what string, err error, line int, field, value string, msg ...string) {
	t.Helper()
	var pe *graphio.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("%s: %v, want a *graphio.ParseError wrapping ErrInvalid", what, err)
		return
	}
	if pe.Line != line || pe.Field != field || pe.Value != value {
		t.Errorf("%s: line %d, %s = %q; want line %d, %s = %q (%v)", what, pe.Line, pe.Field, pe.Value, line, field, value, err)
	}
	for _, m := range msg {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("%s: %q does not say %q", what, err, m)
		}
	}
}

// Columns that are an index or a timestamp, not data, are refused with
// the line, column and first cell, whatever reader reads the table; each
// reads when skipped. (Guards: a Unix-time column in a hold-cost table
// read as one more server, a data-frame index read as a column of
// demand.)
func TestScreenedColumns(t *testing.T) {
	for name, c := range map[string]struct {
		src, field, value, why string
		line                   int
		skip                   string
		left                   int // columns read when skip is skipped
	}{
		"Unix seconds":         {"1704067200,5,3\n1704070800,4,2\n", "column 1", "1704067200", "Unix time in seconds (2024-01-01T00:00:00Z)", 1, "1", 2},
		"Unix milliseconds":    {"t,a\n1704067200000,5\n1704067260000,4\n", `column "t"`, "1704067200000", "milliseconds", 2, "t", 1},
		"Unix ns, last column": {"5,1704067200000000000\n4,1704067201000000000\n", "column 2", "1704067200000000000", "nanoseconds", 1, "2", 1},
		"index from 0":         {",s1,s2\n0,1.5,2\n1,2,3\n2,3,4\n", "column 1", "0", "an index", 2, "1", 2},
		"index from 1":         {"# slot, cost\n1 5\n2 6\n3 7\n", "column 1", "1", "an index", 2, "1", 1},
		"index in the middle":  {"a,i,b\n5,0,1\n4,1,1\n3,2,1\n", `column "i"`, "0", "counts 0, 1, 2, … down its 3 rows", 2, "I", 2},
		"ISO time":             {"time,s1\n2024-01-01T00:00:00Z,1\n", `column "time"`, "2024-01-01T00:00:00Z", "ISO 8601", 2, "time", 1},
		"ISO date":             {"2024-01-01 5 3\n", "column 1", "2024-01-01", "timestamp column", 1, "1", 2},
	} {
		for reader, read := range tableReaders {
			wantParse(t, reader+": "+name, read(c.src), c.line, c.field, c.value, c.why, "TableOptions.Skip")
		}
		tb, err := ReadTable(strings.NewReader(c.src), &TableOptions{Skip: []string{c.skip}})
		if err != nil || len(tb.Rows[0]) != c.left {
			t.Errorf("%s: skipping %q: %v, want %d columns (%v)", name, c.skip, tb, c.left, err)
		}
	}
	// Not index-like: two rows, a step of 2, a start at 2, decreasing
	// or repeated integers, times before 2000.
	for _, src := range []string{"0,5\n1,6\n", "0\n2\n4\n", "2\n3\n4\n", "1704070800\n1704067200\n", "1704067200\n1704067200\n", "946684799\n946684800\n", "0.5\n1.5\n2.5\n"} {
		if _, err := ReadTable(strings.NewReader(src), nil); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	// A column chosen by the caller is data, whatever it holds.
	tb, err := ReadTable(strings.NewReader("0,5\n1,6\n2,7\n"), &TableOptions{Columns: []string{"1", "2"}})
	if err != nil || tb.Rows[2][0] != 2 {
		t.Errorf("chosen index column: %v", err)
	}
}

// TestColumns chooses columns by name and number, in any order, and
// checks what the table reports of them; cells of columns not read are
// not parsed.
func TestColumns(t *testing.T) {
	src := "time,S1,s2,note\n2024-01-01,1,2,ok\n2024-01-02,3,4,late\n"
	tb, err := ReadTable(strings.NewReader(src), &TableOptions{Columns: []string{"s2", "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tb.Columns, []string{"s2", "S1"}) || !slices.Equal(tb.FileColumns, []int{3, 2}) || !slices.Equal(tb.Lines, []int{2, 3}) {
		t.Errorf("columns %v from %v, lines %v", tb.Columns, tb.FileColumns, tb.Lines)
	}
	if !slices.Equal(tb.Rows[1], []float64{4, 3}) {
		t.Errorf("rows %v", tb.Rows)
	}
	tb, err = ReadTable(strings.NewReader(src), &TableOptions{Skip: []string{"TIME", "4"}})
	if err != nil || !slices.Equal(tb.Columns, []string{"S1", "s2"}) || !slices.Equal(tb.Rows[0], []float64{1, 2}) {
		t.Errorf("skip: %v %v", tb, err)
	}
	for name, c := range map[string]struct {
		src   string
		opts  TableOptions
		field string
		value string
		msg   string
	}{
		"unknown name":     {src, TableOptions{Columns: []string{"s3"}}, "TableOptions.Columns[0]", "s3", "no such column"},
		"number too large": {src, TableOptions{Skip: []string{"5"}}, "TableOptions.Skip[0]", "5", "4 columns"},
		"name, no header":  {"1,2\n", TableOptions{Columns: []string{"a"}}, "TableOptions.Columns[0]", "a", "no header"},
		"read twice":       {src, TableOptions{Columns: []string{"s1", "2"}}, "TableOptions.Columns[1]", "2", "already read"},
		"all skipped":      {"a\n1\n", TableOptions{Skip: []string{"a"}}, "TableOptions.Skip[0]", "a", "every column"},
		"text not skipped": {src, TableOptions{Skip: []string{"time"}}, `column "note"`, "ok", "not a number"},
	} {
		_, err := ReadTable(strings.NewReader(c.src), &c.opts)
		line := 1
		if name == "text not skipped" {
			line = 2
		}
		wantParse(t, name, err, line, c.field, c.value, c.msg)
	}
}

// TestHeaderOption forces the first line to be, or not to be, a header.
func TestHeaderOption(t *testing.T) {
	tb, err := ReadTable(strings.NewReader("10,20\n3,4\n"), &TableOptions{Header: graphio.HeaderYes})
	if err != nil || !slices.Equal(tb.Columns, []string{"10", "20"}) || len(tb.Rows) != 1 {
		t.Errorf("HeaderYes: %v %v", tb, err)
	}
	_, err = ReadTable(strings.NewReader("a,b\n3,4\n"), &TableOptions{Header: graphio.HeaderNo})
	wantParse(t, "HeaderNo", err, 1, "column 1", "a", "not a number")
	// Detection: names with empty fields (a data-frame index) are a
	// header; a date is not a name.
	tb, err = ReadTable(strings.NewReader(",a,\n5,6,7\n"), nil)
	if err != nil || len(tb.Columns) != 3 || len(tb.Rows) != 1 {
		t.Errorf("header with empty names: %v %v", tb, err)
	}
	// A byte-order mark is not part of the first name (guards: a
	// column "\ufeffA" that Column("A") cannot find).
	tb, err = ReadTable(strings.NewReader("\ufeffA,T\n1,2\n"), &TableOptions{Columns: []string{"A"}})
	if err != nil || tb.Columns[0] != "A" {
		t.Errorf("BOM: %v %v", tb, err)
	}
}

// TestTableOptionsValidate: every bad field is named.
func TestTableOptionsValidate(t *testing.T) {
	for want, o := range map[string]TableOptions{
		"TableOptions.Header = 3":       {Header: 3},
		"both set":                      {Columns: []string{"a"}, Skip: []string{"b"}},
		"TableOptions.Columns is empty": {Columns: []string{}},
		`TableOptions.Columns[1] = ""`:  {Columns: []string{"a", ""}},
		`TableOptions.Skip[0] = " a"`:   {Skip: []string{" a"}},
		`TableOptions.Skip[0] = "0"`:    {Skip: []string{"0"}},
		`TableOptions.Columns[1] = "A"`: {Columns: []string{"a", "A"}},
		`TableOptions.Skip[1] = "02"`:   {Skip: []string{"2", "02"}},
	} {
		err := o.Validate()
		if !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", o, err, want)
		}
		if _, err := ReadTable(strings.NewReader("a,b\n1,2\n"), &o); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("ReadTable with %+v: %v", o, err)
		}
	}
}
