package main

import (
	"strings"
	"testing"
)

// TestNomadicPredict: "nomadic predict" (spec nomadic §16): exact
// predictions over the whole horizon give OPT (ratio 1 for the look-ahead
// and the guarded algorithm, up to rounding of equal sums: 1e-12); every
// guarded ratio stays below the guard bound (1 + λ)(2k − 1) + 2.
func TestNomadicPredict(t *testing.T) {
	head, rows := csvRows(t, mustRun(t, "nomadic", "predict", "--k", "3", "--noise", "0,2", "--runs", "6", "--slots", "40", "--lambda", "1", "--csv"))
	if len(rows) != 2 || head[12] != "guard bound" {
		t.Fatalf("header %v, %d rows", head, len(rows))
	}
	for _, c := range []int{1, 4, 10, 11} {
		if v := num(t, rows[0][c]); v < 1-1e-12 || v > 1+1e-12 {
			t.Errorf("exact predictions: %s = %v, want 1", head[c], v)
		}
	}
	for _, r := range rows {
		if b := num(t, r[12]); b != 12 || num(t, r[11]) > b {
			t.Errorf("row %v: bound (1 + 1)(2·3 − 1) + 2 = 12 and guarded max below it", r)
		}
	}
}

// TestNomadicPredictErrors: bad flags exit 2 naming them.
func TestNomadicPredictErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"k = 1", []string{"--k", "1"}, "PredictionPoint.Servers = 1"},
		{"negative noise", []string{"--noise", "-1"}, "PredictionPoint.Noise = -1"},
		{"negative lambda", []string{"--lambda", "-1"}, "PredictionPoint.Lambda = -1"},
		{"negative window", []string{"--window", "-2"}, "PredictionPoint.Window = -2"},
		{"one run", []string{"--runs", "1"}, "runs = 1"},
		{"bad workload", []string{"--workload", "x"}, "--workload"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"nomadic", "predict", "--runs", "2", "--slots", "10"}, c.args...)...)
			if r.code != exitBadInput || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q, want %q", r.code, r.stdout, r.stderr, c.want)
			}
		})
	}
}
