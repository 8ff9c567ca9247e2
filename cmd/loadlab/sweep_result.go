package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/sweep"
)

// sweepTable is a sweep's result: named columns and rows of cells, each a
// float64, int, string or bool. Merge and --direct build it from the
// same library type with the same function, so equal tables mean equal
// results.
type sweepTable struct {
	Columns []string
	Rows    [][]any
}

// sweepRow is one named estimate of a sweep's result.
type sweepRow struct {
	Name     string
	Estimate loadlab.Estimate
}

// sweepEstimateColumns are the columns of one estimate.
var sweepEstimateColumns = []string{"mean", "lo", "hi", "stderr", "n"}

// sweepCells returns the cells of e in the order of sweepEstimateColumns.
func sweepCells(e loadlab.Estimate) []any { return []any{e.Mean, e.Lo, e.Hi, e.StdErr, e.N} }

// sweepEstimateTable is the table of named estimates: name, mean, lo, hi,
// stderr, n.
func sweepEstimateTable(rows []sweepRow) sweepTable {
	t := sweepTable{Columns: append([]string{"name"}, sweepEstimateColumns...)}
	for _, r := range rows {
		t.Rows = append(t.Rows, append([]any{r.Name}, sweepCells(r.Estimate)...))
	}
	return t
}

// sweepEstimate summarizes xs like the library's sweeps do.
func sweepEstimate(xs []float64) loadlab.Estimate {
	s := mc.Summarize(xs)
	return loadlab.Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: s.N}
}

// sweepColumn returns value k of every run.
func sweepColumn(values [][]float64, k int) []float64 {
	xs := make([]float64, len(values))
	for r, v := range values {
		xs[r] = v[k]
	}
	return xs
}

// sweepCheckWidths returns an error unless every run has want values.
func sweepCheckWidths(name string, values [][]float64, want int) error {
	for r, v := range values {
		if len(v) != want {
			return loadlab.Invalid("sweep", "%s run %d: %d values, want %d", name, r, len(v), want)
		}
	}
	return nil
}

// sweepFormat writes a cell: floats in shortest round-trip form.
func sweepFormat(c any) string {
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

// sweepJSONRow writes one row as a JSON object with the table's columns as
// keys, in order; floats as sweep.Value (round trip, NaN and ±Inf).
type sweepJSONRow struct {
	cols  []string
	cells []any
}

func (r sweepJSONRow) MarshalJSON() ([]byte, error) {
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

type sweepJSONResult struct {
	Sweep      string         `json:"sweep"`
	ConfigHash string         `json:"config_sha256"`
	Seed       uint64         `json:"seed"`
	Runs       int            `json:"runs"`
	Results    []sweepJSONRow `json:"results"`
}

// sweepWriteResult writes base.csv (a header of the columns, then the
// rows; floats in shortest round-trip form) and base.json, each through
// writeFileAtomic. Both are rendered before either is written, and if
// base.json cannot be written base.csv is removed: a failure leaves no
// half-written file and no result without its other half.
func sweepWriteResult(out string, p sweep.Plan, t sweepTable) error {
	base := sweepResultBase(out)
	hash, _ := p.Hash()
	res := sweepJSONResult{Sweep: p.Name, ConfigHash: hash, Seed: p.Seed, Runs: p.Runs, Results: []sweepJSONRow{}}
	recs := [][]string{t.Columns}
	for _, row := range t.Rows {
		if len(row) != len(t.Columns) {
			panic(fmt.Sprintf("sweep: row of %d cells, %d columns", len(row), len(t.Columns)))
		}
		rec := make([]string, len(row))
		for i, c := range row {
			rec[i] = sweepFormat(c)
		}
		recs = append(recs, rec)
		res.Results = append(res.Results, sweepJSONRow{t.Columns, row})
	}
	var csvData bytes.Buffer
	if err := csv.NewWriter(&csvData).WriteAll(recs); err != nil {
		return err
	}
	jsonData, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	jsonData = append(jsonData, '\n')
	if err := sweepWriteFile(base+".csv", csvData.Bytes()); err != nil {
		return err
	}
	if err := sweepWriteFile(base+".json", jsonData); err != nil {
		os.Remove(base + ".csv")
		return err
	}
	return nil
}

// sweepWriteFile writes data to path atomically.
func sweepWriteFile(path string, data []byte) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
