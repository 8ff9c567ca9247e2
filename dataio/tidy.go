package dataio

import (
	"bufio"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/loadlab/loadlab"
)

// WriteTidy writes rows, a slice of structs (or of pointers to structs)
// such as []codedload.PointResult, []dual.SweepPoint or
// []mobility.Result, as a tidy CSV: one line per element, one column per
// scalar field. Nested structs are flattened with their field name as a
// prefix, so an Estimate field Cost becomes cost_mean, cost_lo, cost_hi,
// cost_stderr, cost_n. Column names are the fields' names in snake case
// (or their json tags). Slices, maps, interfaces and pointers inside an
// element are skipped: they are not one value per observation. Floats are
// written in the shortest form that reads back exactly (NaN and ±Inf as
// NaN, +Inf, -Inf). It returns an error wrapping loadlab.ErrInvalid if
// rows is not such a slice, or if two columns get the same name (or a
// name a reader could not take back as a header, as for WriteTable). It
// panics if w is nil.
func WriteTidy(w io.Writer, rows any) error {
	mustIO("WriteTidy", "w", w)
	v := reflect.ValueOf(rows)
	if v.Kind() != reflect.Slice {
		return loadlab.Invalid("dataio", "WriteTidy: rows is a %T, want a slice of structs", rows)
	}
	et := v.Type().Elem()
	if et.Kind() == reflect.Pointer {
		et = et.Elem()
	}
	if et.Kind() != reflect.Struct {
		return loadlab.Invalid("dataio", "WriteTidy: rows is a %T, want a slice of structs", rows)
	}
	cols := columns(et, "", nil)
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	if err := checkNames("WriteTidy", names); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(header(cols))
	var buf []byte
	for i := 0; i < v.Len(); i++ {
		e := v.Index(i)
		if e.Kind() == reflect.Pointer {
			if e.IsNil() {
				return loadlab.Invalid("dataio", "WriteTidy: rows[%d] is nil", i)
			}
			e = e.Elem()
		}
		buf = buf[:0]
		for k, c := range cols {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf = appendValue(buf, e.FieldByIndex(c.index))
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteColumns writes v, a struct whose exported []float64 (or []int)
// fields are columns of equal length — such as *consensus.Trajectory,
// whose totals RTotal, LTotal, … are one value per step — as a tidy CSV
// with a leading index column named index. Fields of other types, and
// slices of another length than the first, are skipped. It returns an
// error wrapping loadlab.ErrInvalid if v is not such a struct or has no
// such column, or if index or a column name could not be read back as a
// header (as for WriteTable: for example an index that repeats a column
// name or holds a comma). It panics if w is nil.
func WriteColumns(w io.Writer, v any, index string) error {
	mustIO("WriteColumns", "w", w)
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return loadlab.Invalid("dataio", "WriteColumns: v is a %T, want a struct", v)
	}
	var names []string
	var cols []reflect.Value
	n := -1
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Type().Field(i)
		fv := rv.Field(i)
		if !f.IsExported() || fv.Kind() != reflect.Slice || !scalar(f.Type.Elem().Kind()) {
			continue
		}
		if n < 0 {
			n = fv.Len()
		}
		if fv.Len() != n {
			continue
		}
		names = append(names, name(f))
		cols = append(cols, fv)
	}
	if len(cols) == 0 {
		return loadlab.Invalid("dataio", "WriteColumns: %T has no slice column", v)
	}
	if err := checkNames("WriteColumns", append([]string{index}, names...)); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(index + "," + strings.Join(names, ",") + "\n")
	var buf []byte
	for r := 0; r < n; r++ {
		buf = strconv.AppendInt(buf[:0], int64(r), 10)
		for _, c := range cols {
			buf = append(buf, ',')
			buf = appendValue(buf, c.Index(r))
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

type column struct {
	name  string
	index []int
}

// columns lists the scalar fields of t, flattening nested structs.
func columns(t reflect.Type, prefix string, index []int) []column {
	var out []column
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		idx := append(append([]int(nil), index...), i)
		nm := prefix + name(f)
		switch {
		case scalar(f.Type.Kind()):
			out = append(out, column{nm, idx})
		case f.Type.Kind() == reflect.Struct && !f.Anonymous:
			out = append(out, columns(f.Type, nm+"_", idx)...)
		}
	}
	return out
}

func scalar(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

// name is the json tag's name, or the field name in snake case.
func name(f reflect.StructField) string {
	if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" {
		return tag
	}
	var b strings.Builder
	rs := []rune(f.Name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func header(cols []column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return strings.Join(names, ",") + "\n"
}

func appendValue(buf []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return strconv.AppendFloat(buf, v.Float(), 'g', -1, 64)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(buf, v.Uint(), 10)
	case reflect.Bool:
		return strconv.AppendBool(buf, v.Bool())
	case reflect.String:
		return append(buf, csvQuote(v.String())...)
	}
	panic(fmt.Sprintf("dataio: appendValue: kind %v", v.Kind()))
}

// csvQuote quotes s when it holds a comma, a quote or a line break.
func csvQuote(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
