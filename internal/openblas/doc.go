// Package openblas, built with the tag openblas, routes gonum's BLAS
// through OpenBLAS for the dense benchmarks; without the tag it is empty.
// It is not API.
package openblas
