// Command loadlab answers the questions of loadlab's four areas from the
// user's own files: graphs (edge lists, GraphML, DOT, Matrix Market),
// demand traces, anycast networks, hold-cost tables.
//
//	loadlab graph info --graph servers.csv         size, connectivity, λ₂, λ_n, Kirchhoff index
//	loadlab graph resistance --graph g.graphml --top 10
//	loadlab throttler analyze --graph servers.csv  γ*_H2, a γ with a margin, ρ₁, ρ₂, ρ₂T, worst servers
//	loadlab anycast optimize --network cdn.json    the optimal x with its duality-gap certificate
//	loadlab cache compare --n 10000 --rel 0.01     coded against uncoded, to ±1 % at 95 %
//	loadlab nomadic compare --costs hold.csv --setup 5
//	loadlab sweep --config cfg.json --shard 0/8 --out s0.jsonl
//
// Every subcommand prints a table on stdout; --json and --csv give the
// same answer for programs, --plot FILE.png|FILE.svg draws it, --out FILE
// writes the answer to a file instead of stdout. Progress goes to stderr
// when it is a terminal. Exit codes: 0 success, 1 a computation that
// failed (the partial result is still printed when there is one), 2 bad
// usage or bad input, with a message naming the file, line and column.
// No output file is left half-written: each is written to a temporary
// file and renamed into place only when complete.
//
// "loadlab help CMD" describes each subcommand, its inputs and options;
// docs/recipes.md maps questions to commands and to the library calls.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
