package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadMetric: a hop-count matrix with a header of server names reads
// back cell for cell, although its first column counts 0, 1, 2 (data,
// not an index, in a square matrix); the first placement costs a.
func TestReadMetric(t *testing.T) {
	src := "# hops between four routers on a line\nr0,r1,r2,r3\n0,1,2,3\n1,0,1,2\n2,1,0,1\n3,2,1,0\n"
	m, err := ReadMetric(strings.NewReader(src), 5, nil)
	require.NoError(t, err)
	require.Equal(t, 4, m.Servers())
	for i := range 4 {
		assert.Equal(t, 5.0, m.Initial(i))
		for j := range 4 {
			assert.Equal(t, float64(max(i-j, j-i)), m.Dist(i, j))
		}
	}
	assert.NoError(t, m.Violation())
	// A row-label column is skipped by option.
	m, err = ReadMetric(strings.NewReader("id,a,b\na,0,2\nb,3,0\n"), 0, &TableOptions{Skip: []string{"id"}})
	require.NoError(t, err)
	assert.Equal(t, 3.0, m.Dist(1, 0))
	assert.Error(t, m.Violation(), "asymmetric costs are read, and reported by Violation")
}

// metricCases probes ReadMetric and ReadMetricFile: a table that is not
// square, a negative cell, a non-zero diagonal, a non-finite cell, a bad
// first-placement cost, bad options, a nil reader and a missing file.
// Each data error names the line, the column and the value.
func metricCases(t *testing.T) []badarg.Case {
	read := func(s string) error { _, err := ReadMetric(strings.NewReader(s), 1, nil); return err }
	p := badarg.Probe{Func: "ReadMetric", Err: inv}
	cs := []badarg.Case{
		p.Fails("not square", "2: migration costs of 2 rows × 3 columns, want a square k × k matrix", func() error { return read("0,1,2\n1,0,3\n") }),
		p.Fails("an index column", "3 rows × 4 columns", func() error { return read("0,0,1,2\n1,1,0,1\n2,2,1,0\n") }),
		p.Fails("a negative cell", `2: column 1 = "-1": migration cost < 0`, func() error { return read("0,1\n-1,0\n") }),
		p.Fails("a non-zero diagonal", `2: column 2 = "4": migration cost from server 1 to itself, want 0`, func() error { return read("0,1\n1,4\n") }),
		p.Panics("r = nil", "dataio: ReadMetric: r is nil", func() { _, _ = ReadMetric(nil, 1, nil) }),
		p.Fails("bad options", "TableOptions.Header = 7", func() error {
			_, err := ReadMetric(strings.NewReader("0\n"), 1, &TableOptions{Header: 7})
			return err
		}),
	}
	p.Text = "%v"
	cs = append(cs, p.Scalar("cell", badarg.Finite, func(x float64) error { return read(fmt.Sprintf("0,1\n%v,0\n", x)) })...)
	p.Text = "first-placement cost a = %v"
	cs = append(cs, p.Scalar("a", badarg.NonNegative, func(a float64) error { _, err := ReadMetric(strings.NewReader("0\n"), a, nil); return err })...)

	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, writeFile(bad, "0,1\n1,2\n"))
	cs = append(cs,
		badarg.Probe{Func: "ReadMetricFile", Err: fs.ErrNotExist}.Fails("missing file", "missing.csv", func() error {
			_, err := ReadMetricFile(filepath.Join(dir, "missing.csv"), 1, nil)
			return err
		}),
		badarg.Probe{Func: "ReadMetricFile", Err: inv}.Fails("bad contents", `bad.csv:2: column 2 = "2"`, func() error { _, err := ReadMetricFile(bad, 1, nil); return err }),
	)
	return cs
}

// TestReadMetricParseError: the errors about cells are *graphio.ParseError
// values with the line and the column.
func TestReadMetricParseError(t *testing.T) {
	_, err := ReadMetric(strings.NewReader("a,b\n0,1\n1,-2\n"), 1, nil)
	var pe *graphio.ParseError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, 3, pe.Line)
	assert.Equal(t, `column "b"`, pe.Field)
	assert.Equal(t, "-2", pe.Value)
}

// FuzzReadMetric: any input gives a metric or a named error, never a
// panic; a metric read has a zero diagonal and non-negative costs, cell
// for cell those of the table ReadTable reads from the same input.
func FuzzReadMetric(f *testing.F) {
	for _, s := range []string{
		"0,1\n1,0\n", "a,b\n0,2\n3,0\n", "0 1 2\n1 0 1\n2 1 0\n", "0,1\n-1,0\n", "0,1\n1,2\n",
		"0,1,2\n1,0,1\n", "0,NaN\n1,0\n", "x\n0\n", "0\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := ReadMetric(bytes.NewReader(src), 1, nil)
		if err != nil {
			namedErr(t, err)
			return
		}
		tb, err := ReadTable(bytes.NewReader(src), &TableOptions{Columns: columnsOf(m.Servers())})
		if err != nil {
			t.Fatalf("ReadMetric took what ReadTable with the columns chosen refuses: %v", err)
		}
		for i, row := range tb.Rows {
			for j, x := range row {
				if m.Dist(i, j) != x || x < 0 || i == j && x != 0 {
					t.Fatalf("d(%d, %d) = %v, cell %v", i, j, m.Dist(i, j), x)
				}
			}
		}
	})
}

// columnsOf chooses the columns 1..k by number.
func columnsOf(k int) []string {
	cs := make([]string, k)
	for i := range cs {
		cs[i] = strconv.Itoa(i + 1)
	}
	return cs
}
