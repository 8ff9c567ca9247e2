package dataio

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/graphio"
)

// TableOptions tunes ReadTable and the readers built on it (ReadTrace,
// ReadInstance). A nil *TableOptions or the zero value means: the header
// detected, every column read, and each screened for an index or a
// timestamp (see the package comment).
type TableOptions struct {
	// Header says whether the first line is a header of column names:
	// graphio.HeaderDetect (the default) takes it as one only when no
	// field reads as a number or an ISO 8601 date or time and at least
	// one is not empty; graphio.HeaderYes and graphio.HeaderNo force it.
	Header graphio.Header

	// Columns chooses the columns to read, in this order: each is a
	// name of the header (case-insensitive) or a 1-based column number
	// written in digits ("3"). Columns chosen so are not screened: the
	// caller has said they are data. nil means every column not in Skip.
	Columns []string

	// Skip names columns not to read, as Columns does: an index, a
	// timestamp, a row label. Their cells are not parsed and may hold
	// any text. Columns and Skip cannot both be set.
	Skip []string

	// Text names columns to read as text, as Columns does: labels,
	// names. Their cells come back as written (trimmed) in Table.Text,
	// are not parsed and not screened, and are not among the numeric
	// columns (with Columns set, a column cannot be in both).
	Text []string
}

// Validate returns an error wrapping loadlab.ErrInvalid naming the first
// field out of its domain: Header not one of the three values, Columns
// and Skip both set, an empty Columns (not nil), an entry that is empty,
// has edge blanks or is the column number 0, or one repeated.
func (o *TableOptions) Validate() error {
	if o == nil {
		return nil
	}
	switch {
	case o.Header < graphio.HeaderDetect || o.Header > graphio.HeaderNo:
		return loadlab.Invalid(pkgName, "TableOptions.Header = %d, want graphio.HeaderDetect, HeaderYes or HeaderNo", o.Header)
	case o.Columns != nil && o.Skip != nil:
		return loadlab.Invalid(pkgName, "TableOptions.Columns = %q and TableOptions.Skip = %q are both set, want one of them", o.Columns, o.Skip)
	case o.Columns != nil && len(o.Columns) == 0:
		return loadlab.Invalid(pkgName, "TableOptions.Columns is empty, want nil (every column) or at least one column")
	}
	if err := checkSpecs("Columns", o.Columns); err != nil {
		return err
	}
	if err := checkSpecs("Text", o.Text); err != nil {
		return err
	}
	return checkSpecs("Skip", o.Skip)
}

// checkSpecs checks the entries of TableOptions.Columns or .Skip.
func checkSpecs(field string, specs []string) error {
	seen := make(map[string]int, len(specs))
	for k, s := range specs {
		n, isNum := columnNumber(s)
		switch {
		case s == "" || s != strings.TrimSpace(s):
			return loadlab.Invalid(pkgName, "TableOptions.%s[%d] = %q, want a column name or a 1-based column number", field, k, s)
		case isNum && n < 1:
			return loadlab.Invalid(pkgName, "TableOptions.%s[%d] = %q, want a column number ≥ 1 (columns are numbered from 1)", field, k, s)
		}
		key := strings.ToLower(s)
		if isNum {
			key = "#" + strconv.Itoa(n)
		}
		if first, dup := seen[key]; dup {
			return loadlab.Invalid(pkgName, "TableOptions.%s[%d] = %q repeats TableOptions.%s[%d]", field, k, s, field, first)
		}
		seen[key] = k
	}
	return nil
}

// columnNumber parses a column number: digits only. It reports false
// for anything else (a name); a number too large for int is returned as
// math.MaxInt, past any table's width.
func columnNumber(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return math.MaxInt, true
	}
	return n, true
}

// NetworkOptions tunes the network readers (ReadNetworkJSON,
// ReadNetworkCSV). A nil *NetworkOptions or the zero value means: every
// row of C must sum to 1 within anycast.RowSumTol, as anycast requires,
// and C is taken as it is.
type NetworkOptions struct {
	// Normalize divides each row of C by its sum, so that a measured
	// matrix whose rows sum to 1 only within measurement error becomes
	// row-stochastic (spec anycast-cdn §1.2). Never done by default.
	// A row with sum 0 is an error.
	Normalize bool

	// RowSumTol is the largest |Σ_i C_ji − 1| accepted on a row of C as
	// read (before Normalize). Zero means anycast.RowSumTol without
	// Normalize and no bound with it. A value above anycast.RowSumTol
	// needs Normalize, since the model's rows must sum to 1 within
	// anycast.RowSumTol.
	RowSumTol float64

	// Corr says how ReadNetworkCSV reads the correlation table, as
	// ReadTable's options: for example Skip: []string{"1"} for a first
	// column of row labels (a data frame's index). Its columns are never
	// screened: a column of C may read 0, 1, 0, …. ReadNetworkJSON does
	// not use it.
	Corr TableOptions
}

// Validate returns an error wrapping loadlab.ErrInvalid naming the field
// if RowSumTol is negative, NaN or infinite, or above anycast.RowSumTol
// without Normalize, or if Corr is not valid (TableOptions.Validate).
func (o *NetworkOptions) Validate() error {
	if o == nil {
		return nil
	}
	if err := o.Corr.Validate(); err != nil {
		return fmt.Errorf("dataio: NetworkOptions.Corr: %w", err)
	}
	switch {
	case !(o.RowSumTol >= 0) || math.IsInf(o.RowSumTol, 1):
		return loadlab.Invalid(pkgName, "NetworkOptions.RowSumTol = %v, want a finite value ≥ 0", o.RowSumTol)
	case o.RowSumTol > anycast.RowSumTol && !o.Normalize:
		return loadlab.Invalid(pkgName, "NetworkOptions.RowSumTol = %v without Normalize, want ≤ anycast.RowSumTol = %g, or Normalize set: the model's rows sum to 1 within %g", o.RowSumTol, anycast.RowSumTol, anycast.RowSumTol)
	}
	return nil
}

// rowSumTol returns the tolerance in force: RowSumTol, or its default.
func (o NetworkOptions) rowSumTol() float64 {
	switch {
	case o.RowSumTol > 0:
		return o.RowSumTol
	case o.Normalize:
		return math.Inf(1)
	}
	return anycast.RowSumTol
}
