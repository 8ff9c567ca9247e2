package graphio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A three-line Matrix Market file may declare 2^28 nodes; their labels,
// diagonal and CSR offsets exceed the memory budget, so the declaration
// is ErrTooLarge before anything is allocated. Before the fix the reader
// allocated them and the process died of an out-of-memory error.
func TestMatrixMarketDeclaredNodesTooLarge(t *testing.T) {
	_, err := ReadMatrixMarket(strings.NewReader("%%MatrixMarket matrix coordinate real symmetric\n268435456 268435456 0\n"), nil)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.Contains(t, err.Error(), `rows = "268435456"`)
}

// A GraphML key's <default> is the weight of an edge without <data>
// for it (GraphML specification §2.4.3); before the fix it was ignored
// and such edges got weight 1, silently. A non-numeric default is an
// error naming the weight, as a bad <data> value is.
func TestGraphMLKeyDefault(t *testing.T) {
	const doc = `<graphml><key id="d0" for="edge" attr.name="weight" attr.type="double"><default>%s</default></key>
<graph edgedefault="undirected"><node id="a"/><node id="b"/><node id="c"/>
<edge source="a" target="b"/><edge source="b" target="c"><data key="d0">3</data></edge></graph></graphml>`
	d := mustRead(t, func(r *strings.Reader, o *Options) (*Data, error) { return ReadGraphML(r, o) }, strings.Replace(doc, "%s", "2.5", 1), nil)
	assert.Equal(t, map[[2]string]float64{{"a", "b"}: 2.5, {"b", "c"}: 3}, labelled(d))
	_, err := ReadGraphML(strings.NewReader(strings.Replace(doc, "%s", "NaN", 1)), nil)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
}

// A hyperedge is not an edge between two nodes: an error, not silently
// dropped (before the fix the graph came back with no edge).
func TestGraphMLHyperedge(t *testing.T) {
	_, err := ReadGraphML(strings.NewReader(`<graphml><graph edgedefault="undirected"><node id="a"/><node id="b"/>
<hyperedge><endpoint node="a"/><endpoint node="b"/></hyperedge></graph></graphml>`), nil)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.Contains(t, err.Error(), "hyperedge")
}

// A header naming a weight column makes the weight required: a short
// row is an error naming the line, not an edge of weight 1 (before the
// fix it was read as weight 1). A file without a header keeps "u v"
// lines of weight 1, as documented.
func TestEdgeListMissingWeightCell(t *testing.T) {
	_, err := ReadEdgeList(strings.NewReader("u,v,w\na,b,2\nb,c\n"), nil)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.Contains(t, err.Error(), "3:")
	d, err := ReadEdgeList(strings.NewReader("a b 2\nb c\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, map[[2]string]float64{{"a", "b"}: 2, {"b", "c"}: 1}, labelled(d))
	d, err = ReadEdgeList(strings.NewReader("source,target\na,b\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, 1, d.Graph.Size())
}

// The writers panic on a nil graph with a message naming it (a
// programmer error, docs/conventions.md §2), not a nil dereference.
func TestWritersNilGraph(t *testing.T) {
	var b bytes.Buffer
	assert.PanicsWithValue(t, "graphio: WriteEdgeList: g is nil", func() { _ = WriteEdgeList(&b, nil, nil) })
	assert.PanicsWithValue(t, "graphio: WriteGraphML: g is nil", func() { _ = WriteGraphML(&b, nil, nil) })
	assert.PanicsWithValue(t, "graphio: WriteMatrixMarket: g is nil", func() { _ = WriteMatrixMarket(&b, nil) })
}

// A nil reader or writer panics naming the function and the argument
// (docs/conventions.md §2); before, it was a nil dereference inside bufio.
func TestNilReaderWriter(t *testing.T) {
	assert.PanicsWithValue(t, "graphio: ReadEdgeList: r is nil", func() { _, _ = ReadEdgeList(nil, nil) })
	assert.PanicsWithValue(t, "graphio: ReadGraphML: r is nil", func() { _, _ = ReadGraphML(nil, nil) })
	assert.PanicsWithValue(t, "graphio: ReadDOT: r is nil", func() { _, _ = ReadDOT(nil, nil) })
	assert.PanicsWithValue(t, "graphio: ReadMatrixMarket: r is nil", func() { _, _ = ReadMatrixMarket(nil, nil) })
	g, err := ReadEdgeList(strings.NewReader("a b\n"), nil)
	require.NoError(t, err)
	assert.PanicsWithValue(t, "graphio: WriteEdgeList: w is nil", func() { _ = WriteEdgeList(nil, g.Graph, nil) })
}
