package graphio

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Header detection (Options.Header = HeaderDetect). The first data line
// is a header when Options.Source, Target or Weight names a column, or
// when its first two fields (the endpoint columns) are both not numbers
// and either are both usual column names or sit above a line whose
// first two fields are both numbers. A line whose endpoints are numbers
// is always data, so a bad weight on it is an error, never a header;
// a line of other names above lines of names is data.

// usualNames are the column names that mark a header by themselves.
var usualNames = map[string]bool{
	"source": true, "target": true, "weight": true, "u": true, "v": true, "w": true,
	"from": true, "to": true, "node1": true, "node2": true, "src": true, "dst": true,
	"i": true, "j": true, "head": true, "tail": true, "capacity": true, "conductance": true,
}

// weightNames are the header names of a weight column when
// Options.Weight is not given.
var weightNames = []string{"weight", "w", "capacity", "conductance"}

// isNumber reports whether s has the syntax of a number (even one out of
// the float64 range).
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

type headerVerdict int

const (
	isData headerVerdict = iota
	isHeader
	undecided // decided by the next line
)

func (er *edgeReader) verdict(f []string) headerVerdict {
	switch {
	case er.opts.Header == HeaderYes, er.opts.Source != "", er.opts.Target != "", er.weightNamed:
		return isHeader
	case er.opts.Header == HeaderNo, len(f) < 2, isNumber(f[0]), isNumber(f[1]):
		return isData
	case usualNames[strings.ToLower(f[0])] && usualNames[strings.ToLower(f[1])]:
		return isHeader
	}
	return undecided
}

// first handles the first data line.
func (er *edgeReader) first(n int, f []string) error {
	switch er.verdict(f) {
	case isHeader:
		return er.readHeader(n, f)
	case isData:
		er.noHeader(n, false)
		return er.record(n, f)
	}
	er.pending, er.pendingLine = slices.Clone(f), n
	return nil
}

// second handles the line after an undecided first line: names above
// numbers make the first line a header.
func (er *edgeReader) second(n int, f []string) error {
	p, pn := er.pending, er.pendingLine
	er.pending = nil
	if len(f) >= 2 && isNumber(f[0]) && isNumber(f[1]) {
		if err := er.readHeader(pn, p); err != nil {
			return err
		}
	} else {
		er.noHeader(pn, true)
		if err := er.record(pn, p); err != nil {
			return err
		}
	}
	return er.record(n, f)
}

// noHeader sets the columns of a file without a header; n is its first
// data line, and names says its endpoints were names, so that it might
// have been meant as a header.
func (er *edgeReader) noHeader(n int, names bool) {
	er.cols = [3]int{0, 1, 2}
	er.names = [3]string{"column 1", "column 2", "column 3"}
	if names {
		er.firstData = n
	}
}

// header resolves the columns from the header line n.
func (er *edgeReader) readHeader(n int, f []string) error {
	if len(f) < 2 {
		return bad(n, "header", strings.Join(f, string(er.delim)), "want at least two columns")
	}
	er.header, er.width = slices.Clone(f), len(f)
	src, err := er.find(n, er.opts.Source, 0)
	if err != nil {
		return err
	}
	dst, err := er.find(n, er.opts.Target, 1)
	if err != nil {
		return err
	}
	w, err := er.weightColumn(n)
	if err != nil {
		return err
	}
	if src == dst || w == src || w == dst {
		return bad(n, "header", strings.Join(f, string(er.delim)), "the source, target and weight columns must differ (source %s, target %s); set Options.Source, Target and Weight", er.columnName(src), er.columnName(dst))
	}
	er.cols = [3]int{src, dst, w}
	for k, c := range er.cols {
		if c >= 0 {
			er.names[k] = er.columnName(c)
		}
	}
	if w >= 0 {
		er.weightedAt, er.weightByHeader = n, true
	}
	return er.extraHeader(n)
}

// find returns the column called name (any case), or def if name is "".
func (er *edgeReader) find(n int, name string, def int) (int, error) {
	if name == "" {
		return def, nil
	}
	k := -1
	for i, h := range er.header {
		if strings.EqualFold(h, name) {
			if k >= 0 {
				return -1, bad(n, "header", strings.Join(er.header, string(er.delim)), "two columns are named %q", name)
			}
			k = i
		}
	}
	if k < 0 {
		return -1, bad(n, "header", strings.Join(er.header, string(er.delim)), "no column named %q", name)
	}
	return k, nil
}

// weightColumn returns the weight column: the one Options.Weight names,
// else the one with a usual weight name, else −1.
func (er *edgeReader) weightColumn(n int) (int, error) {
	if er.weightNamed {
		return er.find(n, er.opts.Weight, -1)
	}
	k := -1
	for i, h := range er.header {
		if !slices.Contains(weightNames, strings.ToLower(h)) {
			continue
		}
		if k >= 0 {
			return -1, bad(n, "header", strings.Join(er.header, string(er.delim)), "columns %q and %q both name a weight; set Options.Weight", er.header[k], h)
		}
		k = i
	}
	return k, nil
}

// extraHeader deals with the header's columns that are neither endpoint
// nor weight. Beside a weight column chosen by name they are named data
// and skipped; without one, a third column might be meant as the weight,
// so it is an error unless Options.ExtraColumns = IgnoreExtra.
func (er *edgeReader) extraHeader(n int) error {
	for k, h := range er.header {
		if k == er.cols[0] || k == er.cols[1] || k == er.cols[2] {
			continue
		}
		if er.cols[2] < 0 && er.opts.ExtraColumns == RejectExtra {
			return bad(n, fmt.Sprintf("column %d", k+1), h, "header column is neither an endpoint nor a weight column (%s); set Options.Weight = %q to read it as the weight, or Options.ExtraColumns = IgnoreExtra to skip it and read unit weights", strings.Join(weightNames, ", "), h)
		}
		er.ignored = append(er.ignored, er.columnName(k))
	}
	er.ignoredUpTo = er.width
	return nil
}
