package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of the end-to-end tests")

// binary is the loadlab command built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "loadlab-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "loadlab")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building loadlab: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// runCmd runs the binary with args in dir (testdata when "").
func runCmd(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	if dir == "" {
		cmd.Dir = "testdata"
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running loadlab %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// mustRun runs args and fails unless the exit code is 0.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	r := runCmd(t, "", args...)
	if r.code != 0 {
		t.Fatalf("loadlab %s: exit %d\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r.stdout
}

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// csvRows parses CSV output into its header and rows.
func csvRows(t *testing.T, s string) ([]string, [][]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("CSV output %q: %v", s, err)
	}
	return recs[0], recs[1:]
}

// num parses a CSV cell.
func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("cell %q: %v", s, err)
	}
	return v
}

// TestGolden: the table and JSON of each subcommand on shipped or small
// files, against golden files reviewed by hand (every value in them is
// also checked by a property test below or by the library's tests).
func TestGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"graph-info-karate.txt", []string{"graph", "info", "--dataset", "karate"}},
		{"graph-info-karate.json", []string{"graph", "info", "--dataset", "karate", "--json"}},
		{"graph-resistance-path.txt", []string{"graph", "resistance", "--graph", "path5.csv", "--pair", "a,e", "--edges"}},
		{"throttler-analyze-karate.txt", []string{"throttler", "analyze", "--dataset", "karate"}},
		{"throttler-analyze-karate.json", []string{"throttler", "analyze", "--dataset", "karate", "--json"}},
		{"throttler-analyze-margin.txt", []string{"throttler", "analyze", "--dataset", "karate", "--margin", "0.1"}},
		{"throttler-design-reweight.txt", []string{"throttler", "design", "--dataset", "karate", "--reweight", "3"}},
		{"graph-resistance-top.txt", []string{"graph", "resistance", "--dataset", "karate", "--top", "5"}},
		{"throttler-design-add.txt", []string{"throttler", "design", "--graph", "cycle8.txt", "--add", "2"}},
		{"throttler-simulate.csv", []string{"throttler", "simulate", "--graph", "cycle8.txt", "--steps", "20", "--csv"}},
		{"anycast-optimize.txt", []string{"anycast", "optimize", "--network", "cdn3.json"}},
		{"anycast-greedy.txt", []string{"anycast", "greedy", "--network", "cdn3.json", "--starts", "5"}},
		{"anycast-control.txt", []string{"anycast", "control", "--network", "cdn3.json", "--beta", "5", "--period", "0.2", "--steps", "1000", "--rows", "5"}},
		{"anycast-day.txt", []string{"anycast", "day", "--network", "cdn3-heavy.json", "--hours", "6", "--fastcontrol", "--loss", "0.1", "--delay", "1"}},
		{"anycast-study.txt", []string{"anycast", "study", "--n", "40", "--runs", "4", "--loads", "0.5,2", "--self-corr", "0,0.9"}},
		{"anycast-check.json", []string{"anycast", "check", "--network", "cdn3.json", "--json"}},
		{"cache-compare.txt", []string{"cache", "compare", "--n", "64,256", "--runs", "4"}},
		{"throttler-allocate.txt", []string{"throttler", "allocate", "--requests", "clients.csv", "--column", "rate", "--limit", "60"}},
		{"nomadic-compare.txt", []string{"nomadic", "compare", "--costs", "hold.csv", "--setup", "2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { golden(t, c.name, mustRun(t, c.args...)) })
	}
}
