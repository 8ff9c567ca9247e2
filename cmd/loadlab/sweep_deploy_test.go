package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sweepManifest holds the few fields of a Job manifest the command needs,
// read line by line (no YAML library is a dependency).
type sweepManifest struct {
	completions string
	parallelism string
	indexed     bool
	args        string            // the shell line run by the container
	env         map[string]string // container environment
	mounts      map[string]string // mount path → volume name
	claim       string
}

func sweepParseManifest(text string) sweepManifest {
	m := sweepManifest{mounts: map[string]string{}, env: map[string]string{}}
	lines := strings.Split(text, "\n")
	field := func(l, key string) (string, bool) {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		v, ok := strings.CutPrefix(l, key+":")
		return strings.Trim(strings.TrimSpace(v), `"`), ok
	}
	var pendingName string
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if v, ok := field(l, "completions"); ok {
			m.completions = v
		}
		if v, ok := field(l, "parallelism"); ok {
			m.parallelism = v
		}
		if v, ok := field(l, "completionMode"); ok {
			m.indexed = v == "Indexed"
		}
		if _, ok := field(l, "args"); ok && i+1 < len(lines) {
			m.args = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i+1]), "- "))
		}
		if v, ok := field(l, "name"); ok {
			pendingName = v
		}
		if v, ok := field(l, "value"); ok {
			m.env[pendingName] = v
		}
		if v, ok := field(l, "mountPath"); ok {
			m.mounts[v] = pendingName
		}
		if v, ok := field(l, "claimName"); ok {
			m.claim = v
		}
	}
	return m
}

func sweepReadManifest(t *testing.T, path string) sweepManifest {
	t.Helper()
	return sweepParseManifest(string(sweepRead(t, path)))
}

// sweepArgv expands the container's shell line for pod index k with the
// environment env, mapping the volume mount paths to local directories
// and expanding the glob of shard files.
func sweepArgv(t *testing.T, line string, k int, env, dirs map[string]string) []string {
	t.Helper()
	line = strings.ReplaceAll(line, "$JOB_COMPLETION_INDEX", strconv.Itoa(k))
	for name, v := range env {
		line = strings.ReplaceAll(line, "$"+name, v)
	}
	line = strings.ReplaceAll(line, `"`, "")
	for mount, dir := range dirs {
		line = strings.ReplaceAll(line, mount+"/", dir+"/")
	}
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "exec" || f[1] != "loadlab" || f[2] != "sweep" {
		t.Fatalf("container line %q, want exec loadlab sweep ...", line)
	}
	var args []string
	for _, a := range f[3:] {
		if strings.Contains(a, "*") {
			matches, err := filepath.Glob(a)
			if err != nil || len(matches) == 0 {
				t.Fatalf("glob %s: %v, %d files", a, err, len(matches))
			}
			args = append(args, matches...)
			continue
		}
		args = append(args, a)
	}
	return args
}

// TestSweepKubernetesManifests checks that the shard count has one source,
// the Indexed Job's spec.completions (kustomization.yaml copies it into
// parallelism and the container's SHARDS; the merge Job reads every
// shard file), renders the Job with kubectl kustomize when kubectl is
// installed, and then runs the containers' command lines (pod index
// substituted, volumes mapped to temporary directories) and the merge
// Job's line: the result must equal the one-process result.
func TestSweepKubernetesManifests(t *testing.T) {
	job := sweepReadManifest(t, "../../deploy/k8s/sweep-job.yaml")
	merge := sweepReadManifest(t, "../../deploy/k8s/merge-job.yaml")
	n, err := strconv.Atoi(job.completions)
	if !job.indexed || err != nil || n < 1 {
		t.Fatalf("sweep job: completionMode Indexed %v, completions %q", job.indexed, job.completions)
	}
	if !regexp.MustCompile(`--shard "\$JOB_COMPLETION_INDEX/\$SHARDS"`).MatchString(job.args) || job.env["SHARDS"] != "0" {
		t.Fatalf("sweep job args %q, SHARDS %q: want --shard \"$JOB_COMPLETION_INDEX/$SHARDS\" and the placeholder SHARDS = 0", job.args, job.env["SHARDS"])
	}
	if regexp.MustCompile(`[0-9]`).MatchString(merge.args) || !strings.Contains(merge.args, "/results/shard-*.jsonl") {
		t.Fatalf("merge args %q: want every shard file (/results/shard-*.jsonl) and no shard count", merge.args)
	}
	kust := string(sweepRead(t, "../../deploy/k8s/kustomization.yaml"))
	for _, want := range []string{"- sweep-job.yaml", "fieldPath: spec.completions", "- spec.parallelism", "- spec.template.spec.containers.[name=shard].env.[name=SHARDS].value"} {
		if !strings.Contains(kust, want) {
			t.Fatalf("kustomization.yaml lacks %q", want)
		}
	}
	rendered := job
	rendered.env = map[string]string{"SHARDS": job.completions}
	if kubectl, err := exec.LookPath("kubectl"); err == nil {
		out, err := exec.Command(kubectl, "kustomize", "../../deploy/k8s").Output()
		if err != nil {
			t.Fatalf("kubectl kustomize: %v", err)
		}
		rendered = sweepParseManifest(string(out))
		if rendered.completions != job.completions || rendered.parallelism != job.completions || rendered.env["SHARDS"] != job.completions {
			t.Fatalf("rendered job: completions %q, parallelism %q, SHARDS %q; want all %q", rendered.completions, rendered.parallelism, rendered.env["SHARDS"], job.completions)
		}
	} else {
		t.Log("kubectl not installed: the kustomization is checked as text only")
	}
	if job.mounts["/results"] != "results" || merge.mounts["/results"] != "results" || job.claim == "" || job.claim != merge.claim {
		t.Fatalf("volumes: job %v claim %q, merge %v claim %q", job.mounts, job.claim, merge.mounts, merge.claim)
	}
	dir := t.TempDir()
	dirs := map[string]string{"/results": filepath.Join(dir, "results"), "/config": filepath.Join(dir, "config")}
	for _, d := range dirs {
		os.MkdirAll(d, 0o755)
	}
	sweepWrite(t, dirs["/config"], "cfg.json", sweepConsensusCfg)
	// Applied with -f, the placeholder fails before any run.
	if code, log := sweepExec(sweepArgv(t, job.args, 0, job.env, dirs)...); code != exitBadInput || !strings.Contains(log, "N = 0") {
		t.Fatalf("pod with SHARDS = 0: exit %d\n%s", code, log)
	}
	for k := range n {
		sweepMustRun(t, sweepArgv(t, job.args, k, map[string]string{"SHARDS": rendered.env["SHARDS"]}, dirs)...)
	}
	sweepMustRun(t, sweepArgv(t, merge.args, 0, nil, dirs)...)
	sweepMustRun(t, "--config", filepath.Join(dirs["/config"], "cfg.json"), "--direct", "--out", filepath.Join(dir, "direct"))
	if string(sweepRead(t, filepath.Join(dirs["/results"], "result.csv"))) != string(sweepRead(t, filepath.Join(dir, "direct.csv"))) {
		t.Fatal("the Indexed Job's merged result differs from the one-process result")
	}
}

// TestSweepSlurmScripts runs deploy/slurm's array script as the 3 tasks of an
// array would (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT set as Slurm
// sets them) and then its merge script, without Slurm; the merged result
// must equal the one-process result. The real cluster run is
// deploy/slurm/test-local.sh.
func TestSweepSlurmScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	cfg := sweepWrite(t, dir, "cfg.json", sweepMobilityCfg)
	out := filepath.Join(dir, "out")
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "SWEEP=") || strings.HasPrefix(kv, "LOADLAB=") })
	env = append(env, "CONFIG="+cfg, "OUTDIR="+out, "LOADLAB="+sweepBinary(t))
	for k := range 3 {
		task := exec.Command(bash, "../../deploy/slurm/sweep.sbatch")
		task.Env = append(env, "SLURM_ARRAY_TASK_ID="+strconv.Itoa(k), "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MAX=2")
		if b, err := task.CombinedOutput(); err != nil {
			t.Fatalf("task %d: %v\n%s", k, err, b)
		}
	}
	m := exec.Command(bash, "../../deploy/slurm/merge.sbatch")
	m.Env = env
	if b, err := m.CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, b)
	}
	sweepMustRun(t, "--config", cfg, "--direct", "--out", filepath.Join(dir, "direct"))
	if string(sweepRead(t, filepath.Join(out, "result.json"))) != string(sweepRead(t, filepath.Join(dir, "direct.json"))) {
		t.Fatal("the array's merged result differs from the one-process result")
	}
	// Without the array, the task script refuses to start.
	task := exec.Command(bash, "../../deploy/slurm/sweep.sbatch")
	task.Env = env
	if b, err := task.CombinedOutput(); err == nil || !strings.Contains(string(b), "job array") {
		t.Fatalf("outside an array: %v\n%s", err, b)
	}
	// The variable of the former sweep command is refused, not ignored.
	for _, script := range []string{"sweep.sbatch", "merge.sbatch"} {
		cmd := exec.Command(bash, "../../deploy/slurm/"+script)
		cmd.Env = append(env, "SWEEP=./sweep", "SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_COUNT=3")
		if b, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(b), "set LOADLAB") {
			t.Fatalf("%s with SWEEP set: %v\n%s", script, err, b)
		}
	}
}
