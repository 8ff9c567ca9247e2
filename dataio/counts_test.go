package dataio

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadCounts reads a counts table with the columns in another order,
// a comment and a repeated pair, and checks the table.
func TestReadCounts(t *testing.T) {
	in := "# beacons of one day\nproxy,region,count\n1,0,30\n0,0,70\n2,1,5\n2,1,5\n0,2,1\n"
	c, err := ReadCountsCSV(strings.NewReader(in), nil)
	require.NoError(t, err)
	r, p := c.Dims()
	assert.Equal(t, 3, r)
	assert.Equal(t, 3, p)
	assert.Equal(t, int64(30), c.At(0, 1))
	assert.Equal(t, int64(10), c.At(1, 2)) // 5 + 5
	assert.Equal(t, int64(1), c.At(2, 0))
	assert.Equal(t, int64(100), c.Total(0))
	c, err = ReadCountsCSV(strings.NewReader(in), &CountsOptions{Regions: 4, Proxies: 5})
	require.NoError(t, err)
	r, p = c.Dims()
	assert.Equal(t, []int{4, 5}, []int{r, p})
}

// countsCases probes the counts reader with bad tables: each error names
// the line and the column.
func countsCases(t *testing.T) []badarg.Case {
	p := badarg.Probe{Func: "ReadCountsCSV", Err: inv}
	read := func(s string, o *CountsOptions) func() error {
		return func() error { _, err := ReadCountsCSV(strings.NewReader(s), o); return err }
	}
	h := "region,proxy,count\n"
	cs := []badarg.Case{
		p.Fails("negative count", `3: column "count" = "-4"`, read(h+"0,0,5\n1,0,-4\n", nil)),
		p.Fails("NaN count", "3:", read(h+"0,0,5\n1,0,NaN\n", nil)),
		p.Fails("fractional count", `2: column "count" = "2.5"`, read(h+"0,0,2.5\n", nil)),
		p.Fails("negative region", `2: column "region" = "-1"`, read(h+"-1,0,2\n", nil)),
		p.Fails("fractional proxy", `2: column "proxy" = "0.5"`, read(h+"0,0.5,2\n", nil)),
		p.Fails("proxy beyond Proxies", "index beyond", read(h+"0,3,2\n", &CountsOptions{Proxies: 3})),
		p.Fails("no count column", `Columns[2] = "count": no such column`, read("region,proxy,n\n0,0,1\n", nil)),
		p.Fails("extra column", "want exactly the columns", read("region,proxy,count,day\n0,0,1,3\n", nil)),
		p.Fails("no rows", "no data rows", read(h, nil)),
		p.Fails("CountsOptions.Regions = -1", "CountsOptions.Regions = -1", read(h+"0,0,1\n", &CountsOptions{Regions: -1})),
		p.Panics("nil reader", "ReadCountsCSV", func() { _, _ = ReadCountsCSV(nil, nil) }),
		{Func: "CountsOptions.Validate", Name: "Proxies = -2", Err: inv, Text: "Proxies = -2", Call: func() error { return (&CountsOptions{Proxies: -2}).Validate() }},
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, writeFile(bad, h+"0,0,1\n0,1,-1\n"))
	f := badarg.Probe{Func: "ReadCountsCSVFile", Err: inv}
	return append(cs,
		f.Fails("negative count", "bad.csv:3:", func() error { _, err := ReadCountsCSVFile(bad, nil); return err }),
		badarg.Probe{Func: "ReadCountsCSVFile", Err: fs.ErrNotExist}.Fails("missing file", "missing.csv", func() error {
			_, err := ReadCountsCSVFile(filepath.Join(dir, "missing.csv"), nil)
			return err
		}))
}
