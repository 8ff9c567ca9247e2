package graphio

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
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
// no default weight, reject extra columns, duplicates, self-loops and
// directed input, keep every component. A field that does not apply to
// a format is not used by its reader.
type Options struct {
	Duplicates Duplicates
	SelfLoops  SelfLoops
	Directed   Directed
	Matrix     Matrix

	// Largest keeps only the largest connected component (ties: the one
	// containing the lowest node index); the kept nodes are renumbered in
	// their old order and Data.Labels follows.
	Largest bool

	// Weight names the weight column of an edge list header, the GraphML
	// attr.name and the DOT attribute; "" means "weight" (and, in an edge
	// list header, also w, capacity or conductance). Like Source and
	// Target, a name given here makes the first line of an edge list its
	// header; a file without a header weighs by its third column.
	Weight string

	// DefaultWeight is the weight of an edge for which the file gives
	// none (counted in Data.Defaulted); 0 means none, and then such an
	// edge is an error, except in a file without any weights (an edge
	// list without a weight column, a pattern Matrix Market file), whose
	// edges weigh 1. A GraphML key's own <default> comes first.
	DefaultWeight float64

	// Label names the node attribute whose value is a node's label
	// (GraphML attr.name, DOT attribute); "" means the node id. Every
	// node must have a value, and no two the same.
	Label string

	// ExtraColumns says what an edge list does with fields it does not
	// read: past the third of a headerless line, past the header's, or a
	// header column that is neither endpoint nor weight.
	ExtraColumns ExtraColumns

	// MaxIsolated bounds the nodes a Matrix Market size line declares
	// that no entry touches (isolated nodes, which cost memory the file
	// does not pay for); 0 means 2^20. More is loadlab.ErrTooLarge.
	MaxIsolated int

	// Source and Target name the endpoint columns of a headed edge list;
	// "" means the first two columns.
	Source, Target string

	// Delimiter of an edge list: 0 detects it from the first data line
	// (comma, else semicolon, else tab, else blanks); ' ' means runs of
	// blanks or tabs.
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

// ExtraColumns says what an edge list reader does with a column it does
// not read.
type ExtraColumns int

const (
	// RejectExtra: a field beyond the third of a headerless line or
	// beyond the header's is an error naming the line and column, and so
	// is a header column that is neither endpoint nor weight when no
	// column is named as the weight (it might be meant as one). Beside a
	// weight column chosen by name, named header columns are skipped.
	// The default.
	RejectExtra ExtraColumns = iota
	// IgnoreExtra: such fields and columns are skipped.
	IgnoreExtra
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
	case o.ExtraColumns < RejectExtra || o.ExtraColumns > IgnoreExtra:
		return loadlab.Invalid("graphio", "Options.ExtraColumns = %d, want RejectExtra or IgnoreExtra", o.ExtraColumns)
	}
	return o.validateValues()
}

// validateValues checks the fields that are not enumerations.
func (o *Options) validateValues() error {
	switch {
	case o.Delimiter != 0 && o.Delimiter != ',' && o.Delimiter != '\t' && o.Delimiter != ' ' && o.Delimiter != ';':
		return loadlab.Invalid("graphio", "Options.Delimiter = %q, want 0, ',', ';', '\\t' or ' '", o.Delimiter)
	case o.DefaultWeight != 0 && !(o.DefaultWeight >= wgraph.MinWeight && o.DefaultWeight <= wgraph.MaxWeight):
		return loadlab.Invalid("graphio", "Options.DefaultWeight = %v, want 0 (none) or a weight in [2^-500, 2^500]", o.DefaultWeight)
	case o.MaxIsolated < 0:
		return loadlab.Invalid("graphio", "Options.MaxIsolated = %d, want ≥ 0 (0 means 2^20)", o.MaxIsolated)
	case o.Header == HeaderNo && (o.Source != "" || o.Target != ""):
		return loadlab.Invalid("graphio", "Options.Source = %q, Options.Target = %q name header columns, but Options.Header = HeaderNo", o.Source, o.Target)
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
	if s.MaxIsolated == 0 {
		s.MaxIsolated = defaultMaxIsolated
	}
	return s, nil
}
