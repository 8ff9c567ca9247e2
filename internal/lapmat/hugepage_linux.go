package lapmat

import (
	"os"
	"syscall"
	"unsafe"
)

// Linux madvise advice values (syscall has MADV_HUGEPAGE; MADV_COLLAPSE
// is Linux 6.1).
const (
	madvHugepage = 14
	madvCollapse = 25
	hugePageSize = 2 << 20
)

// AdviseHuge asks Linux to back the 2 MiB-aligned interior of the
// memory [p, p+bytes) with transparent huge pages, collapsing the pages
// already present. The sparse products read their vector at random rows;
// with 4 KiB pages an 8 MB vector spans 2048 pages, as many as the
// second-level TLB holds, and nearly every read of a neighbour then waits
// for a page walk as well as for the cache. It is advice only: the
// contents do not change, and a kernel without transparent huge pages
// (or a system where they are disabled) ignores it. Regions of less than
// two huge pages are left alone, and so is everything when the
// environment variable LOADLAB_NOHUGE is set (for comparing the two).
func AdviseHuge(p unsafe.Pointer, bytes int) {
	if bytes < 2*hugePageSize || os.Getenv("LOADLAB_NOHUGE") != "" {
		return
	}
	a := uintptr(p)
	lo := (a + hugePageSize - 1) &^ (hugePageSize - 1)
	hi := (a + uintptr(bytes)) &^ (hugePageSize - 1)
	if hi <= lo {
		return
	}
	b := unsafe.Slice((*byte)(p), bytes)[lo-a : hi-a]
	if syscall.Madvise(b, madvHugepage) == nil {
		_ = syscall.Madvise(b, madvCollapse)
	}
}
