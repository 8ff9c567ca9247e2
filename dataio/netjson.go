package dataio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/graphio"
)

// ReadNetworkJSON reads an anycast network (spec anycast-cdn §2) from
// JSON: demand "A" and capacities "T" (length N), and either the dense
// correlation matrix "C" (N rows of N), which gives a network with dense
// C (Network.C), or its entries as "C_triplets" [[i, j, c], …] with
// 0-based indices, which gives a network with sparse C (Network.Sparse,
// built by anycast.NewSparseC: O(nnz) memory, no N × N matrix at any
// point). The rows of C are checked, and normalised if asked, as opts
// says (NetworkOptions). A key other than these four, a key given twice,
// a null or non-finite number, a triplet of other than three numbers and
// data after the object are errors. Errors are *graphio.ParseError
// values naming the JSON path ("A", "C[3]", "C_triplets[7]"), those of
// opts.Validate, and anycast's for the model. It panics if r is nil.
func ReadNetworkJSON(r io.Reader, opts *NetworkOptions) (*NetworkData, error) {
	mustIO("ReadNetworkJSON", "r", r)
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var o NetworkOptions
	if opts != nil {
		o = *opts
	}
	doc, err := decodeNetwork(r)
	if err != nil {
		return nil, err
	}
	c, st, err := doc.matrix(o)
	if err != nil {
		return nil, err
	}
	nw, err := anycast.NewNetwork(doc.A, c, doc.T)
	if err != nil {
		return nil, err
	}
	return &NetworkData{Network: nw, RowSumDev: st.dev, RowSumDevRow: st.row, Normalized: o.Normalize}, nil
}

// networkDoc is a network file as decoded, before any check of the model.
type networkDoc struct {
	A, T      []float64
	C         [][]float64
	CTriplets [][]float64
	hasC      bool
	hasTrip   bool
}

// cells is a JSON array of numbers that must be there: null (which
// encoding/json would leave as 0 in a float64) and a number that
// overflows float64 are errors naming the element's index and literal.
type cells []float64

func (c *cells) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = nil
		return nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make([]float64, len(raw))
	for i, r := range raw {
		v, err := strconv.ParseFloat(string(r), 64)
		if err != nil || math.IsInf(v, 0) {
			return &cellError{literal: string(r), index: i}
		}
		out[i] = v
	}
	*c = out
	return nil
}

// cellError is an element of an array that is not a finite number.
type cellError struct {
	literal string
	index   int
}

func (e *cellError) Error() string {
	return fmt.Sprintf("element %d = %s is not a finite number", e.index, e.literal)
}

// decodeNetwork reads the one JSON object of r key by key, so that a
// repeated key (which encoding/json would overwrite silently) and a key
// differing only in case (which it would match) are errors.
func decodeNetwork(r io.Reader) (*networkDoc, error) {
	dec := json.NewDecoder(r)
	if err := delim(dec, '{', "the network"); err != nil {
		return nil, err
	}
	var d networkDoc
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(dec, "", err)
		}
		key := tok.(string) // inside an object, a token before a value is its key
		if seen[key] {
			return nil, &graphio.ParseError{Pkg: pkgName, Field: "key", Value: key, Msg: "given twice", Err: loadlab.ErrInvalid}
		}
		seen[key] = true
		switch key {
		case "A":
			err = decodeVector(dec, key, &d.A)
		case "T":
			err = decodeVector(dec, key, &d.T)
		case "C":
			d.hasC = true
			err = decodeRows(dec, key, &d.C)
		case "C_triplets":
			d.hasTrip = true
			err = decodeRows(dec, key, &d.CTriplets)
		default:
			err = &graphio.ParseError{Pkg: pkgName, Field: "key", Value: key, Msg: "unknown key, want A, T, C or C_triplets (keys are case-sensitive)", Err: loadlab.ErrInvalid}
		}
		if err != nil {
			return nil, err
		}
	}
	if err := delim(dec, '}', "the network"); err != nil {
		return nil, err
	}
	// One document per file: anything after it is a damaged or
	// concatenated file, not something to ignore.
	switch tok, err := dec.Token(); {
	case err == io.EOF:
	case err != nil:
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "trailing data", Msg: fmt.Sprintf("JSON: data after the network object (near byte %d): %v", dec.InputOffset(), err), Err: loadlab.ErrInvalid}
	default:
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "trailing data", Value: fmt.Sprint(tok), Msg: "JSON: data after the network object", Err: loadlab.ErrInvalid}
	}
	return &d, nil
}

// delim reads the next token, which must be the delimiter want.
func delim(dec *json.Decoder, want json.Delim, what string) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonError(dec, what, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return &graphio.ParseError{Pkg: pkgName, Field: what, Value: fmt.Sprint(tok), Msg: fmt.Sprintf("JSON: want %q", string(want)), Err: loadlab.ErrInvalid}
	}
	return nil
}

// decodeVector decodes the array of numbers at key into dst.
func decodeVector(dec *json.Decoder, key string, dst *[]float64) error {
	var v cells
	if err := dec.Decode(&v); err != nil {
		return jsonError(dec, key, err)
	}
	if v == nil {
		return &graphio.ParseError{Pkg: pkgName, Field: key, Value: "null", Msg: "want an array of numbers", Err: loadlab.ErrInvalid}
	}
	*dst = v
	return nil
}

// decodeRows decodes the array of arrays of numbers at key into dst, row
// by row, so that an error names the row (key[j]).
func decodeRows(dec *json.Decoder, key string, dst *[][]float64) error {
	if err := delim(dec, '[', key); err != nil {
		return err
	}
	rows := [][]float64{}
	for j := 0; dec.More(); j++ {
		path := fmt.Sprintf("%s[%d]", key, j)
		var v cells
		if err := dec.Decode(&v); err != nil {
			return jsonError(dec, path, err)
		}
		if v == nil {
			return &graphio.ParseError{Pkg: pkgName, Field: path, Value: "null", Msg: "want an array of numbers", Err: loadlab.ErrInvalid}
		}
		rows = append(rows, v)
	}
	*dst = rows
	return delim(dec, ']', key)
}

// jsonError turns an error of the decoder at path into a ParseError.
func jsonError(dec *json.Decoder, path string, err error) error {
	var ce *cellError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &ce):
		return &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("%s[%d]", path, ce.index), Value: ce.literal, Msg: "not a finite number", Err: loadlab.ErrInvalid}
	case errors.As(err, &se):
		return &graphio.ParseError{Pkg: pkgName, Field: path, Msg: fmt.Sprintf("JSON syntax error at byte %d: %v", se.Offset, err), Err: loadlab.ErrInvalid}
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return &graphio.ParseError{Pkg: pkgName, Field: path, Msg: "JSON: unexpected end of input", Err: loadlab.ErrInvalid}
	}
	return &graphio.ParseError{Pkg: pkgName, Field: path, Msg: fmt.Sprintf("JSON near byte %d: %v", dec.InputOffset(), err), Err: loadlab.ErrInvalid}
}

// matrix checks the form of C and builds it, dense or sparse.
func (d *networkDoc) matrix(o NetworkOptions) (mat.Matrix, rowStats, error) {
	n := len(d.A)
	switch {
	case n == 0:
		return nil, rowStats{}, &graphio.ParseError{Pkg: pkgName, Field: "A", Value: "[]", Msg: "no nodes", Err: loadlab.ErrInvalid}
	case d.hasC && d.hasTrip:
		return nil, rowStats{}, &graphio.ParseError{Pkg: pkgName, Field: "C", Msg: "give C or C_triplets, not both", Err: loadlab.ErrInvalid}
	case !d.hasC && !d.hasTrip:
		return nil, rowStats{}, &graphio.ParseError{Pkg: pkgName, Field: "C", Msg: "missing: give the dense C or C_triplets", Err: loadlab.ErrInvalid}
	case d.hasTrip:
		for k, t := range d.CTriplets {
			if len(t) != 3 {
				return nil, rowStats{}, &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("C_triplets[%d]", k), Value: fmt.Sprint(t), Msg: fmt.Sprintf("%d numbers, want [i, j, c]", len(t)), Err: loadlab.ErrInvalid}
			}
		}
		return triplets(n, d.CTriplets, o, jsonTriplet(d.CTriplets))
	}
	if len(d.C) != n {
		return nil, rowStats{}, &graphio.ParseError{Pkg: pkgName, Field: "C", Value: fmt.Sprint(len(d.C)), Msg: fmt.Sprintf("%d rows, want N = %d", len(d.C), n), Err: loadlab.ErrInvalid}
	}
	for j, row := range d.C {
		if len(row) != n {
			return nil, rowStats{}, &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("C[%d]", j), Value: fmt.Sprint(len(row)), Msg: fmt.Sprintf("row has %d entries, want N = %d", len(row), n), Err: loadlab.ErrInvalid}
		}
	}
	return dense(d.C, o, jsonEntry)
}

// jsonTriplet places triplet k of ts by its JSON path.
func jsonTriplet(ts [][]float64) func(k int) *graphio.ParseError {
	return func(k int) *graphio.ParseError {
		return &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("C_triplets[%d]", k), Value: fmt.Sprint(ts[k]), Err: loadlab.ErrInvalid}
	}
}

// jsonEntry places entry (j, i) of a dense C, or row j for i < 0, by its
// JSON path.
func jsonEntry(j, i int) *graphio.ParseError {
	if i < 0 {
		return &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("C[%d]", j), Err: loadlab.ErrInvalid}
	}
	return &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("C[%d][%d]", j, i), Err: loadlab.ErrInvalid}
}
