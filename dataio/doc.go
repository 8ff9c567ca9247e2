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
//   - ReadNetworkCSV: the anycast model (spec anycast-cdn §2) from a node
//     table with columns A and T (one row per node) and a correlation
//     table that is either the dense N × N matrix C or triplets with
//     columns i, j, c (0-based, zeros omitted).
//   - ReadNetworkJSON / WriteNetworkJSON: {"A": […], "T": […], "C": [[…], …]}
//     or, sparse, {"A": […], "T": […], "C_triplets": [[i, j, c], …]}.
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
// Every reader error is a *graphio.ParseError naming the file (when read
// with a *File function), the line, the column and the value, wrapping
// loadlab.ErrInvalid (bad data) or loadlab.ErrTooLarge (a table past the
// memory budget). Model validation errors (a row of C not summing to 1, a
// negative demand) come from the model's own constructor and are wrapped
// with the file name. Nothing is skipped silently: an empty cell, NaN or
// ±Inf is an error.
//
// # Panics
//
// Panics are for programmer errors only, and name the argument: a nil
// io.Reader or io.Writer, a nil *anycast.Network given to
// WriteNetworkJSON. A bad value is never a panic.
package dataio
