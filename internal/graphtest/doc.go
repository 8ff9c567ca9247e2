// Package graphtest holds the fixtures shared by the tests of the graph
// packages (wgraph, laplacian, spectral, estimate, consensus): small
// graphs from edge lists, weighted random graphs with a given spread of
// weights, and the 10⁶-node benchmark graphs, built once per process.
// Test code only; it is not API.
package graphtest
