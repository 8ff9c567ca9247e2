package graphio

import (
	"fmt"
	"strings"

	"github.com/loadlab/loadlab"
)

// ParseError reports bad data in a graph or model file: where it is and
// what is wrong. It wraps loadlab.ErrInvalid or loadlab.ErrTooLarge.
// Packages that read other formats with graphio's parsers (dataio) set Pkg
// so the message names the package the caller called.
type ParseError struct {
	Pkg   string // package reporting the error; "" means graphio
	File  string // file name, if known
	Line  int    // 1-based line, or 0 if unknown
	Elem  string // element (GraphML, DOT) with its id or endpoints, if any: edge source="a" target="b"
	Field string // the column, attribute or entry at fault
	Value string // the offending text
	Msg   string // what is wrong with it
	Err   error  // loadlab.ErrInvalid or loadlab.ErrTooLarge
}

func (e *ParseError) Error() string {
	var b strings.Builder
	pkg := e.Pkg
	if pkg == "" {
		pkg = "graphio"
	}
	b.WriteString(pkg)
	b.WriteString(": ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
	}
	if e.File != "" || e.Line > 0 {
		b.WriteString(" ")
	}
	if e.Elem != "" {
		fmt.Fprintf(&b, "<%s> ", e.Elem)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "%s = %q: ", e.Field, e.Value)
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// bad returns a ParseError wrapping loadlab.ErrInvalid.
func bad(line int, field, value, format string, args ...any) *ParseError {
	return &ParseError{Line: line, Field: field, Value: value, Msg: fmt.Sprintf(format, args...), Err: loadlab.ErrInvalid}
}

// withFile sets the file name on a ParseError (other errors pass through).
func withFile(err error, file string) error {
	if pe, ok := err.(*ParseError); ok && pe.File == "" {
		pe.File = file
	}
	return err
}

var (
	errTooLarge = loadlab.ErrTooLarge
	errInvalid  = loadlab.ErrInvalid
)
