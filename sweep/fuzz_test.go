package sweep

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
)

// FuzzParseShard: an accepted spec is the canonical form of its shard
// (String gives it back byte for byte), so no sloppy form is accepted;
// a refused one is an ErrInvalid error.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/4", " 0/2", "0/2 ", "+1/2", "01/2", "-1/2", "1/0", "0/2\n", "1/2/3", "9223372036854775806/9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseShard(spec)
		if err != nil {
			if !errors.Is(err, loadlab.ErrInvalid) {
				t.Fatalf("ParseShard(%q): %v, want ErrInvalid", spec, err)
			}
			return
		}
		if s.String() != spec || s.Validate() != nil {
			t.Fatalf("ParseShard(%q) = %v, which is written %q", spec, s, s.String())
		}
	})
}

// FuzzShardFile: the contents of a partial-result file are either
// refused with ErrInvalid or read to a header and records that, written
// again, read back the same, values bit for bit (so an accepted line is
// one whose checksum covers exactly what was read).
func FuzzShardFile(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	p := testPlan(4)
	if _, err := RunShard(p, Shard{1, 2}, good, runOf(p), nil); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(bytes.Replace(data, []byte(`"values":[`), []byte(`"values":[1,`), 1)) // an edited record
	f.Add(regexp.MustCompile(`,"crc32c":"[0-9a-f]+"`).ReplaceAll(data, nil))    // no checksums
	f.Add(data[:len(data)-5])                                                   // truncated
	f.Fuzz(func(t *testing.T, src []byte) {
		sf, err := readShardFile("fuzz.jsonl", src)
		if err != nil {
			if !errors.Is(err, loadlab.ErrInvalid) {
				t.Fatalf("error %v, want ErrInvalid", err)
			}
			return
		}
		if sf.header.Sweep == "" {
			return
		}
		path := filepath.Join(t.TempDir(), "again.jsonl")
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if err := writeLine(out, sf.header); err != nil {
			t.Fatal(err)
		}
		for _, r := range sf.records {
			if err := writeLine(out, r); err != nil {
				t.Fatal(err)
			}
		}
		again, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		back, err := readShardFile(path, again)
		if err != nil {
			t.Fatalf("written file does not read back: %v", err)
		}
		if back.header != sf.header || len(back.records) != len(sf.records) {
			t.Fatalf("header %+v / %d records, read back %+v / %d", sf.header, len(sf.records), back.header, len(back.records))
		}
		for k, r := range sf.records {
			b := back.records[k]
			if b.Run != r.Run || !slices.Equal(b.SeedPath, r.SeedPath) || len(b.Values) != len(r.Values) {
				t.Fatalf("record %d: %+v, read back %+v", k, r, b)
			}
			for j := range r.Values {
				if math.Float64bits(float64(b.Values[j])) != math.Float64bits(float64(r.Values[j])) {
					t.Fatalf("record %d value %d changed", k, j)
				}
			}
		}
	})
}
