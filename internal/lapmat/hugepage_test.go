package lapmat

import (
	"testing"
	"unsafe"
)

// The huge-page advice must leave the contents alone: MADV_COLLAPSE
// copies the pages present into huge pages, so a vector written before
// the advice must read back the same after it (and hugeFloats must
// return a zero vector of the requested length).
func TestAdviseHugeKeepsContents(t *testing.T) {
	const n = 3 << 20 // 24 MiB: several aligned 2 MiB pages
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i) * 0.5
	}
	AdviseHuge(unsafe.Pointer(&v[0]), 8*n)
	for i, x := range v {
		if x != float64(i)*0.5 {
			t.Fatalf("v[%d] = %v after the advice, want %v", i, x, float64(i)*0.5)
		}
	}
	z := HugeFloats(n)
	if len(z) != n {
		t.Fatalf("len %d", len(z))
	}
	for i, x := range z {
		if x != 0 {
			t.Fatalf("z[%d] = %v", i, x)
		}
	}
}
