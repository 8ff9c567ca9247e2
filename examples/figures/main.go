// Command figures regenerates every loadlab figure.
//
// For each registered figure it writes NAME.png, NAME.svg and NAME.csv
// (the data behind the figure) into the output folder, shows progress on
// stderr, and prints a summary table of the headline numbers on stdout
// (a run of every figure also writes it to summary.txt).
//
//	go run ./examples/figures                 # every figure into figures/
//	go run ./examples/figures -quick          # small sizes, under a minute
//	go run ./examples/figures -list           # names and captions
//	go run ./examples/figures -only linalg-kirchhoff,consensus-totals
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/loadlab/loadlab/plots"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, so that tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "figures", "output `dir`ectory")
	only := fs.String("only", "", "comma-separated figure `names` to make (default: all)")
	list := fs.Bool("list", false, "list the figures and exit")
	quick := fs.Bool("quick", false, "small sizes: the whole run in under a minute")
	seed := fs.Uint64("seed", 1, "root random seed")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./examples/figures [flags]\n\nRegenerates loadlab's figures as PNG, SVG and CSV.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "figures: unexpected argument %q (flags only; see -h)\n", fs.Arg(0))
		return 2
	}

	figs, err := selectFigures(*only)
	if err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 2
	}
	if *list {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, f := range figs {
			fmt.Fprintf(tw, "%s\t%s\n", f.Name, f.Caption)
		}
		tw.Flush()
		return 0
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 1
	}

	cfg := plots.Config{Quick: *quick, Seed: *seed, Progress: stderr}
	var heads []row
	failed := 0
	start := time.Now()
	for k, f := range figs {
		fmt.Fprintf(stderr, "[%d/%d] %s ...\n", k+1, len(figs), f.Name)
		t0 := time.Now()
		res, err := f.Make(cfg)
		if err == nil {
			err = write(*out, f.Name, res)
		}
		if err != nil {
			fmt.Fprintf(stderr, "[%d/%d] %s FAILED: %v\n", k+1, len(figs), f.Name, err)
			failed++
			continue
		}
		fmt.Fprintf(stderr, "[%d/%d] %s done in %.1fs\n", k+1, len(figs), f.Name, time.Since(t0).Seconds())
		for _, h := range res.Headlines {
			heads = append(heads, row{f.Name, h})
		}
	}
	printSummary(stdout, heads)
	if len(heads) > 0 && len(figs) == len(registry) {
		// A complete run also leaves its summary beside the figures.
		if f, err := os.Create(filepath.Join(*out, "summary.txt")); err == nil {
			printSummary(f, heads)
			f.Close()
		}
	}
	fmt.Fprintf(stderr, "%d figures in %s, written to %s/ in %.1fs\n", len(figs)-failed, modeName(*quick), *out, time.Since(start).Seconds())
	if failed > 0 {
		fmt.Fprintf(stderr, "figures: %d of %d figures failed\n", failed, len(figs))
		return 1
	}
	return 0
}

func modeName(quick bool) string {
	if quick {
		return "quick mode"
	}
	return "full mode"
}

// selectFigures returns the figures named in a comma-separated list, or
// all of them; an unknown name is an error that lists the known ones.
func selectFigures(only string) ([]plots.Figure, error) {
	all := sortedFigures()
	if strings.TrimSpace(only) == "" {
		return all, nil
	}
	var figs []plots.Figure
	seen := map[string]bool{}
	for _, name := range strings.Split(only, ",") {
		name = strings.TrimSpace(name)
		if name == "" || seen[name] {
			continue
		}
		f, ok := registry[name]
		if !ok {
			names := make([]string, len(all))
			for i, f := range all {
				names[i] = f.Name
			}
			return nil, fmt.Errorf("unknown figure %q; known figures: %s", name, strings.Join(names, ", "))
		}
		seen[name] = true
		figs = append(figs, f)
	}
	return figs, nil
}

// write saves a figure's PNG, SVG and CSV.
func write(dir, name string, res *plots.Result) error {
	if res == nil || res.Plot == nil {
		return fmt.Errorf("figure %s returned no plot", name)
	}
	w, h := res.Width, res.Height
	if w == 0 {
		w = plots.DefaultWidth
	}
	if h == 0 {
		h = plots.DefaultHeight
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := plots.Save(res.Plot, w, h, filepath.Join(dir, name+ext)); err != nil {
			return err
		}
	}
	if res.Data == nil {
		return fmt.Errorf("figure %s returned no data table", name)
	}
	f, err := os.Create(filepath.Join(dir, name+".csv"))
	if err != nil {
		return err
	}
	if err := res.Data.WriteCSV(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type row struct {
	figure string
	plots.Headline
}

func printSummary(w io.Writer, rows []row) {
	if len(rows) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tquantity\tvalue\treference")
	fmt.Fprintln(tw, "------\t--------\t-----\t---------")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.6g\t%s\n", r.figure, r.Name, r.Value, r.Reference)
	}
	tw.Flush()
}
