package dataio

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/graphio"
)

func TestReadTable(t *testing.T) {
	for name, src := range map[string]string{
		"csv header": "s0,s1,s2\n1,2,3\n4,5,6\n",
		"tsv":        "1\t2\t3\n4\t5\t6\n",
		"blanks":     "# trace\n1 2  3\n\n4 5 6\n",
	} {
		tb, err := ReadTable(strings.NewReader(src), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(tb.Rows) != 2 || tb.Rows[1][2] != 6 || tb.Rows[0][0] != 1 {
			t.Errorf("%s: rows %v", name, tb.Rows)
		}
		if (name == "csv header") != (tb.Columns != nil) {
			t.Errorf("%s: columns %v", name, tb.Columns)
		}
	}
	for name, c := range map[string]struct {
		src         string
		line        int
		field, want string
	}{
		"ragged":    {"1,2,3\n4,5\n", 2, "row", "4,5"},
		"NaN":       {"a,b\n1,NaN\n", 2, `column "b"`, "NaN"},
		"text cell": {"1,2\n3,x\n", 2, "column 2", "x"},
		"empty":     {"1,2\n3,\n", 2, "column 2", ""},
		"Inf":       {"1,2\n3,-Inf\n", 2, "column 2", "-Inf"},
	} {
		_, err := ReadTable(strings.NewReader(c.src), nil)
		var pe *graphio.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) || pe.Line != c.line || pe.Field != c.field || pe.Value != c.want {
			t.Errorf("%s: got %v", name, err)
		}
		// The message names the package the caller called, not graphio.
		if err != nil && !strings.HasPrefix(err.Error(), "dataio: ") {
			t.Errorf("%s: message %q does not start with \"dataio: \"", name, err)
		}
	}
	if _, err := ReadTable(strings.NewReader("# nothing\n"), nil); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("empty table: %v", err)
	}
}

func TestTableRoundTrip(t *testing.T) {
	rows := [][]float64{{0.1, 1e-300, -3}, {1.0 / 3, 2e300, 0}}
	var b bytes.Buffer
	if err := WriteTable(&b, []string{"x", "y", "z"}, rows); err != nil {
		t.Fatal(err)
	}
	tb, err := ReadTable(&b, nil)
	if err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		for c := range rows[r] {
			if tb.Rows[r][c] != rows[r][c] {
				t.Errorf("cell (%d, %d): %v, want %v exactly", r, c, tb.Rows[r][c], rows[r][c])
			}
		}
	}
	if err := WriteTable(&b, []string{"x"}, rows); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("wrong width accepted: %v", err)
	}
}

func TestReadTrace(t *testing.T) {
	d, err := ReadTrace(strings.NewReader("1,2\n3,4\n5,6\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := make([]float64, 2)
	if err := d.Next(2, r); err != nil || r[0] != 5 || r[1] != 6 {
		t.Errorf("row 2 = %v (%v)", r, err)
	}
}

func TestReadInstance(t *testing.T) {
	in, err := ReadInstance(strings.NewReader("0,5\n5,0\n0,5\n"), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in.Slots() != 3 || in.Servers() != 2 {
		t.Errorf("instance %d × %d", in.Slots(), in.Servers())
	}
	if _, err := ReadInstance(strings.NewReader("0,-5\n"), 2, nil); err == nil {
		t.Error("negative hold cost accepted")
	}
}

// twoNode is the two-node example network of spec anycast-cdn §7.
func twoNode(t *testing.T) *anycast.Network {
	nw, err := anycast.NewNetwork([]float64{2, 1}, mat.NewDense(2, 2, []float64{0.7, 0.3, 0, 1}), []float64{1.5, 1.2})
	if err != nil {
		t.Fatal(err)
	}
	return nw
}

func TestNetworkJSON(t *testing.T) {
	nw := twoNode(t)
	var b bytes.Buffer
	if err := WriteNetworkJSON(&b, nw); err != nil {
		t.Fatal(err)
	}
	nd, err := ReadNetworkJSON(&b, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := nd.Network
	if !mat.Equal(got.C, nw.C) || got.A[0] != 2 || got.T[1] != 1.2 {
		t.Errorf("round trip changed the network")
	}
	sparse := `{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 0, 0.5], [1, 1, 0.5]]}`
	nd, err = ReadNetworkJSON(strings.NewReader(sparse), nil)
	if err == nil {
		got = nd.Network
	}
	if err != nil || got.Sparse == nil || got.C != nil || got.At(1, 0) != 0.5 || got.At(0, 1) != 0 {
		t.Errorf("triplets: want a sparse C with C[1][0] = 0.5: %v", err)
	}
	for name, src := range map[string]string{
		"dup triplet":   `{"A": [1], "T": [1], "C_triplets": [[0, 0, 0.5], [0, 0, 0.5]]}`,
		"out of range":  `{"A": [1], "T": [1], "C_triplets": [[0, 1, 1]]}`,
		"fraction":      `{"A": [1], "T": [1], "C_triplets": [[0.5, 0, 1]]}`,
		"short row":     `{"A": [1, 1], "T": [1, 1], "C": [[1, 0], [1]]}`,
		"unknown field": `{"A": [1], "T": [1], "C": [[1]], "X": 1}`,
		"row sum":       `{"A": [1], "T": [1], "C": [[0.5]]}`,
		"both":          `{"A": [1], "T": [1], "C": [[1]], "C_triplets": [[0, 0, 1]]}`,
		"not JSON":      `{"A": [1`,
	} {
		if _, err := ReadNetworkJSON(strings.NewReader(src), nil); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func TestNetworkCSV(t *testing.T) {
	nodes := "A,T\n2,1.5\n1,1.2\n"
	for name, corr := range map[string]string{
		"dense":    "0.7,0.3\n0,1\n",
		"triplets": "i,j,c\n0,0,0.7\n0,1,0.3\n1,1,1\n",
	} {
		nd, err := ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader(corr), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		nw := nd.Network
		if !mat.Equal(mat.DenseCopyOf(netC(nw)), twoNode(t).C) {
			t.Errorf("%s: C = %v", name, mat.Formatted(netC(nw)))
		}
		if (name == "triplets") != (nw.Sparse != nil) {
			t.Errorf("%s: Sparse = %v, want sparse C exactly for triplets", name, nw.Sparse != nil)
		}
	}
	if _, err := ReadNetworkCSV(strings.NewReader("A,X\n1,1\n"), strings.NewReader("1\n"), nil); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("missing column T: %v", err)
	}
	if _, err := ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader("1,0,0\n0,1,0\n"), nil); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("wrong shape: %v", err)
	}
}

// Trailing white space after a network object is not data (trailing data
// is an error: validate_test.go).
func TestNetworkJSONTrailingSpace(t *testing.T) {
	nw, err := ReadNetworkJSON(strings.NewReader("{\"A\":[1],\"T\":[2],\"C\":[[1]]}\n\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(nw.Network.A) != 1 || nw.Network.A[0] != 1 {
		t.Errorf("A = %v, want [1]", nw.Network.A)
	}
}

// A header WriteTable writes reads back as that header, with its rows
// (headers that would not: validate_test.go).
func TestWriteTableHeaderReadsBack(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, []string{"t", "load_mean"}, [][]float64{{0, 1.5}, {1, 2.25}}); err != nil {
		t.Fatal(err)
	}
	tab, err := ReadTable(&b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(tab.Columns, ",") != "t,load_mean" {
		t.Errorf("columns %v", tab.Columns)
	}
	if len(tab.Rows) != 2 || tab.Rows[0][0] != 0 || tab.Rows[0][1] != 1.5 || tab.Rows[1][0] != 1 || tab.Rows[1][1] != 2.25 {
		t.Errorf("rows %v", tab.Rows)
	}
}

// A first line is a header only when none of its fields reads as a
// number: a first row with an empty, overflowing or mistyped cell is
// an error naming line 1, the column and the cell, never a header that
// drops r(0). Each case is read as a table, a trace and an instance.
func TestFirstRowNotHeader(t *testing.T) {
	for name, c := range map[string]struct {
		src         string
		field, want string
	}{
		"empty cell":   {"1,,3\n4,5,6\n", "column 2", ""},
		"1e999":        {"1e999,2\n3,4\n", "column 1", "1e999"},
		"-1e999":       {"1 -1e999\n3 4\n", "column 2", "-1e999"},
		"typo":         {"1,x\n3,4\n", "column 2", "x"},
		"NaN":          {"NaN,2\n3,4\n", "column 1", "NaN"},
		"one line":     {"5,\n", "column 2", ""},
		"Inf and name": {"Inf,b\n1,2\n", "column 1", "Inf"},
	} {
		for reader, read := range tableReaders {
			err := read(c.src)
			var pe *graphio.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) || pe.Line != 1 || pe.Field != c.field || pe.Value != c.want {
				t.Errorf("%s: %s: got %v, want line 1, %s = %q", reader, name, err, c.field, c.want)
			}
		}
	}
}
