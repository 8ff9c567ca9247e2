package sweep

import (
	"fmt"
	"os"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Merged is the combined result of all shards of a sweep.
type Merged struct {
	Sweep      string
	ConfigHash string
	Seed       uint64
	Runs       int
	Records    []Record // Records[r] is run r
}

// Merge reads the partial-result files at paths and returns their
// records in run order. It returns an error wrapping loadlab.ErrInvalid
// (naming the file) if no path is given, a file is empty, ends in a
// truncated line or holds a corrupt record, the files differ in sweep,
// configuration hash, seed, run count or shard count, or a run is
// recorded twice or missing; I/O errors are returned wrapped.
func Merge(paths ...string) (Merged, error) {
	if len(paths) == 0 {
		return Merged{}, loadlab.Invalid(pkg, "Merge: no files")
	}
	var m Merged
	var first Header
	var firstShard Shard
	from := map[int]string{}
	for i, path := range paths {
		sf, err := readComplete(path)
		if err != nil {
			return Merged{}, err
		}
		if i == 0 {
			first, firstShard = sf.header, sf.shard
			if err := size.Check(pkg, fmt.Sprintf("Merge: %s: header runs", path), first.Runs, 64); err != nil {
				return Merged{}, err
			}
			m = Merged{Sweep: first.Sweep, ConfigHash: first.ConfigHash, Seed: first.Seed, Runs: first.Runs, Records: make([]Record, first.Runs)}
		} else if err := sameSweep(paths[0], first, firstShard, path, sf); err != nil {
			return Merged{}, err
		}
		for _, r := range sf.records {
			if prev, ok := from[r.Run]; ok {
				return Merged{}, loadlab.Invalid(pkg, "Merge: run %d recorded twice (%s and %s)", r.Run, prev, path)
			}
			from[r.Run] = path
			m.Records[r.Run] = r
		}
	}
	if err := complete(m, from); err != nil {
		return Merged{}, err
	}
	return m, nil
}

// readComplete reads a partial-result file that must be whole.
func readComplete(path string) (shardFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return shardFile{}, fmt.Errorf("sweep: %w", err)
	}
	sf, err := readShardFile(path, data)
	switch {
	case err != nil:
		return shardFile{}, err
	case sf.truncated:
		return shardFile{}, loadlab.Invalid(pkg, "%s: truncated last line (bytes %d to %d): resume the shard before merging", path, sf.complete, len(data))
	case sf.header.Sweep == "":
		return shardFile{}, loadlab.Invalid(pkg, "%s: empty file, no sweep header", path)
	}
	return sf, nil
}

// sameSweep checks that file path belongs to the sweep of the first file.
func sameSweep(path0 string, h0 Header, s0 Shard, path string, sf shardFile) error {
	h := sf.header
	switch {
	case h.Sweep != h0.Sweep:
		return loadlab.Invalid(pkg, "Merge: %s is of sweep %q, %s of sweep %q", path, h.Sweep, path0, h0.Sweep)
	case h.ConfigHash != h0.ConfigHash:
		return loadlab.Invalid(pkg, "Merge: %s and %s have different configurations (SHA-256 %s and %s)", path, path0, h.ConfigHash, h0.ConfigHash)
	case h.Seed != h0.Seed:
		return loadlab.Invalid(pkg, "Merge: %s has seed %d, %s seed %d", path, h.Seed, path0, h0.Seed)
	case h.Runs != h0.Runs:
		return loadlab.Invalid(pkg, "Merge: %s has %d runs, %s %d", path, h.Runs, path0, h0.Runs)
	case sf.shard.Count != s0.Count:
		return loadlab.Invalid(pkg, "Merge: %s is shard %s, %s shard %s (different shard counts)", path, sf.shard, path0, s0)
	}
	return nil
}

// complete checks that every run is recorded.
func complete(m Merged, from map[int]string) error {
	var missing []int
	for r := range m.Runs {
		if _, ok := from[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		shown := missing[:min(len(missing), 10)]
		return loadlab.Invalid(pkg, "Merge: sweep %s: %d of %d runs missing (first: %v)", m.Sweep, len(missing), m.Runs, shown)
	}
	return nil
}

// MergePlan merges the files at paths like Merge and checks them
// against plan p: sweep name, configuration hash, seed, run count and
// every record's seed path must be p's. A mismatch gives an error
// wrapping loadlab.ErrInvalid; so do the errors of Merge and of
// p.Validate.
func MergePlan(p Plan, paths ...string) (Merged, error) {
	if err := p.Validate(); err != nil {
		return Merged{}, err
	}
	m, err := Merge(paths...)
	if err != nil {
		return Merged{}, err
	}
	hash, _ := p.Hash()
	if m.Sweep != p.Name || m.ConfigHash != hash || m.Seed != p.Seed || m.Runs != p.Runs {
		return Merged{}, loadlab.Invalid(pkg, "MergePlan: the files are of sweep %q (configuration %s, seed %d, %d runs), want %q (configuration %s, seed %d, %d runs)",
			m.Sweep, m.ConfigHash, m.Seed, m.Runs, p.Name, hash, p.Seed, p.Runs)
	}
	if err := checkSeedPaths("MergePlan", p, m.Records); err != nil {
		return Merged{}, err
	}
	return m, nil
}
