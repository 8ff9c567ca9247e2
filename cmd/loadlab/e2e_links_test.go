package main

import (
	"github.com/loadlab/loadlab/wgraph"
	"strconv"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/spectral"
)

// TestDesignAddKirchhoff runs "throttler design --add --objective
// kirchhoff" on the karate club (exact path) and checks its numbers
// against the library: the final K_f is the dense K_f of the graph with
// the printed links, and lower ≤ after.
func TestDesignAddKirchhoff(t *testing.T) {
	args := []string{"throttler", "design", "--dataset", "karate", "--add", "3", "--hops", "2", "--objective", "kirchhoff", "--csv"}
	_, links := csvRows(t, mustRun(t, append(args, "--table", "added links")...))
	_, q := csvRows(t, mustRun(t, append(args, "--table", "Kirchhoff index")...))
	if len(links) != 3 {
		t.Fatalf("%d links, want 3", len(links))
	}
	want, err := spectral.KirchhoffIndex(karateWith(t, links))
	if err != nil {
		t.Fatal(err)
	}
	val := map[string]float64{}
	for _, r := range q {
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		val[r[0]] = v
	}
	// The CSV prints 6 significant digits at least; 1e-5 relative.
	if got := val["K_f after"]; !(abs(got-want) <= 1e-5*want) {
		t.Errorf("K_f after = %v, dense %v", got, want)
	}
	if !(val["best K_f with k links ≥"] <= val["K_f after"]) || !(val["gap"] >= 0) {
		t.Errorf("lower %v, after %v, gap %v", val["best K_f with k links ≥"], val["K_f after"], val["gap"])
	}
	karate := shipped["karate"]().Graph
	cands, _ := consensus.Candidates(karate, 2)
	res, err := consensus.AddLinks(karate, cands, 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := val["gap"]; !(abs(got-res.Gap) <= 1e-5*res.Gap) {
		t.Errorf("gap %v, library %v", got, res.Gap)
	}
}

// TestDesignAddKirchhoffBadInput: bad flags exit with 2.
func TestDesignAddKirchhoffBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--objective", "speed"}, "--objective"},
		{[]string{"--objective", "kirchhoff", "--hops", "-1"}, "--hops"},
		{[]string{"--objective", "kirchhoff", "--link-weight", "-1"}, "--link-weight"},
		{[]string{"--objective", "kirchhoff", "--add", "100000"}, "k = 100000"},
	} {
		args := append([]string{"throttler", "design", "--dataset", "karate", "--add", "2", "--hops", "2"}, c.args...)
		r := runCmd(t, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// TestDesignAddRho2Star runs "throttler design --add --objective
// rho2-star" on the karate club and checks it against the library: ρ₂
// after is the dense ρ₂ at γ* of the graph with the printed links, and
// lower ≤ after; --gamma-every 0 exits with 2.
func TestDesignAddRho2Star(t *testing.T) {
	args := []string{"throttler", "design", "--dataset", "karate", "--add", "2", "--hops", "2", "--objective", "rho2-star", "--csv"}
	_, links := csvRows(t, mustRun(t, append(args, "--table", "added links")...))
	_, q := csvRows(t, mustRun(t, append(args, "--table", "ρ₂ at γ*")...))
	g := karateWith(t, links)
	sp, err := consensus.NewSpectral(g)
	if err != nil {
		t.Fatal(err)
	}
	gs, _, err := sp.GammaH2(1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := consensus.Rho(&consensus.Throttler{Graph: g, Gamma: gs}, consensus.Case2, 1)
	if err != nil {
		t.Fatal(err)
	}
	val := map[string]float64{}
	for _, r := range q {
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		val[r[0]] = v
	}
	// The CSV prints 6 significant digits at least; 1e-5 relative.
	if got := val["ρ₂ after"]; !(abs(got-want) <= 1e-5*want) {
		t.Errorf("ρ₂ after = %v, dense %v", got, want)
	}
	if lo := val["best ρ₂ with k links ≥"]; !(lo <= val["ρ₂ after"]) || !(val["gap"] >= 0) {
		t.Errorf("lower %v, after %v, gap %v", lo, val["ρ₂ after"], val["gap"])
	}
	r := runCmd(t, "", append(args[:len(args)-1], "--gamma-every", "0")...)
	if r.code != 2 || !strings.Contains(r.stderr, "--gamma-every") {
		t.Errorf("--gamma-every 0: exit %d, stderr %q", r.code, r.stderr)
	}
}

// karateWith returns the karate club graph with the printed links (rows
// of the "added links" table: index, endpoint labels) added at weight 1.
func karateWith(t *testing.T, links [][]string) *wgraph.Graph {
	t.Helper()
	d := shipped["karate"]()
	idx := map[string]int{}
	for i, l := range d.Labels {
		idx[l] = i
	}
	b := d.Graph.Builder()
	for _, r := range links {
		if err := b.SetEdge(idx[r[1]], idx[r[2]], 1); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}
