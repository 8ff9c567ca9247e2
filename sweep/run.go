package sweep

import (
	"fmt"
	"io"
	"os"

	"github.com/loadlab/loadlab"
)

// RunFunc computes run r of a sweep and returns its values.
type RunFunc func(r int) ([]float64, error)

// Progress is what RunShard did: the shard's runs found already
// recorded (Resumed) and those computed now (Ran).
type Progress struct {
	Resumed, Ran int
}

// RunShard runs shard s of plan p, appending one record per run to the
// partial-result file at path (created if missing). If the file
// already holds records of this plan and shard, it resumes: a
// truncated last line is cut off, recorded runs are skipped, the rest
// are run in increasing order. after, if not nil, is called after each
// record is written (for progress reports).
//
// Errors: those of Plan.Validate and Shard.Validate; an error wrapping
// loadlab.ErrInvalid if the file is of another sweep, configuration,
// seed, run count or shard, or holds a corrupt or duplicated record;
// I/O errors; and the first error of run, wrapped with the run index
// (the runs before it stay recorded). It panics if run is nil.
func RunShard(p Plan, s Shard, path string, run RunFunc, after func(r int, pr Progress)) (Progress, error) {
	if run == nil {
		panic("sweep: RunShard: run is nil")
	}
	want, err := header(p, s)
	if err != nil {
		return Progress{}, err
	}
	f, done, err := openShard(p, s, path, want)
	if err != nil {
		return Progress{}, err
	}
	defer f.Close()
	pr := Progress{Resumed: len(done)}
	var runErr error
	s.each(p.Runs, func(r int) bool { // no list of runs: p.Runs may be huge
		if done[r] {
			return true
		}
		xs, err := run(r)
		if err != nil {
			runErr = fmt.Errorf("sweep %s: run %d: %w", p.Name, r, err)
			return false
		}
		if err := writeLine(f, Record{Run: r, SeedPath: p.SeedPath(r), Values: Values(xs)}); err != nil {
			runErr = fmt.Errorf("sweep: %s: %w", path, err)
			return false
		}
		pr.Ran++
		if after != nil {
			after(r, pr)
		}
		return true
	})
	if runErr != nil {
		return pr, runErr
	}
	return pr, f.Close()
}

// header returns the header of shard s of plan p.
func header(p Plan, s Shard) (Header, error) {
	if err := p.Validate(); err != nil {
		return Header{}, err
	}
	if err := s.Validate(); err != nil {
		return Header{}, err
	}
	hash, _ := p.Hash()
	return Header{Sweep: p.Name, ConfigHash: hash, Seed: p.Seed, Shard: s.String(), Runs: p.Runs}, nil
}

// openShard opens (or creates) the file at path for appending after
// validating its content against want, and returns the recorded runs.
func openShard(p Plan, s Shard, path string, want Header) (*os.File, map[int]bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("sweep: %w", err)
	}
	done, err := resume(f, p, path, want)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, done, nil
}

// resume validates the content of f, cuts a truncated last line, writes
// the header if missing and leaves f positioned at its end.
func resume(f *os.File, p Plan, path string, want Header) (map[int]bool, error) {
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", path, err)
	}
	sf, err := readShardFile(path, data)
	if err != nil {
		return nil, err
	}
	if sf.truncated {
		if err := f.Truncate(int64(sf.complete)); err != nil {
			return nil, fmt.Errorf("sweep: %s: %w", path, err)
		}
	}
	if _, err := f.Seek(int64(sf.complete), io.SeekStart); err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", path, err)
	}
	if sf.header.Sweep == "" {
		return map[int]bool{}, writeLine(f, want)
	}
	if sf.header != want {
		return nil, loadlab.Invalid(pkg, "%s: header %+v, want %+v (another sweep, configuration, seed or shard)", path, sf.header, want)
	}
	if err := checkSeedPaths(path, p, sf.records); err != nil {
		return nil, err
	}
	done := make(map[int]bool, len(sf.records))
	for _, r := range sf.records {
		if done[r.Run] {
			return nil, loadlab.Invalid(pkg, "%s: run %d recorded twice", path, r.Run)
		}
		done[r.Run] = true
	}
	return done, nil
}
