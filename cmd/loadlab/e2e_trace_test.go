package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNomadicTrace: "nomadic trace" on testdata/walk.csv (user 1 walks
// from router 0 at (0, 0) to router 1 at (100, 0) in 10 s and stays;
// user 2 stands at (50, 10)) with slots of 5 s and C = 30. By hand:
// user 1 alone costs rows (0, 100), (50, 50), (100, 0) ×3, OPT = 30 + 0 +
// 30 + 50 = 110 (two setups); both users in hops (a tie at x = 50 goes to
// router 0, user 2 is nearest to router 0): rows (0, 2), (0, 2), (1, 1)
// ×3, OPT = 30 + 3 = 33 on router 0.
func TestNomadicTrace(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "nomadic", "trace", "--trace", "walk.csv", "--routers", "routers2.csv", "--slot", "5", "--setup", "30", "--users", "1", "--csv"))
	if rows[0][0] != "offline optimum" || rows[0][1] != "110" || rows[0][3] != "2" {
		t.Errorf("Euclidean, user 1: %v", rows[0])
	}
	_, rows = csvRows(t, mustRun(t, "nomadic", "trace", "--trace", "walk.csv", "--routers", "routers2.csv", "--slot", "5", "--setup", "30", "--router-graph", "routers2.edges", "--csv"))
	if rows[0][1] != "33" {
		t.Errorf("hops, both users: %v", rows[0])
	}
	out := mustRun(t, "nomadic", "trace", "--trace", "walk.csv", "--routers", "routers2.csv", "--slot", "5")
	if !strings.Contains(out, "2 users (2 in the session), 2 routers, 5 slots of 5; hold = Euclidean distance") {
		t.Errorf("note missing: %s", out)
	}
}

// TestNomadicTraceErrors: bad files and flags exit 2 naming the file,
// line and column.
func TestNomadicTraceErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "back.csv")
	if err := os.WriteFile(bad, []byte("time,user,x,y\n5,1,0,0\n3,1,0,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	three := filepath.Join(dir, "three.csv")
	if err := os.WriteFile(three, []byte("x,y\n0,0\n50,0\n100,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no trace", []string{"--routers", "routers2.csv"}, "--trace"},
		{"time going back", []string{"--trace", bad, "--routers", "routers2.csv"}, `back.csv:3: column "time" = "3"`},
		{"routers without x, y", []string{"--trace", "walk.csv", "--routers", "hold.csv"}, "hold.csv"},
		{"unknown user", []string{"--trace", "walk.csv", "--routers", "routers2.csv", "--users", "9"}, "user 9 is not in the trace"},
		{"bad slot", []string{"--trace", "walk.csv", "--routers", "routers2.csv", "--slot", "-1"}, "MobilityOptions.Slot = -1"},
		{"delays without graph", []string{"--trace", "walk.csv", "--routers", "routers2.csv", "--router-delays"}, "--router-graph"},
		{"graph of another size", []string{"--trace", "walk.csv", "--routers", three, "--router-graph", "routers2.edges"}, "--router-graph routers2.edges has 2 nodes, the routers file 3 servers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"nomadic", "trace"}, c.args...)...)
			if r.code != exitBadInput || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q, want %q", r.code, r.stdout, r.stderr, c.want)
			}
		})
	}
}
