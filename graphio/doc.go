// Package graphio reads and writes weighted undirected graphs in the
// formats the field uses, so that an analyst's own server graph goes
// straight into wgraph, consensus or codedload.
//
// # Formats
//
//   - Edge lists (ReadEdgeList, WriteEdgeList): one edge a line, "u v" or
//     "u v w", separated by commas, tabs or runs of blanks (detected from
//     the first data line, or set by Options.Delimiter). Lines starting
//     with '#' or '%' and blank lines are comments. A header line is
//     optional: it is recognised when its columns carry the usual names
//     (source/target/weight, u/v/w, from/to, node1/node2, …) or when its
//     weight column is not a number, and it may name the columns to use
//     (Options.Source, Target, Weight).
//   - GraphML (ReadGraphML, WriteGraphML), the format of the Internet
//     Topology Zoo, NetworkX and graph-tool: nodes, edges and <data>
//     values; the weight attribute is chosen by its attr.name
//     (Options.Weight, default "weight"); edgedefault="directed" and
//     edges with directed="true" are directed input.
//   - DOT (ReadDOT), through gonum's graph/encoding/dot; a "weight"
//     attribute (Options.Weight) on an edge is its weight.
//   - Matrix Market (ReadMatrixMarket, WriteMatrixMarket), coordinate
//     format, real, integer or pattern, general or symmetric: the
//     weighted adjacency matrix, or a Laplacian (Options.Matrix).
//
// Node labels are strings; readers map them to indices 0..n−1 in order
// of first appearance (GraphML and DOT: in order of declaration) and
// return the labels in that order. Missing weights are 1.
//
// # What real files contain
//
// Options says what to do with duplicate edges (sum their weights, keep
// the first, or reject), self-loops (drop or reject), directed input
// (symmetrise: an arc u→v is the edge {u, v}, so a reciprocal pair is a
// duplicate handled by the duplicate rule; or reject) and disconnected
// input (report the component sizes in Data.Components, or keep only the
// largest component with Options.Largest). The zero Options rejects
// duplicates, self-loops and directed input, and keeps every component:
// nothing is changed silently.
//
// # Errors
//
// Every reader error is a *ParseError naming the file (when known), the
// line (or XML element), the field and the value, and wraps
// loadlab.ErrInvalid (bad data) or loadlab.ErrTooLarge (a size past the
// memory budget, checked before allocating), so callers test it with
// errors.Is. Weights must be positive and finite, within wgraph's
// [MinWeight, MaxWeight]. Readers never panic on any input; writers
// panic only on programmer errors, each named in the message: a nil
// graph, or a labels slice of the wrong length. A nil io.Reader or
// io.Writer is a programmer error of every reader and writer: it panics
// naming the argument. A nil *Options means the defaults. A writer's output read
// back gives the same graph and labels.
package graphio
