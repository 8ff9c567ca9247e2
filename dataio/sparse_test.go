package dataio

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/graphio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// netC returns the correlation matrix of nw in whichever form it is stored.
func netC(nw *anycast.Network) mat.Matrix {
	if nw.Sparse != nil {
		return nw.Sparse
	}
	return nw.C
}

// A sparse network is written as C_triplets and reads back sparse with
// the same entries, bit for bit (JSON numbers round-trip float64
// exactly); a dense network reads back dense. Before the change the
// reader built a dense N × N C from triplets.
func TestNetworkJSONSparseRoundTrip(t *testing.T) {
	nw, err := anycast.GenerateCDN(rand.NewPCG(5, 6), &anycast.CDNSettings{N: 300, K: 4})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteNetworkJSON(&b, nw))
	assert.Contains(t, b.String(), `"C_triplets"`)
	assert.NotContains(t, b.String(), `"C":`)
	back, err := ReadNetworkJSON(&b)
	require.NoError(t, err)
	require.NotNil(t, back.Sparse, "triplets must give a sparse C")
	assert.Nil(t, back.C)
	assert.Equal(t, nw.A, back.A)
	assert.Equal(t, nw.T, back.T)
	require.Equal(t, nw.NNZ(), back.NNZ())
	for j := 0; j < nw.N(); j++ {
		c0, v0 := nw.Row(j)
		c1, v1 := back.Row(j)
		require.Equal(t, c0, c1, "row %d", j)
		require.Equal(t, v0, v1, "row %d", j)
	}

	// Dense in, dense out.
	de, err := anycast.NewNetwork(nw.A, mat.DenseCopyOf(nw.Sparse), nw.T)
	require.NoError(t, err)
	b.Reset()
	require.NoError(t, WriteNetworkJSON(&b, de))
	back, err = ReadNetworkJSON(&b)
	require.NoError(t, err)
	require.NotNil(t, back.C)
	assert.Nil(t, back.Sparse)
	assert.True(t, mat.Equal(de.C, back.C))
}

// Bad triplets: an index error or a duplicate names the triplet (a
// *graphio.ParseError); a bad value or row is anycast's *EntryError with
// its row and column; all wrap loadlab.ErrInvalid.
func TestReadTripletsErrors(t *testing.T) {
	_, err := ReadNetworkJSON(strings.NewReader(`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 1, 0.5], [1, 1, 0.5]]}`))
	var pe *graphio.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "C_triplets[2]", pe.Field)
	assert.Contains(t, pe.Msg, "first at C_triplets[1]")
	require.ErrorIs(t, err, loadlab.ErrInvalid)

	for src, want := range map[string][2]int{
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 0, -0.5], [1, 1, 1.5]]}`: {1, 0},  // negative
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 0, 0.5], [1, 1, 0.4]]}`:  {1, -1}, // row sum
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1]]}`:                            {1, -1}, // empty row
	} {
		_, err := ReadNetworkJSON(strings.NewReader(src))
		var ee *anycast.EntryError
		require.True(t, errors.As(err, &ee), "%s: %v", src, err)
		assert.Equal(t, want, [2]int{ee.Row, ee.Col}, src)
		require.ErrorIs(t, err, loadlab.ErrInvalid)
	}
	// CSV triplets: the same checks, the field named "triplet".
	_, err = ReadNetworkCSV(strings.NewReader("A,T\n1,1\n"), strings.NewReader("i,j,c\n0,0,0.5\n0,0,0.5\n"))
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "triplet[1]", pe.Field)
}

// A network without "C" and without "C_triplets" named neither: before
// the fix it was read as an empty triplet list and reported as "row 0 of
// C: empty row", an error about a matrix the file never gave.
func TestReadNetworkJSONMissingC(t *testing.T) {
	_, err := ReadNetworkJSON(strings.NewReader(`{"A": [1, 2], "T": [1, 1]}`))
	var pe *graphio.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "C", pe.Field)
	assert.Contains(t, pe.Msg, "C_triplets")
	require.ErrorIs(t, err, loadlab.ErrInvalid)
}
