package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// relTol is the relative tolerance of compareFiles for numbers that are
// not integers. The figures are pure functions of the seed: on one
// machine a second run writes the same bytes (the results do not depend
// on the number of goroutines, docs/conventions.md §6). Between
// machines only the last bits may move: Go may fuse x*y+z into one FMA
// on arm64, ppc64 and s390x, and some math functions have per-CPU
// assembly, each an error of about 1e-16 per operation; iterative
// solvers and sums of up to 10⁶ terms can amplify that by their
// condition, and a solver stopped at a tolerance may take one more or
// one less step. 1e-6 leaves room for that and still catches every
// change of a model, a preset or a seed, which moves numbers at the
// percent level (a changed Monte Carlo run moves a mean by about its
// standard error).
const relTol = 1e-6

// absTol forgives differences of numbers near zero (a rounding residue
// such as 1e-17 against 0).
const absTol = 1e-12

// numberRE finds the numbers in a line of text (a CSV cell or a line of
// summary.txt), with the typographic minus.
var numberRE = regexp.MustCompile(`[−-]?(\d+\.?\d*|\.\d+)([eE][+−-]?\d+)?|NaN|[+−-]?Inf`)

// compareText compares two strings: outside their numbers exactly,
// integers exactly and other numbers to relTol. It returns "" when they
// agree and otherwise says how they differ.
func compareText(want, got string) string {
	ws, gs := numberRE.Split(want, -1), numberRE.Split(got, -1)
	wn, gn := numberRE.FindAllString(want, -1), numberRE.FindAllString(got, -1)
	if len(wn) != len(gn) || strings.Join(ws, "#") != strings.Join(gs, "#") {
		return fmt.Sprintf("%q, want %q", got, want)
	}
	for i := range wn {
		if !sameNumber(wn[i], gn[i]) {
			return fmt.Sprintf("%s, want %s (relative tolerance %g)", gn[i], wn[i], relTol)
		}
	}
	return ""
}

// sameNumber compares two numbers written by the figures: integers (no
// point, no exponent) exactly, others to relTol.
func sameNumber(a, b string) bool {
	if a == b {
		return true
	}
	if isInteger(a) && isInteger(b) {
		return false
	}
	x, err1 := strconv.ParseFloat(strings.ReplaceAll(a, "−", "-"), 64)
	y, err2 := strconv.ParseFloat(strings.ReplaceAll(b, "−", "-"), 64)
	if err1 != nil || err2 != nil {
		return false
	}
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return x == y || math.IsNaN(x) && math.IsNaN(y)
	}
	return math.Abs(x-y) <= absTol+relTol*math.Max(math.Abs(x), math.Abs(y))
}

func isInteger(s string) bool { return !strings.ContainsAny(s, ".eEIN") }

// compareFiles compares the data file got with want: a CSV cell by cell,
// summary.txt line by line (compareText). It returns the differences
// found, at most maxDiffs of them.
func compareFiles(want, got string) ([]string, error) {
	const maxDiffs = 5
	wr, err := readRecords(want)
	if err != nil {
		return nil, err
	}
	gr, err := readRecords(got)
	if err != nil {
		return nil, err
	}
	var diffs []string
	if len(wr) != len(gr) {
		diffs = append(diffs, fmt.Sprintf("%d rows, want %d", len(gr), len(wr)))
	}
	for i := 0; i < min(len(wr), len(gr)) && len(diffs) < maxDiffs; i++ {
		if len(wr[i]) != len(gr[i]) {
			diffs = append(diffs, fmt.Sprintf("row %d: %d fields, want %d", i+1, len(gr[i]), len(wr[i])))
			continue
		}
		for j := range wr[i] {
			if d := compareText(wr[i][j], gr[i][j]); d != "" {
				diffs = append(diffs, fmt.Sprintf("row %d, field %d: %s", i+1, j+1, d))
				break
			}
		}
	}
	return diffs, nil
}

// readRecords reads a CSV file as records, any other file as lines of
// fields separated by runs of two or more spaces (a tabwriter table).
func readRecords(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if strings.HasSuffix(path, ".csv") {
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		return r.ReadAll()
	}
	var recs [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		recs = append(recs, columnsRE.Split(strings.TrimSpace(sc.Text()), -1))
	}
	return recs, sc.Err()
}

var columnsRE = regexp.MustCompile(`\s{2,}`)

// compareDirs compares the files named (CSV and summary.txt) of the
// folder want (the committed figures) with the same files in got (a
// fresh run). It returns one line per difference, a missing file
// included.
func compareDirs(want, got string, names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		w, g := filepath.Join(want, n), filepath.Join(got, n)
		if _, err := os.Stat(w); err != nil {
			out = append(out, fmt.Sprintf("%s: made by the code but not in %s", n, want))
			continue
		}
		if _, err := os.Stat(g); err != nil {
			out = append(out, fmt.Sprintf("%s: in %s but not made by the code", n, want))
			continue
		}
		diffs, err := compareFiles(w, g)
		if err != nil {
			return nil, err
		}
		for _, d := range diffs {
			out = append(out, fmt.Sprintf("%s: %s", n, d))
		}
	}
	return out, nil
}
