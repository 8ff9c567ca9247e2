package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestClientsGolden: "throttler clients" as a table (clients from a
// file, uniform split) and as JSON (clients per server, water-fill, a
// walk), against golden files checked by hand and by the property tests
// below.
func TestClientsGolden(t *testing.T) {
	golden(t, "throttler-clients.txt", mustRun(t, "throttler", "clients", "--graph", "cycle8.txt", "--clients", "clients8.csv", "--limit", "25", "--steps", "40"))
	golden(t, "throttler-clients.json", mustRun(t, "throttler", "clients", "--graph", "cycle8.txt", "--clients-per-server", "2", "--mean", "1.5",
		"--cv", "0.4", "--split", "water-fill", "--demand", "walk", "--limit", "20", "--steps", "4", "--worst", "3", "--json"))
}

// clientCycles runs "throttler clients" with args and returns the
// per-cycle table by column name.
func clientCycles(t *testing.T, args ...string) map[string][]float64 {
	t.Helper()
	hdr, rows := csvRows(t, mustRun(t, append([]string{"throttler", "clients", "--graph", "cycle8.txt", "--csv", "--table", "cycles"}, args...)...))
	cols := make(map[string][]float64, len(hdr))
	for _, r := range rows {
		for c, name := range hdr {
			cols[name] = append(cols[name], num(t, r[c]))
		}
	}
	return cols
}

// TestClientsJainRange: Jain's indices lie in [1/c, 1] (spec deployed
// §5.3, Lemma 5.2) every cycle, for both splits and both demand models,
// and the least ratio granted/asked in [0, 1]. The bounds hold exactly:
// the library keeps the computed index inside them.
func TestClientsJainRange(t *testing.T) {
	for _, split := range []string{"uniform", "water-fill"} {
		for _, dem := range []string{"stationary", "walk"} {
			cy := clientCycles(t, "--clients", "clients8.csv", "--limit", "20", "--steps", "300", "--split", split, "--demand", dem)
			const c = 12 // clients in clients8.csv
			below := false
			for k := range cy["cycle"] {
				for _, name := range []string{"J_q ratios", "J_a amounts"} {
					if v := cy[name][k]; !(v >= 1.0/c && v <= 1) {
						t.Errorf("%s %s cycle %d: %s = %v, want in [1/%d, 1]", split, dem, k, name, v, c)
					}
				}
				if q := cy["least ratio"][k]; !(q >= 0 && q <= 1) {
					t.Errorf("%s %s cycle %d: least ratio %v", split, dem, k, q)
				}
				below = below || cy["J_q ratios"][k] < 0.99
			}
			// The limit is 20 for a demand of about 33: the servers are
			// throttled unequally, so the index must leave 1.
			if !below {
				t.Errorf("%s %s: J_q never below 0.99 with a limit 40 %% under the demand", split, dem)
			}
		}
	}
}

// TestClientsUniformIsFairPerServer: under Algorithm 1 every active
// client of a server gets the same ratio, so J_i = 1 on every server
// every cycle (spec deployed §5.3); Algorithm 2 on the same demand
// does not (the test can fail). The per-client series shows the equal
// ratios; each is a few roundings of x_i/R_i, so they agree to 1e-14.
func TestClientsUniformIsFairPerServer(t *testing.T) {
	least := func(split string) []float64 {
		_, rows := csvRows(t, mustRun(t, "throttler", "clients", "--graph", "cycle8.txt", "--clients", "clients8.csv", "--limit", "20",
			"--steps", "200", "--split", split, "--worst", "8", "--csv", "--table", "worst servers"))
		var v []float64
		for _, r := range rows {
			v = append(v, num(t, r[3]))
		}
		return v
	}
	// J_i is (Σq)²/(c Σq²) of c equal ratios: a few roundings off 1.
	for _, v := range least("uniform") {
		if math.Abs(v-1) > 1e-14 {
			t.Errorf("uniform split: least J_i = %v, want 1", v)
		}
	}
	if v := least("water-fill"); v[0] > 0.99 {
		t.Errorf("water-fill: least J_i = %v, want a server below 1", v[0])
	}
	_, rows := csvRows(t, mustRun(t, "throttler", "clients", "--graph", "cycle8.txt", "--clients", "clients8.csv", "--limit", "20",
		"--steps", "50", "--series", "--csv", "--table", "series"))
	if len(rows) != 50*12 {
		t.Fatalf("%d series rows, want 50 cycles × 12 clients", len(rows))
	}
	ratio := map[string]float64{} // cycle/server → the first active client's ratio
	for _, r := range rows {
		asked, got := num(t, r[3]), num(t, r[4])
		if share := num(t, r[5]); asked > 0 && math.Abs(share-(1-got/asked)) > 1e-15 {
			t.Errorf("cycle %s client %s: share %v, want 1 − %v/%v", r[0], r[1], share, got, asked)
		}
		if asked == 0 {
			continue
		}
		key := r[0] + "/" + r[2]
		if q, ok := ratio[key]; !ok {
			ratio[key] = got / asked
		} else if math.Abs(got/asked-q) > 1e-14 {
			t.Errorf("cycle %s server %s: client %s ratio %v, another %v", r[0], r[2], r[1], got/asked, q)
		}
	}
}

// TestClientsMatchSimulate: the servers see the summed demand of their
// clients and nothing else (spec deployed §5.1, Proposition 5.1): the
// clients' requests of every cycle, summed per server in client order and
// given to "throttler simulate" as a trace, give the same demand and
// limit totals to the last bit, and an admitted total equal to the
// clients' accepted total while no limit is negative (spec deployed
// §5.2). The grants of a server sum to min{x_i, r_i} within
// (2c_i + 4)u·max{x_i, r_i} ≤ 10u·12 per server (c_i = 3, demand ≈ 6,
// limit ≈ 5): over 8 servers and the sum, 1e-12 is ample.
func TestClientsMatchSimulate(t *testing.T) {
	const steps, n = 60, 8
	args := []string{"--clients-per-server", "3", "--mean", "2", "--cv", "0.2", "--limit", "40", "--steps", strconv.Itoa(steps)}
	_, rows := csvRows(t, mustRun(t, append([]string{"throttler", "clients", "--graph", "cycle8.txt", "--series", "--csv", "--table", "series"}, args...)...))
	r := make([][]float64, steps)
	for k := range r {
		r[k] = make([]float64, n)
	}
	for _, row := range rows { // in client order, as the servers sum
		k, _ := strconv.Atoi(row[0])
		i, _ := strconv.Atoi(row[2]) // the labels of cycle8.txt are 0…7
		r[k][i] += num(t, row[3])
	}
	var b strings.Builder
	b.WriteString("0,1,2,3,4,5,6,7\n")
	for _, rk := range r {
		for i, v := range rk {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	trace := filepath.Join(t.TempDir(), "trace.csv")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, sim := csvRows(t, mustRun(t, "throttler", "simulate", "--graph", "cycle8.txt", "--trace", trace, "--trace-header", "yes", "--limit", "40", "--csv"))
	cy := clientCycles(t, args...)
	if len(sim) != steps || len(cy["cycle"]) != steps {
		t.Fatalf("%d and %d cycles, want %d", len(sim), len(cy["cycle"]), steps)
	}
	for k, s := range sim {
		if num(t, s[2]) != cy["demand"][k] || num(t, s[3]) != cy["limit"][k] {
			t.Errorf("cycle %d: simulate demand %s limit %s, clients %v %v", k, s[2], s[3], cy["demand"][k], cy["limit"][k])
		}
		if d := math.Abs(num(t, s[4]) - cy["accepted"][k]); d > 1e-12 {
			t.Errorf("cycle %d: simulate admitted %s, clients accepted %v", k, s[4], cy["accepted"][k])
		}
	}
}

// TestClientsDefaultLimit: without --limit the total limit is the total
// mean demand; for the stationary model that is the mean of normals
// censored at zero, m(Φ(1) + φ(1)) for σ = m (spec deployed §5.1). The
// run's mean requested total per cycle estimates it: 16 clients with
// m = σ = 1 have a total of standard deviation 4·0.82 (the censored
// normal's, from its second moment) ≈ 3.3, so over 20000 cycles the mean
// has standard error 0.023; the test allows 5 of them.
func TestClientsDefaultLimit(t *testing.T) {
	_, rows := csvRows(t, mustRun(t, "throttler", "clients", "--graph", "cycle8.txt", "--clients-per-server", "2", "--mean", "1", "--cv", "1", "--steps", "20000", "--csv"))
	get := func(name string) float64 {
		for _, r := range rows {
			if r[0] == name {
				return num(t, r[1])
			}
		}
		t.Fatalf("no row %q", name)
		return 0
	}
	limit, asked := get("total limit l_total"), get("requested, mean per cycle")
	if math.Abs(limit-asked) > 5*0.023 {
		t.Errorf("default limit %v, the run's mean demand %v", limit, asked)
	}
	// Without noise the default limit is the demand itself, and equal
	// clients on equal limits are never throttled.
	_, rows = csvRows(t, mustRun(t, "throttler", "clients", "--graph", "cycle8.txt", "--clients-per-server", "2", "--mean", "3", "--steps", "50", "--csv"))
	if limit, share := get("total limit l_total"), get("throttled share of the run"); limit != 48 || share != 0 {
		t.Errorf("no noise: limit %v, throttled share %v, want 48 and 0", limit, share)
	}
}

// TestClientsBadInput: every kind of bad input exits with 2, names what
// is wrong (for the clients file: the file, the line and the value),
// prints nothing and leaves no file behind (--out and --plot asked).
func TestClientsBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var all strings.Builder
	all.WriteString("client,server,mean\n")
	for i := range 8 {
		all.WriteString("c" + strconv.Itoa(i) + "," + strconv.Itoa(i) + ",1\n")
	}
	files := map[string]string{
		"label.csv":    strings.Replace(all.String(), "c5,5,1", "c5,x9,1", 1),
		"negative.csv": strings.Replace(all.String(), "c3,3,1", "c3,3,-2", 1),
		"word.csv":     strings.Replace(all.String(), "c3,3,1", "c3,3,lots", 1),
		"repeat.csv":   strings.Replace(all.String(), "c4,4,1", "c1,4,1", 1),
		"empty.csv":    strings.Replace(all.String(), "c6,6,1\n", "c6,5,1\n", 1),
		"header.csv":   strings.Replace(all.String(), "mean", "rate", 1),
		"sigma.csv":    strings.Replace(strings.Replace(all.String(), "mean\n", "mean,sigma\n", 1), ",1\n", ",1,0.1\n", -1),
		"sigmaneg.csv": strings.Replace(strings.Replace(strings.Replace(all.String(), "mean\n", "mean,sigma\n", 1), ",1\n", ",1,0.1\n", -1), "c2,2,1,0.1", "c2,2,1,-0.5", 1),
	}
	for name, content := range files {
		write(name, content)
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"throttler", "clients", "--graph", "cycle8.txt", "--out", p("answer.txt"), "--plot", p("jain.png")}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown server label", []string{"--clients", p("label.csv")}, []string{"label.csv:7", `"x9"`, "no server"}},
		{"negative mean in the file", []string{"--clients", p("negative.csv")}, []string{"negative.csv:5", `"mean"`, "-2"}},
		{"negative sigma in the file", []string{"--clients", p("sigmaneg.csv")}, []string{"sigmaneg.csv:4", `"sigma"`, "-0.5"}},
		{"mean not a number", []string{"--clients", p("word.csv")}, []string{"word.csv:5", `"lots"`}},
		{"repeated client", []string{"--clients", p("repeat.csv")}, []string{"repeat.csv:6", `"c1"`, "line 3"}},
		{"server without clients", []string{"--clients", p("empty.csv")}, []string{"empty.csv", `server "6"`}},
		{"header without mean", []string{"--clients", p("header.csv")}, []string{"header.csv:1", "mean", `client,server,rate`}},
		{"sigma column and --cv", []string{"--clients", p("sigma.csv"), "--cv", "0.2"}, []string{"--cv", "sigma"}},
		{"missing clients file", []string{"--clients", p("missing.csv")}, []string{"missing.csv"}},
		{"negative --mean", []string{"--clients-per-server", "2", "--mean", "-1"}, []string{"--mean = -1"}},
		{"both sources", []string{"--clients", p("sigma.csv"), "--clients-per-server", "2", "--mean", "1"}, []string{"--clients", "--clients-per-server", "exclude"}},
		{"no clients", nil, []string{"no clients"}},
		{"--mean with a file", []string{"--clients", p("sigma.csv"), "--mean", "1"}, []string{"--mean"}},
		{"per server without --mean", []string{"--clients-per-server", "2"}, []string{"--mean"}},
		{"zero per server", []string{"--clients-per-server", "0", "--mean", "1"}, []string{"--clients-per-server = 0"}},
		{"bad split", []string{"--clients-per-server", "2", "--mean", "1", "--split", "fair"}, []string{"--split", "fair"}},
		{"bad demand", []string{"--clients-per-server", "2", "--mean", "1", "--demand", "bursty"}, []string{"--demand", "bursty"}},
		{"negative cv", []string{"--clients-per-server", "2", "--mean", "1", "--cv", "-0.1"}, []string{"--cv = -0.1"}},
		{"negative limit", []string{"--clients-per-server", "2", "--mean", "1", "--limit", "-5"}, []string{"--limit = -5"}},
		{"no steps", []string{"--clients-per-server", "2", "--mean", "1", "--steps", "0"}, []string{"--steps = 0"}},
		{"unstable gamma", []string{"--clients-per-server", "2", "--mean", "1", "--gamma", "10"}, []string{"unstable"}},
		{"too many clients", []string{"--clients-per-server", "4000000000000000000", "--mean", "1"}, []string{"too"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, "", append(base, c.args...)...)
			if r.code != exitBadInput {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, exitBadInput, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not contain %q", r.stderr, w)
				}
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestClientsOutputs: --out and --plot write their files whole, and the
// PNG is a picture.
func TestClientsOutputs(t *testing.T) {
	dir := t.TempDir()
	out, png := filepath.Join(dir, "clients.json"), filepath.Join(dir, "jain.png")
	r := runCmd(t, "", "throttler", "clients", "--graph", "cycle8.txt", "--clients", "clients8.csv", "--steps", "30", "--json", "--out", out, "--plot", png)
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), `"name": "cycles"`) || !strings.HasSuffix(string(b), "]\n") {
		t.Errorf("%s: %v\n%.200s", out, err, b)
	}
	if b, err := os.ReadFile(png); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("%s: %v", png, err)
	}
}

// TestClientsSeparators: a clients file separated by semicolons, tabs or
// blanks reads as the comma-separated one (the names are split as dataio
// splits the numbers).
func TestClientsSeparators(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "clients8.csv"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"throttler", "clients", "--graph", "cycle8.txt", "--limit", "25", "--steps", "20", "--csv", "--table", "cycles"}
	want := mustRun(t, append(args, "--clients", "clients8.csv")...)
	dir := t.TempDir()
	for _, sep := range []string{";", "\t", " "} {
		p := filepath.Join(dir, "clients.csv")
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), ",", sep)), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := mustRun(t, append(args, "--clients", p)...); got != want {
			t.Errorf("separator %q: the run differs from the comma-separated file's", sep)
		}
	}
}
