package main

import (
	"strings"
	"testing"
)

// TestNomadicSessions: two copies of hold.csv (C = 2, single optimum 13)
// on servers of capacity 2 are independent: joint optimum = heuristic =
// 2·13 = 26; with capacity 1 each they must split and the joint optimum
// (32, the dynamic program tested against brute force in competitive)
// exceeds the lower bound 26.
func TestNomadicSessions(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "nomadic", "sessions", "--costs", "hold.csv,hold.csv", "--capacity", "2,2,2", "--setup", "2", "--csv"))
	for _, r := range rows {
		if r[1] != "26" {
			t.Errorf("free capacities: %v", r)
		}
	}
	_, rows = csvRows(t, mustRun(t, "nomadic", "sessions", "--costs", "hold.csv,hold.csv", "--capacity", "1,1,1", "--setup", "2", "--csv"))
	if rows[0][0] != "joint optimum" || rows[0][1] != "32" || rows[2][1] != "26" {
		t.Errorf("capacity 1: %v", rows)
	}
}

// TestNomadicSessionsErrors: bad capacities and tables exit 2.
func TestNomadicSessionsErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no costs", []string{"--capacity", "1,1,1"}, "--costs"},
		{"capacity of the wrong length", []string{"--costs", "hold.csv,hold.csv", "--capacity", "1,1"}, "Sessions.Capacity has 2 entries"},
		{"too little capacity", []string{"--costs", "hold.csv,hold.csv", "--capacity", "1,0,0"}, "Sessions.Capacity sums to 1"},
		{"negative capacity", []string{"--costs", "hold.csv", "--capacity", "1,-1,0"}, "Sessions.Capacity[1] = -1"},
		{"tables of different shapes", []string{"--costs", "hold.csv,path5.csv", "--capacity", "1,1,1"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"nomadic", "sessions"}, c.args...)...)
			if r.code != exitBadInput || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q, want %q", r.code, r.stdout, r.stderr, c.want)
			}
		})
	}
}
