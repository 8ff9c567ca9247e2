// Package anycast holds the system model shared by the dual and stability
// packages: an anycast CDN's primary layer of N nodes, each with a DNS
// server and a proxy (spec docs/specs/anycast-cdn.md §1).
//
// # Model
//
//   - A_j ≥ 0 is the rate of DNS queries arriving at node j (normalised
//     requests per unit time).
//   - x_j ∈ [0, 1] is the probability that node j's DNS server answers
//     with the primary layer's anycast address (the rest goes to the
//     second layer).
//   - C is the N×N correlation matrix: C_ji is the fraction of
//     primary-layer HTTP requests from users answered at node j that
//     anycast routing delivers to proxy i. C ≥ 0 and each row sums to 1
//     (row-stochastic, §1.2).
//   - T_i > 0 is the capacity (threshold) of proxy i, in the same units
//     as A.
//
// The load at proxy i is (§1.3, eq. (21))
//
//	S_i = Σ_j A_j x_j C_ji,   that is   S = B x,  B = Cᵀ diag(A).
//
// Because C is row-stochastic the total load equals the answered demand,
// Σ_i S_i = Σ_j A_j x_j ≤ ‖A‖₁, and 0 ≤ S_i ≤ (Cᵀ A)_i (§1.3, DERIVED).
//
// Indices run from 0 to N−1 in code; the spec counts from 1.
package anycast
