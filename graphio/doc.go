// Package graphio reads and writes weighted undirected graphs in the
// formats the field uses, so that an analyst's own server graph goes
// straight into wgraph, consensus or codedload. A reader never guesses
// silently: what it does to the data is an option, reported in Data, or
// an error naming the file, line (or element), column and value.
//
// # Formats
//
//   - Edge lists (ReadEdgeList, WriteEdgeList): one edge a line, "u v" or
//     "u v w", separated by commas, tabs or runs of blanks (detected from
//     the first data line, or Options.Delimiter). Lines starting with '#'
//     or '%' and blank lines are comments; a leading byte-order mark is
//     dropped; quoted fields are an error. The first line is a header
//     when Options.Header says so, when Options.Source, Target or Weight
//     names a column, or when its first two fields are not numbers and
//     are usual names (source/target, u/v, from/to, …) or sit above a
//     line whose first two fields are numbers. A line whose endpoints
//     are numbers is never a header, so "0 1 x" or "0 1 1e309" is an
//     error. The weight column is the third of a headerless file, or the
//     header column named Options.Weight (by default weight, w, capacity
//     or conductance). A field beyond those (a fourth field, one past the
//     header's, a header column that could be the weight) is an error
//     unless Options.ExtraColumns = IgnoreExtra; named extra columns
//     beside a named weight column are skipped. Skipped columns are
//     listed in Data.Ignored.
//   - GraphML (ReadGraphML, WriteGraphML), the format of the Internet
//     Topology Zoo, NetworkX and graph-tool: the weight is the <data> of
//     the edge key whose attr.name is Options.Weight (default "weight"),
//     else that key's <default>; a file without such a key is an error
//     listing the keys it declares. Node labels are the ids, or the
//     values of the node key named by Options.Label (each node needs
//     one, all different). edgedefault="directed" and directed="true"
//     are directed input. A second graph, a nested graph, a hyperedge
//     and nesting deeper than MaxDepth are errors; elements of another
//     namespace (a drawing tool's) are skipped.
//   - DOT (ReadDOT), through gonum's graph/encoding/dot: the weight is
//     the edge's Options.Weight attribute or a top-level "edge [...]"
//     default before it; labels the ids, or Options.Label's attribute.
//   - Matrix Market (ReadMatrixMarket, WriteMatrixMarket), coordinate
//     format, real, integer or pattern, general or symmetric: the
//     weighted adjacency matrix, or a Laplacian (Options.Matrix). Zero
//     entries are not edges (Data.Zeros); a pattern file is unweighted.
//
// Readers map node labels to indices 0..n−1 in order of first
// appearance (GraphML and DOT: of declaration) and return the labels in
// that order.
//
// # Weights
//
// An edge's weight comes from the file. An edge without one takes
// Options.DefaultWeight (counted in Data.Defaulted); without that
// option it is an error, except in a file that gives no edge a weight
// and has no weight to misspell (an edge list without a weight column, a
// pattern Matrix Market file), whose weights are 1 (Data.Unweighted).
// Weights must be positive and finite, within wgraph's [MinWeight,
// MaxWeight]: "inf", "nan" and "1e309" are errors.
//
// # What real files contain
//
// Options says what to do with duplicate edges (sum their weights, keep
// the first, or reject; counted in Data.Merged), self-loops (drop,
// counted in Data.SelfLoops, or reject), directed input (symmetrise: an
// arc u→v is the edge {u, v}, so a reciprocal pair is a duplicate
// handled by the duplicate rule; or reject) and disconnected input
// (report the component sizes in Data.Components, or keep only the
// largest component with Options.Largest). The zero Options rejects
// duplicates, self-loops, directed input and extra columns, gives no
// default weight and keeps every component: nothing is changed silently.
//
// # Memory
//
// A read stays within the memory budget of internal/size (16 GiB): sizes
// a file declares (a Matrix Market size line) are checked before
// anything is allocated for them, a Matrix Market file may declare at
// most Options.MaxIsolated nodes that no entry touches, and every reader
// fails with loadlab.ErrTooLarge once the graph it is building would
// pass the budget, by figures per node and edge measured in the tests.
//
// # Errors
//
// Every reader error is a *ParseError naming the file (when known), the
// line (or XML element, with its id or endpoints), the field and the
// value, and wraps loadlab.ErrInvalid (bad data) or loadlab.ErrTooLarge
// (past the memory budget), so callers test it with errors.Is. Readers
// never panic on any input; writers panic only on programmer errors,
// each named in the message: a nil graph, or a labels slice of the wrong
// length. A nil io.Reader or io.Writer is a programmer error of every
// reader and writer: it panics naming the argument. A nil *Options means
// the defaults. A writer's output read back gives the same graph and
// labels.
package graphio
