package sweep

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A plan of math.MaxInt runs is valid and RunShard works through it in
// order without listing the runs first (it once allocated the list and
// died of out-of-memory); here the run function stops it at run 4. A
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
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 4, pr.Ran)

	sh := Shard{Index: 3, Count: math.MaxInt - 1} // 3 + Count wraps
	assert.Equal(t, []int{3}, sh.Runs(math.MaxInt))
	assert.Equal(t, 1, sh.NumRuns(math.MaxInt))
	assert.Equal(t, 3, Shard{Index: 0, Count: 2}.NumRuns(5))
	assert.Equal(t, 0, Shard{Index: 5, Count: 7}.NumRuns(5))

	small := filepath.Join(dir, "b.jsonl")
	_, err = RunShard(Plan{Name: "x", Runs: 2}, Whole, small, func(r int) ([]float64, error) { return []float64{1}, nil }, nil)
	require.NoError(t, err)
	data, err := os.ReadFile(small)
	require.NoError(t, err)
	forged := strings.Replace(string(data), `"runs":2`, `"runs":4611686018427387904`, 1)
	require.NotEqual(t, string(data), forged)
	big := filepath.Join(dir, "c.jsonl")
	require.NoError(t, os.WriteFile(big, []byte(forged), 0o644))
	_, err = Merge(big)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}
