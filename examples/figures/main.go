// Command figures regenerates every loadlab figure.
//
// For each registered figure it writes NAME.png, NAME.svg and NAME.csv
// (the data behind the figure) into the output folder, shows progress on
// stderr, and prints a summary table of the headline numbers on stdout:
// each number with the range its reference allows and a status, agrees or
// outside. A full-mode run of every figure also writes the table to
// summary.txt beside the figures; a full-mode run of some (-only)
// replaces their rows in summary.txt and keeps the other figures' rows.
//
//	go run ./examples/figures                 # every figure into figures/
//	go run ./examples/figures -quick          # small sizes into figures-quick/ (ignored by git)
//	go run ./examples/figures -list           # names and captions
//	go run ./examples/figures -only graphs-kirchhoff,consensus-totals
//	go run ./examples/figures -check          # regenerate into a temporary folder, compare with figures/
//
// With -check the figures are made into a temporary folder and every CSV
// and summary.txt (for a run of some figures in full mode, their rows of
// it) is compared with the one in the output folder, which is left
// untouched: text and integers exactly, other numbers to a
// relative 1e-6 (compare.go says why); the exit status is 1 if any
// differs. examples/figures/check.sh runs it on the full set.
//
// Each figure is made in three steps: a preset of parameters (full or
// quick, defined here in the driver), a computation that returns the
// figure's data, and a drawing of that data with its headline numbers.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/plots"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, so that tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output `dir`ectory (default figures, or figures-quick with -quick)")
	only := fs.String("only", "", "comma-separated figure `names` to make (default: all)")
	list := fs.Bool("list", false, "list the figures and exit")
	quick := fs.Bool("quick", false, "small sizes: the whole run in under a minute, into figures-quick/")
	seed := fs.Uint64("seed", 1, "root random seed")
	galleryFlag := fs.Bool("gallery", false, "print the README's figure gallery (Markdown) and exit")
	check := fs.Bool("check", false, "make the figures in a temporary folder and compare their CSVs and summary.txt with the output folder's")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./examples/figures [flags]\n\nRegenerates loadlab's figures as PNG, SVG and CSV.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // -h asked for the usage: not a failure
		}
		return 2
	}
	if *out == "" {
		*out = "figures"
		if *quick {
			*out = "figures-quick"
		}
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
	if *galleryFlag {
		gallery(stdout, figs)
		return 0
	}
	if *list {
		listFigures(stdout, figs)
		return 0
	}
	cfg := plots.Config{Quick: *quick, Seed: *seed, Progress: stderr}
	if !*quick {
		fmt.Fprintf(stderr, "figures: full mode, about %s on two quiet cores (-quick: well under a minute)\n", expectedTime(figs))
	}
	if *check {
		return checkFigures(figs, cfg, *out, stdout, stderr)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 1
	}
	if failed := generate(figs, cfg, *out, stdout, stderr); failed > 0 {
		return 1
	}
	return 0
}

// complete reports whether figs is a full-mode run of every figure,
// which writes summary.txt.
func complete(figs []plots.Figure, cfg plots.Config) bool {
	return len(figs) == len(registry) && !cfg.Quick
}

// generate makes figs into out, prints the summary table on stdout and
// the progress on stderr, and returns the number of figures that failed.
func generate(figs []plots.Figure, cfg plots.Config, out string, stdout, stderr io.Writer) int {
	heads, made, elapsed := makeAll(figs, cfg, out, stderr)
	failed := len(figs) - len(made)
	printSummary(stdout, heads)
	switch {
	case len(heads) > 0 && complete(figs, cfg):
		// A complete full run also leaves its summary beside the figures.
		if f, err := os.Create(filepath.Join(out, "summary.txt")); err == nil {
			printSummary(f, heads)
			f.Close()
		}
	case len(made) > 0 && !cfg.Quick:
		// A full run of some figures updates their rows of the summary.
		if err := updateSummary(out, made, summaryText(heads)); err != nil {
			fmt.Fprintln(stderr, "figures: summary.txt not updated:", err)
		}
	}
	fmt.Fprintf(stderr, "%d figures in %s, written to %s/ in %.1fs (CPU %.1fs)\n", len(figs)-failed, modeName(cfg.Quick), out, elapsed.Seconds(), cputime.Process().Seconds())
	reportOutside(stderr, heads)
	if failed > 0 {
		fmt.Fprintf(stderr, "figures: %d of %d figures failed\n", failed, len(figs))
	}
	return failed
}

// checkFigures makes figs into a temporary folder and compares their
// data with the folder want (compareDirs). It returns the exit status:
// 0 when every file agrees, 1 otherwise.
func checkFigures(figs []plots.Figure, cfg plots.Config, want string, stdout, stderr io.Writer) int {
	tmp, err := os.MkdirTemp("", "figures-check-")
	if err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if failed := generate(figs, cfg, tmp, stdout, stderr); failed > 0 {
		return 1
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name+".csv")
	}
	if complete(figs, cfg) {
		names = append(names, "summary.txt")
	}
	diffs, err := compareDirs(want, tmp, names)
	if err == nil && !complete(figs, cfg) && !cfg.Quick {
		// A partial full run compares its figures' rows of the summary.
		var sd []string
		sd, err = compareSummaries(filepath.Join(want, "summary.txt"), filepath.Join(tmp, "summary.txt"), figureNames(figs))
		diffs = append(diffs, sd...)
	}
	if err != nil {
		fmt.Fprintln(stderr, "figures:", err)
		return 1
	}
	for _, d := range diffs {
		fmt.Fprintln(stderr, "figures: DIFFERS:", d)
	}
	if len(diffs) > 0 {
		fmt.Fprintf(stderr, "figures: %d differences between %s/ and the figures the code makes\n", len(diffs), want)
		return 1
	}
	rows := ""
	if !complete(figs, cfg) && !cfg.Quick {
		rows = " and their rows of summary.txt"
	}
	fmt.Fprintf(stderr, "figures: the %d data files of %s/%s are the ones the code makes\n", len(names), want, rows)
	return 0
}

// makeAll makes and writes every figure, printing progress (with the
// expected time of long figures in full mode) on stderr. It returns the
// headlines and the names of the figures made (those that did not fail).
func makeAll(figs []plots.Figure, cfg plots.Config, out string, stderr io.Writer) (heads []row, made []string, elapsed time.Duration) {
	start := time.Now()
	for k, f := range figs {
		about := ""
		if !cfg.Quick && f.Seconds >= 20 {
			about = fmt.Sprintf(" (about %.0f s)", f.Seconds)
		}
		fmt.Fprintf(stderr, "[%d/%d] %s%s ...\n", k+1, len(figs), f.Name, about)
		t0, c0 := time.Now(), cputime.Process()
		res, err := f.Make(cfg)
		if err == nil {
			err = write(out, f.Name, res)
		}
		if err != nil {
			fmt.Fprintf(stderr, "[%d/%d] %s FAILED: %v\n", k+1, len(figs), f.Name, err)
			continue
		}
		made = append(made, f.Name)
		fmt.Fprintf(stderr, "[%d/%d] %s done in %.1fs (CPU %.1fs)\n", k+1, len(figs), f.Name, time.Since(t0).Seconds(), (cputime.Process() - c0).Seconds())
		for _, h := range res.Headlines {
			heads = append(heads, row{f.Name, h})
		}
	}
	return heads, made, time.Since(start)
}

// figureNames returns the names of figs.
func figureNames(figs []plots.Figure) []string {
	names := make([]string, len(figs))
	for i, f := range figs {
		names[i] = f.Name
	}
	return names
}

// expectedTime returns the expected full-mode wall time of figs.
func expectedTime(figs []plots.Figure) string {
	var s float64
	for _, f := range figs {
		s += f.Seconds
	}
	if s < 90 {
		return fmt.Sprintf("%.0f s", math.Max(s, 1))
	}
	return fmt.Sprintf("%.1f min", s/60)
}

// reportOutside lists the headline rows outside their reference range.
func reportOutside(w io.Writer, rows []row) {
	n := 0
	for _, r := range rows {
		if !r.Agrees() {
			n++
			fmt.Fprintf(w, "figures: OUTSIDE: %s: %s = %s, reference %s (%s)\n", r.figure, r.Name, r.FormattedValue(), r.Range(), r.Reference)
		}
	}
	if len(rows) > 0 {
		fmt.Fprintf(w, "figures: %d of %d headline numbers agree with their references\n", len(rows)-n, len(rows))
	}
}

// areas are the README's gallery sections, by figure-name prefix.
var areas = []struct{ prefix, title string }{
	{"graphs", "Laplacians and effective resistance"},
	{"consensus", "Distributed system throttlers"},
	{"dual", "Anycast CDN: the dual algorithm"},
	{"stability", "Anycast CDN: the greedy heuristic"},
	{"anycast", "Anycast CDN as deployed: measured C, discrete control, FastControl, the headline study"},
	{"codedload", "Coded load balancing"},
	{"competitive", "Nomadic service points"},
}

// gallery writes the README's figure gallery: one section per area, each
// figure's caption and image.
func gallery(w io.Writer, figs []plots.Figure) {
	for _, a := range areas {
		fmt.Fprintf(w, "### %s\n\n", a.title)
		for _, f := range figs {
			if !strings.HasPrefix(f.Name, a.prefix+"-") {
				continue
			}
			fmt.Fprintf(w, "**%s**: %s\n\n", f.Name, f.Caption)
			fmt.Fprintf(w, "![%s](figures/%s.png)\n\n", f.Name, f.Name)
		}
	}
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

// listFigures prints each figure's name and expected time, then its
// caption wrapped under it.
func listFigures(w io.Writer, figs []plots.Figure) {
	for _, f := range figs {
		fmt.Fprintf(w, "%s (about %ds in full mode)\n", f.Name, int(math.Max(1, f.Seconds)))
		for _, l := range wrap(f.Caption, 96) {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
}

// wrap splits s into lines of at most width runes, at blanks (a word
// longer than width stands alone).
func wrap(s string, width int) []string {
	var lines []string
	var cur []string
	n := 0
	for _, word := range strings.Fields(s) {
		k := utf8.RuneCountInString(word)
		if n > 0 && n+1+k > width {
			lines = append(lines, strings.Join(cur, " "))
			cur, n = nil, 0
		}
		if n > 0 {
			n++
		}
		cur, n = append(cur, word), n+k
	}
	if len(cur) > 0 {
		lines = append(lines, strings.Join(cur, " "))
	}
	return lines
}
