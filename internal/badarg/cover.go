package badarg

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// EntryPoints returns the exported functions ("F") and the exported
// methods of exported types ("T.M") declared in the non-test Go files of
// dir (all build variants). The value says whether a bad input can reach
// the entry point, so that it must be probed: it takes an argument
// besides the receiver, returns an error (about the receiver's fields;
// not Unwrap), or is a Validate method. Accessors without arguments map
// to false.
func EntryPoints(dir string) (map[string]bool, error) {
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	eps := map[string]bool{}
	for _, e := range files {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if id := entryName(fd); id != "" {
					eps[id] = eps[id] || reachable(fd)
				}
			}
		}
	}
	return eps, nil
}

// reachable reports whether a bad input can reach fd: it has an
// argument, an error result (other than an Unwrap, which reads an error
// chain), or is a Validate method.
func reachable(fd *ast.FuncDecl) bool {
	if fd.Type.Params.NumFields() > 0 || fd.Name.Name == "Validate" {
		return true
	}
	if fd.Type.Results == nil || fd.Name.Name == "Unwrap" {
		return false
	}
	for _, r := range fd.Type.Results.List {
		if id, ok := r.Type.(*ast.Ident); ok && id.Name == "error" {
			return true
		}
	}
	return false
}

// entryName is "F" or "T.M" for an exported declaration, "" otherwise.
func entryName(fd *ast.FuncDecl) string {
	if !fd.Name.IsExported() {
		return ""
	}
	if fd.Recv == nil {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch g := typ.(type) {
	case *ast.IndexExpr:
		typ = g.X
	case *ast.IndexListExpr:
		typ = g.X
	}
	id, ok := typ.(*ast.Ident)
	if !ok || !id.IsExported() {
		return ""
	}
	return id.Name + "." + fd.Name.Name
}

// Uncovered compares the entry points of dir with the Func of the cases
// and the exemptions (entry point → reason). It returns one line for
// each entry point that must be probed and is neither probed nor exempt,
// each exemption without a reason or of an entry point also probed, and
// each Func or exemption that names no exported entry point.
func Uncovered(dir string, cases []Case, exempt map[string]string) ([]string, error) {
	eps, err := EntryPoints(dir)
	if err != nil {
		return nil, err
	}
	probed := map[string]bool{}
	for _, c := range cases {
		probed[c.Func] = true
	}
	var out []string
	for ep, must := range eps {
		if _, ok := exempt[ep]; must && !ok && !probed[ep] {
			out = append(out, ep+": not probed and not exempt")
		}
	}
	for name, why := range exempt {
		_, known := eps[name]
		switch {
		case !known:
			out = append(out, name+": exempt but not an exported entry point")
		case strings.TrimSpace(why) == "":
			out = append(out, name+": exempt without a reason")
		case probed[name]:
			out = append(out, name+": both probed and exempt")
		}
	}
	for name := range probed {
		if _, known := eps[name]; !known {
			out = append(out, name+": probed but not an exported entry point")
		}
	}
	slices.Sort(out)
	return out, nil
}

// Coverage fails t for each line of Uncovered(dir, cases, exempt).
func Coverage(t testing.TB, dir string, cases []Case, exempt map[string]string) {
	t.Helper()
	out, err := Uncovered(dir, cases, exempt)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range out {
		t.Error(fmt.Sprintf("coverage of %s: %s", dir, line))
	}
}
