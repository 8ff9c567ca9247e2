package mc

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
)

// Run r of point k sees loadlab.Stream(seed, k, r), whatever the number
// of goroutines, and the first error in (point, run) order is returned.
func TestGrid(t *testing.T) {
	draw := func(k int, src rand.Source) (uint64, error) { return src.Uint64() + uint64(k), nil }
	a, err := Grid(3, 5, 9, draw)
	if err != nil {
		t.Fatal(err)
	}
	old := runtime.GOMAXPROCS(1)
	b, _ := Grid(3, 5, 9, draw)
	runtime.GOMAXPROCS(old)
	for k := range a {
		for r := range a[k] {
			want := loadlab.Stream(9, uint64(k), uint64(r)).Uint64() + uint64(k)
			if a[k][r] != want || b[k][r] != want {
				t.Fatalf("point %d run %d: %d, %d, want %d", k, r, a[k][r], b[k][r], want)
			}
		}
	}
	first, second := errors.New("first"), errors.New("second")
	_, err = Grid(2, 3, 1, func(k int, src rand.Source) (int, error) {
		switch {
		case k == 1:
			return 0, second
		case src.Uint64() == loadlab.Stream(1, 0, 2).Uint64():
			return 0, first
		}
		return 0, nil
	})
	if err != first {
		t.Fatalf("err = %v, want the first in run order", err)
	}
}
