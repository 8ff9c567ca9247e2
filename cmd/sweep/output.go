package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/sweep"
)

// Table is a sweep's result: named columns and rows of cells, each a
// float64, int, string or bool. Merge and -direct build it from the
// same library type with the same function, so equal tables mean equal
// results.
type Table struct {
	Columns []string
	Rows    [][]any
}

// Row is one named estimate of a sweep's result.
type Row struct {
	Name     string
	Estimate loadlab.Estimate
}

// estimateColumns are the columns of one estimate.
var estimateColumns = []string{"mean", "lo", "hi", "stderr", "n"}

// cells returns the cells of e in the order of estimateColumns.
func cells(e loadlab.Estimate) []any { return []any{e.Mean, e.Lo, e.Hi, e.StdErr, e.N} }

// estimateTable is the table of named estimates: name, mean, lo, hi,
// stderr, n.
func estimateTable(rows []Row) Table {
	t := Table{Columns: append([]string{"name"}, estimateColumns...)}
	for _, r := range rows {
		t.Rows = append(t.Rows, append([]any{r.Name}, cells(r.Estimate)...))
	}
	return t
}

// estimate summarizes xs like the library's sweeps do.
func estimate(xs []float64) loadlab.Estimate {
	s := mc.Summarize(xs)
	return loadlab.Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: s.N}
}

// column returns value k of every run.
func column(values [][]float64, k int) []float64 {
	xs := make([]float64, len(values))
	for r, v := range values {
		xs[r] = v[k]
	}
	return xs
}

// checkWidths returns an error unless every run has want values.
func checkWidths(name string, values [][]float64, want int) error {
	for r, v := range values {
		if len(v) != want {
			return loadlab.Invalid("sweep", "%s run %d: %d values, want %d", name, r, len(v), want)
		}
	}
	return nil
}

// format writes a cell: floats in shortest round-trip form.
func format(c any) string {
	switch x := c.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	panic(fmt.Sprintf("sweep: cell of type %T", c))
}

// jsonRow writes one row as a JSON object with the table's columns as
// keys, in order; floats as sweep.Value (round trip, NaN and ±Inf).
type jsonRow struct {
	cols  []string
	cells []any
}

func (r jsonRow) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range r.cells {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(r.cols[i])
		if x, ok := c.(float64); ok {
			c = sweep.Value(x)
		}
		v, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

type jsonResult struct {
	Sweep      string    `json:"sweep"`
	ConfigHash string    `json:"config_sha256"`
	Seed       uint64    `json:"seed"`
	Runs       int       `json:"runs"`
	Results    []jsonRow `json:"results"`
}

// writeResult writes base.csv (a header of the columns, then the rows;
// floats in shortest round-trip form) and base.json.
func writeResult(out string, p sweep.Plan, t Table) error {
	base := resultBase(out)
	hash, _ := p.Hash()
	res := jsonResult{Sweep: p.Name, ConfigHash: hash, Seed: p.Seed, Runs: p.Runs, Results: []jsonRow{}}
	recs := [][]string{t.Columns}
	for _, row := range t.Rows {
		if len(row) != len(t.Columns) {
			panic(fmt.Sprintf("sweep: row of %d cells, %d columns", len(row), len(t.Columns)))
		}
		rec := make([]string, len(row))
		for i, c := range row {
			rec[i] = format(c)
		}
		recs = append(recs, rec)
		res.Results = append(res.Results, jsonRow{t.Columns, row})
	}
	f, err := os.Create(base + ".csv")
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(recs); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(base+".json", append(b, '\n'), 0o644)
}
