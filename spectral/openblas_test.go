//go:build openblas

package spectral

// With -tags openblas the test binary routes gonum's BLAS through
// OpenBLAS, for comparing the dense benchmarks with the pure-Go build:
//
//	go test -tags openblas -run '^$' -bench Dense_2000 ./spectral
import _ "github.com/loadlab/loadlab/internal/openblas"
