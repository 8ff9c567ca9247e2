// Command powergrid walks an analyst through the throttler analysis of a
// real network, the US Western power grid of Watts and Strogatz (1998),
// shipped in package datasets — or of any graph file given with -graph.
// It prints a short report and writes its figures:
//
//	go run ./examples/powergrid                    # the power grid
//	go run ./examples/powergrid -graph my.graphml  # your own graph
//
// The steps, each with the package that does it:
//
//  1. connectivity and the spectrum's ends: λ₂ and λ_n with certified
//     brackets (spectral);
//  2. the Kirchhoff index, the sum of all effective resistances (spectral);
//  3. the update cycles γ_conv (fastest deterministic convergence) and
//     γ*_H2 (least dispersion ρ₂ under random-walk demand), and the ρ₂
//     curve against γ (consensus, spec throttlers §4–§5);
//  4. the 10 links whose addition lowers ρ₂ most, by the greedy method of
//     spec §5.2 (consensus.GreedyLinks);
//  5. per-server limits from a simulated day of random-walk demand and the
//     max–min fair split among the clients of the busiest server (spec §7);
//  6. the coded-load simulator on the same graph, as "any graph"
//     (codedload.FromGraph).
//
// Progress goes to stderr, with the time of each step. Steps 2 and 3 are
// dense, O(n³) time and O(n²) memory: at n = 4941 they take minutes on
// two cores (pure Go; under 1 GiB), most of it in the symmetric
// eigensolver. Build with
// -tags openblas for the faster BLAS (see the README); a file given with
// -graph of a few hundred nodes runs in a second.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/graphio"
)

func main() {
	graph := flag.String("graph", "", "graph file to analyse (edge list, GraphML, DOT or Matrix Market); default: the US power grid")
	out := flag.String("out", filepath.Join("figures", "powergrid"), "directory for the figures (PNG, SVG, CSV)")
	seed := flag.Uint64("seed", 1, "random seed of the simulations")
	flag.Parse()
	log.SetFlags(0)
	d, name, err := load(*graph)
	if err != nil {
		log.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Seed = *seed
	cfg.Progress = os.Stderr
	rep, err := Analyze(d.Graph, cfg)
	if err != nil {
		log.Fatal(err)
	}
	rep.Name = name
	if err := rep.Print(os.Stdout, d.Labels); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := rep.WriteFigures(*out); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "figures written to %s\n", *out)
}

// load returns the graph to analyse: the file's largest component, or the
// power grid.
func load(path string) (*graphio.Data, string, error) {
	if path == "" {
		return datasets.PowerGrid(), "US Western power grid (Watts & Strogatz 1998)", nil
	}
	d, err := graphio.ReadFile(path, &graphio.Options{Duplicates: graphio.SumDuplicates, SelfLoops: graphio.DropSelfLoops, Largest: true})
	if err != nil {
		return nil, "", err
	}
	if len(d.Components) > 1 {
		fmt.Fprintf(os.Stderr, "%s has %d components; analysing the largest (%d of %d nodes)\n", path, len(d.Components), d.Components[0], sum(d.Components))
	}
	return d, path, nil
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// progress prints one line to w (nil: nowhere).
func progress(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
