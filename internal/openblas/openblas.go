//go:build openblas

// With the tag openblas, linking this package routes gonum's BLAS through
// OpenBLAS (cgo; Debian's libopenblas-dev and the gonum.org/v1/netlib
// module): its init calls blas64.Use. Only the benchmarks import it, to
// compare the dense factorisations with the pure-Go build; the library
// never swaps the process's BLAS, and a program that wants OpenBLAS calls
// blas64.Use itself.
package openblas

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() { blas64.Use(netlib.Implementation{}) }
