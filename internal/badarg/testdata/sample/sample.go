// Package sample is the fixture of badarg's coverage test.
package sample

import "errors"

// Settings has a Validate method: always an entry point.
type Settings struct{ Step float64 }

// Validate reports nothing.
func (s *Settings) Validate() error { return nil }

// Scale takes an argument.
func Scale(x float64) float64 { return x }

// Count takes none and returns no error: an accessor.
func Count() int { return 0 }

// Load takes none but returns an error.
func Load() (n int, err error) { return 0, errors.New("none") }

// Box is an exported type.
type Box[T any] struct{ v T }

// Put is a method of a generic type.
func (b *Box[T]) Put(v T) { b.v = v }

// Len is an accessor.
func (b Box[T]) Len() int { return 1 }

// Err is an error type.
type Err struct{}

func (Err) Error() string { return "err" }

// Unwrap reads the error chain: no entry point to probe.
func (Err) Unwrap() error { return nil }

type hidden struct{}

// Exported method of an unexported type: no entry point.
func (hidden) Put(int) {}

func helper(int) {}
