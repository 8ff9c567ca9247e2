package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/plots"
)

// answer is what a subcommand computed: tables for people and for
// --csv, a value for --json, notes under the tables, and a drawing for
// --plot.
type answer struct {
	tables []*table
	value  any      // written by --json; nil means the tables
	notes  []string // printed under the tables only
	// draw makes the picture of --plot; nil means the subcommand has no
	// picture, and --plot is a usage error.
	draw func() (plots.Drawer, vg.Length, vg.Length, error)
}

// table is a titled table whose cells are float64, int, string or nil
// (printed empty).
type table struct {
	name string
	cols []string
	rows [][]any
}

// add appends a row.
func (t *table) add(cells ...any) { t.rows = append(t.rows, cells) }

// emit writes the answer in the format the flags ask for, to stdout or
// to --out (atomically), and draws --plot (atomically). Nothing is
// written when rendering fails.
func (a *app) emit(ans *answer) error {
	if a.plotPath != "" && ans.draw == nil {
		return usagef("this answer has no picture: drop --plot")
	}
	var buf bytes.Buffer
	if err := a.render(&buf, ans); err != nil {
		return err
	}
	if a.plotPath != "" {
		if err := savePlot(a.plotPath, ans.draw); err != nil {
			return err
		}
	}
	if a.outPath != "" {
		return writeFileAtomic(a.outPath, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
	}
	_, err := a.stdout.Write(buf.Bytes())
	return err
}

// checkOutputs fails early, before any computation, on output flags
// that cannot be honoured: a --plot extension that names no picture
// format, an output folder that does not exist.
func (a *app) checkOutputs() error {
	if a.plotPath != "" {
		switch strings.ToLower(filepath.Ext(a.plotPath)) {
		case ".png", ".svg":
		default:
			return usagef("--plot %q: want a .png or .svg file", a.plotPath)
		}
		if err := checkDir(a.plotPath); err != nil {
			return err
		}
	}
	if a.outPath != "" {
		return checkDir(a.outPath)
	}
	return nil
}

// checkDir checks that the folder of path exists.
func checkDir(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return usagef("output %q: folder %q: %v", path, dir, err)
	}
	if !st.IsDir() {
		return usagef("output %q: %q is not a folder", path, dir)
	}
	return nil
}

// render writes the answer as a table, JSON or CSV.
func (a *app) render(w io.Writer, ans *answer) error {
	switch {
	case a.json:
		v := ans.value
		if v == nil {
			v = tablesJSON(ans.tables)
		}
		b, err := dataio.MarshalJSON(v)
		if err != nil {
			return err
		}
		var out bytes.Buffer
		if err := indentJSON(&out, b); err != nil {
			return err
		}
		_, err = w.Write(out.Bytes())
		return err
	case a.csv:
		t, err := pickTable(ans.tables, a.table)
		if err != nil {
			return err
		}
		return writeCSV(w, t)
	}
	if a.table != "" {
		return usagef("--table needs --csv")
	}
	return writeText(w, ans)
}

// pickTable returns the table named name, or the first for "".
func pickTable(ts []*table, name string) (*table, error) {
	if len(ts) == 0 {
		return nil, usagef("this answer has no table for --csv: use --json")
	}
	if name == "" {
		return ts[0], nil
	}
	var names []string
	for _, t := range ts {
		if t.name == name {
			return t, nil
		}
		names = append(names, t.name)
	}
	return nil, usagef("--table %q: the answer's tables are %s", name, strings.Join(names, ", "))
}

// writeText writes each table aligned, under its name, then the notes.
func writeText(w io.Writer, ans *answer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, t := range ans.tables {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		if len(ans.tables) > 1 || t.name != "" {
			fmt.Fprintf(tw, "%s\n", t.name)
		}
		fmt.Fprintln(tw, strings.Join(t.cols, "\t"))
		for _, r := range t.rows {
			cells := make([]string, len(r))
			for j, c := range r {
				cells[j] = formatCell(c, false)
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range ans.notes {
		if _, err := fmt.Fprintln(w, n); err != nil {
			return err
		}
	}
	return nil
}

// writeCSV writes a table with full-precision numbers.
func writeCSV(w io.Writer, t *table) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.cols); err != nil {
		return err
	}
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = formatCell(c, true)
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// formatCell prints a cell: floats with 6 significant digits for people,
// with the shortest exact form for machines (full).
func formatCell(c any, full bool) string {
	switch v := c.(type) {
	case nil:
		return ""
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if full {
				return strconv.FormatFloat(v, 'g', -1, 64)
			}
			return fmt.Sprint(v)
		}
		if full {
			return strconv.FormatFloat(v, 'g', -1, 64)
		}
		return strconv.FormatFloat(v, 'g', 6, 64)
	case int:
		return strconv.Itoa(v)
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(c)
}

// tablesJSON is the JSON form of tables without a value of their own:
// one object per table, its rows as objects keyed by column (what
// pandas.json_normalize and jq read directly).
func tablesJSON(ts []*table) any {
	type jt struct {
		Name string           `json:"name"`
		Rows []map[string]any `json:"rows"`
	}
	out := make([]jt, len(ts))
	for i, t := range ts {
		rows := make([]map[string]any, len(t.rows))
		for r, cells := range t.rows {
			m := make(map[string]any, len(cells))
			for j, c := range cells {
				m[t.cols[j]] = c
			}
			rows[r] = m
		}
		out[i] = jt{t.name, rows}
	}
	return out
}

// savePlot draws the answer's picture into path, through a temporary
// file in the same folder renamed into place, so a failure leaves no
// file behind.
func savePlot(path string, draw func() (plots.Drawer, vg.Length, vg.Length, error)) error {
	d, w, h, err := draw()
	if err != nil {
		return err
	}
	if w == 0 {
		w, h = plots.DefaultWidth, plots.DefaultHeight
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*"+filepath.Ext(path))
	if err != nil {
		return err
	}
	name := tmp.Name()
	tmp.Close()
	if err := os.Chmod(name, 0o644); err != nil {
		os.Remove(name)
		return err
	}
	if err := plots.Save(d, w, h, name); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// writeFileAtomic writes path through a temporary file in the same
// folder, synced and renamed into place only when fill succeeded.
func writeFileAtomic(path string, fill func(w io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return err
	}
	// CreateTemp makes the file private (0600); an answer is a file like
	// any other, readable by the group and others as the shell would make
	// it.
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// indentJSON indents compact JSON and ends it with a newline.
func indentJSON(dst *bytes.Buffer, b []byte) error {
	if err := json.Indent(dst, b, "", "  "); err != nil {
		return err
	}
	return dst.WriteByte('\n')
}
