//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used, to
// report each figure's cost independently of other load on the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
