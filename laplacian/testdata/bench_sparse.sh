#!/bin/sh
# Runs linalg's sparse benchmarks and SciPy's CG on the same graphs in one
# go, for docs/benchmarks.md. Needs python3-scipy (Debian: apt-get install
# python3-scipy). Prints the load before and after each step and the peak
# resident memory of each process (GNU time).
# usage: linalg/testdata/bench_sparse.sh [count [edge-count]]   (from the module root)
set -e
count=${1:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/linalg.test" ./linalg/
mem() { /usr/bin/time -f 'peak RSS %M KiB, %e s wall, %U s user, %S s sys' "$@"; }
uptime
LOADLAB_SCIPY_DIR=$dir mem "$dir/linalg.test" -test.run '^$' -test.benchtime 1x -test.count "$count" \
	-test.bench 'Solve_Regular6_1e6/(Auto|Jacobi)$|Solve_Torus1000/(Auto|ApproxChol|ApproxCholSetup)$'
uptime
mem /usr/bin/python3 linalg/testdata/scipy_cg.py "$dir" regular6_1e6 --count "$count"
mem /usr/bin/python3 linalg/testdata/scipy_cg.py "$dir" torus1000 --count 1
uptime
mem "$dir/linalg.test" -test.run '^$' -test.benchtime 1x -test.count "${2:-1}" -test.bench 'EdgeResistances_Regular6_1e6'
uptime
# block solves (8 right-hand sides; compare with 8 single solves above) and
# the Kirchhoff index by Hutchinson with its probes solved in blocks
mem "$dir/linalg.test" -test.run '^$' -test.benchtime 1x -test.count "$count" \
	-test.bench 'SolveBlock_Regular6_1e6$|SolveBlock_Torus1000$|Solve_Torus1000/ApproxChol$|EstimateKirchhoff_Regular6_1e6$'
uptime
