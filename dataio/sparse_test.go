package dataio

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/graphio"
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
// exactly), never through a dense N × N C; a dense network reads back
// dense.
func TestNetworkJSONSparseRoundTrip(t *testing.T) {
	nw, err := anycast.GenerateCDN(rand.NewPCG(5, 6), &anycast.CDNSettings{N: 300, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteNetworkJSON(&b, nw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"C_triplets"`) || strings.Contains(b.String(), `"C":`) {
		t.Errorf("a sparse network written without C_triplets or with a dense C")
	}
	bd, err := ReadNetworkJSON(&b, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := bd.Network
	if back.Sparse == nil || back.C != nil {
		t.Fatalf("triplets must give a sparse C, and no dense one")
	}
	if !slices.Equal(nw.A, back.A) || !slices.Equal(nw.T, back.T) {
		t.Errorf("A or T differ after the round trip")
	}
	if nw.NNZ() != back.NNZ() {
		t.Fatalf("NNZ %d, want %d", back.NNZ(), nw.NNZ())
	}
	for j := 0; j < nw.N(); j++ {
		c0, v0 := nw.Row(j)
		c1, v1 := back.Row(j)
		if !slices.Equal(c0, c1) || !slices.Equal(v0, v1) {
			t.Fatalf("row %d: %v %v, want %v %v", j, c1, v1, c0, v0)
		}
	}

	// Dense in, dense out.
	de, err := anycast.NewNetwork(nw.A, mat.DenseCopyOf(nw.Sparse), nw.T)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := WriteNetworkJSON(&b, de); err != nil {
		t.Fatal(err)
	}
	bd, err = ReadNetworkJSON(&b, nil)
	if err != nil {
		t.Fatal(err)
	}
	back = bd.Network
	if back.C == nil || back.Sparse != nil {
		t.Fatalf("a dense C must read back dense")
	}
	if !mat.Equal(de.C, back.C) {
		t.Errorf("dense C differs after the round trip")
	}
}

// Bad triplets: an index error, a duplicate, a bad value or a row whose
// sum misses 1 is a *graphio.ParseError naming the triplet (a row by
// its first triplet, or alone when it has none); all wrap
// loadlab.ErrInvalid.
func TestReadTripletsErrors(t *testing.T) {
	_, err := ReadNetworkJSON(strings.NewReader(`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 1, 0.5], [1, 1, 0.5]]}`), nil)
	var pe *graphio.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) {
		t.Fatalf("duplicate triplet: %v, want a *graphio.ParseError wrapping ErrInvalid", err)
	}
	if pe.Field != "C_triplets[2]" || !strings.Contains(pe.Msg, "first at C_triplets[1]") {
		t.Errorf("duplicate triplet: field %q, msg %q", pe.Field, pe.Msg)
	}
	for src, want := range map[string]string{
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 0, -0.5], [1, 1, 1.5]]}`: "C_triplets[1]",                   // negative
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1], [1, 0, 0.5], [1, 1, 0.4]]}`:  "row 1 of C (from C_triplets[1])", // row sum
		`{"A": [1, 1], "T": [1, 1], "C_triplets": [[0, 0, 1]]}`:                            "row 1 of C",                      // empty row
	} {
		_, err := ReadNetworkJSON(strings.NewReader(src), nil)
		if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) {
			t.Fatalf("%s: %v, want a *graphio.ParseError wrapping ErrInvalid", src, err)
		}
		if pe.Field != want {
			t.Errorf("%s: field %q, want %q (%v)", src, pe.Field, want, err)
		}
	}
	// CSV triplets: the same checks, the field named "triplet".
	_, err = ReadNetworkCSV(strings.NewReader("A,T\n1,1\n"), strings.NewReader("i,j,c\n0,0,0.5\n0,0,0.5\n"), nil)
	if !errors.As(err, &pe) || pe.Field != "triplet[1]" {
		t.Errorf("CSV duplicate triplet: %v, want field triplet[1]", err)
	}
}

// A network without "C" and without "C_triplets" names both (guards: an
// empty triplet list reported as "row 0 of C: empty row", an error about
// a matrix the file never gave).
func TestReadNetworkJSONMissingC(t *testing.T) {
	_, err := ReadNetworkJSON(strings.NewReader(`{"A": [1, 2], "T": [1, 1]}`), nil)
	var pe *graphio.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) {
		t.Fatalf("%v, want a *graphio.ParseError wrapping ErrInvalid", err)
	}
	if pe.Field != "C" || !strings.Contains(pe.Msg, "C_triplets") {
		t.Errorf("field %q, msg %q", pe.Field, pe.Msg)
	}
}
