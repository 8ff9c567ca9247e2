package sweep

import (
	"errors"
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
