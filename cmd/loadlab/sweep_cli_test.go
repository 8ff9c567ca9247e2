package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlab/loadlab"
)

// sweepTestJob is a sweep registered by the tests only: run r gives r,
// except run failAt (if ≥ 0), which fails with an error wrapping
// loadlab.ErrDisconnected (as a run on a random topology may), as does
// Direct; run 0 first sleeps for sleep.
type sweepTestJob struct {
	failAt int
	sleep  time.Duration
}

func (sweepTestJob) Prefix() []uint64 { return nil }

func (j sweepTestJob) Run(r int) ([]float64, error) {
	if r == 0 {
		time.Sleep(j.sleep)
	}
	if r == j.failAt {
		return nil, loadlab.Wrap(loadlab.ErrDisconnected, "test", "run %d cannot be computed", r)
	}
	return []float64{float64(r)}, nil
}

func (sweepTestJob) Summarize(values [][]float64) (sweepTable, error) {
	return sweepEstimateTable([]sweepRow{{"r", sweepEstimate(sweepColumn(values, 0))}}), nil
}

func (j sweepTestJob) Direct() (sweepTable, error) {
	if j.failAt >= 0 {
		return sweepTable{}, loadlab.Wrap(loadlab.ErrDisconnected, "test", "run %d cannot be computed", j.failAt)
	}
	return sweepTable{}, nil
}

// sweepRegister registers job under name for the test t.
func sweepRegister(t *testing.T, name string, job sweepTestJob) {
	t.Helper()
	sweepJobs[name] = func(json.RawMessage, uint64, int) (sweepJob, error) { return job, nil }
	t.Cleanup(func() { delete(sweepJobs, name) })
}

// TestSweepFailedRun checks that a run that fails gives exit code 1,
// even when its error wraps a sentinel that exitCode reads as bad input
// (ErrDisconnected: the configuration was valid, it is the computation
// that failed), that the runs before it stay in the
// shard file and a rerun resumes after them, and that a failed --direct
// writes no result file.
func TestSweepFailedRun(t *testing.T) {
	sweepRegister(t, "test-failing", sweepTestJob{failAt: 2})
	dir := t.TempDir()
	cfg := sweepWrite(t, dir, "cfg.json", `{"sweep":"test-failing","seed":1,"runs":5}`)
	shard := filepath.Join(dir, "s.jsonl")
	code, log := sweepExec("--config", cfg, "--out", shard)
	if code != exitFailed || !strings.Contains(log, "run 2 cannot be computed") || strings.Count(log, "done (") != 2 {
		t.Fatalf("failing run: exit %d, want %d\n%s", code, exitFailed, log)
	}
	if got := fmt.Sprint(sweepRecords(t, shard)); got != "[0 1]" {
		t.Fatalf("shard file after the failure holds runs %s, want [0 1]", got)
	}
	code, log = sweepExec("--config", cfg, "--out", shard)
	if code != exitFailed || !strings.Contains(log, "resumed, 2 runs were already") || strings.Contains(log, "done (") {
		t.Fatalf("rerun: exit %d\n%s", code, log)
	}
	code, log = sweepExec("--config", cfg, "--direct", "--out", filepath.Join(dir, "d"))
	if code != exitFailed || !strings.Contains(log, "run 2 cannot be computed") {
		t.Fatalf("failing --direct: exit %d\n%s", code, log)
	}
	if got, want := sweepListDir(t, dir), "[cfg.json s.jsonl]"; got != want {
		t.Fatalf("after the failures the folder holds %s, want %s", got, want)
	}
}

// TestSweepConfigFileErrors checks that a configuration that is not
// JSON, has a value of the wrong type or has data after its object
// gives exit code 2 and an error naming the file, line and column.
func TestSweepConfigFileErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.jsonl")
	for _, c := range []struct{ text, want string }{
		{"{\"sweep\":\"consensus\",\n \"runs\": 9x}", "cfg.json:2: column 11: JSON: invalid character 'x'"},
		{"{\"sweep\":\"consensus\",\n \"runs\": \"9\"}", "cfg.json:2: column 12: JSON: json: cannot unmarshal string"},
		{sweepConsensusCfg + "\n\n  {\"sweep\":\"mobility\"}\n", "cfg.json:3: column 3: data after the configuration's object"},
		{sweepConsensusCfg + "}", fmt.Sprintf("cfg.json:1: column %d: data after", len(sweepConsensusCfg)+1)},
	} {
		cfg := sweepWrite(t, dir, "cfg.json", c.text)
		code, log := sweepExec("--config", cfg, "--out", out)
		if code != exitBadInput || !strings.Contains(log, c.want) {
			t.Errorf("configuration %q: exit %d, %q; want exit 2 and %q", c.text, code, log, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was created", out)
	}
}

// TestSweepFlags checks the command line: flags that do not apply or
// exclude each other are usage errors (exit 2, with the hint to the
// help), --list prints the registered sweeps, and -o is --out.
func TestSweepFlags(t *testing.T) {
	dir := t.TempDir()
	cfg := sweepWrite(t, dir, "cfg.json", sweepConsensusCfg)
	shard := filepath.Join(dir, "s.jsonl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--json", "--config", cfg, "--out", shard}, "--json, --csv, --plot and --table do not apply"},
		{[]string{"--csv", "--config", cfg, "--direct", "--out", shard}, "do not apply"},
		{[]string{"--plot", "x.png", "--config", cfg, "--out", shard}, "do not apply"},
		{[]string{"--seed", "3", "--config", cfg, "--out", shard}, `the seed is the configuration's "seed"`},
		{[]string{"--config", cfg, "--merge", "--direct", "--out", "r", shard}, "--merge and --direct exclude each other"},
		{[]string{"--config", cfg, "--merge", "--shard", "0/2", "--out", "r", shard}, "--shard does not apply"},
		{[]string{"--config", cfg, "--direct", "--out", "r", shard}, "unexpected arguments"},
		{[]string{"--list", "--config", cfg}, "--list takes no other flag"},
		{[]string{"--config", cfg, "--out", shard, "--bogus"}, "unknown flag: --bogus"},
	} {
		code, log := sweepExec(c.args...)
		if code != exitBadInput || !strings.Contains(log, c.want) || !strings.Contains(log, "Run 'loadlab help'") {
			t.Errorf("sweep %s: exit %d, %q; want exit 2, %q and the hint to the help", strings.Join(c.args, " "), code, log, c.want)
		}
	}
	if got := sweepListDir(t, dir); got != "[cfg.json]" {
		t.Errorf("usage errors left %s", got)
	}
	var stdout strings.Builder
	if code := run([]string{"sweep", "--list"}, strings.NewReader(""), &stdout, io.Discard); code != exitOK {
		t.Fatalf("--list: exit %d", code)
	}
	var names []string
	for n := range sweepJobs {
		names = append(names, n)
	}
	slices.Sort(names)
	if got, want := stdout.String(), strings.Join(names, "\n")+"\n"; got != want {
		t.Errorf("--list printed %q, want %q", got, want)
	}
	sweepMustRun(t, "--config", cfg, "--direct", "-o", filepath.Join(dir, "d"))
	for _, ext := range []string{".csv", ".json"} {
		if _, err := os.Stat(filepath.Join(dir, "d"+ext)); err != nil {
			t.Errorf("--direct -o d: %v", err)
		}
	}
}

// sweepExecTTY runs "loadlab sweep args..." as run does, but with
// stderr taken for a terminal.
func sweepExecTTY(args ...string) (string, error) {
	var stderr strings.Builder
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, stderrTTY: true}
	root := a.rootCommand()
	root.SetArgs(append([]string{"sweep"}, args...))
	root.SetOut(io.Discard)
	root.SetErr(&stderr)
	err := root.Execute()
	return stderr.String(), err
}

// TestSweepProgress checks the shard's progress on stderr: on a
// terminal a bar (drawn once a run outlasts progressDelay) and no line
// per run; otherwise a line per run; with --quiet, nothing.
func TestSweepProgress(t *testing.T) {
	sweepRegister(t, "test-slow", sweepTestJob{failAt: -1, sleep: progressDelay + 300*time.Millisecond})
	sweepRegister(t, "test-quick", sweepTestJob{failAt: -1})
	dir := t.TempDir()
	cfg := sweepWrite(t, dir, "slow.json", `{"sweep":"test-slow","seed":1,"runs":3}`)
	log, err := sweepExecTTY("--config", cfg, "--out", filepath.Join(dir, "tty.jsonl"))
	if err != nil || !strings.Contains(log, "sweep test-slow shard 0/1") || strings.Contains(log, "done (") || !strings.Contains(log, "complete, 3 runs") {
		t.Errorf("on a terminal: %v, stderr %q: want the bar, no line per run and the closing line", err, log)
	}
	cfg = sweepWrite(t, dir, "quick.json", `{"sweep":"test-quick","seed":1,"runs":3}`)
	code, log := sweepExec("--config", cfg, "--out", filepath.Join(dir, "log.jsonl"))
	if code != exitOK || strings.Count(log, "sweep test-quick shard 0/1: run ") != 3 || strings.Contains(log, "\r") {
		t.Errorf("in a log: exit %d, stderr %q: want a line per run and no bar", code, log)
	}
	code, log = sweepExec("--quiet", "--config", cfg, "--out", filepath.Join(dir, "quiet.jsonl"))
	if code != exitOK || log != "" {
		t.Errorf("--quiet: exit %d, stderr %q, want nothing", code, log)
	}
}
