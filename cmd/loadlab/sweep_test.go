package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const sweepConsensusCfg = `{"sweep":"consensus","seed":42,"runs":9,"params":{"family":"cycle","size":6,"gamma":0.3,"traffic":"case 2","sigma":1,"steps":60,"burn":20}}`
const sweepMobilityCfg = `{"sweep":"mobility","seed":5,"runs":7,"params":{"scenario":"mesh","mesh":{"Grid":3,"Slots":120},"point":2,"window":4,"noise":20}}`

// A parameter sweep: a fixed torus and per-run random geometric graphs
// with Poissonized requests and a Runs override.
const sweepCodedloadCfg = `{"sweep":"codedload","seed":3,"runs":3,"params":{"points":[` +
	`{"x":1,"topology":{"family":"torus","n":64},"model":{"files":30,"cache":2,"strategy":{"kind":"coded","ell":3},"ties":"lowest"}},` +
	`{"x":2,"topology":{"family":"rgg","n":100},"random":true,"runs":2,"model":{"files":30,"cache":2,"gamma":0.8,"strategy":{"kind":"two-choice","radius":2},"requests":"poisson"}}]}}`

// A server sweep on hypercubes with ℓ = ⌈ln n⌉.
const sweepSizesCfg = `{"sweep":"codedload-sizes","seed":4,"runs":3,"params":{"ns":[64,256],"topology":{"family":"hypercube"},"log_ell":true,` +
	`"model":{"files":20,"cache":2,"strategy":{"kind":"coded"},"placement":"uniform"}}}`

// CompareSizes on random 4-regular graphs, fewer runs at the larger size
// and a variant left out above n = 100.
const sweepCompareCfg = `{"sweep":"codedload-compare","seed":5,"runs":2,"params":{"ns":[100,300],"topology":{"family":"regular","degree":4},"size_runs":[3,2],"variants":[` +
	`{"name":"NR","model":{"files":20,"cache":2}},` +
	`{"name":"coded","model":{"files":20,"cache":2,"strategy":{"kind":"coded"}},"log_ell":true},` +
	`{"name":"2C(a)","model":{"files":20,"cache":2,"strategy":{"kind":"two-choice"}},"ball_size":25,"max_n":100}]}}`

// A four-node network whose starts reach three attractors.
const sweepAttractorsCfg = `{"sweep":"stability-attractors","seed":3,"runs":10,"params":{"network":{` +
	`"a":[1.7162635804050472,0.778088804497854,2.9373385615995393,2.3466907556885324],` +
	`"c":[[0.04681931028066927,0.22588802668947264,0.3604112623295102,0.3668814007003478],[0.21321819316675367,0.07481974741025042,0.35747499720694415,0.3544870622160517],` +
	`[0.2065852295034183,0.1322704832235275,0.3889974955550691,0.27214679171798534],[0.0710496515307317,0.3702657634254254,0.14995615779108074,0.4087284272527623]],` +
	`"t":[0.2955508223568711,0.3984377093905935,0.8905986025332755,0.8675025868936399]},"sensitivity":1,"t1":200}}`

// The seed network of spec §2 with C_ba = 0.3 on a 3×2 grid of demands.
const sweepStudyCfg = `{"sweep":"stability-study","seed":5,"runs":3,"params":{"n":30,"loads":[0.5,1.5],"self_corrs":[0,0.8]}}`
const sweepMapCfg = `{"sweep":"stability-map","runs":6,"params":{"network":{"c":[[0.1,0.9],[0.3,0.7]],"t":[0.7,0.7]},"aa":[0.3,1,3],"ab":[0.5,2],"sensitivity":2}}`

// FastControl's trade-off on the three-node network of spec §8 item 13.
const sweepDualCfg = `{"sweep":"dual","seed":7,"runs":3,"params":{"network":{"a":[2,1.5,1],"c":[[0.6,0.3,0.1],[0.2,0.5,0.3],[0.1,0.2,0.7]],"t":[0.8,0.9,0.7]},` +
	`"w":1,"c":4,"gamma":10,"windows":[0.1,10],"losses":[0,0.2],"step":0.05,"max_iter":400}}`

// FastControl's trade-off without losses (one loss rate, 0) and with a
// delay.
const sweepDualNoLossCfg = `{"sweep":"dual","seed":8,"runs":2,"params":{"network":{"a":[2,1.5,1],"c":[[0.6,0.3,0.1],[0.2,0.5,0.3],[0.1,0.2,0.7]],"t":[0.8,0.9,0.7]},` +
	`"w":1,"c":4,"gamma":10,"delay":2,"windows":[0.1,1,10],"step":0.05,"max_iter":300}}`

// Beacon campaigns on the three-node network at two budgets.
const sweepBeaconCfg = `{"sweep":"anycast-beacon","seed":9,"runs":3,"params":{"network":{"a":[2,1.5,1],"c":[[0.6,0.3,0.1],[0.2,0.5,0.3],[0.1,0.2,0.7]],"t":[0.8,0.9,0.7]},` +
	`"w":1,"penalty":100,"budgets":[20,500],"support":3}}`

// sweepMoreConfigs are further cases of registered sweeps for the
// comparison with the library's result.
var sweepMoreConfigs = map[string]string{"dual without losses": sweepDualNoLossCfg, "codedload with real decoding": sweepRLNCCfg, "codedload-sizes with tails": sweepTailsCfg}

// A server sweep with real decoding of random linear chunks over GF(2)
// (Coded.Field), beside nothing: its merge must equal the library's too.
const sweepRLNCCfg = `{"sweep":"codedload-sizes","seed":6,"runs":3,"params":{"ns":[64,144],"topology":{"family":"torus"},"log_ell":true,` +
	`"model":{"files":20,"cache":2,"strategy":{"kind":"coded","field":2}}}}`

// The receivers of random linear coding over GF(4), ℓ = 5.
const sweepReceptionCfg = `{"sweep":"coding-reception","seed":8,"runs":40,"params":{"q":4,"ell":5,"max_extra":2}}`

// The authors' toy chunk experiment (codedload.RunPreset).
const sweepPresetCfg = `{"sweep":"codedload-preset","seed":7,"runs":3,"params":{"preset":"chunk"}}`

// A server sweep with tail rows P[max load > c] (codedload.Tails).
const sweepTailsCfg = `{"sweep":"codedload-sizes","seed":6,"runs":5,"params":{"ns":[16,64],"topology":{"family":"torus"},"log_ell":true,` +
	`"thresholds":[1.5,2.5],"model":{"files":10,"cache":2,"strategy":{"kind":"coded"}}}}`

// sweepConfigs holds one configuration of every registered sweep.
var sweepConfigs = map[string]string{
	"coding-reception":     sweepReceptionCfg,
	"consensus":            sweepConsensusCfg,
	"mobility":             sweepMobilityCfg,
	"codedload":            sweepCodedloadCfg,
	"codedload-sizes":      sweepSizesCfg,
	"codedload-preset":     sweepPresetCfg,
	"codedload-compare":    sweepCompareCfg,
	"stability-attractors": sweepAttractorsCfg,
	"stability-map":        sweepMapCfg,
	"stability-study":      sweepStudyCfg,
	"dual":                 sweepDualCfg,
	"anycast-beacon":       sweepBeaconCfg,
	"nomadic-alpha":        sweepAlphaCfg,
	"nomadic-predict":      sweepPredictCfg,
}

const sweepPredictCfg = `{"sweep":"nomadic-predict","seed":4,"runs":3,"params":{"k":3,"noises":[0,2],"window":5,"lambda":0.5,"slots":30}}`

const sweepAlphaCfg = `{"sweep":"nomadic-alpha","seed":3,"runs":4,"params":{"ks":[2,3],"alphas":[0.5,1.5],"policy":"B","betas":[0,0.5],"slots":30,"adversary_slots":200}}`

func sweepWrite(t *testing.T, dir, name, s string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sweepExec runs "loadlab sweep args..." in this process, as a user
// runs it (stderr is not a terminal), and returns its exit code and
// stderr.
func sweepExec(args ...string) (int, string) {
	var stderr strings.Builder
	code := run(append([]string{"sweep"}, args...), strings.NewReader(""), io.Discard, &stderr)
	return code, stderr.String()
}

func sweepMustRun(t *testing.T, args ...string) {
	t.Helper()
	if code, log := sweepExec(args...); code != exitOK {
		t.Fatalf("loadlab sweep %s: exit %d\n%s", strings.Join(args, " "), code, log)
	}
}

// TestSweepMergeEqualsLibrary runs each sweep as N = 1..4 shards, merges them
// and compares the CSV and JSON bytes with those of the library's own
// one-process function (consensus.EstimateRho, mobility.Compare,
// codedload.Sweep and CompareSizes, Law.Attractors, TwoNodeMap,
// dual.Sweep): every float is written in shortest round-trip form, so
// equal bytes mean equal bits. The adapters call the models' per-run
// functions on the streams the library's loops use, and summarise the
// runs as those loops do; this is the test that they agree.
func TestSweepMergeEqualsLibrary(t *testing.T) {
	for name := range sweepJobs {
		if sweepConfigs[name] == "" {
			t.Errorf("sweep %s has no test configuration", name)
		}
	}
	all := maps.Clone(sweepConfigs)
	maps.Copy(all, sweepMoreConfigs)
	for name, cfg := range all {
		dir := t.TempDir()
		c := sweepWrite(t, dir, "cfg.json", cfg)
		direct := filepath.Join(dir, "direct")
		sweepMustRun(t, "--config", c, "--direct", "--out", direct)
		want := [2][]byte{sweepRead(t, direct+".csv"), sweepRead(t, direct+".json")}
		for n := 1; n <= 4; n++ {
			files := []string{}
			for i := range n {
				f := filepath.Join(dir, fmt.Sprintf("n%d-s%d.jsonl", n, i))
				sweepMustRun(t, "--config", c, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", f)
				files = append(files, f)
			}
			merged := filepath.Join(dir, fmt.Sprintf("merged%d", n))
			sweepMustRun(t, append([]string{"--config", c, "--merge", "--out", merged + ".csv"}, files...)...)
			if got := sweepRead(t, merged+".csv"); string(got) != string(want[0]) {
				t.Errorf("%s N = %d: merged CSV\n%s\nwant\n%s", name, n, got, want[0])
			}
			if got := sweepRead(t, merged+".json"); string(got) != string(want[1]) {
				t.Errorf("%s N = %d: merged JSON differs", name, n)
			}
		}
	}
}

// sweepListDir returns the names in dir, hidden ones included.
func sweepListDir(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name()
	}
	return fmt.Sprint(names)
}

func sweepRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSweepResumeKilledShard cuts a finished shard file in the middle of its
// last record (as a kill during the write would), reruns the shard and
// checks that the merge still equals the library's result.
func TestSweepResumeKilledShard(t *testing.T) {
	dir := t.TempDir()
	c := sweepWrite(t, dir, "cfg.json", sweepConsensusCfg)
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	sweepMustRun(t, "--config", c, "--shard", "0/2", "--out", a)
	sweepMustRun(t, "--config", c, "--shard", "1/2", "--out", b)
	data := sweepRead(t, a)
	os.WriteFile(a, data[:len(data)-7], 0o644)
	if code, log := sweepExec("--config", c, "--merge", "--out", filepath.Join(dir, "m"), a, b); code != exitBadInput || !strings.Contains(log, "truncated") {
		t.Fatalf("merge of a truncated shard: exit %d\n%s", code, log)
	}
	code, log := sweepExec("--config", c, "--shard", "0/2", "--out", a)
	// shard 0/2 of 9 runs holds 5 runs; the cut lost the last one
	if code != exitOK || !strings.Contains(log, "4 runs were already") || strings.Count(log, "done (") != 1 {
		t.Fatalf("resume: exit %d, log:\n%s", code, log)
	}
	sweepMustRun(t, "--config", c, "--merge", "--out", filepath.Join(dir, "m"), a, b)
	sweepMustRun(t, "--config", c, "--direct", "--out", filepath.Join(dir, "d"))
	if string(sweepRead(t, filepath.Join(dir, "m.json"))) != string(sweepRead(t, filepath.Join(dir, "d.json"))) {
		t.Fatal("resumed merge differs from the library's result")
	}
}

// sweepInvalid holds, for every registered sweep, edits of its test
// configuration that fail validation, each with a word the error must
// contain.
var sweepInvalid = map[string][]struct{ old, new, want string }{
	"consensus":         {{`"gamma":0.3`, `"gamma":-1`, "Gamma"}, {`"cycle"`, `"ring"`, "family"}, {`"runs":9`, `"runs":1`, "Runs"}, {`"gamma":0.3`, `"gamma":0.6`, "unstable"}},
	"mobility":          {{`"mesh",`, `"ring",`, "scenario"}, {`"Slots":120`, `"Slots":-1`, "Slots"}, {`"window":4`, `"window":-4`, "window"}},
	"codedload":         {{`"files":30`, `"files":0`, "Files"}, {`"kind":"coded"`, `"kind":"codd"`, "strategy kind"}, {`"ell":3`, `"ell":3,"radius":2`, "radius"}, {`"ell":3`, `"ell":3,"field":3`, "Coded.Field = 3"}, {`"n":64`, `"n":50`, "torus"}, {`"ties":"lowest"`, `"ties":"low"`, "ties"}},
	"codedload-sizes":   {{`"ns":[64,256]`, `"ns":[64,100]`, "hypercube"}, {`"placement":"uniform"`, `"placement":"even"`, "placement"}, {`"cache":2`, `"cache":-2`, "Cache"}},
	"codedload-preset":  {{`"preset":"chunk"`, `"preset":"chunks"`, `preset "chunks"`}, {`"params":{`, `"params":{"ell":3,`, "ell"}},
	"codedload-compare": {{`"max_n":100`, `"max_n":-1`, "MaxN"}, {`"size_runs":[3,2]`, `"size_runs":[3]`, "size_runs"}, {`"size_runs":[3,2]`, `"size_runs":[3,0]`, "runs(300) = 0"}, {`"ball_size":25`, `"ball_size":-1`, "ball_size"}},
	"stability-attractors": {{`"t1":200`, `"t1":0`, "t1"}, {`"sensitivity":1`, `"sensitivity":-1`, "Sensitivity"},
		{`"t":[0.2955508223568711`, `"t":[-1`, "T"}, {`"params":{`, `"params":{"settings":{"rel_tol":-1},`, "RelTol"}},
	"stability-map":    {{`"runs":6`, `"runs":5`, "cells"}, {`"aa":[0.3`, `"aa":[-0.3`, "aa[0]"}, {`"sensitivity":2`, `"sensitivity":-2`, "Sensitivity"}, {`"t":[0.7,0.7]`, `"t":[0.7,0.7,0.7]`, "T"}},
	"stability-study":  {{`"loads":[0.5,1.5]`, `"loads":[]`, "loads"}, {`"self_corrs":[0,0.8]`, `"self_corrs":[0,1]`, "SelfCorr"}, {`"runs":3`, `"runs":1`, "runs = 1"}, {`"n":30`, `"n":-3`, "StudyPoint.N"}},
	"dual":             {{`"losses":[0,0.2]`, `"losses":[0,1]`, "losses[1]"}, {`"gamma":10`, `"gamma":0`, "Gamma"}, {`"w":1`, `"w":0`, "w ="}, {`"max_iter":400`, `"max_iter":-4`, "MaxIter"}, {`"windows":[0.1,10]`, `"windows":[]`, "windows"}},
	"anycast-beacon":   {{`"budgets":[20,500]`, `"budgets":[20,0]`, "budgets[1] = 0"}, {`"penalty":100`, `"penalty":-1`, "Penalty = -1"}, {`"support":3`, `"support":-2`, "Support = -2"}},
	"coding-reception": {{`"q":4`, `"q":8`, "params.q = 8"}, {`"ell":5`, `"ell":0`, "params.ell = 0"}, {`"ell":5`, `"ell":5000`, "params.ell = 5000"}, {`"max_extra":2`, `"max_extra":-1`, "params.max_extra = -1"}, {`"runs":40`, `"runs":1`, "runs = 1"}},
	"nomadic-alpha":    {{`"ks":[2,3]`, `"ks":[1,3]`, "AlphaPoint.Servers = 1"}, {`"alphas":[0.5,1.5]`, `"alphas":[-0.5,1.5]`, "AlphaPoint.Alpha = -0.5"}, {`"policy":"B"`, `"policy":"Q"`, "policy"}, {`"runs":4`, `"runs":1`, "runs = 1"}},
	"nomadic-predict":  {{`"k":3`, `"k":1`, "PredictionPoint.Servers = 1"}, {`"noises":[0,2]`, `"noises":[0,-2]`, "PredictionPoint.Noise = -2"}, {`"noises":[0,2]`, `"noises":[]`, "noises"}, {`"runs":3`, `"runs":1`, "runs = 1"}},
}

// TestSweepErrorsBeforeAnyRun checks that bad input fails with exit code
// 2 and a clear error before the first run: no progress line is printed,
// no shard file is created and no file is left in the output folder
// (the folder is tried with a temporary file, removed at once). Every
// registered sweep is tried with bad shard specs, an unknown parameter,
// zero runs, invalid parameters and an unwritable output.
func TestSweepErrorsBeforeAnyRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	type bad struct {
		args []string
		want string // in the error
	}
	cases := map[string]bad{
		"unknown sweep":  {[]string{"--config", sweepWrite(t, dir, "u.json", `{"sweep":"nope","runs":3}`), "--out", out}, `unknown sweep "nope"`},
		"unknown key":    {[]string{"--config", sweepWrite(t, dir, "k.json", `{"sweep":"consensus","runs":3,"sed":1}`), "--out", out}, "sed"},
		"no config":      {[]string{"--out", out}, "--config"},
		"no out":         {[]string{"--config", sweepWrite(t, dir, "c.json", sweepConsensusCfg)}, "--out"},
		"missing config": {[]string{"--config", filepath.Join(dir, "absent.json"), "--out", out}, "absent.json"},
		"unwritable csv": {[]string{"--config", sweepWrite(t, dir, "d.json", sweepConsensusCfg), "--direct", "--out", filepath.Join(dir, "no", "such", "x")}, "no such"},
		"merge no files": {[]string{"--config", sweepWrite(t, dir, "m.json", sweepConsensusCfg), "--merge", "--out", out}, "--merge"},
		"out = config":   {[]string{"--config", sweepWrite(t, dir, "o.json", sweepConsensusCfg), "--direct", "--out", filepath.Join(dir, "o")}, "overwrite"},
	}
	if len(sweepInvalid) != len(sweepJobs) {
		t.Errorf("%d sweeps with invalid configurations, %d registered", len(sweepInvalid), len(sweepJobs))
	}
	for name, cfg := range sweepConfigs {
		good := sweepWrite(t, dir, name+".json", cfg)
		for spec, want := range map[string]string{"2/2": "i < N", "5/2": "i < N", "0/0": "N = 0", "-1/2": "i = -1", "1/-2": "N = -2", "x": "i/N", "1/2/3": "integers"} {
			cases[name+": shard "+spec] = bad{[]string{"--config", good, "--shard", spec, "--out", out}, want}
		}
		cases[name+": unwritable out"] = bad{[]string{"--config", good, "--out", filepath.Join(dir, "no", "such", "dir", "x.jsonl")}, "no such"}
		cases[name+": unknown parameter"] = bad{[]string{"--config", sweepWrite(t, dir, name+"-p.json", strings.Replace(cfg, `"params":{`, `"params":{"bogus":1,`, 1)), "--out", out}, `unknown field "bogus"`}
		zero := regexp.MustCompile(`"runs":\d+`).ReplaceAllString(cfg, `"runs":0`)
		cases[name+": zero runs"] = bad{[]string{"--config", sweepWrite(t, dir, name+"-z.json", zero), "--out", out}, "runs = 0"}
		for k, e := range sweepInvalid[name] {
			if !strings.Contains(cfg, e.old) {
				t.Fatalf("%s: %q not in its configuration", name, e.old)
			}
			c := sweepWrite(t, dir, fmt.Sprintf("%s-%d.json", name, k), strings.Replace(cfg, e.old, e.new, 1))
			cases[fmt.Sprintf("%s: %s", name, e.new)] = bad{[]string{"--config", c, "--out", out}, e.want}
		}
	}
	inputs := sweepListDir(t, dir)
	for name, c := range cases {
		code, log := sweepExec(c.args...)
		switch {
		case code != exitBadInput:
			t.Errorf("%s: exit %d, want %d\n%s", name, code, exitBadInput, log)
		case !strings.Contains(log, c.want):
			t.Errorf("%s: error %q does not name %q", name, log, c.want)
		case strings.Contains(log, "done ("):
			t.Errorf("%s: runs were made: %q", name, log)
		}
		if got := sweepListDir(t, dir); got != inputs {
			t.Errorf("%s: the folder holds %s, want only the inputs %s", name, got, inputs)
		}
	}
}

// TestSweepMergeRefuses runs every registered sweep as two shards and
// checks that the merge refuses, with exit code 2 and without writing
// any result file, a missing shard, a duplicated one, a truncated last
// line, a shard of another seed and a configuration other than the
// shards'.
func TestSweepMergeRefuses(t *testing.T) {
	for name, cfg := range sweepConfigs {
		dir := t.TempDir()
		c := sweepWrite(t, dir, "cfg.json", cfg)
		seedRe := regexp.MustCompile(`"seed":\d+`)
		if !seedRe.MatchString(cfg) {
			cfg = strings.Replace(cfg, `{"sweep"`, `{"seed":0,"sweep"`, 1)
		}
		other := sweepWrite(t, dir, "other.json", seedRe.ReplaceAllString(cfg, `"seed":99`))
		shard := func(cfg string, i int) string {
			f := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", filepath.Base(cfg), i))
			sweepMustRun(t, "--config", cfg, "--shard", fmt.Sprintf("%d/2", i), "--out", f)
			return f
		}
		a, b, o := shard(c, 0), shard(c, 1), shard(other, 1)
		data := sweepRead(t, b)
		cut := sweepWrite(t, dir, "cut.jsonl", string(data[:len(data)-3]))
		for what, files := range map[string][]string{
			"runs missing":   {a},
			"recorded twice": {a, b, b},
			"truncated":      {a, cut},
			"seed 99":        {a, o},
		} {
			code, log := sweepExec(append([]string{"--config", c, "--merge", "--out", filepath.Join(dir, "m")}, files...)...)
			if code != exitBadInput || !strings.Contains(log, what) {
				t.Errorf("%s: merge of %s: exit %d, %q, want exit 2 and an error naming %q", name, what, code, log, what)
			}
		}
		code, log := sweepExec("--config", other, "--merge", "--out", filepath.Join(dir, "m"), a, b)
		if code != exitBadInput || !strings.Contains(log, "seed 99") {
			t.Errorf("%s: merge under another configuration: exit %d, %q", name, code, log)
		}
		for _, ext := range []string{".csv", ".json"} {
			if _, err := os.Stat(filepath.Join(dir, "m"+ext)); err == nil {
				t.Errorf("%s: a refused merge left m%s behind", name, ext)
			}
		}
	}
}

// TestSweepReadmeSamples checks that the README's table lists every
// registered sweep with a sample params that loads (with runs = 6, the
// cell count of the stability-map sample).
func TestSweepReadmeSamples(t *testing.T) {
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|.*\\| `(\\{.*\\})` \\|$")
	listed := map[string]bool{}
	dir := t.TempDir()
	for _, m := range row.FindAllStringSubmatch(string(sweepRead(t, "../../README.md")), -1) {
		name, params := m[1], m[2]
		listed[name] = true
		cfg := sweepWrite(t, dir, name+".json", fmt.Sprintf(`{"sweep":%q,"seed":1,"runs":6,"params":%s}`, name, params))
		if _, _, err := sweepLoad(cfg); err != nil {
			t.Errorf("README sample of %s: %v", name, err)
		}
	}
	for name := range sweepJobs {
		if !listed[name] {
			t.Errorf("sweep %s is not in the README's table", name)
		}
	}
}

// TestSweepRunsOutOfOrder computes the runs of every sweep on one job in
// reverse order and on another in order, and compares them: a run
// depends on its seed path only, not on the runs a job did before.
func TestSweepRunsOutOfOrder(t *testing.T) {
	for name, cfg := range sweepConfigs {
		var c sweepConfig
		if err := json.Unmarshal([]byte(cfg), &c); err != nil {
			t.Fatal(err)
		}
		prepare := func() (sweepJob, int) {
			j, err := sweepJobs[name](c.Params, c.Seed, c.Runs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if cj, ok := j.(sweepCounted); ok {
				return j, cj.Total()
			}
			return j, c.Runs
		}
		fwd, n := prepare()
		rev, _ := prepare()
		want := make([][]float64, n)
		for r := range want {
			v, err := fwd.Run(r)
			if err != nil {
				t.Fatalf("%s run %d: %v", name, r, err)
			}
			want[r] = v
		}
		for r := n - 1; r >= 0; r-- {
			got, err := rev.Run(r)
			if err != nil {
				t.Fatalf("%s run %d: %v", name, r, err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want[r]) {
				t.Errorf("%s run %d in reverse: %v, in order: %v", name, r, got, want[r])
			}
		}
	}
}

// TestSweepExampleConfigs: every configuration shipped in
// examples/sweeps is valid.
func TestSweepExampleConfigs(t *testing.T) {
	files, err := filepath.Glob("../../examples/sweeps/*.json")
	if err != nil || len(files) < 6 {
		t.Fatalf("%d example configurations (%v), want ≥ 6", len(files), err)
	}
	for _, f := range files {
		if _, _, err := sweepLoad(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
