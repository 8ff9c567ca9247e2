// Package simd reports the vector instructions the assembly kernels of
// the module may use: the dense load product of package anycast, the
// sigmoids of package stability and the stage sums of package ode's
// Dormand–Prince stepper. Each kernel's package falls back to
// pure Go where FMA is false, and builds no assembly with the tag noasm.
package simd
