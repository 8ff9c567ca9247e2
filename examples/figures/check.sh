#!/bin/sh
# check.sh regenerates every figure in full mode into a temporary folder
# and compares each CSV and summary.txt with the committed figures/ (text
# and integers exactly, other numbers to a relative 1e-6: see compare.go).
# It takes the time and memory of a full run (README, "Figures"). Exit
# status 0: the committed data are what the code makes; 1: they differ.
# Run from anywhere; extra flags (-seed, -only) are passed on.
set -eu
cd "$(dirname "$0")/../.."
exec go run ./examples/figures -check -out figures "$@"
