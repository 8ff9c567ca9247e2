#!/bin/sh
# Issue 13: dual.Solve and dual.Primal against cvxopt's sparse QP solver on
# the same sparse CDN instances, in one run. Usage, from the repository root:
#
#   sh dual/testdata/cvxopt_compare.sh [SIZES]      # default 1000,10000
#
# For each N, the Go side (cvxopt_export) writes the network as dataio JSON
# and solves it with dual (times and certified bounds); then cvxopt_p1.py
# solves the same P1 as a sparse QP and prints one JSON line per N holding
# both sides' objective values and wall/CPU seconds.
set -eu
sizes=${1:-1000,10000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
here=$(dirname "$0")
go run "./$here/cvxopt_export" -out "$dir" -n "$sizes"
for n in $(echo "$sizes" | tr ',' ' '); do
	/usr/bin/python3 "$here/cvxopt_p1.py" "$dir/net_$n.json" 1 4 "$dir/dual_$n.json"
done
