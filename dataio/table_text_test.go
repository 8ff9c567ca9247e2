package dataio

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/graphio"
)

// TestTableText: columns named in TableOptions.Text come back as text,
// row by row beside the numbers, whatever they hold (a timestamp, a
// name that reads as a number), and are not screened; the numeric
// columns are the others, or those of Columns.
func TestTableText(t *testing.T) {
	src := "# clients\nclient,server,mean,sigma\nc1, s1 ,2,0.5\n\nc2,2026-03-02T08:00:00Z,3,1\n7,s1,4,0\n"
	tab, err := ReadTable(strings.NewReader(src), &TableOptions{Text: []string{"client", "SERVER"}})
	if err != nil {
		t.Fatal(err)
	}
	wantText := [][]string{{"c1", "s1"}, {"c2", "2026-03-02T08:00:00Z"}, {"7", "s1"}}
	if !slices.EqualFunc(tab.Text, wantText, slices.Equal) || !slices.Equal(tab.TextColumns, []string{"client", "server"}) {
		t.Errorf("text %q columns %q, want %q", tab.Text, tab.TextColumns, wantText)
	}
	if !slices.Equal(tab.Columns, []string{"mean", "sigma"}) || !slices.Equal(tab.Lines, []int{3, 5, 6}) || tab.Rows[2][0] != 4 {
		t.Errorf("numbers %v %v lines %v", tab.Columns, tab.Rows, tab.Lines)
	}
	// With Columns, only those are numbers; by number without a header.
	tab, err = ReadTable(strings.NewReader("a 1 2\nb 3 4\n"), &TableOptions{Columns: []string{"3"}, Text: []string{"1"}})
	if err != nil || tab.Rows[1][0] != 4 || tab.Text[1][0] != "b" || tab.TextColumns != nil {
		t.Errorf("%+v, %v", tab, err)
	}
	for name, c := range map[string]struct {
		src  string
		opts TableOptions
		want string
	}{
		"text and number":  {"a,b\nx,1\n", TableOptions{Columns: []string{"a", "b"}, Text: []string{"a"}}, "read as text"},
		"unknown column":   {"a,b\nx,1\n", TableOptions{Text: []string{"c"}}, "no such column"},
		"twice":            {"a,b\nx,1\n", TableOptions{Text: []string{"a", "1"}}, "already read as TableOptions.Text[0]"},
		"number cell":      {"a,b\nx,y\n", TableOptions{Text: []string{"a"}}, `"y"`},
		"header by number": {"x 1\ny 2\n", TableOptions{Text: []string{"name"}}, "no header line"},
	} {
		_, err := ReadTable(strings.NewReader(c.src), &c.opts)
		var pe *graphio.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a ParseError naming %q", name, err, c.want)
		}
	}
	if err := (&TableOptions{Text: []string{"0"}}).Validate(); !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), "TableOptions.Text") {
		t.Errorf("Text column 0: %v", err)
	}
}
