package dataio

import (
	"fmt"
	"io"
	"os"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/graphio"
)

// CountsOptions tunes ReadCountsCSV. A nil *CountsOptions or a zero
// field means the default stated on the field.
type CountsOptions struct {
	// Regions and Proxies are the dimensions of the table; zero means 1 +
	// the largest index read in either column (a square table, the
	// anycast model's N). An index at or above a dimension given here is
	// an error naming its line.
	Regions, Proxies int
}

// Validate returns an error wrapping loadlab.ErrInvalid naming a negative
// Regions or Proxies. A nil *CountsOptions is valid.
func (o *CountsOptions) Validate() error {
	if o == nil {
		return nil
	}
	if o.Regions < 0 || o.Proxies < 0 {
		return loadlab.Invalid(pkgName, "CountsOptions.Regions = %d, Proxies = %d, want ≥ 0 (0: from the indices read)", o.Regions, o.Proxies)
	}
	return nil
}

// maxCount is the largest count read: 2⁵³, above which a float64 cell
// no longer holds every integer.
const maxCount = 1 << 53

// ReadCountsCSV reads a table of beacon counts (spec anycast-cdn.md
// §15.1) with the columns region, proxy and count (a header naming them,
// in any order; other columns are an error): one line per (region j,
// proxy i) pair, n_ji beacons of region j that landed at proxy i, indices
// from 0. Repeated pairs add (beacon.NewCounts). Errors are
// *graphio.ParseError values naming the line, the column and the cell:
// an index that is not an integer ≥ 0 (or beyond CountsOptions), a count
// that is not an integer in [0, 2⁵³] (negative, NaN, fractional); and
// those of ReadTable, of opts.Validate and of beacon.NewCounts. It
// panics if r is nil.
func ReadCountsCSV(r io.Reader, opts *CountsOptions) (*beacon.Counts, error) {
	mustIO("ReadCountsCSV", "r", r)
	return readCounts(r, opts)
}

// ReadCountsCSVFile is ReadCountsCSV on the named file; its errors name
// the file.
func ReadCountsCSVFile(path string, opts *CountsOptions) (*beacon.Counts, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := readCounts(f, opts)
	return c, inFile(err, path)
}

func readCounts(r io.Reader, opts *CountsOptions) (*beacon.Counts, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var o CountsOptions
	if opts != nil {
		o = *opts
	}
	t, err := ReadTable(r, &TableOptions{Header: graphio.HeaderYes, Columns: []string{"region", "proxy", "count"}})
	if err != nil {
		return nil, err
	}
	if len(t.Header) != 3 {
		return nil, &graphio.ParseError{Pkg: pkgName, Line: t.headerLine, Field: "header", Value: fmt.Sprint(t.Header), Msg: "want exactly the columns region, proxy, count", Err: loadlab.ErrInvalid}
	}
	m := len(t.Rows)
	rows, cols, cnt := make([]int, m), make([]int, m), make([]int64, m)
	top := 0
	for k, row := range t.Rows {
		bad := func(c int, msg string) error {
			return &graphio.ParseError{Pkg: pkgName, Line: t.Lines[k], Field: t.field(c), Value: num(row[c]), Msg: msg, Err: loadlab.ErrInvalid}
		}
		for c, lim := range []int{o.Regions, o.Proxies} {
			v := row[c]
			if v != float64(int(v)) || v < 0 || v >= maxCount {
				return nil, bad(c, "want an integer index ≥ 0")
			}
			if lim > 0 && int(v) >= lim {
				return nil, bad(c, fmt.Sprintf("index beyond the %d of CountsOptions", lim))
			}
			top = max(top, int(v)+1)
		}
		if v := row[2]; v != float64(int64(v)) || v < 0 || v > maxCount {
			return nil, bad(2, "want an integer count in [0, 2⁵³]")
		}
		rows[k], cols[k], cnt[k] = int(row[0]), int(row[1]), int64(row[2])
	}
	if o.Regions == 0 {
		o.Regions = top
	}
	if o.Proxies == 0 {
		o.Proxies = top
	}
	return beacon.NewCounts(o.Regions, o.Proxies, rows, cols, cnt)
}
