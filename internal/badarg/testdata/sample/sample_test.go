package sample

// Probe is in a test file: no entry point.
func Probe(int) {}
