package main

import (
	"math"
	"strings"
	"testing"
)

// TestNomadicAlpha: "nomadic alpha" prints DTrack-RR's bound U(α) and the
// adversary's limit L(α) of spec nomadic §15 (checked here against their
// closed forms), an adversary ratio between them up to the finite-ε
// effect (ε = C/16: never above U), a mean random ratio ≥ 1 inside its
// interval; the same seed gives the same table.
func TestNomadicAlpha(t *testing.T) {
	args := []string{"nomadic", "alpha", "--k", "2,3", "--alpha", "0.5,1,1.5", "--runs", "10", "--slots", "50", "--csv"}
	out := mustRun(t, args...)
	if again := mustRun(t, args...); again != out {
		t.Fatalf("two runs differ:\n%s\n%s", out, again)
	}
	head, rows := csvRows(t, out)
	if len(rows) != 6 || head[4] != "bound U" {
		t.Fatalf("header %v, %d rows", head, len(rows))
	}
	for _, r := range rows {
		k, a := num(t, r[0]), num(t, r[1])
		u, l, adv := num(t, r[4]), num(t, r[5]), num(t, r[6])
		mean, lo, hi := num(t, r[7]), num(t, r[8]), num(t, r[9])
		// The closed forms are a few operations: 1e-12 relative.
		if wu := math.Max(k*(1+1/a), (k-1)*a+k); math.Abs(u-wu) > 1e-12*wu {
			t.Errorf("k=%v α=%v: U = %v, want %v", k, a, u, wu)
		}
		if wl := math.Max(k*(1+1/a), (k-1)*(1+a)); math.Abs(l-wl) > 1e-12*wl {
			t.Errorf("k=%v α=%v: L = %v, want %v", k, a, l, wl)
		}
		if adv > u || adv < 0.8*l || mean < 1 || lo > mean || hi < mean {
			t.Errorf("row %v out of order", r)
		}
	}
}

// TestNomadicAlphaPolicies: DTrack-B with β = -inf is DTrack-RR (the same
// numbers), and a finite β has no known bound ("none").
func TestNomadicAlphaPolicies(t *testing.T) {
	_, rr := csvRows(t, mustRun(t, "nomadic", "alpha", "--k", "3", "--alpha", "1", "--runs", "5", "--csv"))
	_, b := csvRows(t, mustRun(t, "nomadic", "alpha", "--k", "3", "--alpha", "1", "--runs", "5", "--policy", "B", "--beta=-inf,0.5", "--csv"))
	if len(b) != 2 || strings.Join(rr[0][4:], ",") != strings.Join(b[0][4:], ",") {
		t.Fatalf("RR %v, B(-inf) %v", rr, b)
	}
	if b[1][4] != "none" || b[1][3] != "0.5" {
		t.Errorf("B(0.5) row %v", b[1])
	}
}

// TestNomadicAlphaErrors: bad flags exit 2 with a message naming them.
func TestNomadicAlphaErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"k = 1", []string{"--k", "1"}, "AlphaPoint.Servers = 1"},
		{"negative alpha", []string{"--alpha", "-1"}, "AlphaPoint.Alpha = -1"},
		{"zero alpha", []string{"--alpha", "0"}, "--alpha 0"},
		{"beta above alpha", []string{"--policy", "B", "--alpha", "1", "--beta", "2"}, "AlphaPoint.Beta = 2"},
		{"one run", []string{"--runs", "1"}, "runs = 1"},
		{"bad policy", []string{"--policy", "X"}, "--policy"},
		{"bad workload", []string{"--workload", "x"}, "--workload"},
		{"eps above 1", []string{"--eps", "2"}, "AlphaPoint.Eps = 2"},
		{"persist below 1", []string{"--persist", "0.5"}, "AlphaPoint.Persist = 0.5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"nomadic", "alpha", "--runs", "2"}, c.args...)...)
			if r.code != exitBadInput || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q, want %q", r.code, r.stdout, r.stderr, c.want)
			}
		})
	}
}
