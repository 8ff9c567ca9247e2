package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/loadlab/loadlab"
)

// splitLines returns the complete lines of data (without their
// newlines) and the length of the prefix they span; bytes after the
// last newline are a truncated line.
func splitLines(data []byte) (lines [][]byte, complete int) {
	complete = bytes.LastIndexByte(data, '\n') + 1
	if complete == 0 {
		return nil, 0
	}
	return bytes.Split(data[:complete-1], []byte("\n")), complete
}

// decodeStrict decodes one JSON value from line into v, refusing
// unknown fields and trailing data.
func decodeStrict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

// parseHeader reads the header line of file path.
func parseHeader(path string, line []byte) (Header, Shard, error) {
	var h Header
	if err := decodeStrict(line, &h); err != nil {
		return Header{}, Shard{}, loadlab.Invalid(pkg, "%s: line 1: not a sweep header: %v", path, err)
	}
	s, err := ParseShard(h.Shard)
	if err != nil {
		return Header{}, Shard{}, fmt.Errorf("%s: line 1: %w", path, err)
	}
	if h.Sweep == "" || h.Runs < 1 {
		return Header{}, Shard{}, loadlab.Invalid(pkg, "%s: line 1: header with sweep %q and runs %d, want a name and runs ≥ 1", path, h.Sweep, h.Runs)
	}
	return h, s, nil
}

// parseRecord reads record line n of file path, written by shard s of
// a sweep with header h.
func parseRecord(path string, n int, line []byte, h Header, s Shard) (Record, error) {
	var r Record
	if err := decodeStrict(line, &r); err != nil {
		return Record{}, loadlab.Invalid(pkg, "%s: line %d: not a run record: %v", path, n, err)
	}
	switch {
	case r.Run < 0 || r.Run >= h.Runs:
		return Record{}, loadlab.Invalid(pkg, "%s: line %d: run %d, want 0 ≤ run < %d", path, n, r.Run, h.Runs)
	case !s.Has(r.Run):
		return Record{}, loadlab.Invalid(pkg, "%s: line %d: run %d does not belong to shard %s", path, n, r.Run, s)
	case len(r.SeedPath) < 1 || r.SeedPath[0] != h.Seed:
		return Record{}, loadlab.Invalid(pkg, "%s: line %d: seed path %v, want one starting with the seed %d", path, n, r.SeedPath, h.Seed)
	}
	return r, nil
}

// shardFile is the parsed content of one partial-result file.
type shardFile struct {
	header    Header
	shard     Shard
	records   []Record
	complete  int  // bytes of complete lines
	truncated bool // bytes follow the last newline
}

// readShardFile parses the file at path. An empty file (or one holding
// only a truncated header) has no header: header.Sweep is "".
func readShardFile(path string, data []byte) (shardFile, error) {
	lines, complete := splitLines(data)
	f := shardFile{complete: complete, truncated: complete < len(data)}
	if len(lines) == 0 {
		return f, nil
	}
	var err error
	if f.header, f.shard, err = parseHeader(path, lines[0]); err != nil {
		return shardFile{}, err
	}
	for i, line := range lines[1:] {
		r, err := parseRecord(path, i+2, line, f.header, f.shard)
		if err != nil {
			return shardFile{}, err
		}
		f.records = append(f.records, r)
	}
	return f, nil
}

// checkSeedPaths verifies that every record's seed path is p's.
func checkSeedPaths(path string, p Plan, rs []Record) error {
	for _, r := range rs {
		if want := p.SeedPath(r.Run); !slices.Equal(r.SeedPath, want) {
			return loadlab.Invalid(pkg, "%s: run %d: seed path %v, want %v", path, r.Run, r.SeedPath, want)
		}
	}
	return nil
}

// writeLine writes v as one JSON line with a single write.
func writeLine(f *os.File, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	return err
}
