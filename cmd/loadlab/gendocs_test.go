package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCLIDocs: docs/cli is what "loadlab docs" writes now, file for
// file; when a flag or a help text changes, regenerate it with
// "go run ./cmd/loadlab docs docs/cli" (after removing the old pages).
func TestCLIDocs(t *testing.T) {
	dir := t.TempDir()
	if r := runCmd(t, "", "docs", dir); r.code != 0 {
		t.Fatalf("loadlab docs: exit %d: %s", r.code, r.stderr)
	}
	committed := filepath.Join("..", "..", "docs", "cli")
	names := func(d string) []string {
		es, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return out
	}
	want, got := names(dir), names(committed)
	if !slices.Equal(want, got) {
		t.Fatalf("docs/cli holds %v, loadlab docs writes %v: regenerate it", got, want)
	}
	for _, n := range want {
		a, _ := os.ReadFile(filepath.Join(dir, n))
		b, _ := os.ReadFile(filepath.Join(committed, n))
		if string(a) != string(b) {
			t.Errorf("docs/cli/%s is stale: regenerate it with go run ./cmd/loadlab docs docs/cli", n)
		}
	}
	if r := runCmd(t, "", "docs", filepath.Join(dir, "missing")); r.code != exitBadInput {
		t.Errorf("docs into a missing folder: exit %d, want 2", r.code)
	}
}
