package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// manifest holds the few fields of a Job manifest the command needs,
// read line by line (no YAML library is a dependency).
type manifest struct {
	completions int
	indexed     bool
	args        string            // the shell line run by the container
	mounts      map[string]string // mount path → volume name
	claim       string
}

func readManifest(t *testing.T, path string) manifest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := manifest{mounts: map[string]string{}}
	lines := strings.Split(string(data), "\n")
	field := func(l, key string) (string, bool) {
		v, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")), key+":")
		return strings.TrimSpace(v), ok
	}
	var pendingName string
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if v, ok := field(l, "completions"); ok {
			m.completions, _ = strconv.Atoi(v)
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
		if v, ok := field(l, "mountPath"); ok {
			m.mounts[v] = pendingName
		}
		if v, ok := field(l, "claimName"); ok {
			m.claim = v
		}
	}
	return m
}

// argv expands the container's shell line for pod index k, mapping the
// volume mount paths to local directories.
func argv(t *testing.T, line string, k int, dirs map[string]string) []string {
	t.Helper()
	line = strings.ReplaceAll(line, "$JOB_COMPLETION_INDEX", strconv.Itoa(k))
	line = strings.ReplaceAll(line, `"`, "")
	for mount, dir := range dirs {
		line = strings.ReplaceAll(line, mount+"/", dir+"/")
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "exec" || f[1] != "sweep" {
		t.Fatalf("container line %q, want exec sweep ...", line)
	}
	return f[2:]
}

// TestKubernetesManifests checks the Indexed Job's fields and then runs
// its containers' command lines (pod index substituted, volumes mapped
// to temporary directories) and the merge Job's line: the result must
// equal the one-process result.
func TestKubernetesManifests(t *testing.T) {
	job := readManifest(t, "../../deploy/k8s/sweep-job.yaml")
	merge := readManifest(t, "../../deploy/k8s/merge-job.yaml")
	if !job.indexed || job.completions < 1 {
		t.Fatalf("sweep job: completionMode Indexed %v, completions %d", job.indexed, job.completions)
	}
	n := job.completions
	if !regexp.MustCompile(`-shard "?\$JOB_COMPLETION_INDEX/` + strconv.Itoa(n) + `"?`).MatchString(job.args) {
		t.Fatalf("sweep job args %q: want -shard $JOB_COMPLETION_INDEX/%d", job.args, n)
	}
	if job.mounts["/results"] != "results" || merge.mounts["/results"] != "results" || job.claim == "" || job.claim != merge.claim {
		t.Fatalf("volumes: job %v claim %q, merge %v claim %q", job.mounts, job.claim, merge.mounts, merge.claim)
	}
	for k := range n {
		if !strings.Contains(merge.args, "/results/shard-"+strconv.Itoa(k)+".jsonl") {
			t.Fatalf("merge args %q miss shard %d", merge.args, k)
		}
	}
	dir := t.TempDir()
	dirs := map[string]string{"/results": filepath.Join(dir, "results"), "/config": filepath.Join(dir, "config")}
	for _, d := range dirs {
		os.MkdirAll(d, 0o755)
	}
	write(t, dirs["/config"], "cfg.json", consensusCfg)
	for k := range n {
		mustRun(t, argv(t, job.args, k, dirs)...)
	}
	mustRun(t, argv(t, merge.args, 0, dirs)...)
	mustRun(t, "-config", filepath.Join(dirs["/config"], "cfg.json"), "-direct", "-out", filepath.Join(dir, "direct"))
	if string(read(t, filepath.Join(dirs["/results"], "result.csv"))) != string(read(t, filepath.Join(dir, "direct.csv"))) {
		t.Fatal("the Indexed Job's merged result differs from the one-process result")
	}
}
