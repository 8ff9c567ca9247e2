package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sweepCSV reads a result CSV: its header and rows.
func sweepCSV(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%s: %v, %d records", path, err, len(recs))
	}
	return recs[0], recs[1:]
}

// sweepCol returns the index of column name.
func sweepCol(t *testing.T, head []string, name string) int {
	t.Helper()
	for i, h := range head {
		if h == name {
			return i
		}
	}
	t.Fatalf("no column %q in %v", name, head)
	return -1
}

// TestSweepPrecision: "sweep --direct --rel" runs the consensus and
// mobility estimates until every half-width meets the target; with the
// runs it reports as the configuration's runs, the fixed-runs result is
// the same bytes (the precision only chooses where to stop). Codedload
// points stop one by one, each within its target. A cap that comes
// first exits 1 with the result written; precision flags without
// --direct, and sweeps without a precision mode, exit 2.
func TestSweepPrecision(t *testing.T) {
	const rel = 0.05
	for _, c := range []struct{ name, cfg, runs string }{
		{"consensus", sweepConsensusCfg, `"runs":9`},
		{"mobility", sweepMobilityCfg, `"runs":7`},
	} {
		dir := t.TempDir()
		cfg := sweepWrite(t, dir, "cfg.json", c.cfg)
		sweepMustRun(t, "--config", cfg, "--direct", "--rel", fmt.Sprint(rel), "--out", filepath.Join(dir, "p"))
		head, rows := sweepCSV(t, filepath.Join(dir, "p.csv"))
		mean, lo, hi, n := sweepCol(t, head, "mean"), sweepCol(t, head, "lo"), sweepCol(t, head, "hi"), sweepCol(t, head, "n")
		runs := rows[0][n]
		for _, r := range rows {
			m, l, h := parse(t, r[mean]), parse(t, r[lo]), parse(t, r[hi])
			if r[n] != runs {
				t.Errorf("%s: rows with %s and %s runs: one stop for every estimate", c.name, runs, r[n])
			}
			if strings.HasSuffix(r[0], "OPT ratio") {
				continue // 1 in every run, not watched
			}
			if (h-l)/2 > rel*abs(m)*(1+1e-12) {
				t.Errorf("%s %v: half-width %v above %v·|%v|", c.name, r[0], (h-l)/2, rel, m)
			}
		}
		if parse(t, runs) <= 10 {
			t.Errorf("%s: stopped at %s runs, before the off-mode runs the rule needs", c.name, runs)
		}
		fixed := sweepWrite(t, dir, "fixed.json", strings.Replace(c.cfg, c.runs, `"runs":`+runs, 1))
		sweepMustRun(t, "--config", fixed, "--direct", "--out", filepath.Join(dir, "f"))
		if a, b := sweepRead(t, filepath.Join(dir, "p.csv")), sweepRead(t, filepath.Join(dir, "f.csv")); string(a) != string(b) {
			t.Errorf("%s: precision result\n%s\nfixed %s runs\n%s", c.name, a, runs, b)
		}
	}

	dir := t.TempDir()
	cfg := sweepWrite(t, dir, "sizes.json", sweepSizesCfg)
	sweepMustRun(t, "--config", cfg, "--direct", "--rel", "0.05", "--out", filepath.Join(dir, "s"))
	head, rows := sweepCSV(t, filepath.Join(dir, "s.csv"))
	metric, mean, lo, hi := sweepCol(t, head, "metric"), sweepCol(t, head, "mean"), sweepCol(t, head, "lo"), sweepCol(t, head, "hi")
	for _, r := range rows {
		if r[metric] == "outage" {
			continue // not watched
		}
		if m, l, h := parse(t, r[mean]), parse(t, r[lo]), parse(t, r[hi]); (h-l)/2 > 0.05*abs(m)*(1+1e-12) {
			t.Errorf("codedload-sizes %v: half-width %v above 5 %% of %v", r, (h-l)/2, m)
		}
	}

	cons := sweepWrite(t, dir, "cons.json", sweepConsensusCfg)
	capped := filepath.Join(dir, "capped")
	code, log := sweepExec("--config", cons, "--direct", "--rel", "1e-6", "--max-runs", "12", "--out", capped)
	if code != exitFailed || !strings.Contains(log, "not converged") {
		t.Fatalf("capped: exit %d\n%s", code, log)
	}
	head, rows = sweepCSV(t, capped+".csv")
	if rows[0][sweepCol(t, head, "n")] != "12" {
		t.Errorf("capped result %v: want 12 runs", rows[0])
	}

	attr := sweepWrite(t, dir, "attr.json", sweepAttractorsCfg)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", attr, "--direct", "--rel", "0.1", "--out", filepath.Join(dir, "a")}, "no precision mode"},
		{[]string{"--config", cons, "--shard", "0/2", "--rel", "0.1", "--out", filepath.Join(dir, "s0.jsonl")}, "go with --direct"},
		{[]string{"--config", cons, "--direct", "--max-runs", "50", "--out", filepath.Join(dir, "m")}, "--max-runs = 50"},
	} {
		if code, log := sweepExec(c.args...); code != exitBadInput || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s", c.args, code, c.want, log)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.csv")); err == nil {
		t.Error("a refused precision run wrote its result")
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}
