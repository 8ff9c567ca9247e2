// Package gen makes graphs: the deterministic families whose spectra are
// known in closed form, and the random graph models loadlab's experiments
// draw from. Every generator returns a *wgraph.Graph with unit weights
// (RandomConnected and RandomConnectedSparse draw weights too).
//
// # Families
//
// Path(n) is 0–1–…–(n−1); Cycle(n) adds {n−1, 0}; Star(n) has its hub at
// node 0; Complete(n); Grid(r, c) and Torus(r, c) number node (i, j) as
// i·c + j; Hypercube(d) has the d-bit labels as nodes, adjacent when they
// differ in one bit. Their Laplacian spectra and Kirchhoff indices are
// package spectral's PathSpectrum, …, TorusKirchhoff (spec throttlers.md
// §9), and spectral.Family sweeps them by one size parameter.
//
// # Random graphs
//
// Every random generator takes a math/rand/v2 rand.Source; the same
// source state gives the same graph.
//
//   - ErdosRenyi(n, p, connected, src): G(n, p) by geometric skipping,
//     O(n + m); with connected, conditioned on connectivity (resampled, at
//     most MaxConnectAttempts times).
//   - RandomRegular(n, d, src): a simple d-regular graph, exactly uniform
//     for d ≤ 4 (pairing model with rejection), asymptotically uniform
//     above (Steger–Wormald).
//   - RandomGeometric(n, r, torus, src) and RandomGeometricPoints: n
//     points uniform in the unit square, joined within distance r
//     (optionally on the torus), O(n + m) by a cell grid.
//   - RandomConnected and RandomConnectedSparse: connected graphs with
//     weights uniform in [wmin, wmax], dense or of a given mean degree.
//
// The laws and their tests are in spec throttlers.md §12.5.
//
// # Errors and panics
//
// A size outside a family's domain (Cycle(2), Torus(2, 5), Hypercube(31))
// or a probability, radius or weight range outside its domain is an error
// wrapping loadlab.ErrInvalid; a graph that would not fit in memory, one
// wrapping loadlab.ErrTooLarge, before anything is allocated; a
// connected G(n, p) not found, one wrapping loadlab.ErrDisconnected; a
// regular graph not found, one wrapping loadlab.ErrNotConverged. A nil
// rand.Source panics.
package gen
