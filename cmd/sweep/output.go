package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"strconv"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/sweep"
)

// Row is one named estimate of a sweep's result.
type Row struct {
	Name     string
	Estimate loadlab.Estimate
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

type jsonRow struct {
	Name   string      `json:"name"`
	Mean   sweep.Value `json:"mean"`
	Lo     sweep.Value `json:"lo"`
	Hi     sweep.Value `json:"hi"`
	StdErr sweep.Value `json:"stderr"`
	N      int         `json:"n"`
}

type jsonResult struct {
	Sweep      string    `json:"sweep"`
	ConfigHash string    `json:"config_sha256"`
	Seed       uint64    `json:"seed"`
	Runs       int       `json:"runs"`
	Results    []jsonRow `json:"results"`
}

func format(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// writeResult writes base.csv (name, mean, lo, hi, stderr, n; floats in
// shortest round-trip form) and base.json.
func writeResult(out string, p sweep.Plan, rows []Row) error {
	base := resultBase(out)
	hash, _ := p.Hash()
	res := jsonResult{Sweep: p.Name, ConfigHash: hash, Seed: p.Seed, Runs: p.Runs}
	recs := [][]string{{"name", "mean", "lo", "hi", "stderr", "n"}}
	for _, r := range rows {
		e := r.Estimate
		recs = append(recs, []string{r.Name, format(e.Mean), format(e.Lo), format(e.Hi), format(e.StdErr), strconv.Itoa(e.N)})
		res.Results = append(res.Results, jsonRow{r.Name, sweep.Value(e.Mean), sweep.Value(e.Lo), sweep.Value(e.Hi), sweep.Value(e.StdErr), e.N})
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
