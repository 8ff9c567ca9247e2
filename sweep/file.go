package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
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

// castagnoli is the CRC-32C table of the lines' checksums.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sealedHeader and sealedRecord are the lines of a partial-result file:
// the Header or Record, then the CRC-32C of its canonical JSON (its
// fields encoded by encoding/json in order, values in shortest form),
// eight lower-case hex digits.
type sealedHeader struct {
	Header
	CRC string `json:"crc32c"`
}

type sealedRecord struct {
	Record
	CRC string `json:"crc32c"`
}

// checksum returns the CRC-32C of the canonical JSON of v.
func checksum(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%08x", crc32.Checksum(b, castagnoli)), nil
}

// verify checks the checksum crc of line n of file path, which holds v
// (what names v in an error: "header", "run 3").
func verify(path string, n int, what string, v any, crc string) error {
	if crc == "" {
		return loadlab.Invalid(pkg, "%s: line %d: %s has no checksum (crc32c): the file was written before sweep lines carried checksums, or edited, and its values cannot be verified; run the shard again into a new file", path, n, what)
	}
	got, err := checksum(v)
	if err != nil {
		return loadlab.Invalid(pkg, "%s: line %d: %s: %v", path, n, what, err)
	}
	if got != crc {
		return loadlab.Invalid(pkg, "%s: line %d: %s: checksum crc32c %q, but the line's content gives %q: the line was changed after it was written", path, n, what, crc, got)
	}
	return nil
}

// parseHeader reads the header line of file path.
func parseHeader(path string, line []byte) (Header, Shard, error) {
	var sh sealedHeader
	if err := decodeStrict(line, &sh); err != nil {
		return Header{}, Shard{}, loadlab.Invalid(pkg, "%s: line 1: not a sweep header: %v", path, err)
	}
	h := sh.Header
	if err := verify(path, 1, "header", h, sh.CRC); err != nil {
		return Header{}, Shard{}, err
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
	var sr sealedRecord
	if err := decodeStrict(line, &sr); err != nil {
		return Record{}, loadlab.Invalid(pkg, "%s: line %d: not a run record: %v", path, n, err)
	}
	r := sr.Record
	if err := verify(path, n, fmt.Sprintf("run %d", r.Run), r, sr.CRC); err != nil {
		return Record{}, err
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

// writeLine writes v (a Header or a Record) as one JSON line with its
// checksum, in a single write: the line sealedHeader or sealedRecord
// reads.
func writeLine(f *os.File, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	crc := crc32.Checksum(b, castagnoli)
	b = fmt.Appendf(b[:len(b)-1], `,"crc32c":"%08x"}`+"\n", crc)
	_, err = f.Write(b)
	return err
}
