package sweep

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
)

type testConfig struct {
	Draws int     `json:"draws"`
	Scale float64 `json:"scale"`
}

func testPlan(runs int) Plan {
	return Plan{Name: "test", Config: testConfig{Draws: 5, Scale: 1.5}, Seed: 7, Prefix: []uint64{3}, Runs: runs}
}

// value is a run with awkward floats: sums of normals, their
// exponential (full mantissas), and a NaN and an Inf on some runs.
func value(p Plan, r int) []float64 {
	rng := rand.New(mc.Source(p.Seed, append(p.Prefix, uint64(r))...))
	var s float64
	for range 5 {
		s += rng.NormFloat64()
	}
	xs := []float64{s, math.Exp(s) * 1e-300, float64(r)}
	if r%7 == 3 {
		xs[2] = math.NaN()
	}
	if r%11 == 5 {
		xs[2] = math.Inf(-1)
	}
	return xs
}

func runOf(p Plan) RunFunc { return func(r int) ([]float64, error) { return value(p, r), nil } }

// sameBits reports whether the merged records carry the values of the
// single-process loop bit for bit.
func sameBits(t *testing.T, p Plan, m Merged) {
	t.Helper()
	if len(m.Records) != p.Runs {
		t.Fatalf("%d records, want %d", len(m.Records), p.Runs)
	}
	for r, rec := range m.Records {
		want := value(p, r)
		got := rec.Floats()
		if rec.Run != r || len(got) != len(want) {
			t.Fatalf("record %d = %+v", r, rec)
		}
		for j := range want {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("run %d value %d = %x, want %x", r, j, math.Float64bits(got[j]), math.Float64bits(want[j]))
			}
		}
	}
	direct := make([]float64, p.Runs)
	merged := make([]float64, p.Runs)
	for r := range p.Runs {
		direct[r], merged[r] = value(p, r)[1], m.Records[r].Floats()[1]
	}
	a, b := mc.Summarize(direct), mc.Summarize(merged)
	if math.Float64bits(a.Mean) != math.Float64bits(b.Mean) || math.Float64bits(a.StdErr) != math.Float64bits(b.StdErr) {
		t.Fatalf("summary %+v, single process %+v", b, a)
	}
}

func runAll(t *testing.T, p Plan, n int, dir string) []string {
	t.Helper()
	var paths []string
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
		if _, err := RunShard(p, Shard{i, n}, path, runOf(p), nil); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

func TestMergeEqualsSingleProcess(t *testing.T) {
	p := testPlan(23)
	for n := 1; n <= 4; n++ {
		paths := runAll(t, p, n, t.TempDir())
		// Merge in reverse order: file order must not matter.
		for i, j := 0, len(paths)-1; i < j; i, j = i+1, j-1 {
			paths[i], paths[j] = paths[j], paths[i]
		}
		m, err := Merge(paths...)
		if err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
		sameBits(t, p, m)
	}
}

func TestParseShard(t *testing.T) {
	for _, ok := range []struct {
		spec string
		want Shard
	}{{"0/1", Shard{0, 1}}, {"3/4", Shard{3, 4}}, {"2/10", Shard{2, 10}}, {"9/12", Shard{9, 12}}} {
		got, err := ParseShard(ok.spec)
		if err != nil || got != ok.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", ok.spec, got, err, ok.want)
		}
	}
	for _, bad := range []string{"4/4", "5/4", "0/0", "-1/4", "1/-2", "1", "a/b", "1/2/3", "", "1.0/2",
		// Sloppy forms are refused, not tidied: a blank, a sign, a
		// leading zero, a blank around the slash, a second line.
		" 0/2", "0/2 ", "\t0/2", "0 /2", "0/ 2", "+0/2", "0/+2", "00/2", "0/02", "0/2\n", "0/2\n1/2", "０/2", "-0/2", "--1/2", "1/99999999999999999999"} {
		_, err := ParseShard(bad)
		if !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("ParseShard(%q): err = %v, want ErrInvalid", bad, err)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("%q", bad)) {
			t.Errorf("ParseShard(%q): error %q does not name the spec", bad, err)
		}
	}
}

func TestShardPartition(t *testing.T) {
	for n := 1; n <= 5; n++ {
		seen := make([]int, 17)
		for i := range n {
			for _, r := range (Shard{i, n}).Runs(17) {
				if r%n != i {
					t.Fatalf("run %d in shard %d/%d", r, i, n)
				}
				seen[r]++
			}
		}
		for r, c := range seen {
			if c != 1 {
				t.Fatalf("N = %d: run %d in %d shards", n, r, c)
			}
		}
	}
}

// TestResumeAfterTruncation cuts a shard file in the middle of a record
// (a kill during the write), resumes it, and checks that the merge is
// the single-process result and that only the lost run was recomputed.
func TestResumeAfterTruncation(t *testing.T) {
	p := testPlan(20)
	dir := t.TempDir()
	paths := runAll(t, p, 3, dir)
	data, _ := os.ReadFile(paths[1])
	lines := strings.SplitAfter(string(data), "\n")
	// header + 4 records, then half of the 5th record
	cut := len(strings.Join(lines[:5], "")) + len(lines[5])/2
	if err := os.WriteFile(paths[1], data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(paths...); !errors.Is(err, loadlab.ErrInvalid) || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("Merge of a truncated file: %v", err)
	}
	var calls []int
	run := func(r int) ([]float64, error) { calls = append(calls, r); return value(p, r), nil }
	pr, err := RunShard(p, Shard{1, 3}, paths[1], run, nil)
	if err != nil {
		t.Fatal(err)
	}
	// shard 1/3 of 20 runs is 1, 4, ..., 19 (7 runs); 4 survived
	if pr.Resumed != 4 || pr.Ran != 3 || fmt.Sprint(calls) != "[13 16 19]" {
		t.Fatalf("progress %+v, calls %v", pr, calls)
	}
	m, err := Merge(paths...)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, p, m)
}

// TestResumeAfterRunError stops a shard at run k by a failing run
// function, then resumes it: no run is lost or recorded twice.
func TestResumeAfterRunError(t *testing.T) {
	p := testPlan(12)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	boom := errors.New("boom")
	fail := func(r int) ([]float64, error) {
		if r == 6 {
			return nil, boom
		}
		return value(p, r), nil
	}
	pr, err := RunShard(p, Shard{0, 2}, path, fail, nil)
	if !errors.Is(err, boom) || pr.Ran != 3 {
		t.Fatalf("progress %+v, err %v", pr, err)
	}
	calls := 0
	counting := func(r int) ([]float64, error) { calls++; return value(p, r), nil }
	if pr, err = RunShard(p, Shard{0, 2}, path, counting, nil); err != nil || pr.Resumed != 3 || pr.Ran != 3 || calls != 3 {
		t.Fatalf("resume: progress %+v, calls %d, err %v", pr, calls, err)
	}
	// A finished shard resumed again runs nothing.
	if pr, err = RunShard(p, Shard{0, 2}, path, counting, nil); err != nil || pr.Ran != 0 || calls != 3 {
		t.Fatalf("rerun: progress %+v, calls %d, err %v", pr, calls, err)
	}
	other := filepath.Join(filepath.Dir(path), "o.jsonl")
	if _, err := RunShard(p, Shard{1, 2}, other, runOf(p), nil); err != nil {
		t.Fatal(err)
	}
	m, err := Merge(path, other)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, p, m)
}

func TestResumeRefusesOtherPlan(t *testing.T) {
	p := testPlan(6)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if _, err := RunShard(p, Shard{0, 2}, path, runOf(p), nil); err != nil {
		t.Fatal(err)
	}
	q := p
	q.Config = testConfig{Draws: 5, Scale: 2}
	r := p
	r.Seed = 8
	for name, c := range map[string]struct {
		p Plan
		s Shard
	}{"config": {q, Shard{0, 2}}, "seed": {r, Shard{0, 2}}, "shard": {p, Shard{1, 2}}, "count": {p, Shard{0, 3}}} {
		if _, err := RunShard(c.p, c.s, path, runOf(c.p), nil); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	p := testPlan(10)
	dir := t.TempDir()
	paths := runAll(t, p, 2, dir)
	q := p
	q.Config = testConfig{Draws: 6, Scale: 1.5}
	qs := runAll(t, q, 2, t.TempDir())
	s := p
	s.Seed = 99
	ss := runAll(t, s, 2, t.TempDir())
	dup := filepath.Join(dir, "dup.jsonl")
	data, _ := os.ReadFile(paths[0])
	os.WriteFile(dup, data, 0o644)
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	for name, files := range map[string][]string{
		"none":         nil,
		"config":       {paths[0], qs[1]},
		"seed":         {paths[0], ss[1]},
		"duplicate":    {paths[0], paths[1], dup},
		"missing":      {paths[0]},
		"empty":        {paths[0], paths[1], empty},
		"absent":       {paths[0], filepath.Join(dir, "nope")},
		"shard counts": {paths[0], runAll(t, p, 3, t.TempDir())[1]},
	} {
		if _, err := Merge(files...); err == nil || (name != "absent" && !errors.Is(err, loadlab.ErrInvalid)) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
}

func TestHashCanonical(t *testing.T) {
	a := Plan{Name: "x", Config: map[string]any{"b": 1, "a": []int{1, 2}}, Runs: 1}
	b := Plan{Name: "x", Config: map[string]any{"a": []int{1, 2}, "b": 1}, Runs: 1}
	c := Plan{Name: "x", Config: map[string]any{"a": []int{2, 1}, "b": 1}, Runs: 1}
	ha, _ := a.Hash()
	hb, _ := b.Hash()
	hc, _ := c.Hash()
	if ha != hb || ha == hc || len(ha) != 64 {
		t.Fatalf("hashes %s %s %s", ha, hb, hc)
	}
	if err := (Plan{Name: "x", Config: math.NaN(), Runs: 1}).Validate(); !errors.Is(err, loadlab.ErrInvalid) {
		t.Fatalf("NaN config: %v", err)
	}
}

// TestMergePlan merges a sweep whose seed paths come from Plan.Path
// ((seed, point, run of the point) for two points of 3 and 4 runs) and
// checks the refusals of a plan with another seed path or seed.
func TestMergePlan(t *testing.T) {
	p := testPlan(7)
	p.Path = func(r int) []uint64 {
		if r < 3 {
			return []uint64{p.Seed, 0, uint64(r)}
		}
		return []uint64{p.Seed, 1, uint64(r - 3)}
	}
	run := func(r int) ([]float64, error) {
		rng := rand.New(mc.Source(p.Seed, p.SeedPath(r)[1:]...))
		return []float64{rng.Float64()}, nil
	}
	dir := t.TempDir()
	var files []string
	for i := range 2 {
		f := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		if _, err := RunShard(p, Shard{i, 2}, f, run, nil); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	m, err := MergePlan(p, files...)
	if err != nil {
		t.Fatal(err)
	}
	for r, rec := range m.Records {
		want, _ := run(r)
		if rec.Floats()[0] != want[0] || fmt.Sprint(rec.SeedPath) != fmt.Sprint(p.SeedPath(r)) {
			t.Fatalf("run %d: %+v", r, rec)
		}
	}
	q := p
	q.Path = nil // Seed, Prefix..., r: not the paths recorded
	s := p
	s.Seed = 8
	for name, plan := range map[string]Plan{"seed path": q, "seed": s} {
		if _, err := MergePlan(plan, files...); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	bad := p
	bad.Path = func(r int) []uint64 { return []uint64{uint64(r)} }
	if err := bad.Validate(); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("Path not starting with the seed: %v", err)
	}
	// A shard resumed under a plan with other seed paths is refused.
	if _, err := RunShard(q, Shard{0, 2}, files[0], run, nil); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("resume with other seed paths: %v", err)
	}
}

// TestMergeRefusesEditedRecord edits one value of one record of a
// finished shard (a changed digit, as a hand edit or a flipped bit
// would leave it): Merge and a resume refuse the file, naming the file,
// the line and the run. An edited header is refused the same way.
func TestMergeRefusesEditedRecord(t *testing.T) {
	p := testPlan(10)
	paths := runAll(t, p, 2, t.TempDir())
	data, err := os.ReadFile(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// line 3 of shard 1/2 is its second record: run 3
	first := regexp.MustCompile(`"values":\[[^,]+,`)
	edited := first.ReplaceAllString(lines[2], `"values":[0.5,`)
	if edited == lines[2] || !strings.HasPrefix(lines[2], `{"run":3,`) {
		t.Fatalf("line 3 %q was not edited", lines[2])
	}
	lines[2] = edited
	if err := os.WriteFile(paths[1], []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{paths[1], "line 3", "run 3", "checksum"}
	_, err = Merge(paths...)
	mustName(t, "Merge", err, want)
	_, err = RunShard(p, Shard{1, 2}, paths[1], runOf(p), nil)
	mustName(t, "RunShard", err, want)

	header := regexp.MustCompile(`"seed":7,`)
	lines = strings.SplitAfter(string(data), "\n")
	lines[0] = header.ReplaceAllString(lines[0], `"seed":8,`)
	if err := os.WriteFile(paths[1], []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Merge(paths[1])
	mustName(t, "Merge of an edited header", err, []string{paths[1], "line 1", "checksum"})
}

// TestMergeRefusesUnsealed: a file whose lines carry no checksum (the
// format before checksums) is refused with a message that says so,
// by Merge and by a resume; nothing is accepted unverified.
func TestMergeRefusesUnsealed(t *testing.T) {
	p := testPlan(4)
	path := runAll(t, p, 1, t.TempDir())[0]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := regexp.MustCompile(`,"crc32c":"[0-9a-f]{8}"`).ReplaceAllString(string(data), "")
	if old == string(data) {
		t.Fatal("no checksum was removed")
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{path, "line 1", "no checksum"}
	_, err = Merge(path)
	mustName(t, "Merge", err, want)
	_, err = RunShard(p, Whole, path, runOf(p), nil)
	mustName(t, "RunShard", err, want)
}

// mustName fails unless err wraps loadlab.ErrInvalid and its message
// holds each of want.
func mustName(t *testing.T, what string, err error, want []string) {
	t.Helper()
	if !errors.Is(err, loadlab.ErrInvalid) {
		t.Fatalf("%s: err = %v, want ErrInvalid", what, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not name %q", what, err, w)
		}
	}
}
