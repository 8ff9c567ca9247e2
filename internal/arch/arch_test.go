package arch

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/loadlab/loadlab"

var tick = regexp.MustCompile("`([^`]+)`")

// allowed parses the package table of docs/architecture.md: package →
// the set of loadlab packages it may import (nil for "any").
func allowed(t *testing.T, root string) map[string]map[string]bool {
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		pkg := strings.Trim(strings.TrimSpace(cells[1]), "`")
		imp := strings.TrimSpace(cells[3])
		if imp == "any" {
			rows[pkg] = nil
			continue
		}
		set := map[string]bool{}
		for _, m := range tick.FindAllStringSubmatch(imp, -1) {
			set[m[1]] = true
		}
		rows[pkg] = set
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// imports returns, for every package directory of the module, the loadlab
// packages its non-test files import. The root package is "loadlab".
func imports(t *testing.T, root string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "figures") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := name(filepath.ToSlash(rel))
		if out[pkg] == nil {
			out[pkg] = map[string]bool{}
		}
		for _, s := range file.Imports {
			p := strings.Trim(s.Path.Value, `"`)
			if p == module || strings.HasPrefix(p, module+"/") {
				out[pkg][name(strings.TrimPrefix(strings.TrimPrefix(p, module), "/"))] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func name(rel string) string {
	if rel == "" || rel == "." {
		return "loadlab"
	}
	return rel
}

// TestArchitecture checks the imports of every package against the table.
func TestArchitecture(t *testing.T) {
	root := filepath.Join("..", "..")
	rows := allowed(t, root)
	if len(rows) < 5 {
		t.Fatalf("parsed only %d rows from docs/architecture.md", len(rows))
	}
	got := imports(t, root)
	pkgs := make([]string, 0, len(got))
	for p := range got {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		allow, ok := rows[p]
		if !ok {
			t.Errorf("package %s has no row in docs/architecture.md", p)
			continue
		}
		if allow == nil {
			continue
		}
		for imp := range got[p] {
			if !allow[imp] {
				t.Errorf("package %s imports %s, which docs/architecture.md does not allow", p, imp)
			}
		}
	}
	for p := range rows {
		if _, ok := got[p]; !ok && !strings.HasPrefix(p, "examples/") {
			t.Errorf("docs/architecture.md lists %s, which does not exist", p)
		}
	}
}
