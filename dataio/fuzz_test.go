package dataio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/loadlab/loadlab"
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

// FuzzReadTable: a table read once is written and read again to the
// same numbers, bit for bit.
func FuzzReadTable(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n3,4\n"))
	f.Add([]byte("1 2 3\n4 5 6\n"))
	f.Add([]byte("# c\n1e300\t-0\n5e-324\t7\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tb, err := ReadTable(bytes.NewReader(src))
		if err != nil {
			namedErr(t, err)
			return
		}
		var b bytes.Buffer
		names := make([]string, len(tb.Rows[0]))
		for i := range names {
			names[i] = "col" + string(rune('A'+i%26)) + string(rune('a'+i/26%26))
		}
		if err := WriteTable(&b, names, tb.Rows); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTable(&b)
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

// FuzzReadNetworkJSON: an accepted network is written and read back to
// the same model.
func FuzzReadNetworkJSON(f *testing.F) {
	f.Add([]byte(`{"A": [2, 1], "T": [1.5, 1.2], "C": [[0.7, 0.3], [0, 1]]}`))
	f.Add([]byte(`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 0, 0.5], [1, 1, 0.5]]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		nw, err := ReadNetworkJSON(bytes.NewReader(src))
		if err != nil {
			return // model errors come from anycast and are its contract
		}
		var b bytes.Buffer
		if err := WriteNetworkJSON(&b, nw); err != nil {
			t.Fatal(err)
		}
		back, err := ReadNetworkJSON(&b)
		if err != nil {
			t.Fatalf("written network does not read back: %v\n%s", err, b.String())
		}
		n := len(nw.A)
		for i := 0; i < n; i++ {
			if back.A[i] != nw.A[i] || back.T[i] != nw.T[i] {
				t.Fatalf("A or T changed at %d", i)
			}
			for j := 0; j < n; j++ {
				if back.At(i, j) != nw.At(i, j) {
					t.Fatalf("C(%d, %d) changed", i, j)
				}
			}
		}
	})
}
