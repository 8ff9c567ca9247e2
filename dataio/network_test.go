package dataio

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
)

// measured is a correlation matrix as a measurement gives it: row j of
// a valid sparse C with each entry scaled by 1 + 1e-4·u, u uniform in
// [−1, 1), so that its rows sum to 1 only within about 1e-4.
type measured struct {
	n    int
	a, t []float64
	rows [][]float64 // dense, n × n
}

func newMeasured(t *testing.T, n int, seed uint64) measured {
	nw, err := anycast.GenerateCDN(rand.NewPCG(seed, 1), &anycast.CDNSettings{N: n, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	m := measured{n: n, a: nw.A, t: nw.T, rows: make([][]float64, n)}
	for j := range n {
		m.rows[j] = make([]float64, n)
		cols, vals := nw.Row(j)
		for k, i := range cols {
			m.rows[j][i] = vals[k] * (1 + 1e-4*(2*rng.Float64()-1))
		}
	}
	return m
}

// sums returns the row sums (in column order, as the readers add them)
// and the largest |sum − 1| with its first row.
func (m measured) sums() ([]float64, float64, int) {
	s := make([]float64, m.n)
	dev, row := -1.0, -1
	for j, r := range m.rows {
		for _, v := range r {
			s[j] += v
		}
		if d := math.Abs(s[j] - 1); d > dev {
			dev, row = d, j
		}
	}
	return s, dev, row
}

// forms writes m in the four forms the readers take; each returns the
// reader's result for opts. The CSV forms are files, so errors name them.
func (m measured) forms(t *testing.T) map[string]func(opts *NetworkOptions) (*NetworkData, error) {
	dir := t.TempDir()
	var nodes, dense, trip strings.Builder
	nodes.WriteString("A,T\n")
	trip.WriteString("i,j,c\n")
	var jd, jt []string
	for j, r := range m.rows {
		fmt.Fprintf(&nodes, "%v,%v\n", num(m.a[j]), num(m.t[j]))
		cells := make([]string, m.n)
		for i, v := range r {
			cells[i] = num(v)
			if v != 0 {
				fmt.Fprintf(&trip, "%d,%d,%s\n", j, i, num(v))
				jt = append(jt, fmt.Sprintf("[%d,%d,%s]", j, i, num(v)))
			}
		}
		dense.WriteString(strings.Join(cells, ",") + "\n")
		jd = append(jd, "["+strings.Join(cells, ",")+"]")
	}
	vec := func(xs []float64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = num(x)
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	np, dp, tp := write("nodes.csv", nodes.String()), write("dense.csv", dense.String()), write("trip.csv", trip.String())
	jsonDense := fmt.Sprintf(`{"A":%s,"T":%s,"C":[%s]}`, vec(m.a), vec(m.t), strings.Join(jd, ","))
	jsonTrip := fmt.Sprintf(`{"A":%s,"T":%s,"C_triplets":[%s]}`, vec(m.a), vec(m.t), strings.Join(jt, ","))
	return map[string]func(*NetworkOptions) (*NetworkData, error){
		"CSV dense":     func(o *NetworkOptions) (*NetworkData, error) { return ReadNetworkCSVFiles(np, dp, o) },
		"CSV triplets":  func(o *NetworkOptions) (*NetworkData, error) { return ReadNetworkCSVFiles(np, tp, o) },
		"JSON dense":    func(o *NetworkOptions) (*NetworkData, error) { return ReadNetworkJSON(strings.NewReader(jsonDense), o) },
		"JSON triplets": func(o *NetworkOptions) (*NetworkData, error) { return ReadNetworkJSON(strings.NewReader(jsonTrip), o) },
	}
}

// A measured C is refused by default with the file, the line (CSV) or
// JSON path, the row and its sum; with Normalize it reads, its rows
// divided by their sums, and the result reports the largest |sum − 1|
// and its row; a RowSumTol below that deviation refuses it again.
// (Guards: no option, and an error naming neither file nor line.)
func TestMeasuredCorrelation(t *testing.T) {
	m := newMeasured(t, 40, 3)
	sums, dev, row := m.sums()
	first := -1 // the first row outside anycast.RowSumTol
	for j, s := range sums {
		if math.Abs(s-1) > anycast.RowSumTol {
			first = j
			break
		}
	}
	if first < 0 || dev < 1e-6 {
		t.Fatalf("the perturbation left the rows summing to 1 (max dev %g)", dev)
	}
	where := map[string]string{
		"CSV dense":     fmt.Sprintf("dense.csv:%d: row %d of C", first+1, first),
		"CSV triplets":  fmt.Sprintf("trip.csv:%d: row %d of C (from triplet[", 0, first),
		"JSON dense":    fmt.Sprintf("C[%d] = ", first),
		"JSON triplets": fmt.Sprintf("row %d of C (from C_triplets[", first),
	}
	for name, read := range m.forms(t) {
		_, err := read(nil)
		if !errors.Is(err, loadlab.ErrInvalid) {
			t.Fatalf("%s: %v, want ErrInvalid", name, err)
		}
		w := where[name]
		if name == "CSV triplets" { // the line of the row's first triplet
			w = strings.Replace(w, ":0:", fmt.Sprintf(":%d:", 2+countNonzero(m.rows[:first])), 1)
		}
		for _, want := range []string{w, fmt.Sprintf("sums to %v", sums[first]), "NetworkOptions.Normalize"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not name %q", name, err, want)
			}
		}

		nd, err := read(&NetworkOptions{Normalize: true})
		if err != nil {
			t.Fatalf("%s, Normalize: %v", name, err)
		}
		if nd.RowSumDev != dev || nd.RowSumDevRow != row || !nd.Normalized {
			t.Errorf("%s: RowSumDev %g at row %d, want %g at row %d", name, nd.RowSumDev, nd.RowSumDevRow, dev, row)
		}
		for j := range m.n {
			for i := range m.n {
				// Normalising is one division per entry: exact to
				// the last bit against the same division here.
				if got, want := nd.Network.At(j, i), m.rows[j][i]/sums[j]; got != want {
					t.Fatalf("%s: C[%d][%d] = %v, want %v", name, j, i, got, want)
				}
			}
		}
		if _, err := read(&NetworkOptions{Normalize: true, RowSumTol: 2 * dev}); err != nil {
			t.Errorf("%s: RowSumTol 2·dev: %v", name, err)
		}
		_, err = read(&NetworkOptions{Normalize: true, RowSumTol: dev / 2})
		if !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), "exceeds NetworkOptions.RowSumTol") {
			t.Errorf("%s: RowSumTol dev/2: %v", name, err)
		}
	}
}

func countNonzero(rows [][]float64) int {
	n := 0
	for _, r := range rows {
		for _, v := range r {
			if v != 0 {
				n++
			}
		}
	}
	return n
}

// Rows within anycast.RowSumTol read unchanged, and the result says how
// far they were; a row of zeros cannot be normalised.
func TestRowSumReport(t *testing.T) {
	nd, err := ReadNetworkJSON(strings.NewReader(`{"A":[1,1],"T":[1,1],"C":[[0.5,0.5000000004],[0.25,0.75]]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	// 0.5 + 0.5000000004 rounds to 1 + 4e-10 within one ulp (2.2e-16).
	if math.Abs(nd.RowSumDev-4e-10) > 1e-15 || nd.RowSumDevRow != 0 || nd.Normalized || nd.Network.At(0, 1) != 0.5000000004 {
		t.Errorf("RowSumDev %g at row %d, normalized %v", nd.RowSumDev, nd.RowSumDevRow, nd.Normalized)
	}
	_, err = ReadNetworkCSV(strings.NewReader("A,T\n1,1\n1,1\n"), strings.NewReader("1,0\n0,0\n"), &NetworkOptions{Normalize: true})
	wantParse(t, "zero row", err, 2, "row 1 of C", "0", "cannot be normalised")
}

// TestNetworkOptionsValidate: a bad field is named, by Validate and by
// each reader before it reads.
func TestNetworkOptionsValidate(t *testing.T) {
	for want, o := range map[string]NetworkOptions{
		"RowSumTol = -1":    {RowSumTol: -1, Normalize: true},
		"RowSumTol = NaN":   {RowSumTol: math.NaN()},
		"RowSumTol = +Inf":  {RowSumTol: math.Inf(1), Normalize: true},
		"without Normalize": {RowSumTol: 1e-3},
	} {
		if err := o.Validate(); !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", o, err, want)
		}
		if _, err := ReadNetworkJSON(strings.NewReader(`{"A":[1],"T":[1],"C":[[1]]}`), &o); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("ReadNetworkJSON with %+v: %v", o, err)
		}
	}
}

// JSON that encoding/json would read silently — a null taken as 0, a
// triplet padded or cut to three numbers, a key given twice (the last
// wins) or in another case (matched anyway), a number past float64 — is
// an error naming the JSON path.
func TestNetworkJSONStrict(t *testing.T) {
	for name, c := range map[string]struct{ src, field, value, msg string }{
		"null in A":     {`{"A":[1,null],"T":[1,1],"C":[[1,0],[0,1]]}`, "A[1]", "null", "not a finite number"},
		"A null":        {`{"A":null,"T":[1],"C":[[1]]}`, "A", "null", "array"},
		"1e999 in C":    {`{"A":[1,1],"T":[1,1],"C":[[1,0],[1e999,1]]}`, "C[1][0]", "1e999", "not a finite number"},
		"-1e999 in T":   {`{"A":[1],"T":[-1e999],"C":[[1]]}`, "T[0]", "-1e999", "not a finite number"},
		"NaN literal":   {`{"A":[NaN],"T":[1],"C":[[1]]}`, "A", "", "syntax"},
		"short triplet": {`{"A":[1,1],"T":[1,1],"C_triplets":[[0,0,1],[1,1]]}`, "C_triplets[1]", "[1 1]", "want [i, j, c]"},
		"long triplet":  {`{"A":[1,1],"T":[1,1],"C_triplets":[[0,0,1],[1,1,1,7]]}`, "C_triplets[1]", "[1 1 1 7]", "want [i, j, c]"},
		"key twice":     {`{"A":[1],"T":[1],"C":[[1]],"T":[5]}`, "key", "T", "twice"},
		"key in lower":  {`{"A":[5],"a":[1],"T":[1],"C":[[1]]}`, "key", "a", "unknown key"},
		"not an object": {`[1,2]`, "the network", "[", `want "{"`},
		"string in C":   {`{"A":[1],"T":[1],"C":[["1"]]}`, "C[0][0]", `"1"`, "not a finite number"},
		"cut short":     {`{"A":[1],"T":[1],"C":[[1]`, "C", "", "end of input"},
	} {
		_, err := ReadNetworkJSON(strings.NewReader(c.src), nil)
		wantParse(t, name, err, 0, c.field, c.value, c.msg)
	}
}

// The CSV readers name the line and column of a non-finite, negative
// or zero value in the node table and the correlation table, and do not
// parse node-table columns other than A and T (a node's name).
func TestNetworkCSVPlaces(t *testing.T) {
	read := func(nodes, corr string) error {
		_, err := ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader(corr), nil)
		return err
	}
	wantParse(t, "NaN demand", read("A,T\n1,1\nNaN,1\n", "1,0\n0,1\n"), 3, `column "A"`, "NaN", "finite")
	wantParse(t, "1e999 capacity", read("A,T\n1,1e999\n", "1\n"), 2, `column "T"`, "1e999", "finite")
	wantParse(t, "negative demand", read("A,T\n1,1\n-2,1\n", "1,0\n0,1\n"), 3, `column "A"`, "-2", "A < 0")
	wantParse(t, "zero capacity", read("T,A\n1,1\n0,1\n", "1,0\n0,1\n"), 3, `column "T"`, "0", "T ≤ 0")
	wantParse(t, "Inf in C", read("A,T\n1,1\n1,1\n", "1,0\n+Inf,1\n"), 2, "column 1", "+Inf", "finite")
	wantParse(t, "negative in C", read("A,T\n1,1\n1,1\n", "1,0\n-0.5,1.5\n"), 2, "column 1", "-0.5", "≥ 0")
	wantParse(t, "negative triplet", read("A,T\n1,1\n", "i,j,c\n0,0,-1\n"), 2, "triplet[0]", "[0 0 -1]", "≥ 0")
	if err := read("name,A,T\nlondon,1,2\nparis,2,2\n", "1,0\n0,1\n"); err != nil {
		t.Errorf("node names: %v", err)
	}
}

// ReadNetworkCSVFiles names the file an error is about.
func TestNetworkCSVFilesNameFile(t *testing.T) {
	dir := t.TempDir()
	nodes, corr := filepath.Join(dir, "nodes.csv"), filepath.Join(dir, "corr.csv")
	os.WriteFile(nodes, []byte("A,T\n1,1\n"), 0o644)
	os.WriteFile(corr, []byte("0.5\n"), 0o644)
	_, err := ReadNetworkCSVFiles(nodes, corr, nil)
	if err == nil || !strings.Contains(err.Error(), corr+":1:") {
		t.Errorf("error %v does not name %s:1", err, corr)
	}
	os.WriteFile(nodes, []byte("A,T\n-1,1\n"), 0o644)
	_, err = ReadNetworkCSVFiles(nodes, corr, nil)
	if err == nil || !strings.Contains(err.Error(), nodes+":2:") {
		t.Errorf("error %v does not name %s:2", err, nodes)
	}
}

// A correlation table written by a data frame (a header and a first
// column of row labels) reads with NetworkOptions.Corr skipping the
// labels, and is refused without, naming the label.
func TestNetworkCSVCorrOptions(t *testing.T) {
	nodes, corr := "A,T\n2,1.5\n1,1.2\n", ",p0,p1\np0,0.7,0.3\np1,0,1\n"
	_, err := ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader(corr), nil)
	wantParse(t, "row labels", err, 2, "column 1", "p0", "not a number")
	nd, err := ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader(corr), &NetworkOptions{Corr: TableOptions{Skip: []string{"1"}}})
	if err != nil || nd.Network.At(0, 1) != 0.3 || nd.Network.At(1, 1) != 1 {
		t.Fatalf("skipped labels: %v", err)
	}
	o := NetworkOptions{Corr: TableOptions{Skip: []string{"0"}}}
	if err := o.Validate(); !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), "NetworkOptions.Corr") {
		t.Errorf("bad Corr: %v", err)
	}
}
