package dataio

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/graphio"
)

// namedErr fails unless err is a *graphio.ParseError or wraps a named
// loadlab error: readers never return anonymous errors and never panic.
func namedErr(t *testing.T, err error) {
	var pe *graphio.ParseError
	if !errors.As(err, &pe) && !errors.Is(err, loadlab.ErrInvalid) && !errors.Is(err, loadlab.ErrTooLarge) {
		t.Fatalf("error is neither a *ParseError nor a named error: %v", err)
	}
}

// dataLines counts the lines of src a table reader reads: neither blank
// nor a comment.
func dataLines(src []byte) int {
	n := 0
	for i, line := range strings.Split(string(src), "\n") {
		if i == 0 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if s := strings.TrimSpace(line); s != "" && s[0] != '#' {
			n++
		}
	}
	return n
}

// FuzzReadTable: a table read once (header forced or detected, a column
// possibly skipped) keeps every data line — no first row is dropped as
// a header unless it is one — and is written and read again to the same
// numbers, bit for bit.
func FuzzReadTable(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n3,4\n", "1 2 3\n4 5 6\n", "# c\n1e300\t-0\n5e-324\t7\n",
		"1,,3\n4,5,6\n", "1e999,2\n3,4\n", "0 1 x\n", "5,\n", // first rows that are not headers
		",s1,s2\n0,1.5,2\n1,2,3\n2,3,4\n", "1704067200,5\n1704070800,4\n", // an index, a timestamp
		"time,s1\n2024-01-01T00:00:00Z,1\n", "\ufeffA,T\n1,2\n", "1,NaN\n", "Inf;2\n",
	} {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	f.Add([]byte("time,s1\n2024-01-01T00:00:00Z,1\n"), uint8(0), uint8(4))
	f.Add([]byte("10,20\n3,4\n"), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, src []byte, header, skip uint8) {
		o := &TableOptions{Header: graphio.Header(header % 3)}
		if skip >= 4 {
			o.Skip = []string{string(rune('0' + skip%4 + 1))}
		}
		tb, err := ReadTable(bytes.NewReader(src), o)
		if err != nil {
			namedErr(t, err)
			return
		}
		headed := 0
		if tb.Columns != nil {
			headed = 1
		}
		if got, want := len(tb.Rows)+headed, dataLines(src); got != want {
			t.Fatalf("%d rows and %d header lines from %d data lines", len(tb.Rows), headed, want)
		}
		var b bytes.Buffer
		names := make([]string, len(tb.Rows[0]))
		for i := range names {
			names[i] = "col" + string(rune('A'+i%26)) + string(rune('a'+i/26%26))
		}
		if err := WriteTable(&b, names, tb.Rows); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTable(&b, nil)
		if err != nil {
			t.Fatalf("written table does not read back: %v", err)
		}
		for r := range tb.Rows {
			for c := range tb.Rows[r] {
				if back.Rows[r][c] != tb.Rows[r][c] {
					t.Fatalf("cell (%d, %d): %v → %v", r, c, tb.Rows[r][c], back.Rows[r][c])
				}
			}
		}
	})
}

// sameNetwork fails unless a and b hold the same model, bit for bit.
func sameNetwork(t *testing.T, a, b *anycast.Network) {
	n := len(a.A)
	if len(b.A) != n {
		t.Fatalf("N changed: %d → %d", n, len(b.A))
	}
	for i := 0; i < n; i++ {
		if b.A[i] != a.A[i] || b.T[i] != a.T[i] {
			t.Fatalf("A or T changed at %d", i)
		}
		for j := 0; j < n; j++ {
			if b.At(i, j) != a.At(i, j) {
				t.Fatalf("C(%d, %d) changed", i, j)
			}
		}
	}
}

// roundTrip writes nd's network and reads it back, without options, to
// the same model: so an accepted network, normalised or not, is a valid
// one, and its RowSumDev is within the tolerance in force.
func roundTrip(t *testing.T, nd *NetworkData, o NetworkOptions) {
	if !(nd.RowSumDev <= o.rowSumTol()) || nd.RowSumDevRow < 0 || nd.RowSumDevRow >= len(nd.Network.A) {
		t.Fatalf("RowSumDev %v at row %d, tolerance %v", nd.RowSumDev, nd.RowSumDevRow, o.rowSumTol())
	}
	var b bytes.Buffer
	if err := WriteNetworkJSON(&b, nd.Network); err != nil {
		t.Fatal(err)
	}
	back, err := ReadNetworkJSON(&b, nil)
	if err != nil {
		t.Fatalf("written network does not read back: %v\n%s", err, b.String())
	}
	sameNetwork(t, nd.Network, back.Network)
}

// FuzzReadNetworkJSON: an accepted network (rows normalised or not) is
// written and read back to the same model; a refused one is a named
// error.
func FuzzReadNetworkJSON(f *testing.F) {
	for _, s := range []string{
		`{"A": [2, 1], "T": [1.5, 1.2], "C": [[0.7, 0.3], [0, 1]]}`,
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 0, 0.5], [1, 1, 0.5]]}`,
		`{"A": [1, 1], "T": [1, 1], "C": [[0.70001, 0.3], [0, 0.99998]]}`, // measured
		`{"A": [1, null], "T": [1, 1], "C": [[1, 0], [0, 1]]}`,            // null
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 1]]}`,   // short triplet
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 1, 1, 7]]}`,
		`{"A": [1], "T": [1], "C": [[1]], "T": [5]}`, // key twice
		`{"A": [5], "a": [1], "T": [1], "C": [[1]]}`, // key in another case
		`{"A": [1], "T": [1], "C": [[1e999]]}`,
		`{"A": [1], "T": [1], "C": [[0]]}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, normalize bool) {
		o := NetworkOptions{Normalize: normalize}
		nd, err := ReadNetworkJSON(bytes.NewReader(src), &o)
		if err != nil {
			namedErr(t, err)
			return
		}
		roundTrip(t, nd, o)
	})
}

// FuzzReadNetworkCSV: as FuzzReadNetworkJSON, for the node and
// correlation tables.
func FuzzReadNetworkCSV(f *testing.F) {
	for _, c := range [][2]string{
		{"A,T\n2,1.5\n1,1.2\n", "0.7,0.3\n0,1\n"},
		{"A,T\n2,1.5\n1,1.2\n", "i,j,c\n0,0,0.7\n0,1,0.3\n1,1,1\n"},
		{"name,A,T\nx,2,1.5\ny,1,1.2\n", "0.70001,0.3\n0,0.99998\n"}, // measured
		{"A,T\n1,1\n", ",p0\np0,1\n"},                                // row labels
		{"A,T\n1,1e999\n", "1\n"},
		{"A,T\n1,1\n1,1\n", "1,0\n0,0\n"},
		{"A,T\n1,1\n", "i,j,c\n0,0,0.5\n0,0,0.5\n"},
	} {
		f.Add([]byte(c[0]), []byte(c[1]), false)
		f.Add([]byte(c[0]), []byte(c[1]), true)
	}
	f.Fuzz(func(t *testing.T, nodes, corr []byte, normalize bool) {
		o := NetworkOptions{Normalize: normalize}
		nd, err := ReadNetworkCSV(bytes.NewReader(nodes), bytes.NewReader(corr), &o)
		if err != nil {
			namedErr(t, err)
			return
		}
		roundTrip(t, nd, o)
	})
}
