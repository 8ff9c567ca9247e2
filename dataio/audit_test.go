package dataio

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Data after the network object is a damaged or concatenated file:
// before the fix it was ignored and the first object returned.
func TestReadNetworkJSONTrailingData(t *testing.T) {
	_, err := ReadNetworkJSON(strings.NewReader(`{"A":[1],"T":[2],"C":[[1]]} garbage`))
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = ReadNetworkJSON(strings.NewReader(`{"A":[1],"T":[2],"C":[[1]]}{"A":[2],"T":[2],"C":[[1]]}`))
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	nw, err := ReadNetworkJSON(strings.NewReader("{\"A\":[1],\"T\":[2],\"C\":[[1]]}\n\n"))
	require.NoError(t, err, "trailing white space is not data")
	assert.Equal(t, []float64{1}, nw.A)
}

// WriteNetworkJSON validates the network (JSON has no NaN, and the
// reader would refuse the file) and names a nil network in its panic;
// before the fix NaN gave an unnamed encoding error and nil a nil
// dereference.
func TestWriteNetworkJSONInvalid(t *testing.T) {
	nw, err := anycast.NewNetwork([]float64{1}, mat.NewDense(1, 1, []float64{1}), []float64{2})
	require.NoError(t, err)
	nw.A[0] = math.NaN()
	require.ErrorIs(t, WriteNetworkJSON(&bytes.Buffer{}, nw), loadlab.ErrInvalid)
	assert.PanicsWithValue(t, "dataio: WriteNetworkJSON: nw is nil", func() { _ = WriteNetworkJSON(&bytes.Buffer{}, nil) })
}

// A header WriteTable writes must read back as that header. Before the
// fix numeric names were read back as a data row (a silent extra row)
// and a name with a comma split into two columns.
func TestWriteTableHeaderReadsBack(t *testing.T) {
	for _, cols := range [][]string{{"1", "2"}, {"a,b"}, {"x", "X"}, {""}, {"#c"}, nil} {
		err := WriteTable(&bytes.Buffer{}, cols, nil)
		require.ErrorIs(t, err, loadlab.ErrInvalid, "%q", cols)
	}
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, []string{"t", "load_mean"}, [][]float64{{0, 1.5}, {1, 2.25}}))
	tab, err := ReadTable(&b)
	require.NoError(t, err)
	assert.Equal(t, []string{"t", "load_mean"}, tab.Columns)
	assert.Equal(t, [][]float64{{0, 1.5}, {1, 2.25}}, tab.Rows)

	type clash struct {
		A float64                `json:"x_mean"`
		B struct{ Mean float64 } `json:"x"`
	}
	require.ErrorIs(t, WriteTidy(&bytes.Buffer{}, []clash{{}}), loadlab.ErrInvalid)
	type series struct{ X []float64 }
	require.ErrorIs(t, WriteColumns(&bytes.Buffer{}, series{[]float64{1}}, "a,b"), loadlab.ErrInvalid)
	require.ErrorIs(t, WriteColumns(&bytes.Buffer{}, series{[]float64{1}}, "x"), loadlab.ErrInvalid)
}

// Column matches names case-insensitively, so a header that repeats a
// name could only ever give the first column: an error naming the
// column, instead of the silent choice (before the fix "A,A,T" read A
// from column 1 and never saw column 2).
func TestReadTableDuplicateHeader(t *testing.T) {
	_, err := ReadTable(strings.NewReader("A,a,T\n1,2,3\n"))
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.Contains(t, err.Error(), "column 2")
}

// Two fields or map keys with the same JSON key would overwrite each
// other: an error, not a silent loss (before the fix the later won).
func TestMarshalJSONKeyClash(t *testing.T) {
	_, err := MarshalJSON(struct {
		X int
		B int `json:"X"`
	}{1, 2})
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = MarshalJSON(map[any]int{1: 1, "1": 2})
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	b, err := MarshalJSON(map[string]float64{"a": 1, "b": math.NaN()})
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":1,"b":null}`, string(b))
}

// A nil reader or writer panics naming it (docs/conventions.md §2);
// before, it was a nil dereference inside bufio.
func TestNilReaderWriter(t *testing.T) {
	assert.PanicsWithValue(t, "dataio: ReadTable: r is nil", func() { _, _ = ReadTable(nil) })
	assert.PanicsWithValue(t, "dataio: ReadNetworkJSON: r is nil", func() { _, _ = ReadNetworkJSON(nil) })
	assert.PanicsWithValue(t, "dataio: WriteTable: w is nil", func() { _ = WriteTable(nil, []string{"x"}, nil) })
}
