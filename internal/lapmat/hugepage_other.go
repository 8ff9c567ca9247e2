//go:build !linux

package lapmat

import "unsafe"

// AdviseHuge is a no-op outside Linux (see hugepage_linux.go).
func AdviseHuge(p unsafe.Pointer, bytes int) {}
