package mobility

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompare checks determinism across worker counts, OPT's ratio 1,
// every algorithm's ratio ≥ 1 and the spec's recovered claim that motion
// awareness brings the gap below 10% (spec §8.1).
func TestCompare(t *testing.T) {
	cs := append(Baselines(), TargetAware(10, 0), DirectionAware(10, 0), TargetAware(10, 50))
	sc := Mesh{Grid: 8, Slots: 500}
	a, err := Compare(sc, cs, 6, 5, 0)
	require.NoError(t, err)
	old := runtime.GOMAXPROCS(1)
	b, err := Compare(sc, cs, 6, 5, 0)
	runtime.GOMAXPROCS(old)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	require.Len(t, a, len(cs)+1)
	assert.Equal(t, "OPT", a[0].Name)
	assert.Equal(t, 1.0, a[0].Ratio.Mean)
	for _, r := range a[1:] {
		assert.GreaterOrEqual(t, r.Ratio.Mean, 1.0, r.Name)
		assert.Equal(t, 6, r.Ratio.N)
	}
	for _, r := range a[len(a)-3:] {
		assert.Less(t, r.Ratio.Mean, 1.10, r.Name)
	}
	// In the chat room there is no walk: the motion-aware algorithms fall
	// back to DTrack-RR.
	c, err := Compare(ChatRoom{Grid: 5, Slots: 300}, []Contender{Baselines()[0], TargetAware(5, 0)}, 3, 5, 1)
	require.NoError(t, err)
	assert.Equal(t, c[1].Cost, c[2].Cost)
	_, err = Compare(sc, cs, 0, 5, 0)
	assert.Error(t, err)
}

// TestCompareMisuse: with several workers, a nil scenario is a
// documented panic on the caller's goroutine, a nil Contender.New or a
// New that returns nil an error, and any other panic of a worker is
// re-raised on the caller (guards: a worker's panic killing the process).
func TestCompareMisuse(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	good := Baselines()[:1]
	assert.PanicsWithValue(t, "mobility: Compare: scenario sc is nil", func() { _, _ = Compare(nil, good, 4, 1, 0) })
	// A nil New is a bad field: an error naming it.
	_, err := Compare(Mesh{Grid: 2, Slots: 10}, append(good, Contender{Name: "broken"}), 4, 1, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, `cs[1].New ("broken") is nil`)
	none := Contender{"none", func(*Scene, rand.Source) competitive.Online { return nil }}
	_, err = Compare(Mesh{Grid: 2, Slots: 10}, []Contender{none}, 4, 1, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, `contender "none": New returned nil`)
	boom := Contender{"boom", func(*Scene, rand.Source) competitive.Online { panic("boom") }}
	var got any
	func() {
		defer func() { got = recover() }()
		_, _ = Compare(Mesh{Grid: 2, Slots: 10}, []Contender{boom}, 8, 1, 0)
	}()
	var pe *mc.PanicError
	require.True(t, errors.As(asError(got), &pe), "recovered %T %v", got, got)
	assert.Equal(t, "boom", pe.Value)
}

func asError(v any) error {
	err, _ := v.(error)
	return err
}
