package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// summaryRow is one headline of summary.txt as text: the figure, the
// quantity, its value, the reference range, the status and the
// reference's lines. A complete full run writes every figure's rows; a
// run of some figures (-only) replaces those figures' rows in the
// existing file and keeps the others (updateSummary).
type summaryRow struct {
	figure, name, value, rng, status string
	ref                              []string
}

// summaryText returns the headlines as summary rows, the reference
// wrapped at 90 columns.
func summaryText(rows []row) []summaryRow {
	out := make([]summaryRow, len(rows))
	for i, r := range rows {
		out[i] = summaryRow{r.figure, r.Name, r.FormattedValue(), r.Range(), r.Status(), wrap(r.Reference, 90)}
	}
	return out
}

func printSummary(w io.Writer, rows []row) { writeSummary(w, summaryText(rows)) }

// writeSummary writes the table: a header, then one block per figure,
// the reference wrapped under its row, so that the table reads in a
// terminal of about 120 columns.
func writeSummary(w io.Writer, rows []summaryRow) {
	if len(rows) == 0 {
		return
	}
	wn, wv, wr := len("quantity"), len("value"), len("reference range")
	for _, r := range rows {
		wn = max(wn, utf8.RuneCountInString(r.name))
		wv = max(wv, utf8.RuneCountInString(r.value))
		wr = max(wr, utf8.RuneCountInString(r.rng))
	}
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-utf8.RuneCountInString(s)) }
	fmt.Fprintf(w, "  %s  %s  %s  status\n", pad("quantity", wn), pad("value", wv), pad("reference range", wr))
	for k, r := range rows {
		if k == 0 || rows[k-1].figure != r.figure {
			fmt.Fprintf(w, "\n%s\n", r.figure)
		}
		fmt.Fprintf(w, "  %s  %s  %s  %s\n", pad(r.name, wn), pad(r.value, wv), pad(r.rng, wr), r.status)
		for _, l := range r.ref {
			fmt.Fprintf(w, "      %s\n", l)
		}
	}
}

// readSummary parses a summary.txt written by writeSummary: the header
// gives the columns' positions, a line at column 0 names a figure, a line
// indented by two a row, one indented by six a line of its reference. A
// missing file is no rows and no error.
func readSummary(path string) ([]summaryRow, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var cols [3]int
	var rows []summaryRow
	figure := ""
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		r := []rune(text)
		switch {
		case line == 1:
			if cols, err = summaryColumns(text); err != nil {
				return nil, fmt.Errorf("%s:1: %w", path, err)
			}
		case text == "":
		case !strings.HasPrefix(text, " "):
			figure = text
		case strings.HasPrefix(text, "      ") && len(rows) > 0:
			rows[len(rows)-1].ref = append(rows[len(rows)-1].ref, strings.TrimSpace(text))
		case figure == "" || len(r) <= cols[2]:
			return nil, fmt.Errorf("%s:%d: %q is not a row of a figure's block", path, line, text)
		default:
			field := func(lo, hi int) string { return strings.TrimSpace(string(r[lo:hi])) }
			rows = append(rows, summaryRow{figure: figure, name: field(2, cols[0]), value: field(cols[0], cols[1]), rng: field(cols[1], cols[2]), status: field(cols[2], len(r))})
		}
	}
	return rows, sc.Err()
}

// summaryColumns returns the rune positions of the value, reference range
// and status columns in the header line.
func summaryColumns(header string) ([3]int, error) {
	var cols [3]int
	r := []rune(header)
	for i, name := range []string{"  value", "  reference range", "  status"} {
		at := strings.Index(header, name)
		if at < 0 || !strings.HasPrefix(header, "  quantity") {
			return cols, fmt.Errorf("header %q lacks the column %q", header, strings.TrimSpace(name))
		}
		cols[i] = utf8.RuneCountInString(header[:at]) + 2
		if i > 0 && cols[i] <= cols[i-1] || cols[i] > len(r) {
			return cols, fmt.Errorf("header %q has its columns out of order", header)
		}
	}
	return cols, nil
}

// mergeSummary returns old's rows of the figures not in made, and fresh
// (the rows of the figures made), ordered by figure name as a complete
// run orders them, each figure's rows in their own order.
func mergeSummary(old []summaryRow, made []string, fresh []summaryRow) []summaryRow {
	var out []summaryRow
	for _, r := range old {
		if !slices.Contains(made, r.figure) {
			out = append(out, r)
		}
	}
	out = append(out, fresh...)
	slices.SortStableFunc(out, func(a, b summaryRow) int { return strings.Compare(a.figure, b.figure) })
	return out
}

// updateSummary rewrites dir/summary.txt with the rows of the figures
// made replaced by fresh (a made figure without headlines loses its old
// rows) and every other figure's rows kept, through a temporary file
// renamed over the old one.
func updateSummary(dir string, made []string, fresh []summaryRow) error {
	path := filepath.Join(dir, "summary.txt")
	old, err := readSummary(path)
	if err != nil {
		return err
	}
	rows := mergeSummary(old, made, fresh)
	tmp, err := os.CreateTemp(dir, ".summary-*.txt")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	w := bufio.NewWriter(tmp)
	writeSummary(w, rows)
	if err := errors.Join(w.Flush(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// compareSummaries compares the rows of the figures named in the
// summaries want and got (a partial -check: the fresh run's rows against
// the committed file's), each field by compareText. It returns one line
// per difference, a figure missing from want included.
func compareSummaries(want, got string, figures []string) ([]string, error) {
	wr, err := readSummary(want)
	if err != nil {
		return nil, err
	}
	gr, err := readSummary(got)
	if err != nil {
		return nil, err
	}
	of := func(rows []summaryRow, fig string) []summaryRow {
		var out []summaryRow
		for _, r := range rows {
			if r.figure == fig {
				out = append(out, r)
			}
		}
		return out
	}
	var diffs []string
	for _, fig := range figures {
		w, g := of(wr, fig), of(gr, fig)
		if len(w) != len(g) {
			diffs = append(diffs, fmt.Sprintf("summary.txt: %s: %d rows, want %d", fig, len(g), len(w)))
			continue
		}
		for i := range w {
			wf := []string{w[i].name, w[i].value, w[i].rng, w[i].status, strings.Join(w[i].ref, " ")}
			gf := []string{g[i].name, g[i].value, g[i].rng, g[i].status, strings.Join(g[i].ref, " ")}
			for j := range wf {
				if d := compareText(wf[j], gf[j]); d != "" {
					diffs = append(diffs, fmt.Sprintf("summary.txt: %s, row %d, field %d: %s", fig, i+1, j+1, d))
					break
				}
			}
		}
	}
	return diffs, nil
}
