package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// recipe is a command of docs/recipes.md and the output printed under it.
type recipe struct {
	line int      // the line of the command in recipes.md
	cmds []string // the command lines, "loadlab …"
	want []string // the expected output; "…" stands for any lines
}

// TestRecipes runs the worked examples of docs/recipes.md as a user
// types them, from a folder holding the shipped examples/data, and
// checks that the command prints what the page shows: the page stays
// true as the code changes.
func TestRecipes(t *testing.T) {
	if testing.Short() {
		t.Skip("the worked examples take about 15 s")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, "docs", "recipes.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	recipes := parseRecipes(string(page))
	if len(recipes) < 5 {
		t.Fatalf("%d worked examples with an output found in recipes.md, want ≥ 5", len(recipes))
	}
	for _, r := range recipes {
		var got []string
		for _, c := range r.cmds {
			cmd := exec.Command("sh", "-c", strings.Replace(c, "loadlab", binary, 1)+" 2>&1")
			cmd.Dir = dir
			out, _ := cmd.Output()
			got = append(got, strings.Split(strings.TrimRight(string(out), "\n"), "\n")...)
		}
		if !matchLines(r.want, got) {
			t.Errorf("recipes.md:%d: %s\nprints\n%s\nthe page shows\n%s", r.line, strings.Join(r.cmds, "; "), strings.Join(got, "\n"), strings.Join(r.want, "\n"))
		}
	}
}

// parseRecipes finds the worked examples: a ```sh block of loadlab
// commands followed by an output block, or a block of "$ loadlab …"
// lines each followed by its output. Commands that redirect their
// output or write files other than a picture are not run.
func parseRecipes(page string) []recipe {
	lines := strings.Split(page, "\n")
	var out []recipe
	var pending *recipe // a ```sh block waiting for its output block
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			if strings.TrimSpace(lines[i]) != "" {
				pending = nil
			}
			continue
		}
		lang := strings.TrimPrefix(lines[i], "```")
		start := i + 1
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
		}
		body := lines[start:i]
		switch {
		case lang == "sh":
			pending = &recipe{line: start + 1, cmds: joinContinued(body)}
			if len(pending.cmds) == 0 || strings.Contains(strings.Join(pending.cmds, " "), ">") {
				pending = nil
			}
		case pending != nil:
			pending.want = body
			out = append(out, *pending)
			pending = nil
		case len(body) > 0 && strings.HasPrefix(body[0], "$ loadlab "):
			out = append(out, dollarRecipes(body, start)...)
		}
	}
	return out
}

// joinContinued returns the commands of a shell block, lines ending in
// a backslash joined, "#" comments dropped; nil unless every command is
// a loadlab command.
func joinContinued(body []string) []string {
	var cmds []string
	cur := ""
	for _, l := range body {
		if k := strings.Index(l, " #"); k >= 0 {
			l = l[:k]
		}
		l = strings.TrimSpace(l)
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\")
			continue
		}
		if cur += l; cur != "" {
			if !strings.HasPrefix(cur, "loadlab ") {
				return nil
			}
			cmds = append(cmds, cur)
		}
		cur = ""
	}
	return cmds
}

// dollarRecipes splits a block of "$ loadlab …" lines into one recipe
// per command with the lines under it as its output.
func dollarRecipes(body []string, start int) []recipe {
	var out []recipe
	for j, l := range body {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, recipe{line: start + j + 1, cmds: []string{c}})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].want = append(out[len(out)-1].want, l)
		}
	}
	return out
}

// matchLines reports whether got matches want line by line, trailing
// blanks ignored, a want line "…" matching any run of lines (none
// included), and a want line ending in "…" matching any line that
// begins with what precedes it.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	w := strings.TrimRight(want[0], " ")
	if w == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	g := strings.TrimRight(got[0], " ")
	if p, ok := strings.CutSuffix(w, "…"); ok && strings.HasPrefix(g, p) || g == w {
		return matchLines(want[1:], got[1:])
	}
	return false
}
