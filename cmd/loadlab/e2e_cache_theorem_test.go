package main

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestCacheTail: "cache tail" gives, per strategy, size and threshold, the
// share of runs above the threshold inside its Clopper–Pearson interval,
// falling with the threshold; nearest replica's tail at c = 2.5 lies
// above the coded one's (its maximum load is about twice as large, spec
// §7.3, so the ordering holds with a wide margin at 30 runs).
func TestCacheTail(t *testing.T) {
	head, rows := csvRows(t, mustRun(t, "cache", "tail", "--n", "100", "--runs", "30", "--c", "2.5,4", "--csv"))
	if len(head) != 9 || len(rows) != 4 {
		t.Fatalf("columns %v, %d rows, want 9 columns and 4 rows", head, len(rows))
	}
	f := func(r []string, i int) float64 { x, _ := strconv.ParseFloat(r[i], 64); return x }
	for _, r := range rows {
		if p := f(r, 6); p < f(r, 7) || p > f(r, 8) || r[3] != "30" {
			t.Errorf("row %v: share outside its interval or runs ≠ 30", r)
		}
	}
	if f(rows[0], 6) < f(rows[1], 6) || f(rows[2], 6) < f(rows[3], 6) {
		t.Errorf("tail rises with c: %v", rows)
	}
	if f(rows[0], 6) <= f(rows[2], 6) {
		t.Errorf("nearest replica's P[L > 2.5] = %v not above coded's %v", f(rows[0], 6), f(rows[2], 6))
	}
}

// TestCacheSlopeRegime: "cache slope" fits every curve (its slope inside
// its interval), nearest replica's slope above the coded one's at c = 1
// (spec §12.2: about 0.76 against 0.10 per unit of ln n at these sizes);
// "cache regime" reports both fits.
func TestCacheSlopeRegime(t *testing.T) {
	out := mustRun(t, "cache", "slope", "--n", "100,400,1600", "--runs", "10", "--c", "1", "--csv", "--table", "slope of the mean max load against ln n")
	_, rows := csvRows(t, out)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	s := func(i int) float64 { x, _ := strconv.ParseFloat(rows[i][1], 64); return x }
	if !(s(0) > s(1)) || math.IsNaN(s(1)) {
		t.Errorf("slopes nearest %v, coded %v: want nearest's larger", s(0), s(1))
	}
	_, rows = csvRows(t, mustRun(t, "cache", "regime", "--n", "64,256", "--runs", "4", "--csv", "--table", "fits of the mean max load"))
	if len(rows) != 2 || rows[0][0] != "ln ln n" || rows[1][0] != "ln n" {
		t.Errorf("regime fits %v", rows)
	}
}

// TestCachePresetDesign: "cache preset --list" names the five presets;
// "cache preset chunk" runs the authors' toy experiment (10 values of ℓ,
// no outage under uniform placement); "cache design" marks exactly one
// chosen candidate, one that meets the target, and exits 1 with the
// table printed when none can.
func TestCachePresetDesign(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "cache", "preset", "--list", "--csv"))
	if len(rows) != 5 || rows[0][0] != "cache-size" || rows[4][0] != "zipf" {
		t.Errorf("presets %v", rows)
	}
	_, rows = csvRows(t, mustRun(t, "cache", "preset", "chunk", "--runs", "3", "--csv"))
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	for _, r := range rows {
		if r[2] != "3" || r[9] != "0" {
			t.Errorf("row %v: want 3 runs and no outage", r)
		}
	}
	_, rows = csvRows(t, mustRun(t, "cache", "design", "--n", "400", "--runs", "6", "--ell", "2,6", "--csv"))
	chosen := 0
	for _, r := range rows {
		if r[9] == "true" {
			chosen++
			if r[8] != "true" {
				t.Errorf("chosen row %v does not meet the target", r)
			}
		}
	}
	if len(rows) != 4 || chosen != 1 {
		t.Errorf("%d rows, %d chosen: want 4 and 1", len(rows), chosen)
	}
	r := runCmd(t, "", "cache", "design", "--n", "100", "--runs", "4", "--ell", "2", "--target", "0.5")
	if r.code != exitFailed || !strings.Contains(r.stdout, "no candidate") {
		t.Errorf("exit %d, stdout %q: want 1 and the table", r.code, r.stdout)
	}
}
