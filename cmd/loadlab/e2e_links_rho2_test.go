package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestDesignAddRho2AtScale runs "throttler design --add --objective
// rho2" on a 2000-node random 4-regular graph, above the dense limit of
// AddLinks, so the sketch path runs (spec §13.16): the printed links
// are non-edges, the exact ρ₂ of the graph with them lies in the printed
// interval of ρ₂ after, and the certified lower bound lies below it.
func TestDesignAddRho2AtScale(t *testing.T) {
	g, path := regularEdgeList(t, 2000, 4, 5)
	args := []string{"throttler", "design", "--graph", path, "--add", "3", "--hops", "2", "--objective", "rho2", "--gamma", "0.2", "--csv"}
	_, links := csvRows(t, mustRun(t, append(args, "--table", "added links")...))
	_, q := csvRows(t, mustRun(t, append(args, "--table", "ρ₂ at γ = 0.2 (σ = 1)")...))
	if len(links) != 3 {
		t.Fatalf("%d links, want 3", len(links))
	}
	bb := g.Builder()
	for _, r := range links {
		u, v := int(num(t, r[1])), int(num(t, r[2]))
		if g.HasEdge(u, v) {
			t.Errorf("link {%d, %d} is an edge", u, v)
		}
		if err := bb.SetEdge(u, v, 1); err != nil {
			t.Fatal(err)
		}
	}
	want, err := consensus.Rho(&consensus.Throttler{Graph: bb.Build(), Gamma: 0.2}, consensus.Case2, 1)
	if err != nil {
		t.Fatal(err)
	}
	var lo, hi float64
	for _, r := range q {
		if r[0] == "ρ₂ after" {
			lo, hi = num(t, r[2]), num(t, r[3])
		}
	}
	// The CSV prints 6 significant digits: widen by 1e-5 relative.
	if want < lo*(1-1e-5) || want > hi*(1+1e-5) {
		t.Errorf("exact ρ₂ after %v outside the printed [%v, %v]", want, lo, hi)
	}
	if lower, after := quantity(t, q, "best ρ₂ with k links ≥"), quantity(t, q, "ρ₂ after"); !(lower <= after) || !(quantity(t, q, "gap") >= 0) {
		t.Errorf("lower %v, after %v, gap %v", lower, after, quantity(t, q, "gap"))
	}
}

// TestDesignAddRho2AtScaleBadInput: above the dense limit, an unstable
// or negative --gamma, a bad --link-weight and K beyond the candidates
// exit with 2 and name the problem.
func TestDesignAddRho2AtScaleBadInput(t *testing.T) {
	_, path := regularEdgeList(t, 1100, 3, 6)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--gamma", "5"}, "2/λ_n"},
		{[]string{"--gamma", "-1"}, "Gamma = -1"},
		{[]string{"--gamma", "0.1", "--link-weight", "-1"}, "--link-weight"},
		{[]string{"--gamma", "0.1", "--add", "100000"}, "k = 100000"},
	} {
		args := append([]string{"throttler", "design", "--graph", path, "--add", "2", "--hops", "2", "--objective", "rho2"}, c.args...)
		r := runCmd(t, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// TestDesignAddRho2StarAtScale runs "throttler design --add --objective
// rho2-star" on a 2000-node random 4-regular graph, above the dense limit
// of AddLinks, so the sketch path of spec §13.17 runs: the printed links
// are non-edges, the sparse exact ρ₂ of the graph with them at the
// printed cycle lies in the printed interval of ρ₂ after, and the
// certified lower bound lies below it.
func TestDesignAddRho2StarAtScale(t *testing.T) {
	g, path := regularEdgeList(t, 2000, 4, 7)
	args := []string{"throttler", "design", "--graph", path, "--add", "2", "--hops", "2", "--objective", "rho2-star", "--gamma-every", "2", "--json"}
	var res consensus.LinkResult
	if err := json.Unmarshal([]byte(mustRun(t, args...)), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) == 0 || res.Method != consensus.LinkSketch {
		t.Fatalf("%d links, method %v", len(res.Steps), res.Method)
	}
	bb := g.Builder()
	for _, s := range res.Steps {
		if g.HasEdge(s.Link.U, s.Link.V) {
			t.Errorf("link %v is an edge", s.Link)
		}
		if err := bb.SetEdge(s.Link.U, s.Link.V, s.Link.W); err != nil {
			t.Fatal(err)
		}
	}
	want, err := consensus.Rho(&consensus.Throttler{Graph: bb.Build(), Gamma: res.AfterGamma}, consensus.Case2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !res.After.Contains(want) || !(res.Lower <= res.After.Mean) || !(res.Gap >= 0) {
		t.Errorf("ρ₂ after %+v, sparse exact %v; lower %v, gap %v", res.After, want, res.Lower, res.Gap)
	}
}

// regularEdgeList writes a random d-regular graph on n nodes (seed
// mc.Source(seed)) as an edge list in the test's temporary directory and
// returns the graph and the file's path.
func regularEdgeList(t *testing.T, n, d int, seed uint64) (*wgraph.Graph, string) {
	t.Helper()
	g, err := gen.RandomRegular(n, d, mc.Source(seed))
	if err != nil {
		t.Fatal(err)
	}
	return g, edgeListFile(t, g, "regular.txt")
}

// edgeListFile writes g's edges (unweighted) as an edge list named name
// in the test's temporary directory and returns its path.
func edgeListFile(t *testing.T, g *wgraph.Graph, name string) string {
	t.Helper()
	var b strings.Builder
	for _, e := range g.Edges() {
		fmt.Fprintf(&b, "%d %d\n", e.U, e.V)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
