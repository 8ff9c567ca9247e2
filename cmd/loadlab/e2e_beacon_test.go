package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnycastBeacon: Ĉ from the counts of testdata/beacons3.csv with its
// intervals as JSON and CSV, and the robust Π_C verdict on cdn3.json.
func TestAnycastBeacon(t *testing.T) {
	var v struct {
		Alpha   float64 `json:"alpha"`
		Entries []struct {
			Region, Proxy int
			C, Lo, Hi     float64
			SetLo         float64 `json:"set_lo"`
			SetHi         float64 `json:"set_hi"`
		} `json:"entries"`
		Robust struct {
			SlackRobust []float64 `json:"slack_robust"`
			SlackHat    []float64 `json:"slack_c_hat"`
			Robust      bool      `json:"robust"`
		} `json:"robust"`
	}
	out := mustRun(t, "anycast", "beacon", "--counts", "beacons3.csv", "--network", "cdn3.json", "--json")
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(v.Entries) != 9 || v.Entries[0].C != 0.8 || !v.Robust.Robust || v.Alpha != 0.05 {
		t.Fatalf("unexpected answer %+v", v)
	}
	for k, e := range v.Entries {
		// the simultaneous interval contains the per-entry one, which contains Ĉ
		if !(e.SetLo <= e.Lo && e.Lo <= e.C && e.C <= e.Hi && e.Hi <= e.SetHi) {
			t.Errorf("entry %d: %+v", k, e)
		}
	}
	for i, s := range v.Robust.SlackRobust {
		if s > v.Robust.SlackHat[i] {
			t.Errorf("node %d: robust slack %v above the slack on Ĉ %v", i, s, v.Robust.SlackHat[i])
		}
	}
	_, rows := csvRows(t, mustRun(t, "anycast", "beacon", "--counts", "beacons3.csv", "--csv", "--table", "unseen"))
	if len(rows) != 3 || rows[0][1] != "100" {
		t.Fatalf("unseen table %v", rows)
	}
}

// TestAnycastBeaconBadInput: bad counts exit with 2 and name the file,
// the line and the column, or the region.
func TestAnycastBeaconBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	neg := write("neg.csv", "region,proxy,count\n0,0,5\n1,1,-3\n")
	gap := write("gap.csv", "region,proxy,count\n0,0,5\n2,2,4\n")
	nan := write("nan.csv", "region,proxy,count\n0,0,NaN\n")
	big := write("big.csv", "region,proxy,count\n0,3,1\n")
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"negative count", []string{"--counts", neg}, []string{"neg.csv:3:", `column "count"`, "-3"}},
		{"region without beacons", []string{"--counts", gap}, []string{"region 1 has no beacons"}},
		{"NaN count", []string{"--counts", nan}, []string{"nan.csv:2:"}},
		{"proxy beyond the network", []string{"--counts", big, "--network", "cdn3.json"}, []string{"big.csv:2:", `column "proxy"`}},
		{"alpha out of range", []string{"--counts", "beacons3.csv", "--alpha", "1.5"}, []string{"Settings.Alpha = 1.5"}},
		{"no counts", []string{"--network", "cdn3.json"}, []string{"--counts"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"anycast", "beacon"}, c.args...)...)
			if r.code != exitBadInput || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not contain %q", r.stderr, w)
				}
			}
		})
	}
}

// TestAnycastBeaconPrior: a region with too few beacons takes the
// network's row with --prior-from-network, and is an error without it.
func TestAnycastBeaconPrior(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "few.csv")
	if err := os.WriteFile(p, []byte("region,proxy,count\n0,0,50\n0,1,50\n1,1,3\n2,2,100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"anycast", "beacon", "--counts", p, "--network", "cdn3.json", "--min-count", "10"}
	if r := runCmd(t, "", args...); r.code != exitBadInput || !strings.Contains(r.stderr, "region 1 has 3 beacons") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	out := mustRun(t, append(args, "--prior-from-network")...)
	if !strings.Contains(out, "1 regions below --min-count take their row of the network's C") {
		t.Fatalf("no prior note in\n%s", out)
	}
}

// TestAnycastRobust: the beacon-budget and drift studies on cdn3.json;
// a stale C loses nothing on day 0 (beyond the solver's certificate) and
// more after 30 days; bad settings exit with 2.
func TestAnycastRobust(t *testing.T) {
	out := mustRun(t, "anycast", "robust", "--network", "cdn3.json", "--runs", "3", "--budgets", "50,5000",
		"--drift-to", "cdn3-drift.json", "--days", "0,30", "--csv", "--table", "drift")
	_, rows := csvRows(t, out)
	if len(rows) != 2 || rows[0][0] != "0" || rows[1][0] != "30" {
		t.Fatalf("drift table %v", rows)
	}
	var v struct {
		Budgets []struct {
			Beacons int64
			Loss    struct{ Mean float64 }
		} `json:"budgets"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "anycast", "robust", "--network", "cdn3.json", "--runs", "3", "--budgets", "50,5000", "--json")), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Budgets) != 2 || v.Budgets[1].Loss.Mean >= v.Budgets[0].Loss.Mean {
		t.Fatalf("the loss does not fall with the budget: %+v", v)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--runs", "1"}, "RobustSettings.Runs = 1"},
		{[]string{"--budgets", "0"}, "budgets[0] = 0"},
		{[]string{"--drift-to", "cdn3-drift.json", "--eps", "2"}, "ε = 2"},
	} {
		r := runCmd(t, "", append([]string{"anycast", "robust", "--network", "cdn3.json"}, c.args...)...)
		if r.code != exitBadInput || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, r.code, r.stdout, r.stderr)
		}
	}
}
