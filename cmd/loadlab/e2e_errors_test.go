package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput: bad usage and bad input exit with 2, print a message
// naming what is wrong (for files: the file and the line) and write
// nothing on stdout.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badWeight := write("bad.csv", "u,v,w\n0,1,1\n1,2,x\n")
	disconnected := write("two.csv", "u v\n0 1\n2 3\n")
	badCosts := write("costs.csv", "a,b\n1,2\n3,-1\n")
	badNet := write("net.json", `{"A": [1], "T": [1], "C": [[0.5]]}`)
	badTrace := write("trace.csv", "a,b,c,d,e,f,g,h\n1,1,1,1,1,1,1,1\n")
	stamped := write("stamped.csv", "time,s1,s2\n2026-03-02T08:00:00Z,1,2\n2026-03-02T08:01:00Z,2,1\n")
	cases := []struct {
		name string
		args []string
		want []string // substrings of stderr
	}{
		{"unknown subcommand", []string{"graph", "frobnicate"}, []string{"unknown command"}},
		{"unknown flag", []string{"graph", "info", "--dataset", "karate", "--frob"}, []string{"unknown flag"}},
		{"bad flag value", []string{"cache", "compare", "--runs", "many"}, []string{"--runs"}},
		{"json and csv", []string{"graph", "info", "--dataset", "karate", "--json", "--csv"}, []string{"exclude"}},
		{"no graph", []string{"graph", "info"}, []string{"--graph"}},
		{"unknown dataset", []string{"graph", "info", "--dataset", "nope"}, []string{"nope", "karate"}},
		{"missing file", []string{"graph", "info", "--graph", filepath.Join(dir, "missing.csv")}, []string{"missing.csv"}},
		{"bad weight", []string{"graph", "info", "--graph", badWeight}, []string{"bad.csv:3", `"x"`}},
		{"disconnected", []string{"graph", "spectrum", "--graph", disconnected}, []string{"disconnected"}},
		{"unknown pair label", []string{"graph", "resistance", "--graph", "path5.csv", "--pair", "a,z"}, []string{`"z"`}},
		{"unstable gamma", []string{"throttler", "simulate", "--graph", "cycle8.txt", "--gamma", "10", "--steps", "5"}, []string{"unstable"}},
		{"negative hold cost", []string{"nomadic", "compare", "--costs", badCosts}, []string{"costs.csv", "-1"}},
		{"GraphML weight key missing", []string{"graph", "info", "--graph", "noweight.graphml"}, []string{"noweight.graphml:9", "LinkSpeed", "--weight"}},
		{"GraphML edge without weight", []string{"graph", "info", "--graph", "noweight.graphml", "--weight", "LinkSpeed"}, []string{"noweight.graphml:10", `source="n1"`, "--default-weight"}},
		{"reader flag with dataset", []string{"graph", "info", "--dataset", "karate", "--largest"}, []string{"--largest"}},
		{"trace names not labels", []string{"throttler", "simulate", "--graph", "cycle8.txt", "--trace", badTrace}, []string{"trace.csv", "--trace-by-position"}},
		{"time stamp column", []string{"nomadic", "compare", "--costs", stamped}, []string{"stamped.csv", "time"}},
		{"C not stochastic", []string{"anycast", "check", "--network", badNet}, []string{"net.json"}},
		{"control period", []string{"anycast", "control", "--network", "cdn3.json", "--period", "0"}, []string{"--period = 0"}},
		{"control rate", []string{"anycast", "control", "--network", "cdn3.json", "--rate", "-1"}, []string{"Controller.Rate = -1"}},
		{"day period", []string{"anycast", "day", "--network", "cdn3.json", "--period", "0"}, []string{"--period = 0"}},
		{"day loss", []string{"anycast", "day", "--network", "cdn3.json", "--fastcontrol", "--loss", "1"}, []string{"FastControl.Loss = 1"}},
		{"study self-corr", []string{"anycast", "study", "--n", "20", "--self-corr", "1"}, []string{"SelfCorr = 1"}},
		{"study runs", []string{"anycast", "study", "--n", "20", "--runs", "1"}, []string{"runs = 1"}},
		{"bad strategy", []string{"cache", "compare", "--strategy", "magic"}, []string{"magic"}},
		{"cap without target", []string{"cache", "compare", "--max-runs", "50"}, []string{"--max-runs = 50", "without a target"}},
		{"negative precision", []string{"cache", "compare", "--rel", "-0.1"}, []string{"--rel = -0.1"}},
		{"tail threshold", []string{"cache", "tail", "--c", "NaN"}, []string{"--c NaN"}},
		{"tail size", []string{"cache", "tail", "--n", "10"}, []string{"--n 10"}},
		{"slope c", []string{"cache", "slope", "--c", "0"}, []string{"--c 0"}},
		{"slope runs", []string{"cache", "slope", "--runs", "1"}, []string{"--runs = 1"}},
		{"regime α + 2β", []string{"cache", "regime", "--alpha", "0.5", "--beta", "0.2"}, []string{"Regime.Alpha + 2·Regime.Beta"}},
		{"regime size", []string{"cache", "regime", "--n", "20"}, []string{"--n 20"}},
		{"unknown preset", []string{"cache", "preset", "nope"}, []string{`preset "nope"`, "server-count"}},
		{"preset runs", []string{"cache", "preset", "chunk", "--runs", "-1"}, []string{"--runs = -1"}},
		{"design target", []string{"cache", "design", "--target", "0"}, []string{"Design.Target = 0"}},
		{"design ell", []string{"cache", "design", "--ell", "0"}, []string{"Design.Ells[0] = 0"}},
		{"design size", []string{"cache", "design", "--n", "10"}, []string{"--n 10"}},
		{"cap below the pilot", []string{"cache", "compare", "--rel", "0.1", "--runs", "40", "--max-runs", "20"}, []string{"--max-runs = 20"}},
		{"plot format", []string{"graph", "spectrum", "--graph", "cycle8.txt", "--plot", filepath.Join(dir, "x.pdf")}, []string{".png or .svg"}},
		{"plot folder", []string{"graph", "spectrum", "--graph", "cycle8.txt", "--plot", filepath.Join(dir, "no", "x.png")}, []string{"folder"}},
		{"out folder", []string{"graph", "info", "--dataset", "karate", "--out", filepath.Join(dir, "no", "x.txt")}, []string{"folder"}},
		{"no picture", []string{"graph", "resistance", "--graph", "path5.csv", "--pair", "a,e", "--plot", filepath.Join(dir, "pair.png")}, []string{"no picture"}},
		{"table without csv", []string{"graph", "info", "--dataset", "karate", "--table", "x"}, []string{"--table"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", c.args...)
			if r.code != exitBadInput {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, exitBadInput, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not contain %q", r.stderr, w)
				}
			}
		})
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range leftovers {
		switch filepath.Base(f) {
		case "bad.csv", "two.csv", "costs.csv", "net.json", "trace.csv", "stamped.csv":
		default:
			t.Errorf("left behind: %s", f)
		}
	}
}

// TestFailedComputation: a computation stopped short exits with 1 and
// still prints its partial answer, complete; with --out the partial
// answer is written whole and no temporary file is left.
func TestFailedComputation(t *testing.T) {
	args := []string{"anycast", "optimize", "--network", "cdn3.json", "--max-iter", "2", "--tol", "1e-12"}
	r := runCmd(t, "", args...)
	if r.code != exitFailed || !strings.Contains(r.stdout, "IterationLimit") || !strings.Contains(r.stderr, "not converged") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "answer.json")
	r = runCmd(t, "", append(args, "--json", "--out", out)...)
	b, err := os.ReadFile(out)
	if r.code != exitFailed || err != nil || !strings.HasSuffix(string(b), "}\n") {
		t.Fatalf("exit %d, %v, file %q", r.code, err, b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the folder, want answer.json alone", len(entries))
	}
	// Written through a private temporary file, the answer is still
	// readable by others, as a file the shell writes.
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("answer.json: %v, mode %v, want -rw-r--r--", err, st.Mode())
	}
}

// TestExitCodeClasses: the classification of errors without running the
// binary.
func TestExitCodeClasses(t *testing.T) {
	if exitCode(nil) != exitOK || exitCode(usagef("x")) != exitBadInput || exitCode(os.ErrNotExist) != exitBadInput {
		t.Error("nil, usage or a missing file misclassified")
	}
	if exitCode(os.ErrClosed) != exitFailed {
		t.Error("an unknown error must be a failed computation")
	}
}
