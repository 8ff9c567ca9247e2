//go:build !linux

package linalg

import "unsafe"

// adviseHuge is a no-op outside Linux (see hugepage_linux.go).
func adviseHuge(p unsafe.Pointer, bytes int) {}
