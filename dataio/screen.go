package dataio

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/graphio"
)

// isoTime matches an ISO 8601 date, date and time, or time of day as
// data files write them: 2024-03-01, 2024-03-01T12:00, 2024-03-01
// 12:00:05.25+01:00, 12:00:05Z.
var isoTime = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?)?|\d{2}:\d{2}(:\d{2}([.,]\d+)?)?)(Z|[+-]\d{2}(:?\d{2})?)?$`)

// timestamp reports whether x is an ISO 8601 date or time.
func timestamp(x string) bool { return isoTime.MatchString(x) }

// Unix times of 2000-01-01 and 2100-01-01 in seconds: the span in which
// an increasing integer column is taken for a timestamp.
const (
	epochLo = 946684800
	epochHi = 4102444800
)

// screenColumns refuses a column read without being chosen that is an
// index or a timestamp rather than data: its values are
//
//   - 0, 1, 2, … or 1, 2, 3, … down the whole column, with at least
//     three rows (an index, as data-frame libraries write it); or
//   - integers, strictly increasing, with at least two rows, the first
//     a Unix time between 2000 and 2100 in seconds, milliseconds,
//     microseconds or nanoseconds (a timestamp).
//
// The error names the column's first cell.
func (tr *tableReader) screenColumns() error {
	for c, fc := range tr.keep {
		why := suspect(tr.t.Rows, c)
		if why == "" {
			continue
		}
		return &graphio.ParseError{Pkg: pkgName, Line: tr.t.Lines[0], Field: tr.column(fc), Value: tr.first[c],
			Msg: why + ", not data: " + remedy, Err: loadlab.ErrInvalid}
	}
	return nil
}

// suspect says why column c of rows looks like an index or a timestamp,
// or returns "".
func suspect(rows [][]float64, c int) string {
	v0 := rows[0][c]
	if len(rows) >= 3 && (v0 == 0 || v0 == 1) && counts(rows, c, v0) {
		return fmt.Sprintf("the column counts %v, %v, %v, … down its %d rows: an index", v0, v0+1, v0+2, len(rows))
	}
	if len(rows) >= 2 {
		if unit, sec := epoch(v0); unit != "" && increasingIntegers(rows, c) {
			date := time.Unix(sec, 0).UTC().Format(time.RFC3339)
			return fmt.Sprintf("the column holds increasing integers from %s, Unix time in %s (%s): a timestamp", strconv.FormatFloat(v0, 'f', -1, 64), unit, date)
		}
	}
	return ""
}

// counts reports whether column c is v0, v0 + 1, v0 + 2, … (exact in
// float64 for any table that fits in memory).
func counts(rows [][]float64, c int, v0 float64) bool {
	for r, row := range rows {
		if row[c] != v0+float64(r) {
			return false
		}
	}
	return true
}

// increasingIntegers reports whether column c holds integers, strictly
// increasing.
func increasingIntegers(rows [][]float64, c int) bool {
	for r, row := range rows {
		if row[c] != math.Trunc(row[c]) || r > 0 && !(row[c] > rows[r-1][c]) {
			return false
		}
	}
	return true
}

// epoch returns the unit in which v is a Unix time between 2000 and 2100
// and that time in seconds, or "" if it is none.
func epoch(v float64) (string, int64) {
	for _, u := range []struct {
		name  string
		scale float64
	}{{"seconds", 1}, {"milliseconds", 1e3}, {"microseconds", 1e6}, {"nanoseconds", 1e9}} {
		if v >= epochLo*u.scale && v < epochHi*u.scale {
			return u.name, int64(v / u.scale)
		}
	}
	return "", 0
}
