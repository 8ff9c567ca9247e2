package sweep

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
)

var inv = loadlab.ErrInvalid

func oneValue(int) ([]float64, error) { return []float64{1}, nil }

// planCases probes Plan's Validate and Hash, and RunShard and MergePlan,
// which validate it.
func planCases(dir string) []badarg.Case {
	good := Plan{Name: "x", Runs: 2}
	plans := []struct {
		name string
		p    Plan
		text string
	}{
		{"Name empty", Plan{Runs: 2}, "Plan.Name is empty"},
		{"Runs = 0", Plan{Name: "x"}, "Plan.Runs = 0"},
		{"Runs = -1", Plan{Name: "x", Runs: -1}, "Plan.Runs = -1"},
		{"Path(0) without Seed", Plan{Name: "x", Runs: 2, Seed: 3, Path: func(r int) []uint64 { return []uint64{4, uint64(r)} }}, "Plan.Path(0)"},
		{"Config without JSON", Plan{Name: "x", Runs: 2, Config: make(chan int)}, ""},
	}
	var cs []badarg.Case
	for name, f := range map[string]func(p Plan) error{
		"Plan.Validate": func(p Plan) error { return p.Validate() },
		"RunShard": func(p Plan) error {
			_, err := RunShard(p, Whole, filepath.Join(dir, "p.jsonl"), oneValue, nil)
			return err
		},
		"MergePlan": func(p Plan) error {
			path := filepath.Join(dir, "good.jsonl")
			if _, err := RunShard(good, Whole, path, oneValue, nil); err != nil {
				return nil // cannot set up: fail as a silent success
			}
			_, err := MergePlan(p, path)
			return err
		},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		for _, c := range plans {
			cs = append(cs, p.Fails(c.name, c.text, func() error { return f(c.p) }))
		}
	}
	p := badarg.Probe{Func: "Plan.Hash", Err: inv}
	cs = append(cs, p.Fails("Config without JSON", "", func() error { _, err := Plan{Config: make(chan int)}.Hash(); return err }))
	p = badarg.Probe{Func: "MergePlan", Err: inv}
	return append(cs, p.Fails("another seed", "", func() error {
		path := filepath.Join(dir, "good.jsonl")
		if _, err := RunShard(good, Whole, path, oneValue, nil); err != nil {
			return nil
		}
		_, err := MergePlan(Plan{Name: "x", Runs: 2, Seed: 9}, path)
		return err
	}))
}

// shardCases probes ParseShard, Validate and RunShard with bad shards,
// and Has, Runs and NumRuns, which panic on an invalid shard (guards: a
// zero Shard dividing by zero in Has and never ending the loop of Runs).
func shardCases(dir string) []badarg.Case {
	p := badarg.Probe{Func: "ParseShard", Err: inv}
	var cs []badarg.Case
	for _, spec := range []string{"", "1", "a/b", "1/0", "-1/2", "2/2", "0/-1", "1/2/3", "0x1/2"} {
		cs = append(cs, p.Fails("spec "+spec, "", func() error { _, err := ParseShard(spec); return err }))
	}
	bad := []Shard{{}, {Index: -1, Count: 2}, {Index: 2, Count: 2}, {Index: 0, Count: -3}}
	for _, s := range bad {
		label := s.String()
		cs = append(cs,
			badarg.Probe{Func: "Shard.Validate", Err: inv}.Fails(label, "shard "+label, s.Validate),
			badarg.Probe{Func: "RunShard", Err: inv}.Fails(label, "shard "+label, func() error {
				_, err := RunShard(Plan{Name: "x", Runs: 2}, s, filepath.Join(dir, "s.jsonl"), oneValue, nil)
				return err
			}),
			badarg.Probe{Func: "Shard.Has"}.Panics(label, "sweep: Shard.Has", func() { s.Has(1) }),
			badarg.Probe{Func: "Shard.Runs"}.Panics(label, "sweep: Shard.Runs", func() { s.Runs(4) }),
			badarg.Probe{Func: "Shard.NumRuns"}.Panics(label, "sweep: Shard.NumRuns", func() { s.NumRuns(4) }),
		)
	}
	return append(cs, badarg.Probe{Func: "RunShard"}.Panics("run = nil", "", func() {
		_, _ = RunShard(Plan{Name: "x", Runs: 2}, Whole, filepath.Join(dir, "n.jsonl"), nil, nil)
	}))
}

// fileCases probes Merge with files that are missing, empty, truncated
// or of another sweep, and Value.UnmarshalJSON with bad values.
func fileCases(t *testing.T, dir string) []badarg.Case {
	write := func(name, s string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := filepath.Join(dir, "a.jsonl")
	if _, err := RunShard(Plan{Name: "a", Runs: 2}, Whole, a, oneValue, nil); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "b.jsonl")
	if _, err := RunShard(Plan{Name: "b", Runs: 2}, Whole, b, oneValue, nil); err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(dir, "half.jsonl")
	if _, err := RunShard(Plan{Name: "a", Runs: 2}, Shard{Index: 0, Count: 2}, half, oneValue, nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	p := badarg.Probe{Func: "Merge", Err: inv}
	cs := []badarg.Case{
		p.Fails("no path", "", func() error { _, err := Merge(); return err }),
		p.Fails("an empty file", "empty.jsonl", func() error { _, err := Merge(write("empty.jsonl", "")); return err }),
		p.Fails("a truncated line", "trunc.jsonl", func() error { _, err := Merge(write("trunc.jsonl", string(data[:len(data)-3]))); return err }),
		p.Fails("a corrupt record", "corrupt.jsonl", func() error {
			_, err := Merge(write("corrupt.jsonl", string(data)+"{\"run\": x}\n"))
			return err
		}),
		p.Fails("two sweeps", "", func() error { _, err := Merge(a, b); return err }),
		p.Fails("a run twice", "", func() error { _, err := Merge(a, a); return err }),
		p.Fails("a run missing", "", func() error { _, err := Merge(half); return err }),
	}
	p = badarg.Probe{Func: "Value.UnmarshalJSON", Err: inv}
	for _, s := range []string{`"nan"`, `"Inf"`, `x`, `""`, `"1"`} {
		cs = append(cs, p.Fails("value "+s, "value", func() error { var v Value; return v.UnmarshalJSON([]byte(s)) }))
	}
	return cs
}

// TestValidate drives every exported entry point of the package with bad
// plans, shards, files and values: each gives the documented error or
// the documented panic.
func TestValidate(t *testing.T) {
	dir := t.TempDir()
	cs := slices.Concat(planCases(dir), shardCases(dir), fileCases(t, dir))
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Plan.SeedPath":     "a seed path for any run index; RunShard and MergePlan use it for r in [0, Runs)",
		"Values":            "converts any float64, NaN and ±Inf included (they round-trip)",
		"Value.MarshalJSON": "every float64 has a form, NaN and ±Inf as strings: no bad input",
	})
}
