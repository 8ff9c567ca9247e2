// Package asm holds the module's assembly kernels, each beside a pure-Go
// reference that computes exactly the same numbers. It is not API.
//
// # Kernels
//
//   - Dot4 and Dot6: the dense load product of package anycast (S = B x
//     and its reduced forms), four rows against one vector or one row
//     against six vectors, in blocks of eight columns.
//   - Sigmoids: σ(z) = 1/(1 + e^{−z}) for the logit integration of
//     package stability, on an exponential of this package's own (see
//     Sigmoid for its range reduction, polynomial and error bound).
//   - MulAdd4: a 4 × 8nb block of C ← C + A B by chains of fused
//     multiply-adds, A read along either its rows or its columns, for the
//     blocked matrix product dense.MulAdd of the supernodal sparse
//     Cholesky factorisation and selected inversion (package cholesky).
//
// Every kernel is defined by its reference: the order of the operations,
// which of them are fused multiply-adds (math.FMA in the reference) and
// every rounding are fixed, so the kernel and the reference agree bit for
// bit and a result does not depend on the CPU, on GOARCH or on the build
// tag noasm. The tests check this on every length from 0 to a few blocks,
// at offsets into larger buffers whose guard bands of sentinels must stay
// untouched (and whose NaN sentinels would show in a result that read
// them), and on special values.
//
// # Dispatch
//
// The kernels are AVX2 with FMA, for amd64. They run where
// golang.org/x/sys/cpu reports both (which includes the operating
// system's support of the YMM registers); elsewhere, on every other
// GOARCH and in builds with the tag noasm, the functions run their
// reference. The reference evaluates fused multiply-adds with math.FMA,
// which is an instruction on arm64 and on amd64 CPUs with FMA, and is
// emulated in software (many times slower) on older amd64 CPUs.
//
// # Measured gains
//
// A kernel stays only while it gains at least 5 % of the work it serves;
// docs/perf-kernels.md lists the measurements, and the kernels that were
// dropped for gaining less.
package asm
