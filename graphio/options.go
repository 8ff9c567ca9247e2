package graphio

import (
	"github.com/loadlab/loadlab"
)

// Duplicates says what a reader does with an edge that appears twice.
type Duplicates int

const (
	RejectDuplicates Duplicates = iota // an error naming the second occurrence (the default)
	SumDuplicates                      // one edge whose weight is the sum (parallel conductances)
	KeepFirst                          // the first occurrence; later ones are counted in Data.Merged
)

// SelfLoops says what a reader does with an edge {u, u}.
type SelfLoops int

const (
	RejectSelfLoops SelfLoops = iota // an error naming the line (the default)
	DropSelfLoops                    // skipped, and counted in Data.SelfLoops
)

// Directed says what a reader does with directed input.
type Directed int

const (
	RejectDirected Directed = iota // an error (the default)
	Symmetrize                     // arc u→v is edge {u, v}; a reciprocal pair is a duplicate
)

// Matrix says how ReadMatrixMarket reads its matrix.
type Matrix int

const (
	// Adjacency: entry (i, j), i ≠ j, is the weight of {i, j}; a nonzero
	// diagonal entry is a self-loop. The default.
	Adjacency Matrix = iota
	// Laplacian: off-diagonal entries are −w_ij; the diagonal must equal
	// the weighted degree to within 1e-9 relative and is otherwise ignored.
	Laplacian
)

// Options tunes the readers. A nil *Options or the zero value means:
// columns by position, delimiter detected, weight attribute "weight",
// reject duplicates, self-loops and directed input, keep every component.
type Options struct {
	Duplicates Duplicates
	SelfLoops  SelfLoops
	Directed   Directed
	Matrix     Matrix

	// Largest keeps only the largest connected component (ties: the one
	// containing the lowest node index); the kept nodes are renumbered in
	// their old order and Data.Labels follows.
	Largest bool

	// Weight names the weight column of a headed edge list, the GraphML
	// attr.name and the DOT attribute; "" means "weight". An edge list
	// without a header uses its third column.
	Weight string
	// Source and Target name the endpoint columns of a headed edge list;
	// "" means the first two columns.
	Source, Target string

	// Delimiter of an edge list: 0 detects it from the first data line
	// (comma, else tab, else blanks); ' ' means runs of blanks or tabs.
	Delimiter rune

	// Header of an edge list: 0 detects it, HeaderYes and HeaderNo force.
	Header Header
}

// Header says whether an edge list starts with a header line.
type Header int

const (
	HeaderDetect Header = iota
	HeaderYes
	HeaderNo
)

// Validate returns an error naming the first field out of its range.
func (o *Options) Validate() error {
	switch {
	case o == nil:
		return nil
	case o.Duplicates < RejectDuplicates || o.Duplicates > KeepFirst:
		return loadlab.Invalid("graphio", "Options.Duplicates = %d, want RejectDuplicates, SumDuplicates or KeepFirst", o.Duplicates)
	case o.SelfLoops < RejectSelfLoops || o.SelfLoops > DropSelfLoops:
		return loadlab.Invalid("graphio", "Options.SelfLoops = %d, want RejectSelfLoops or DropSelfLoops", o.SelfLoops)
	case o.Directed < RejectDirected || o.Directed > Symmetrize:
		return loadlab.Invalid("graphio", "Options.Directed = %d, want RejectDirected or Symmetrize", o.Directed)
	case o.Matrix < Adjacency || o.Matrix > Laplacian:
		return loadlab.Invalid("graphio", "Options.Matrix = %d, want Adjacency or Laplacian", o.Matrix)
	case o.Header < HeaderDetect || o.Header > HeaderNo:
		return loadlab.Invalid("graphio", "Options.Header = %d, want HeaderDetect, HeaderYes or HeaderNo", o.Header)
	case o.Delimiter != 0 && o.Delimiter != ',' && o.Delimiter != '\t' && o.Delimiter != ' ' && o.Delimiter != ';':
		return loadlab.Invalid("graphio", "Options.Delimiter = %q, want 0, ',', ';', '\\t' or ' '", o.Delimiter)
	}
	return nil
}

// settings returns a copy of o with defaults filled in.
func settings(o *Options) (Options, error) {
	if err := o.Validate(); err != nil {
		return Options{}, err
	}
	var s Options
	if o != nil {
		s = *o
	}
	if s.Weight == "" {
		s.Weight = "weight"
	}
	return s, nil
}
