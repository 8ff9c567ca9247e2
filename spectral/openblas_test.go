//go:build openblas

package spectral

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// With -tags openblas the test binary routes every gonum BLAS call
// through OpenBLAS (cgo; Debian's libopenblas-dev), for comparing the
// dense benchmarks with the pure-Go build:
//
//	go test -tags openblas -run '^$' -bench Dense_2000 ./spectral
//
// The library itself never swaps the process's BLAS: a program that
// wants OpenBLAS calls blas64.Use(netlib.Implementation{}) in its main.
func init() { blas64.Use(netlib.Implementation{}) }
