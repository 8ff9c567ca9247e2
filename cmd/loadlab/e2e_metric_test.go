package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNomadicMetricGolden: "nomadic compare --migration-costs" on the
// hop counts of three routers on a line (testdata/migration3.csv) and the
// hold costs of hold.csv. By hand: OPT = 11 (2 + 1 + 1, move 1, 1 + 1 + 1,
// move 1, 1 + 1 on servers 0, 0, 1, 1, 1, 2, 2), the static best is
// server 1 at 2 + 17 = 19, never migrate stays on server 0 at 2 + 24 = 26.
func TestNomadicMetricGolden(t *testing.T) {
	golden(t, "nomadic-compare-metric.txt", mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2", "--migration-costs", "migration3.csv"))
}

// TestNomadicMetricUniform: a matrix whose every migration costs C, with
// --setup C, is the uniform model (spec nomadic §14.2): the optimum, WFA,
// DTrack-RR, never migrate and the static best server cost what the
// uniform "nomadic compare" reports.
func TestNomadicMetricUniform(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "uniform.csv")
	if err := os.WriteFile(path, []byte("0,2.5,2.5\n2.5,0,2.5\n2.5,2.5,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, metric := csvRows(t, mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2.5", "--migration-costs", path, "--csv"))
	_, uniform := csvRows(t, mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2.5", "--csv"))
	byName := map[string][]string{}
	for _, r := range uniform {
		byName[r[0]] = r
	}
	for name, same := range map[string]string{
		"offline optimum":              "offline optimum",
		"static best server (offline)": "static best server (offline)",
		"WFA (metric)":                 "WFA",
		"DTrack (metric, α = 1)":       "DTrack-RR",
		"never migrate":                "never migrate",
	} {
		found := false
		for _, r := range metric {
			if r[0] == name {
				found = true
				if u := byName[same]; r[1] != u[1] || r[3] != u[3] {
					t.Errorf("%s: cost %s, setups %s; uniform %s: cost %s, setups %s", name, r[1], r[3], same, u[1], u[3])
				}
			}
		}
		if !found {
			t.Errorf("no row %q", name)
		}
	}
}

// TestNomadicMetricRatios: with a metric every ratio is at least 1 (the
// optimum is a lower bound, spec §14.2) and equals cost / OPT; WFA stays
// within its bound (2k − 1)·OPT + 2(k − 1)(D − min a) of spec §14.4.
func TestNomadicMetricRatios(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2", "--migration-costs", "migration3.csv", "--csv"))
	opt := num(t, rows[0][1])
	for _, r := range rows[1:] {
		c, ratio := num(t, r[1]), num(t, r[2])
		// Costs are integers here: the ratio is one division.
		if c < opt || math.Abs(ratio-c/opt) > 1e-12 || ratio < 1 {
			t.Errorf("%s: cost %v, ratio %v, optimum %v", r[0], c, ratio, opt)
		}
		// k = 3, D = 2 hops, a = --setup 2: the bound is 5·OPT + 4·(2 − 2).
		if r[0] == "WFA (metric)" && c > 5*opt {
			t.Errorf("WFA: cost %v above its bound", c)
		}
	}
}

// TestNomadicMetricBadInput: bad migration-cost files exit with 2 and
// name the file, the line and the value; a matrix that is not a metric
// runs everything but WFA, and says why.
func TestNomadicMetricBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, content string
		want          []string
	}{
		{"negative", "0,1,2\n1,0,-1\n2,1,0\n", []string{"negative.csv:2", `column 3 = "-1"`, "migration cost < 0"}},
		{"diagonal", "0,1,2\n1,3,1\n2,1,0\n", []string{"diagonal.csv:2", `column 2 = "3"`, "to itself"}},
		{"not square", "0,1\n1,0\n2,1\n", []string{"not square.csv:3", "3 rows × 2 columns"}},
		{"not a number", "0,1,2\n1,0,x\n2,1,0\n", []string{"not a number.csv:2", `"x"`}},
		{"two servers", "0,1\n1,0\n", []string{"has 2 servers, --costs has 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", "nomadic", "compare", "--costs", "hold.csv", "--migration-costs", write(c.name+".csv", c.content))
			if r.code != exitBadInput || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q, want %d and nothing\nstderr: %s", r.code, r.stdout, exitBadInput, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not contain %q", r.stderr, w)
				}
			}
		})
	}
	out := mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--migration-costs", write("detour.csv", "0,1,5\n1,0,1\n5,1,0\n"))
	if strings.Contains(out, "WFA (metric)") || !strings.Contains(out, "WFA left out") || !strings.Contains(out, "triangle inequality fails: d(0, 2) = 5") {
		t.Errorf("a matrix that breaks the triangle inequality:\n%s", out)
	}
}

// TestNomadicMigrationGraph: the hop counts of a path of three routers
// given as a graph (testdata/routers3.csv, nodes named as the hold-cost
// columns, listed out of order) are the matrix of migration3.csv, so the
// table is the same; --migration-delays takes the weights (2 and 0.5) as
// link delays instead.
func TestNomadicMigrationGraph(t *testing.T) {
	table := func(out string) string { return out[:strings.Index(out, "Migration costs from")] }
	byMatrix := mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2", "--migration-costs", "migration3.csv")
	byGraph := mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2", "--migration-graph", "routers3.csv")
	if table(byGraph) != table(byMatrix) {
		t.Errorf("hop counts of the graph:\n%s\nthe matrix:\n%s", byGraph, byMatrix)
	}
	out := mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2", "--migration-graph", "routers3.csv", "--migration-delays")
	if !strings.Contains(out, "from 0.5 to 2.5 between distinct servers") {
		t.Errorf("delays 2 (s0–s1) and 0.5 (s1–s2):\n%s", out)
	}
	dir := t.TempDir()
	noHeader := filepath.Join(dir, "hold.csv")
	if err := os.WriteFile(noHeader, []byte("1,5,3\n6,1,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.csv")
	if err := os.WriteFile(other, []byte("source,target\ns0,s1\ns1,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--costs", noHeader, "--migration-graph", "routers3.csv"}, "has no header"},
		{[]string{"--costs", "hold.csv", "--migration-graph", other}, `server "s2" of the hold-cost table is no node`},
		{[]string{"--costs", "hold.csv", "--migration-graph", "routers3.csv", "--migration-costs", "migration3.csv"}, "exclude each other"},
		{[]string{"--costs", "hold.csv", "--migration-delays"}, "--migration-delays needs --migration-graph"},
	} {
		r := runCmd(t, "", append([]string{"nomadic", "compare"}, c.args...)...)
		if r.code != exitBadInput || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %d and %q", c.args, r.code, r.stderr, exitBadInput, c.want)
		}
	}
}
