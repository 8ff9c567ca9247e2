//go:build openblas

package linalg

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// With -tags openblas, every gonum BLAS call of the process runs in
// OpenBLAS through cgo: the Cholesky factorisation, the triangular
// inverse and the products behind KirchhoffIndex and ResistanceMatrix
// (n = 2000 on two cores: 0.29 s each, against about 0.5 s and 0.65 s
// in pure Go on a quiet machine). It needs the module
// gonum.org/v1/netlib in go.mod, a C compiler and Debian's
// libopenblas-dev (the cgo directive above links it):
//
//	go test -tags openblas -bench Dense_2000 ./linalg
//
// The default build does not include this file and stays pure Go.
func init() { blas64.Use(netlib.Implementation{}) }
