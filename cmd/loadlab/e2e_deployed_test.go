package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/graphio"
)

// TestGoldenDeployed: the answers about the throttler as deployed
// (spec throttlers-deployed.md), as tables and JSON.
func TestGoldenDeployed(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"throttler-analyze-deployed.txt", []string{"throttler", "analyze", "--graph", "cycle8.txt", "--delay", "2", "--loss", "0.1", "--tick", "0.9", "--excess", "1"}},
		{"throttler-simulate-central.csv", []string{"throttler", "simulate", "--graph", "cycle8.txt", "--steps", "20", "--central", "proportional", "--central-delay", "2", "--csv"}},
		{"throttler-simulate-network.csv", []string{"throttler", "simulate", "--graph", "cycle8.txt", "--steps", "20", "--delay", "1", "--loss", "0.2", "--tick", "0.9", "--csv"}},
		{"throttler-over.txt", []string{"throttler", "over", "--graph", "cycle8.txt", "--mean", "5", "--limit", "38", "--central", "equal"}},
		{"throttler-over.json", []string{"throttler", "over", "--graph", "cycle8.txt", "--mean", "5", "--limit", "38", "--json"}},
	} {
		t.Run(c.name, func(t *testing.T) { golden(t, c.name, mustRun(t, c.args...)) })
	}
}

// quantity returns the value of the row named name in a quantity table
// printed as CSV.
func quantity(t *testing.T, rows [][]string, name string) float64 {
	t.Helper()
	for _, r := range rows {
		if r[0] == name {
			return num(t, r[1])
		}
	}
	t.Fatalf("no row %q", name)
	return 0
}

// TestAnalyzeDelayMatchesLibrary: the deployed-network table of the
// 8-cycle (λ_n = 4) holds the closed-form limit a*(2)/λ_n =
// 2 sin(π/10)/4, a cycle γ*_H2(τ) below it whose ρ₂ is the table's ρ₂
// there, and ρ values equal to the library's to the digits printed.
func TestAnalyzeDelayMatchesLibrary(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "throttler", "analyze", "--graph", "cycle8.txt", "--delay", "2", "--csv", "--table", "deployed network"))
	limit := quantity(t, rows, "stability limit a*(τ)/λ_n")
	if want := 2 * math.Sin(math.Pi/10) / 4; math.Abs(limit-want) > 1e-6*want {
		t.Errorf("limit %v, want %v", limit, want)
	}
	g := quantity(t, rows, "γ used")
	if g != quantity(t, rows, "γ*_H2(τ)") || !(g < limit) {
		t.Errorf("γ used %v: want γ*_H2(τ) below the limit %v", g, limit)
	}
	d, err := graphio.ReadFile("testdata/cycle8.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := consensus.NewSpectral(d.Graph)
	if err != nil {
		t.Fatal(err)
	}
	gs, rs, err := sp.GammaH2Delay(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	r1, err := sp.RhoDelay(consensus.Case1, 2, gs, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The table prints 6 significant digits.
	for name, want := range map[string]float64{"γ*_H2(τ)": gs, "ρ₂ under delay at γ used": rs, "ρ₁ under delay at γ used": r1} {
		if got := quantity(t, rows, name); math.Abs(got-want) > 1e-5*math.Abs(want) {
			t.Errorf("%s = %v, library %v", name, got, want)
		}
	}
}

// TestCentralIdeal: the proportional centralized throttler without delay
// gives every server its share of the limit in proportion to its demand,
// the ideal allocation: nothing is over-throttled in any cycle (to the
// rounding of the totals, n·2⁻⁵² of their size).
func TestCentralIdeal(t *testing.T) {
	// A positive demand trace (the random walk may go below zero, where
	// a_ideal = min{r_total, l_total} counts negative demand).
	var b strings.Builder
	src := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		for i := range 8 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%.4f", 0.2+2*src.Float64())
		}
		b.WriteString("\n")
	}
	trace := filepath.Join(t.TempDir(), "trace.csv")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"throttler", "simulate", "--graph", "cycle8.txt", "--trace", trace, "--limit", "8", "--central", "proportional", "--csv"}
	_, rows := csvRows(t, mustRun(t, args...))
	for _, r := range rows {
		if o, dem := num(t, r[5]), num(t, r[2]); math.Abs(o) > 8*0x1p-52*(dem+8) {
			t.Fatalf("step %s: over-throttled %v with the ideal allocation", r[0], o)
		}
	}
	_, rows = csvRows(t, mustRun(t, append(args, "--central-delay", "3")...))
	var sum float64
	for _, r := range rows {
		sum += num(t, r[5])
	}
	if !(sum > 1) {
		t.Errorf("3 cycles late, total over-throttling %v: want the delay to cost", sum)
	}
}

// TestOverEstimateCoversExact: the estimate's interval of E O holds the
// closed form (Case 1, spec deployed §4.2) at several seeds, and the
// per-server parts sum to the total.
func TestOverEstimateCoversExact(t *testing.T) {
	miss := 0
	for _, seed := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
		out := mustRun(t, "throttler", "over", "--graph", "cycle8.txt", "--mean", "5", "--limit", "38", "--runs", "10", "--steps", "500", "--seed", seed, "--csv", "--table", "over-throttling")
		_, rows := csvRows(t, out)
		exact := quantity(t, rows, "E O, distributed, exact")
		for _, r := range rows {
			if r[0] == "E O, distributed" && !(num(t, r[2]) <= exact && exact <= num(t, r[3])) {
				miss++
			}
		}
	}
	// 8 seeds at 95 %: P(≥ 3 misses) ≈ 0.006.
	if miss >= 3 {
		t.Errorf("%d of 8 intervals miss the exact E O", miss)
	}
	_, rows := csvRows(t, mustRun(t, "throttler", "over", "--graph", "cycle8.txt", "--mean", "5", "--limit", "38", "--csv", "--table", "servers"))
	_, tot := csvRows(t, mustRun(t, "throttler", "over", "--graph", "cycle8.txt", "--mean", "5", "--limit", "38", "--csv", "--table", "over-throttling"))
	var sum float64
	for _, r := range rows {
		sum += num(t, r[1])
	}
	if total := quantity(t, tot, "E O, distributed"); math.Abs(sum-total) > 1e-5*total {
		t.Errorf("parts sum to %v, total %v", sum, total)
	}
}

// TestNetworkConservation: under the joint protocol the total limit is
// conserved (Theorem 1 of spec deployed §1.4) with delay, random delay,
// loss in bursts and random ticks: the printed total, a floating-point
// sum of the eight limits, stays within 1e-12 of the first (its rounding
// is about 1e-14 here, as on the ideal network), where the separate
// protocol drifts by whole units; the lost exchanges are about q of those
// due.
func TestNetworkConservation(t *testing.T) {
	base := []string{"throttler", "simulate", "--graph", "cycle8.txt", "--steps", "2000", "--gamma", "0.05", "--csv"}
	for _, net := range [][]string{
		{"--delay", "2", "--loss", "0.3"},
		{"--delay-law", "0.5,0.3,0.2", "--tick", "0.7"},
		{"--loss", "0.3", "--burst", "4"},
	} {
		_, rows := csvRows(t, mustRun(t, append(base, net...)...))
		due, lost := 0.0, 0.0
		for _, r := range rows {
			if math.Abs(num(t, r[3])-num(t, rows[0][3])) > 1e-12 {
				t.Fatalf("%v: step %s: limit %s, first %s", net, r[0], r[3], rows[0][3])
			}
			due, lost = due+num(t, r[7]), lost+num(t, r[8])
		}
		if slices.Contains(net, "--loss") {
			// q = 0.3: the fraction lost is 0.3 ± 4 binomial standard errors
			// (bursts correlate the losses: a wider band).
			q, se := 0.3, math.Sqrt(0.3*0.7/due)
			if slices.Contains(net, "--burst") {
				se *= 4
			}
			if f := lost / due; math.Abs(f-q) > 4*se {
				t.Errorf("%v: %v of %v exchanges lost, want about %v", net, lost, due, q)
			}
		}
	}
	_, rows := csvRows(t, mustRun(t, append(base, "--tick", "0.7", "--protocol", "separate")...))
	if d := math.Abs(num(t, rows[len(rows)-1][3]) - num(t, rows[0][3])); d < 1e-3 {
		t.Errorf("separate protocol with random ticks: the total limit moved by %v only", d)
	}
}

// TestDesignOver: the weights that minimise the expected over-throttling
// do at least as well on it as the graph's own weights at the same γ
// (the design starts from the ρ₂ optimum and only descends).
func TestDesignOver(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "throttler", "design", "--dataset", "karate", "--weights", "--excess", "2", "--gamma", "0.05", "--csv", "--table", "certificate"))
	got := quantity(t, rows, "E O at the design")
	before, err := consensus.ExpectedOver(&consensus.Throttler{Graph: datasets.Karate().Graph, Gamma: 0.05}, consensus.Case2, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("E O: %v with the karate club's weights, %v designed", before.Total, got)
	if !(got < before.Total) {
		t.Errorf("E O at the design %v, with the graph's weights %v", got, before.Total)
	}
}

// TestGammasFile: servers' own cycles all equal to --gamma give the
// ideal run's totals to the last digit printed; differing cycles give
// another run, still conserving the total limit.
func TestGammasFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, g []string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(g, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	same := write("same.csv", slices.Repeat([]string{"0.2"}, 8))
	mixed := write("mixed.csv", []string{"0.1", "0.3", "0.1", "0.3", "0.1", "0.3", "0.1", "0.3"})
	base := []string{"throttler", "simulate", "--graph", "cycle8.txt", "--steps", "200", "--gamma", "0.2", "--csv"}
	_, ideal := csvRows(t, mustRun(t, base...))
	_, eq := csvRows(t, mustRun(t, append(base, "--gammas", same)...))
	_, mix := csvRows(t, mustRun(t, append(base, "--gammas", mixed)...))
	differ := false
	for k := range ideal {
		if !slices.Equal(ideal[k][:7], eq[k][:7]) {
			t.Fatalf("step %d: ideal %v, equal γ_i %v", k, ideal[k][:7], eq[k][:7])
		}
		differ = differ || mix[k][6] != ideal[k][6]
		if math.Abs(num(t, mix[k][3])-num(t, ideal[0][3])) > 1e-12 {
			t.Fatalf("step %d: total limit %s with mixed γ_i", k, mix[k][3])
		}
	}
	if !differ {
		t.Error("mixed γ_i gave the ideal run's dispersion")
	}
}

// TestDeployedBadInput: bad flags of the deployed-network questions exit
// 2 naming the flag.
func TestDeployedBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"throttler", "analyze", "--graph", "cycle8.txt", "--delay", "-1"}, "--delay = -1"},
		{[]string{"throttler", "analyze", "--graph", "cycle8.txt", "--loss", "1"}, "loss"},
		{[]string{"throttler", "analyze", "--graph", "cycle8.txt", "--tick", "0"}, "tick"},
		{[]string{"throttler", "analyze", "--dataset", "power-grid", "--gamma", "0.03", "--excess", "1"}, "at most 2048"},
		{[]string{"throttler", "analyze", "--dataset", "netscience", "--loss", "0.1"}, "at most 256"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--central-delay", "1"}, "--central RULE"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--central", "equal", "--central-delay", "-1"}, "--central-delay = -1"},
		{[]string{"throttler", "over", "--graph", "cycle8.txt", "--means", "clients.csv", "--mean", "2"}, "exclude"},
		{[]string{"throttler", "over", "--graph", "cycle8.txt", "--runs", "1"}, "--runs = 1"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--loss", "1.5"}, "--loss = 1.5"},
		{[]string{"throttler", "design", "--graph", "cycle8.txt", "--add", "1", "--excess", "1"}, "--excess goes with --weights"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--delay", "-2"}, "--delay = -2"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--gammas", "clients.csv"}, "clients.csv"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--tick", "0"}, "--tick"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--delay-law", "0.5,0.2"}, "--delay-law"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--protocol", "both"}, "--protocol"},
		{[]string{"throttler", "simulate", "--graph", "cycle8.txt", "--central", "equal", "--loss", "0.1"}, "do not apply"},
		{[]string{"throttler", "over", "--graph", "cycle8.txt", "--limit", "-3"}, "--limit = -3"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitBadInput || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 naming %q", c.args, r.code, r.stderr, r.stdout, c.want)
		}
	}
}
