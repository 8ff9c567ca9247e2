package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// minRunsForZeroWidth is the fewest runs from which the tests accept a
// zero-width interval: with n equal runs the probability of another
// value is only known to lie below about 3/n (the rule of three), 10 %
// at n = 30, so fewer runs say nothing of the spread. The figures show
// no interval at all for a quantity with fewer than loadlab.MinOffMode
// runs off its most frequent value (intervals.go), so no figure reaches
// even this limit.
const minRunsForZeroWidth = 30

// intervalColumns returns the pairs of interval columns of a CSV
// header: X_lo95/X_hi95, lo95/hi95 and X_lo/X_hi.
func intervalColumns(header []string) [][2]int {
	at := map[string]int{}
	for i, h := range header {
		at[h] = i
	}
	var pairs [][2]int
	for i, h := range header {
		for _, suf := range [][2]string{{"lo95", "hi95"}, {"_lo", "_hi"}} {
			if base, ok := strings.CutSuffix(h, suf[0]); ok {
				if j, ok := at[base+suf[1]]; ok {
					pairs = append(pairs, [2]int{i, j})
				}
			}
		}
	}
	return pairs
}

// zeroWidthIntervals returns the rows of a figure's CSV that give a
// finite interval of zero width from fewer than minRunsForZeroWidth
// runs, or from an unknown number of runs (no runs column). Exact
// values (closed forms, dense computations) have no interval: NaN.
func zeroWidthIntervals(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	recs, err := r.ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	runsCol := -1
	for i, h := range recs[0] {
		if h == "runs" {
			runsCol = i
		}
	}
	var bad []string
	for k, rec := range recs[1:] {
		for _, pr := range intervalColumns(recs[0]) {
			lo, err1 := strconv.ParseFloat(rec[pr[0]], 64)
			hi, err2 := strconv.ParseFloat(rec[pr[1]], 64)
			if err1 != nil || err2 != nil || math.IsNaN(lo) || lo != hi {
				continue
			}
			runs := -1
			if runsCol >= 0 {
				runs, _ = strconv.Atoi(rec[runsCol])
			}
			if runs < minRunsForZeroWidth {
				bad = append(bad, fmt.Sprintf("%s row %d: %s = %s = %s from %d runs", filepath.Base(path), k+2, recs[0][pr[0]], rec[pr[0]], recs[0][pr[1]], runs))
			}
		}
	}
	return bad, nil
}

// TestZeroWidthDetected: the check finds what it must (a zero-width
// interval from 3 runs, or with no run count) and passes what it may
// (NaN for an exact value, a zero width from 40 runs).
func TestZeroWidthDetected(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.csv")
	require.NoError(t, os.WriteFile(path, []byte("x,runs,maxload,maxload_lo95,maxload_hi95,gap_lo,gap_hi\n"+
		"1,3,4,4,4,NaN,NaN\n2,40,3,3,3,1,2\n3,20,3,2.5,3.5,NaN,NaN\n"), 0o644))
	bad, err := zeroWidthIntervals(path)
	require.NoError(t, err)
	assert.Len(t, bad, 1)
	require.NoError(t, os.WriteFile(path, []byte("n,rho2,rho2_lo,rho2_hi\n1,2,2,2\n2,3,NaN,NaN\n"), 0o644))
	bad, err = zeroWidthIntervals(path)
	require.NoError(t, err)
	assert.Len(t, bad, 1)
}
