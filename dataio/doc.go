// Package dataio reads and writes the models and traces of loadlab in
// plain formats that notebooks and data-frame libraries use: numeric CSV
// tables (demand traces, hold costs), the anycast network as JSON or CSV,
// and nomadic instances. Graphs are package graphio's.
//
// # Tables
//
// A table is a CSV (or TSV, or blank-separated) file of numbers: an
// optional header line of column names, then one row per observation, all
// rows of the same width. ReadTable returns it; the model readers build
// on it:
//
//   - ReadTrace: a T × n demand trace for the consensus simulation
//     (row k is r(k), one column per server) — a consensus.TraceDemand.
//   - ReadInstance: hold costs as a T × k table (row t, column i is the
//     cost of holding server i in slot t) and the setup cost C — a
//     competitive.Instance (spec nomadic §2).
//   - ReadNetworkCSV: the anycast model (spec anycast-cdn §1) from a node
//     table with columns A and T (one row per node) and a correlation
//     table that is either the dense N × N matrix C or triplets with
//     columns i, j, c (0-based, zeros omitted).
//   - ReadNetworkJSON / WriteNetworkJSON: {"A": […], "T": […], "C": [[…], …]}
//     or, sparse, {"A": […], "T": […], "C_triplets": [[i, j, c], …]}.
//
// The form of C on file is the form in memory: a dense "C" (or dense CSV
// table) gives anycast.Network.C, triplets give anycast.Network.Sparse
// (an anycast.SparseC built by anycast.NewSparseC in O(nnz) memory, so a
// 10⁵-node CDN with 10 proxies per region reads without any N × N
// matrix). WriteNetworkJSON keeps the form: a sparse network is written
// as C_triplets (its stored entries, row by row) and reads back sparse
// and bit-identical; a dense one as "C" (triplets of its nonzeros above
// N = 2¹⁵, the largest dense "C" the reader accepts).
//
// # Results out
//
// MarshalJSON writes any result (a trajectory, a sweep, an estimate, a
// solver result) as JSON with stable field names, non-finite floats as
// null and enumerations by name. WriteTidy writes a slice of results —
// a sweep's points, a comparison's rows — as a tidy CSV, one row per
// observation, nested estimates flattened to name_mean, name_lo,
// name_hi, name_stderr, name_n; WriteColumns writes a struct of equal
// series, such as a consensus.Trajectory's totals, one row per step.
// WriteTable writes any numeric table. A notebook or a data-frame
// library (pandas.read_csv, readr, Polars) reads these files directly.
//
// # Errors
//
// Every reader error is a *graphio.ParseError (with Pkg "dataio", so its
// message starts "dataio:") naming the file (when read
// with a *File function), the line, the column and the value, wrapping
// loadlab.ErrInvalid (bad data) or loadlab.ErrTooLarge (a table past the
// memory budget). A triplet whose indices are not integers in [0, N) or
// that repeats an (i, j) is a *graphio.ParseError naming the triplet
// ("C_triplets[k]" in JSON, "triplet[k]" in CSV). Model validation errors
// (a row of C not summing to 1, an empty row, a negative demand) come from
// the model's own constructor — for triplets an *anycast.EntryError with
// the row and column — and are wrapped with the file name. Nothing is skipped silently: an empty cell, NaN or
// ±Inf is an error.
//
// # Panics
//
// Panics are for programmer errors only, and name the argument: a nil
// io.Reader or io.Writer, a nil *anycast.Network given to
// WriteNetworkJSON. A bad value is never a panic.
package dataio
