//go:build !amd64 || noasm

package simd

// FMA is false: no assembly kernel on this platform or with the tag noasm.
const FMA = false

// AVX512 is false: see FMA.
const AVX512 = false
