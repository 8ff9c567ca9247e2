// Package kpm computes local Chebyshev moments of the Laplacian, the
// moments of the kernel polynomial method (Weiße, Wellein, Alvermann and
// Fehske, Rev. Mod. Phys. 78, 2006): for a start vector x supported on a
// few nodes (a node e_j, a link e_u − e_v) and the scaled Laplacian
// S = C1·L + C0·I,
//
//	μ_k = xᵀ T_k(S) x,   k = 0, …, 2H,
//
// exactly, from the sparse vectors w_h = T_h(S) x on the ball of radius
// h around x's support (spec throttlers.md §12.9 for nodes, §13.12 for
// links). They are the diagonals of the estimators' control variates
// (estimate) and the link terms of the polynomial certificate of the
// weight design at scale (consensus).
//
// Moments fills one start vector's moments on a worker's Scratch;
// Apply evaluates p(L)v = Σ_k c_k T_k(S)v for whole vectors by the
// three-term recurrence; Depth chooses H by the volume of the balls;
// LowRitz estimates λ₂ from above for the interval of S. Not API.
package kpm
