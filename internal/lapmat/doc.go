// Package lapmat holds the Laplacian of a graph renumbered in
// breadth-first order from node 0, the layout of the sparse kernels of
// laplacian, estimate and consensus: row-range products that also reduce
// (Rows, RowsBlock, for up to BlockColsMax interleaved columns), gather
// and scatter between the graph's order and the matrix's, and the fixed
// partition of rows into blocks (NumBlocks, BlockRows, ParallelBlocks)
// whose per-block partial sums, added in block order, make every result
// independent of the number of goroutines. Large vectors are advised
// onto transparent huge pages on Linux (HugeFloats). It is not API.
package lapmat
