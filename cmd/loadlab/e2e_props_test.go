package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/spectral"
)

// TestSpectrumCycle: the spectrum of the 8-cycle is 2 − 2cos(2πk/8)
// (spec throttlers.md §2); the dense eigensolver is backward stable, so
// each value is within 4·n·ε·‖L‖ ≤ 4·8·2.2e-16·4 ≈ 3e-14.
func TestSpectrumCycle(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "graph", "spectrum", "--graph", "cycle8.txt", "--csv"))
	if len(rows) != 8 {
		t.Fatalf("%d eigenvalues, want 8", len(rows))
	}
	want := make([]float64, 8)
	for k := range want {
		want[k] = 2 - 2*math.Cos(2*math.Pi*float64(k)/8)
	}
	sortFloats(want)
	for k, r := range rows {
		if got := num(t, r[1]); math.Abs(got-want[k]) > 3e-14 {
			t.Errorf("λ_%d = %v, want %v", k+1, got, want[k])
		}
	}
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// TestResistancePath: on a path of unit resistors R_uv = |u − v| and
// every edge has resistance 1 (series law; Foster: Σ R_e = n − 1).
func TestResistancePath(t *testing.T) {
	out := mustRun(t, "graph", "resistance", "--graph", "path5.csv", "--pair", "a,e", "--pair", "b,d", "--csv", "--table", "pairs")
	_, rows := csvRows(t, out)
	for i, want := range []float64{4, 2} {
		if got := num(t, rows[i][2]); math.Abs(got-want) > 1e-13 {
			t.Errorf("R(%s, %s) = %v, want %v", rows[i][0], rows[i][1], got, want)
		}
	}
	// The largest resistances of the path: the ends (4), then the two
	// pairs three hops apart (3), ties in label order.
	_, rows = csvRows(t, mustRun(t, "graph", "resistance", "--graph", "path5.csv", "--top", "3", "--csv"))
	for i, want := range [][3]string{{"a", "e", "4"}, {"a", "d", "3"}, {"b", "e", "3"}} {
		if rows[i][1] != want[0] || rows[i][2] != want[1] || math.Abs(num(t, rows[i][3])-num(t, want[2])) > 1e-13 {
			t.Errorf("top %d: %v, want %v", i+1, rows[i], want)
		}
	}
	_, rows = csvRows(t, mustRun(t, "graph", "resistance", "--graph", "path5.csv", "--edges", "--csv"))
	for _, r := range rows {
		if got := num(t, r[3]); math.Abs(got-1) > 1e-13 {
			t.Errorf("edge %s–%s: R = %v, want 1", r[0], r[1], got)
		}
	}
	// Nodal: Σ_v R_uv = Σ_v |u − v| = 10, 7, 6, 7, 10 and tr L† = K_f/n
	// = 20/5, so L†_uu = (Σ_v R_uv − 4)/5 = 1.2, 0.6, 0.4, 0.6, 1.2.
	_, rows = csvRows(t, mustRun(t, "graph", "resistance", "--graph", "path5.csv", "--nodal", "--csv"))
	for i, want := range [][2]float64{{1.2, 10}, {0.6, 7}, {0.4, 6}, {0.6, 7}, {1.2, 10}} {
		if got := num(t, rows[i][1]); math.Abs(got-want[0]) > 1e-13 {
			t.Errorf("node %s: L†_uu = %v, want %v", rows[i][0], got, want[0])
		}
		if got := num(t, rows[i][4]); math.Abs(got-want[1]) > 1e-12 {
			t.Errorf("node %s: Σ_v R_uv = %v, want %v", rows[i][0], got, want[1])
		}
	}
}

// TestAnalyzeMatchesLibrary: the command's γ*_H2 and ρ₂ on the karate
// club are the library's, to the last bit (the JSON carries every
// digit).
func TestAnalyzeMatchesLibrary(t *testing.T) {
	var tables []struct {
		Name string           `json:"name"`
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "throttler", "analyze", "--dataset", "karate", "--json")), &tables); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range tables[0].Rows {
		got[r["quantity"].(string)] = r["value"].(float64)
	}
	sp, err := consensus.NewSpectral(datasets.Karate().Graph)
	if err != nil {
		t.Fatal(err)
	}
	gstar, _, err := sp.GammaH2(1)
	if err != nil {
		t.Fatal(err)
	}
	rho2, err := sp.Rho(consensus.Case2, gstar, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got["γ*_H2"] != gstar || got["ρ₂"] != rho2 || got["stability limit 2/λ_n"] != sp.StabilityBound() {
		t.Errorf("command %v; library γ* = %v, ρ₂ = %v, 2/λ_n = %v", got, gstar, rho2, sp.StabilityBound())
	}
	if !(gstar < sp.StabilityBound()) {
		t.Errorf("γ*_H2 = %v not below the stability limit %v", gstar, sp.StabilityBound())
	}
}

// TestSimulateConservation: the total limit is conserved at every step
// (spec §3.3, Lemma 1; to rounding: 1e-12 relative on a total of 8), and
// the admitted load is at most both demand and limit (spec §3.2).
func TestSimulateConservation(t *testing.T) {
	cols, rows := csvRows(t, mustRun(t, "throttler", "simulate", "--graph", "cycle8.txt", "--steps", "200", "--csv"))
	if len(rows) != 200 || cols[3] != "limit" {
		t.Fatalf("%d rows, columns %v", len(rows), cols)
	}
	for _, r := range rows {
		d, l, a := num(t, r[2]), num(t, r[3]), num(t, r[4])
		if math.Abs(l-8) > 8e-12 || a > math.Min(d, l)+1e-12*(math.Abs(d)+math.Abs(l)) {
			t.Fatalf("step %s: demand %v, limit %v, admitted %v", r[0], d, l, a)
		}
	}
}

// TestNomadicRatios: the offline optimum is a lower bound of every
// online cost and of the best static server (spec nomadic §3, §12.7), so
// every ratio is ≥ 1, and the static server and never migrating pay one
// setup.
func TestNomadicRatios(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "nomadic", "compare", "--costs", "hold.csv", "--setup", "2", "--csv"))
	opt := num(t, rows[0][1])
	for _, r := range rows[1:] {
		if c, ratio := num(t, r[1]), num(t, r[2]); c < opt || math.Abs(ratio-c/opt) > 1e-12 || ratio < 1 {
			t.Errorf("%s: cost %v, ratio %v, optimum %v", r[0], c, ratio, opt)
		}
		if strings.HasPrefix(r[0], "static") || r[0] == "never migrate" {
			if r[3] != "1" {
				t.Errorf("%s: %s setups, want 1", r[0], r[3])
			}
		}
	}
}

// TestCacheCompareIntervals: every row has the requested runs and its
// mean inside its interval; the same seed gives the same answer, another
// seed another one.
func TestCacheCompareIntervals(t *testing.T) {
	args := []string{"cache", "compare", "--n", "64", "--runs", "5", "--csv"}
	out := mustRun(t, args...)
	_, rows := csvRows(t, out)
	for _, r := range rows {
		runs, m, lo, hi := num(t, r[2]), num(t, r[3]), num(t, r[4]), num(t, r[5])
		if runs != 5 || !(lo <= m && m <= hi) {
			t.Errorf("%v", r)
		}
	}
	if again := mustRun(t, args...); again != out {
		t.Error("same seed, different answers")
	}
	if other := mustRun(t, append(args, "--seed", "2")...); other == out {
		t.Error("--seed 2 gave the answer of seed 1")
	}
}

// TestCachePrecision: with --rel every point meets the half-width it
// was asked for and says how many runs it took; those runs, asked for as
// a fixed count, give the same numbers to the last digit (the precision
// mode only chooses where to stop); a cap that comes first exits 1 with
// the whole table, its points marked short.
func TestCachePrecision(t *testing.T) {
	const rel = 0.03
	args := []string{"cache", "compare", "--n", "64", "--strategy", "nearest", "--rel", "0.03", "--csv"}
	cols, rows := csvRows(t, mustRun(t, args...))
	if len(rows) != 1 || cols[len(cols)-1] != "met" || rows[0][len(cols)-1] != "true" {
		t.Fatalf("%v %v", cols, rows)
	}
	r := rows[0]
	for _, i := range []int{3, 6} { // max load, cost: mean, lo, hi
		m, lo, hi := num(t, r[i]), num(t, r[i+1]), num(t, r[i+2])
		if (hi-lo)/2 > rel*m*(1+1e-12) {
			t.Errorf("%s: half-width %v above %v·%v", cols[i], (hi-lo)/2, rel, m)
		}
	}
	runs := r[2]
	if num(t, runs) < 11 {
		t.Errorf("stopped after %s runs, before the %d off-mode runs the rule needs", runs, 10)
	}
	_, fixed := csvRows(t, mustRun(t, "cache", "compare", "--n", "64", "--strategy", "nearest", "--runs", runs, "--csv"))
	if got, want := strings.Join(fixed[0], ","), strings.Join(r[:len(r)-1], ","); got != want {
		t.Errorf("fixed %s runs: %s\nprecision mode: %s", runs, got, want)
	}

	res := runCmd(t, "", "cache", "compare", "--n", "64", "--rel", "1e-4", "--max-runs", "20", "--csv")
	if res.code != exitFailed || !strings.Contains(res.stderr, "not converged") {
		t.Fatalf("exit %d, stderr %s", res.code, res.stderr)
	}
	_, rows = csvRows(t, res.stdout)
	for _, r := range rows {
		if r[2] != "20" || r[len(r)-1] != "false" {
			t.Errorf("capped row %v: want 20 runs and met false", r)
		}
	}
}

// TestAnycastCertificate: the optimum lies in the certified bracket and
// the run stopped at the requested relative gap.
func TestAnycastCertificate(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "anycast", "optimize", "--network", "cdn3.json", "--tol", "1e-8", "--csv", "--table", "certificate"))
	v, lo, hi := num(t, rows[0][1]), num(t, rows[0][2]), num(t, rows[0][3])
	if !(lo <= v && v <= hi) || (hi-lo) > 1e-8*hi {
		t.Errorf("P* = %v in [%v, %v]: want a bracket of relative width ≤ 1e-8", v, lo, hi)
	}
}

// TestPlots: --plot writes a PNG that decodes and an SVG, and nothing
// else in the folder.
func TestPlots(t *testing.T) {
	dir := t.TempDir()
	for _, c := range [][]string{
		{"graph", "spectrum", "--graph", tdPath(t, "cycle8.txt")},
		{"throttler", "analyze", "--dataset", "karate"},
		{"throttler", "simulate", "--graph", tdPath(t, "cycle8.txt"), "--steps", "50"},
		{"anycast", "optimize", "--network", tdPath(t, "cdn3.json")},
		{"cache", "compare", "--n", "64,144", "--runs", "3"},
		{"nomadic", "compare", "--costs", tdPath(t, "hold.csv")},
		{"graph", "info", "--dataset", "karate"},
		{"graph", "resistance", "--dataset", "karate", "--top", "10"},
		{"throttler", "design", "--dataset", "karate", "--reweight", "2"},
		{"throttler", "allocate", "--requests", tdPath(t, "clients.csv"), "--column", "rate", "--limit", "60"},
		{"anycast", "greedy", "--network", tdPath(t, "cdn3.json"), "--starts", "5"},
		{"anycast", "check", "--network", tdPath(t, "cdn3.json")},
		{"anycast", "control", "--network", tdPath(t, "cdn3.json"), "--steps", "50"},
		{"anycast", "day", "--network", tdPath(t, "cdn3-heavy.json"), "--hours", "2", "--fastcontrol"},
		{"anycast", "study", "--n", "30", "--runs", "3", "--loads", "0.5,1,2"},
		{"nomadic", "adversary", "--k", "4", "--slots", "100"},
	} {
		name := strings.Join(c[:2], "-")
		for _, ext := range []string{".png", ".svg"} {
			path := filepath.Join(dir, name+ext)
			if r := runCmd(t, dir, append(c, "--plot", path)...); r.code != 0 {
				t.Fatalf("%v: exit %d: %s", c, r.code, r.stderr)
			}
			checkPicture(t, path)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 32 {
		t.Errorf("%d files in the folder, want the 32 pictures", len(entries))
	}
}

// checkPicture checks that a PNG decodes to a non-empty image, or that
// an SVG file is a complete SVG document.
func checkPicture(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".svg") {
		s := string(b)
		if !strings.Contains(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
			t.Errorf("%s is not a complete SVG", path)
		}
		return
	}
	img, err := png.Decode(strings.NewReader(string(b)))
	if err != nil || img.Bounds().Dx() < 100 {
		t.Errorf("%s: %v", path, err)
	}
}

// tdPath is the absolute path of a file of testdata.
func tdPath(t *testing.T, name string) string {
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAllocateSums: both splits give min{x, R} in all (spec §7), no
// client more than it asks, and the fair split's level t solves
// Σ min{r_j, t} = x.
func TestAllocateSums(t *testing.T) {
	for _, limit := range []string{"60", "500"} {
		_, rows := csvRows(t, mustRun(t, "throttler", "allocate", "--requests", "clients.csv", "--column", "rate", "--limit", limit, "--csv"))
		x := num(t, limit)
		var total, su, sf float64
		for _, r := range rows {
			req, u, f := num(t, r[1]), num(t, r[2]), num(t, r[3])
			total, su, sf = total+req, su+u, sf+f
			if u > req*(1+1e-15) || f > req {
				t.Errorf("limit %s, client %s: requests %v, uniform %v, fair %v", limit, r[0], req, u, f)
			}
		}
		want := math.Min(x, total)
		if math.Abs(su-want) > 1e-12*want || math.Abs(sf-want) > 1e-12*want {
			t.Errorf("limit %s: sums %v and %v, want %v", limit, su, sf, want)
		}
	}
}

// TestAdversaryBound: against the cruel adversary every deterministic
// algorithm's ratio is at least k(C + (T−1)ε)/(kC + (T−1)ε) (spec §6.1).
func TestAdversaryBound(t *testing.T) {
	out := mustRun(t, "nomadic", "adversary", "--k", "4", "--slots", "200", "--setup", "1", "--eps", "0.01", "--csv")
	_, rows := csvRows(t, out)
	bound := 4 * (1 + 199*0.01) / (4 + 199*0.01)
	if len(rows) != 6 {
		t.Fatalf("%d algorithms, want 6", len(rows))
	}
	for _, r := range rows {
		if got := num(t, r[1]); got < bound*(1-1e-12) {
			t.Errorf("%s: ratio %v below the bound %v", r[0], got, bound)
		}
	}
}

// TestReaderOptions: what a reader does to the data is said: a GraphML
// edge without a weight gets --default-weight only when asked, node
// labels come from --label, and the notes count the defaulted edges. In
// the triangle London–Paris (10), Paris–Berlin (20, defaulted),
// Berlin–London (40), R(London, Berlin) = 1/(40 + 1/(1/10 + 1/20)).
func TestReaderOptions(t *testing.T) {
	out := mustRun(t, "graph", "resistance", "--graph", "noweight.graphml", "--weight", "LinkSpeed", "--default-weight", "20", "--label", "label", "--pair", "London,Berlin", "--csv")
	_, rows := csvRows(t, out)
	want := 1 / (40 + 1/(1.0/10+1.0/20))
	if got := num(t, rows[0][2]); math.Abs(got-want) > 1e-15 {
		t.Errorf("R = %v, want %v", got, want)
	}
	info := mustRun(t, "graph", "info", "--graph", "noweight.graphml", "--weight", "LinkSpeed", "--default-weight", "20")
	if !strings.Contains(info, "1 edges without a weight given --default-weight") {
		t.Errorf("no note of the defaulted edge:\n%s", info)
	}
	// The stamped hold costs read once the time column is skipped.
	if out := mustRun(t, "nomadic", "compare", "--costs", "../../../examples/data/hold-costs.csv", "--skip", "time", "--setup", "2"); !strings.Contains(out, "offline optimum") {
		t.Errorf("hold costs with --skip time:\n%s", out)
	}
}

// TestNodalEstimatedBeyondTheFactor: on the hypercube of 2¹⁵ nodes the
// sparse factor fills in past cholesky's flops limit, so --nodal falls
// back to estimates with 95 % intervals, and says so; every node has
// L†_uu = K_f/n² (vertex transitivity), which nearly every interval
// holds (at least 90 %: each covers with probability 95 %).
func TestNodalEstimatedBeyondTheFactor(t *testing.T) {
	const d = 15
	n := 1 << d
	var b strings.Builder
	b.WriteString("u,v\n")
	for u := range n {
		for k := range d {
			if v := u ^ 1<<k; u < v {
				fmt.Fprintf(&b, "%d,%d\n", u, v)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "hypercube15.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	kf, err := spectral.HypercubeKirchhoff(d)
	if err != nil {
		t.Fatal(err)
	}
	want := kf / float64(n) / float64(n)
	out := mustRun(t, "graph", "resistance", "--graph", path, "--nodal")
	if !strings.Contains(out, "ESTIMATED") {
		t.Errorf("the answer does not say it is estimated:\n%s", out[len(out)-300:])
	}
	_, rows := csvRows(t, mustRun(t, "graph", "resistance", "--graph", path, "--nodal", "--csv"))
	in := 0
	for _, r := range rows {
		if num(t, r[2]) <= want && want <= num(t, r[3]) {
			in++
		}
	}
	if frac := float64(in) / float64(len(rows)); len(rows) != n || frac < 0.9 {
		t.Errorf("%d rows, %.3f of the intervals hold L†_uu = %v", len(rows), frac, want)
	}
}
