package graphio

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/loadlab/loadlab"
)

// ReadFile reads the graph file at path, choosing the reader by the
// extension: .csv, .tsv, .txt, .edges, .edgelist, .el → ReadEdgeList;
// .graphml, .xml → ReadGraphML; .dot, .gv → ReadDOT; .mtx → ReadMatrixMarket.
// Errors carry the file name.
func ReadFile(path string, opts *Options) (*Data, error) {
	read, err := readerFor(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := read(f, opts)
	return d, withFile(err, path)
}

func readerFor(path string) (func(*os.File, *Options) (*Data, error), error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv", ".txt", ".edges", ".edgelist", ".el":
		return func(f *os.File, o *Options) (*Data, error) { return ReadEdgeList(f, o) }, nil
	case ".graphml", ".xml":
		return func(f *os.File, o *Options) (*Data, error) { return ReadGraphML(f, o) }, nil
	case ".dot", ".gv":
		return func(f *os.File, o *Options) (*Data, error) { return ReadDOT(f, o) }, nil
	case ".mtx":
		return func(f *os.File, o *Options) (*Data, error) { return ReadMatrixMarket(f, o) }, nil
	}
	return nil, loadlab.Invalid("graphio", "ReadFile(%q): unknown extension %q, want .csv, .tsv, .txt, .edges, .graphml, .xml, .dot, .gv or .mtx", path, filepath.Ext(path))
}
