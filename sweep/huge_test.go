package sweep

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
)

// A plan of math.MaxInt runs is valid and RunShard works through it in
// order without listing the runs first (guards: the list allocated, and
// an out-of-memory crash); here the run function stops it at run 4. A
// shard near MaxInt does not wrap. A file header claiming 2⁶² runs is
// refused by Merge with ErrTooLarge before it allocates the records.
func TestHugeRunCounts(t *testing.T) {
	dir := t.TempDir()
	stop := errors.New("stop")
	pl := Plan{Name: "huge", Runs: math.MaxInt}
	pr, err := RunShard(pl, Whole, filepath.Join(dir, "a.jsonl"), func(r int) ([]float64, error) {
		if r > 3 {
			return nil, stop
		}
		return []float64{float64(r)}, nil
	}, nil)
	if !errors.Is(err, stop) || pr.Ran != 4 {
		t.Errorf("RunShard: %v after %d runs, want the run's error after 4", err, pr.Ran)
	}

	sh := Shard{Index: 3, Count: math.MaxInt - 1} // 3 + Count wraps
	if got := sh.Runs(math.MaxInt); !slices.Equal(got, []int{3}) {
		t.Errorf("Runs = %v, want [3]", got)
	}
	for _, c := range []struct {
		s     Shard
		total int
		want  int
	}{{sh, math.MaxInt, 1}, {Shard{Index: 0, Count: 2}, 5, 3}, {Shard{Index: 5, Count: 7}, 5, 0}} {
		if got := c.s.NumRuns(c.total); got != c.want {
			t.Errorf("%v.NumRuns(%d) = %d, want %d", c.s, c.total, got, c.want)
		}
	}

	small := filepath.Join(dir, "b.jsonl")
	if _, err := RunShard(Plan{Name: "x", Runs: 2}, Whole, small, func(r int) ([]float64, error) { return []float64{1}, nil }, nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	// The forged header carries a valid checksum: the size guard, not
	// the checksum, must stop it.
	head, rest, _ := strings.Cut(string(data), "\n")
	var hd sealedHeader
	if err := json.Unmarshal([]byte(head), &hd); err != nil {
		t.Fatal(err)
	}
	hd.Runs = 1 << 62
	if hd.CRC, err = checksum(hd.Header); err != nil {
		t.Fatal(err)
	}
	line, err := json.Marshal(hd)
	if err != nil {
		t.Fatal(err)
	}
	forged := string(line) + "\n" + rest
	big := filepath.Join(dir, "c.jsonl")
	if err := os.WriteFile(big, []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(big); !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("Merge of 2^62 runs: %v, want ErrTooLarge", err)
	}
}
