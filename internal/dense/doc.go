// Package dense holds the dense linear algebra shared by spectral and
// consensus: SPDFactor (Cholesky A = UᵀU with a condition estimate, the
// inverse factor V = U⁻¹ by a recursive triangular inverse, and from it
// the diagonal, trace and matrix of A⁻¹), Lift (A = L + αJ/n) and Shift
// (cI − γL), Neumaier's compensated sums, and small vector kernels (Dot,
// Axpy, Normalize, Center) whose summation order the callers rely on,
// and MulAdd, the blocked matrix product C ← C + A B on the kernel
// asm.MulAdd4, split over rows among goroutines, whose bits depend on
// neither (used by package cholesky's supernodes). It is not API.
// Derivations: spec throttlers.md §12.7.
package dense
