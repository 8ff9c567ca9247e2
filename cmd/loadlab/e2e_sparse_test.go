package main

import (
	"math"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestSparseFlags: graph info's exact Kirchhoff index is the same
// (to 1e-12 relative: two exact paths, different roundings) by the
// default ordering, by nested dissection forced, without relaxed
// supernodes (--relax 1), and, with --max-flops
// below the karate club's factor, by the dense path the refusal leaves;
// each row names its path. Bad values of the flags exit 2 naming them.
func TestSparseFlags(t *testing.T) {
	kf := func(args ...string) (float64, string) {
		t.Helper()
		out := mustRun(t, append([]string{"graph", "info", "--dataset", "karate", "--csv"}, args...)...)
		_, rows := csvRows(t, out)
		for _, r := range rows {
			if r[0] == "Kirchhoff index" {
				return num(t, r[1]), r[len(r)-1]
			}
		}
		t.Fatalf("no Kirchhoff row in\n%s", out)
		return 0, ""
	}
	auto, how := kf()
	nd, howND := kf("--ordering", "nd")
	dense, howDense := kf("--max-flops", "10")
	plain, _ := kf("--relax", "1")
	if !strings.Contains(how, "sparse") || !strings.Contains(howND, "nested dissection") || !strings.Contains(howDense, "dense") {
		t.Errorf("paths: %q, %q, %q", how, howND, howDense)
	}
	for _, v := range []float64{nd, dense, plain} {
		if math.Abs(v/auto-1) > 1e-12 {
			t.Errorf("K_f %v against %v", v, auto)
		}
	}
	for _, bad := range [][]string{
		{"graph", "info", "--dataset", "karate", "--ordering", "metis"},
		{"graph", "info", "--dataset", "karate", "--max-flops", "-1"},
		{"graph", "info", "--dataset", "karate", "--relax", "-2"},
		{"graph", "resistance", "--dataset", "karate", "--nodal", "--ordering", "x"},
	} {
		r := runCmd(t, "", bad...)
		if r.code != 2 || !strings.Contains(r.stderr, bad[len(bad)-2]) {
			t.Errorf("loadlab %v: exit %d, stderr %q; want 2 naming %s", bad, r.code, r.stderr, bad[len(bad)-2])
		}
	}
}

// TestGraphInfoMultipleLambda2: on a 60 × 60 torus (3600 nodes, above the
// dense limit) λ₂ = 2 − 2cos(2π/60) has multiplicity 4, so no single
// eigenvector separates it; graph info still prints λ₂ with its
// certified bracket (containing the closed form) and the exact K_f,
// exit 0.
func TestGraphInfoMultipleLambda2(t *testing.T) {
	g, err := gen.Torus(60, 60)
	if err != nil {
		t.Fatal(err)
	}
	_, rows := csvRows(t, mustRun(t, "graph", "info", "--graph", edgeListFile(t, g, "torus.txt"), "--csv"))
	want := 2 - 2*math.Cos(2*math.Pi/60)
	for _, r := range rows {
		if r[0] == "λ₂" {
			if lo, hi := num(t, r[2]), num(t, r[3]); !(lo <= want*(1+1e-12) && want <= hi*(1+1e-12)) {
				t.Errorf("λ₂ bracket [%v, %v] misses %v", lo, hi, want)
			}
			return
		}
	}
	t.Errorf("no λ₂ row in %v", rows)
}
