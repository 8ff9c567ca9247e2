// Package dataio reads and writes the models and traces of loadlab in
// plain formats that notebooks and data-frame libraries use: numeric CSV
// tables (demand traces, hold costs), the anycast network as JSON or CSV,
// and nomadic instances. Graphs are package graphio's. No reader guesses
// silently: what it does to the data is stated here or chosen by an
// option, and anything else is an error.
//
// # Tables
//
// A table is a CSV (or semicolon-, tab- or blank-separated) file of
// numbers, one row per line, all lines of the width of the first; blank
// lines and lines starting with '#' are skipped, as is a byte-order mark.
// ReadTable returns it with the line of each row (Table.Lines) and the
// file column of each column read (Table.FileColumns). TableOptions:
//
//   - Header: the first line is a header when none of its fields reads as
//     a number (1e999 and NaN do) or an ISO 8601 date or time, and one at
//     least is not empty (a data frame's unnamed index column is). So a
//     first row with an empty, overflowing or mistyped cell is an error
//     naming that cell, never a header. HeaderYes and HeaderNo force it.
//   - Columns: the columns to read, in order, by header name
//     (case-insensitive) or 1-based number ("3"). Skip: columns not to
//     read, in the same terms. Cells not read are not parsed.
//   - Screening: a column read without being chosen by Columns is refused
//     if it counts 0, 1, 2, … or 1, 2, 3, … over at least three rows (an
//     index), or holds strictly increasing integers, at least two, from a
//     Unix time between 2000 and 2100 in s, ms, µs or ns (a timestamp); a
//     cell holding an ISO 8601 date or time is refused in any column read.
//     The error says to skip the column or to choose the columns.
//
// Every cell read must be a finite number. The model readers build on
// ReadTable and take the same options:
//
//   - ReadTrace: a T × n demand trace for the consensus simulation
//     (row k is r(k), one column per server) — a consensus.TraceDemand.
//   - ReadInstance: hold costs as a T × k table (row t, column i is the
//     cost ≥ 0 of holding server i in slot t) and the setup cost C — a
//     competitive.Instance (spec nomadic §2).
//   - ReadMetric: migration costs as a k × k table (row i, column j is the
//     cost ≥ 0 of moving from server i to server j, 0 on the diagonal) and
//     one first-placement cost — a competitive.Metric (spec nomadic
//     §14.1). Its columns are not screened (a column of hop counts counts
//     0, 1, 2, …); a stray index or label column makes the table not
//     square, which is an error.
//   - ReadMobility: a mobility trace, the columns time, user, x, y (a
//     header naming them), one line per sample, each user's times
//     increasing — a Mobility; MobilityInstance turns it into a
//     competitive.Instance on a set of routers (Euclidean distance, or
//     hop counts from the nearest router with MobilityOptions.Hops; the
//     users of a session add), one slot per MobilityOptions.Slot, the
//     positions linear between samples (spec nomadic §17.1).
//
// # The anycast network
//
// ReadNetworkJSON reads {"A": […], "T": […], "C": [[…], …]} or, sparse,
// {"A": […], "T": […], "C_triplets": [[i, j, c], …]} (0-based indices).
// Keys are exact and given once; null, a number beyond float64 and a
// triplet of other than three numbers are errors. ReadNetworkCSV (and
// ReadNetworkCSVFiles) reads a node table with columns named A and T and
// a correlation table: the dense N × N matrix (any header), or triplets
// under a header naming exactly i, j and c. NetworkOptions.Corr gives the
// correlation table's TableOptions (Skip: []string{"1"} for row labels).
//
// The form of C on file is the form in memory: dense gives
// anycast.Network.C, triplets give anycast.Network.Sparse (O(nnz)
// memory, no N × N matrix). WriteNetworkJSON keeps the form, and writes a
// dense C above N = 2¹⁵ (the largest dense C the readers take) as
// triplets.
//
// Each row of C must sum to 1 (spec anycast-cdn §1.2). By default a row
// whose sum misses 1 by more than anycast.RowSumTol is an error naming the
// file, the line (CSV) or JSON path, the row and its sum. With
// NetworkOptions.Normalize each row is divided by its sum (never by
// default); NetworkOptions.RowSumTol then bounds |Σ_i C_ji − 1| (zero: no
// bound). The result, a NetworkData, holds the network, RowSumDev = max_j
// |Σ_i C_ji − 1| of the rows as read, its row RowSumDevRow, and Normalized.
//
// # Beacon counts
//
// ReadCountsCSV (and ReadCountsCSVFile) reads the beacon counts behind an
// estimate of C (package anycast/beacon, spec anycast-cdn §15): a table
// with the header region,proxy,count (any order, no other column), one
// line per pair, 0-based integer indices and integer counts ≥ 0; repeated
// pairs add. The dimensions are 1 + the largest index read (square) unless
// CountsOptions gives them. A region without beacons is refused by
// beacon.EstimateC, which names it.
//
// # Results out
//
// MarshalJSON writes any result as JSON with stable field names,
// non-finite floats as null and enumerations by name. WriteTidy writes a
// slice of results as a tidy CSV, one row per observation, nested
// estimates flattened to name_mean, name_lo, name_hi, name_stderr,
// name_n; WriteColumns writes a struct of equal series (a
// consensus.Trajectory's totals) with a leading index column, which
// ReadTable refuses unless skipped; WriteTable writes any numeric table.
//
// # Errors
//
// Every reader error about the data is a *graphio.ParseError (Pkg
// "dataio") naming the file (with the *File functions), the line (or JSON
// path), the column or field and the value, wrapping loadlab.ErrInvalid,
// or loadlab.ErrTooLarge for a table past 2²⁸ cells or a dense C past
// N = 2¹⁵. Bad options are errors wrapping loadlab.ErrInvalid naming the
// field (TableOptions.Skip[0] = "0"). The model's own checks (total
// demand, setup cost) come from anycast and competitive.
//
// # Panics
//
// Panics are for programmer errors only, and name the argument: a nil
// io.Reader or io.Writer, a nil *anycast.Network given to
// WriteNetworkJSON. A bad value is never a panic.
package dataio
