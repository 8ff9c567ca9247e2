#!/bin/sh
# Runs linalg's sparse solver benchmarks and SciPy's CG on the same
# graphs in one go, for docs/benchmarks.md. Needs python3-scipy (Debian).
# usage: linalg/testdata/bench_sparse.sh [count]   (from the module root)
set -e
count=${1:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
uptime
LOADLAB_SCIPY_DIR=$dir go test -run '^$' -bench 'Solve_(Regular6_1e6|Torus1000)' -benchtime 1x -count "$count" ./linalg/
uptime
/usr/bin/python3 linalg/testdata/scipy_cg.py "$dir" regular6_1e6 torus1000 --count "$count"
uptime
go test -run '^$' -bench 'EdgeResistances_Regular6_1e6' -benchtime 1x -count "$count" -benchmem ./linalg/
uptime
