package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sweepBinary returns the command built once for the package's tests
// (TestMain).
func sweepBinary(t *testing.T) string {
	t.Helper()
	return binary
}

// sweepRecords returns the run indices of the complete records of a shard
// file (lines ending in a newline), in file order.
func sweepRecords(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var runs []int
	sc := bufio.NewScanner(bytes.NewReader(data[:bytes.LastIndexByte(data, '\n')+1]))
	for sc.Scan() {
		var r int
		if _, err := fmt.Sscanf(sc.Text(), `{"run":%d,`, &r); err == nil {
			runs = append(runs, r)
		}
	}
	return runs
}

// TestSweepResumeAfterSIGKILL starts the built command on shard 0/2, kills it
// with SIGKILL once its file holds three records, restarts it with the
// same arguments and checks that it resumed (no run recomputed twice,
// every run recorded once) and that the merge with shard 1/2 equals the
// one-process result byte for byte.
func TestSweepResumeAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := sweepBinary(t)
	// 16 runs of 20000 steps: about 30 ms of CPU each, so the kill lands
	// between the third and the eighth record of the shard.
	cfg := sweepWrite(t, dir, "cfg.json", `{"sweep":"consensus","seed":42,"runs":16,"params":{"family":"cycle","size":64,"gamma":0.3,"traffic":"case 2","sigma":1,"steps":20000,"burn":100}}`)
	shard := filepath.Join(dir, "s0.jsonl")
	args := []string{"sweep", "--config", cfg, "--shard", "0/2", "--out", shard}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); len(sweepRecords(t, shard)) < 3; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no three records within a minute")
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	before := sweepRecords(t, shard)
	if len(before) >= 8 {
		t.Fatalf("the shard finished (%d records) before the kill: make its runs longer", len(before))
	}
	var log bytes.Buffer
	again := exec.Command(bin, args...)
	again.Stderr = &log
	if err := again.Run(); err != nil {
		t.Fatalf("restart: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), fmt.Sprintf("resumed, %d runs were already", len(before))) || strings.Count(log.String(), "done (") != 8-len(before) {
		t.Fatalf("killed after %d records; restart log:\n%s", len(before), log.String())
	}
	if got := fmt.Sprint(sweepRecords(t, shard)); got != "[0 2 4 6 8 10 12 14]" {
		t.Fatalf("shard file runs %s, want each of 0, 2, ..., 14 once in order", got)
	}
	other := filepath.Join(dir, "s1.jsonl")
	sweepMustRun(t, "--config", cfg, "--shard", "1/2", "--out", other)
	sweepMustRun(t, "--config", cfg, "--merge", "--out", filepath.Join(dir, "merged"), shard, other)
	sweepMustRun(t, "--config", cfg, "--direct", "--out", filepath.Join(dir, "direct"))
	for _, ext := range []string{".csv", ".json"} {
		if !bytes.Equal(sweepRead(t, filepath.Join(dir, "merged"+ext)), sweepRead(t, filepath.Join(dir, "direct"+ext))) {
			t.Fatalf("merged%s after the kill differs from the one-process result", ext)
		}
	}
}
