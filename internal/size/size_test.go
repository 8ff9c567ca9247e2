package size

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
)

func TestMul(t *testing.T) {
	if p, ok := Mul(1<<31, 1<<31); !ok || p != 1<<62 {
		t.Errorf("Mul(2^31, 2^31) = %d, %v", p, ok)
	}
	if _, ok := Mul(1<<40, 1<<30); ok {
		t.Error("Mul(2^40, 2^30) should overflow")
	}
	if _, ok := Mul(math.MaxInt, 2); ok {
		t.Error("Mul(MaxInt, 2) should overflow")
	}
	if _, ok := Mul(-1, 2); ok {
		t.Error("negative factor accepted")
	}
	if p, ok := Product(); !ok || p != 1 {
		t.Error("empty product")
	}
	if _, ok := Product(1<<62, 4, 1); ok {
		t.Error("Product(2^62, 4) should overflow")
	}
}

func TestCheck(t *testing.T) {
	if err := Check("x", "n", 1000, 8); err != nil {
		t.Error(err)
	}
	if err := Check("x", "n", 1<<40, 8); !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("2^40 × 8 bytes: got %v", err)
	}
	if err := Check("x", "n", math.MaxInt, 8); !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("overflow: got %v", err)
	}
	if err := Check("x", "n", -1, 8); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("negative: got %v", err)
	}
}
