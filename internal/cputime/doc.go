// Package cputime reads the process's CPU time, which benchmarks and the
// figure driver report beside wall time: on a shared machine the wall
// time mostly measures waiting for a core, the CPU time what the code
// costs.
package cputime
