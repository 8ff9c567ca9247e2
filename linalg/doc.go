// Package linalg provides weighted undirected graphs, their Laplacians,
// spectra and effective resistances: the linear algebra under loadlab's
// consensus-based throttlers (spec ../shared/papers/throttlers.md §2).
//
// # Conventions
//
// A Graph has nodes 0..n−1 and positive, finite edge weights that act as
// conductances. The Laplacian is
//
//	L_uv = −w_uv (u ~ v),   L_uu = Σ_v w_uv,   L 1 = 0,
//
// with eigenvalues 0 = λ₁ ≤ λ₂ ≤ … ≤ λ_n; λ₂ > 0 exactly when the graph
// is connected. The pseudoinverse is L† = (L + J/n)⁻¹ − J/n with J the
// all-ones matrix, and the effective resistance between u and v is
//
//	R_uv = L†_uu + L†_vv − 2 L†_uv = (e_u − e_v)ᵀ L† (e_u − e_v).
//
// Raising a conductance never raises any R_uv (Rayleigh monotonicity).
//
// # Kirchhoff index
//
// KirchhoffIndex returns
//
//	K_f = Σ_{u<v} R_uv = n tr L† = n Σ_{i≥2} 1/λ_i,
//
// the sum over unordered pairs. Some authors sum over ordered pairs
// (2 K_f), and the "normalised" or "total effective resistance" R_tot of
// Ghosh, Boyd and Saberi equals K_f; others divide by the number of pairs
// n(n−1)/2 to get a mean resistance. Compare conventions before comparing
// numbers.
//
// NetworkX's resistance_distance treats an edge weight as a resistance
// (invert_weight=True by default), the reciprocal of ours: a weight of 4
// there is a weight of 1/4 here.
//
// # Cost
//
// Every function that needs L† factors L + αJ/n once with a dense
// Cholesky (n³/3 flops) instead of an eigendecomposition; NewResistance
// keeps that factorisation for many queries. Spectra use a dense
// symmetric eigensolver, O(n³).
package linalg
