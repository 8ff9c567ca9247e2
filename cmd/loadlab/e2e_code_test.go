package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/coding"
)

// TestCacheCodeGolden: the exact table and a small simulated one against
// golden files reviewed by hand (each exact value is also checked against
// the library below, and the library's values against brute force).
func TestCacheCodeGolden(t *testing.T) {
	golden(t, "cache-code.txt", mustRun(t, "cache", "code", "--extra", "2"))
	golden(t, "cache-code-gf2.json", mustRun(t, "cache", "code", "--field", "2", "--ell", "8", "--extra", "2", "--runs", "2000", "--json"))
}

// TestCacheCodeMatchesLibrary: the CSV's exact columns are the library's
// DecodeProb and FailProb (printed with 17 significant digits, so 1e-15
// relative), each measured value lies in its interval, the same seed
// gives the same answer and another seed another one.
func TestCacheCodeMatchesLibrary(t *testing.T) {
	args := []string{"cache", "code", "--field", "16", "--ell", "5", "--extra", "3", "--runs", "500", "--csv"}
	out := mustRun(t, args...)
	head, rows := csvRows(t, out)
	if len(rows) != 4 || head[2] != "P(decode) exact" {
		t.Fatalf("header %v, %d rows", head, len(rows))
	}
	for d, r := range rows {
		p, _ := coding.DecodeProb(16, 5, d)
		f, _ := coding.FailProb(16, 5, d)
		if math.Abs(num(t, r[2])-p) > 1e-15 || math.Abs(num(t, r[3])-f) > 1e-15*f {
			t.Errorf("δ = %d: %v, want P = %v, fail %v", d, r, p, f)
		}
		m, lo, hi := num(t, r[4]), num(t, r[5]), num(t, r[6])
		if !(lo <= m && m <= hi) {
			t.Errorf("δ = %d: measured %v outside [%v, %v]", d, m, lo, hi)
		}
	}
	if again := mustRun(t, args...); again != out {
		t.Error("same seed, different answers")
	}
	if other := mustRun(t, append(args, "--seed", "2")...); other == out {
		t.Error("--seed 2 gave the answer of seed 1")
	}
}

// TestCacheCodeThroughput: --throughput adds a table of four positive
// speeds (their values depend on the machine).
func TestCacheCodeThroughput(t *testing.T) {
	out := mustRun(t, "cache", "code", "--ell", "4", "--chunk-kib", "4", "--throughput", "--csv", "--table", "throughput (one core, wall time)")
	_, rows := csvRows(t, out)
	if len(rows) != 4 {
		t.Fatalf("%d rows:\n%s", len(rows), out)
	}
	for _, r := range rows {
		if num(t, r[1]) <= 0 {
			t.Errorf("%v", r)
		}
	}
}

// TestCacheCodeBadInput: bad flags exit 2 naming the flag, before any
// work.
func TestCacheCodeBadInput(t *testing.T) {
	for _, c := range []struct{ args, want []string }{
		{[]string{"--ell", "0"}, []string{"--ell = 0"}},
		{[]string{"--runs", "1"}, []string{"--runs = 1"}},
		{[]string{"--extra", "-1"}, []string{"--extra = -1"}},
		{[]string{"--field", "8"}, []string{"--field", `"8"`}},
		{[]string{"--chunk-kib", "0"}, []string{"--chunk-kib = 0"}},
		{[]string{"--ell", "200", "--throughput"}, []string{"--ell = 200"}},
		{[]string{"--rel", "0.1"}, []string{"without --runs"}},
		{[]string{"--ell", "5000", "--runs", "10"}, []string{"ℓ = 5000", "MaxStudyEll"}},
		{[]string{"--runs", "10", "--rel", "-1"}, []string{"--rel = -1"}},
		{[]string{"--runs", "100", "--rel", "0.1", "--max-runs", "50"}, []string{"runs = 100 (the pilot)", "--max-runs = 50"}},
	} {
		r := runCmd(t, "", append([]string{"cache", "code"}, c.args...)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, r.code)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, r.stderr, w)
			}
		}
	}
}

// TestCacheCodePrecision: with --rel the receivers stop once the mean
// extra count meets it, and those runs asked for as a fixed count give
// the same table to the last digit; a cap that comes first exits 1
// after printing the table.
func TestCacheCodePrecision(t *testing.T) {
	args := []string{"cache", "code", "--field", "4", "--ell", "6", "--extra", "1", "--csv", "--table", "chunks beyond ℓ needed"}
	out := mustRun(t, append(args, "--runs", "100", "--rel", "0.05")...)
	_, rows := csvRows(t, out)
	m, lo, hi, runs := num(t, rows[0][3]), num(t, rows[0][4]), num(t, rows[0][5]), rows[0][6]
	if (hi-lo)/2 > 0.05*m {
		t.Errorf("half-width %v above 5 %% of %v", (hi-lo)/2, m)
	}
	if fixed := mustRun(t, append(args, "--runs", runs)...); fixed != out {
		t.Errorf("--runs %s gave\n%s\nthe precision run\n%s", runs, fixed, out)
	}
	r := runCmd(t, "", "cache", "code", "--runs", "20", "--rel", "0.01", "--max-runs", "200")
	if r.code != 1 || !strings.Contains(r.stdout, "short of the target") || !strings.Contains(r.stderr, "not converged") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestCacheCompareRLNC: rlnc:L runs coded delivery with real decoding
// beside the ideal coded:L on the same placements and requests: over
// GF(2) a request needs 1.5 chunks beyond ℓ = 4 on average (spec §11.3),
// so the cost rises by about 1.5/4 of a chunk's hops and the load with
// it; over GF(2⁸) the two agree within the runs' noise.
func TestCacheCompareRLNC(t *testing.T) {
	row := func(field string) map[string][]float64 {
		out := mustRun(t, "cache", "compare", "--n", "256", "--runs", "5", "--files", "10", "--strategy", "coded:4,rlnc:4", "--field", field, "--csv")
		_, rows := csvRows(t, out)
		m := map[string][]float64{}
		for _, r := range rows {
			m[r[0]] = []float64{num(t, r[3]), num(t, r[6])} // max load, cost
		}
		return m
	}
	gf2 := row("2")
	if !(gf2["rlnc:4"][1] > 1.3*gf2["coded:4"][1] && gf2["rlnc:4"][0] > gf2["coded:4"][0]) {
		t.Errorf("GF(2): rlnc %v against ideal %v", gf2["rlnc:4"], gf2["coded:4"])
	}
	gf256 := row("256")
	if math.Abs(gf256["rlnc:4"][1]-gf256["coded:4"][1]) > 0.05*gf256["coded:4"][1] {
		t.Errorf("GF(2⁸): rlnc %v against ideal %v", gf256["rlnc:4"], gf256["coded:4"])
	}
	for _, c := range []struct{ args, want []string }{
		{[]string{"--strategy", "rlnc:0"}, []string{"rlnc:L"}},
		{[]string{"--strategy", "rlnc-log", "--field", "8"}, []string{"--field", `"8"`}},
	} {
		r := runCmd(t, "", append([]string{"cache", "compare", "--n", "64", "--runs", "2"}, c.args...)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, r.code)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, r.stderr, w)
			}
		}
	}
}

// TestCacheCodeLT: --lt-c adds the LT study, whose numbers are those of
// coding.EstimateLTReception on the same seed (the JSON carries them to
// the last digit); without --runs it is a usage error.
func TestCacheCodeLT(t *testing.T) {
	out := mustRun(t, "cache", "code", "--ell", "50", "--runs", "100", "--lt-c", "0.5", "--json")
	var v struct {
		LT struct {
			Beta       float64
			Overhead   struct{ Mean float64 }
			FailAtBeta struct{ Mean float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	l, err := coding.NewLT(50, 0.5, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	want, err := coding.EstimateLTReception(l, 100, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.LT.Beta != l.Beta() || v.LT.Overhead.Mean != want.Overhead.Mean || v.LT.FailAtBeta.Mean != want.FailAtBeta.Mean {
		t.Errorf("LT %+v, want β %v, overhead %v, fail %v", v.LT, l.Beta(), want.Overhead.Mean, want.FailAtBeta.Mean)
	}
	if r := runCmd(t, "", "cache", "code", "--lt-c", "0.5"); r.code != 2 || !strings.Contains(r.stderr, "--lt-c without --runs") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}
