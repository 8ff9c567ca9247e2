// Package wgraph holds loadlab's graph: weighted, undirected, immutable,
// stored as compressed sparse rows. Every graph package of the module
// (wgraph/gen, laplacian, spectral, estimate) and the models that need a
// network (consensus, codedload) take a *Graph.
//
// # The graph
//
// A Graph has nodes 0..n−1 and edges {u, v} with weights that act as
// conductances (a weight is 1/resistance), each in [MinWeight, MaxWeight]
// = [2^−500, 2^500]. Neighbors and Weights return views of the storage
// (sorted by neighbour), so loops over neighbours allocate nothing;
// Weight is a binary search; Edges lists each edge once. The Laplacian
// is L_uv = −w_uv (u ~ v), L_uu = Σ_v w_uv (spec throttlers.md §2);
// Laplacian returns it dense, LaplacianMulVec applies it.
//
// Graphs are made by
//
//   - NewBuilder, SetEdge, Build (and g.Builder() to start from a graph);
//   - FromEdges, which refuses a repeated edge, and FromPairs, the fast
//     unit-weight constructor of the generators;
//   - FromAdjacency and FromMatrix (a symmetric weight matrix) and
//     FromUndirected (any gonum graph.Undirected, its IDs returned);
//   - JSON ({"order": n, "edges": [[u, v, w], …]}), and the readers of
//     package graphio (edge lists, GraphML, DOT, Matrix Market);
//   - the families and random models of package wgraph/gen.
//
// BFS is a reusable breadth-first search (levels, hop distances, the
// distance between two nodes); IsConnected, Components and
// CheckConnected answer connectivity.
//
// # Conventions
//
// Effective resistance, the Kirchhoff index and the H2 measures read the
// weights as conductances: a weight of 4 is a quarter of an ohm. NetworkX
// reads them as resistances by default (resistance_distance with
// invert_weight=True). Storage and generators are described in spec
// throttlers.md §12.2–§12.5.
//
// # Errors and panics
//
// Bad data returns an error wrapping loadlab.ErrInvalid (a negative
// size, a node out of range, a self-loop, a repeated edge, a weight
// outside [MinWeight, MaxWeight], an asymmetric matrix) or
// loadlab.ErrTooLarge (more than MaxOrder nodes or MaxEdges edges, or a
// graph, or a dense Laplacian, beyond the memory budget), naming the
// argument and its value; CheckConnected wraps loadlab.ErrDisconnected
// and names an unreachable node. Accessors panic on a node out of range,
// and every function panics on a nil graph: programmer errors.
//
// # Cost
//
// Building is O(n + m log d) with sequential passes; a 10⁶-node graph of
// 3·10⁶ edges takes about 60 MB.
package wgraph
