#!/bin/sh
# Runs the greedy-ODE benchmarks of issue 13 and SciPy's solve_ivp RK45 on
# the dense instance in one go, for docs/benchmarks.md. Needs
# python3-scipy. Prints the load before and after each step and the peak
# resident memory, wall and CPU time of each process (GNU time).
# usage: stability/testdata/bench_ode.sh [count [count1e5]]   (from the module root)
# DENSE_ONLY=1 stops after the dense runs and their parts.
set -e
count=${1:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/stability.test" ./stability/
mem() { /usr/bin/time -f 'peak RSS %M KiB, %e s wall, %U s user, %S s sys' "$@"; }
uptime
LOADLAB_SCIPY_DIR=$dir mem "$dir/stability.test" -test.run '^$' -test.benchtime 1x -test.count "$count" \
	-test.bench 'IntegrateDense_N1000_T1000$'
uptime
mem /usr/bin/python3 stability/testdata/scipy_ode.py "$dir" dense1000 --count "$count"
uptime
# the parts of the dense run, each alone (product, sigmoids, fused pass,
# setup, record), to follow progress on one despite the load
"$dir/stability.test" -test.run '^$' -test.benchtime 0.3s -test.count "$count" \
	-test.bench 'IntegrateDense_N1000_Parts'
[ -n "$DENSE_ONLY" ] && exit 0
uptime
mem "$dir/stability.test" -test.run '^$' -test.benchtime 1x -test.count "$count" \
	-test.bench 'IntegrateSparse_N1e4_T1000$'
uptime
mem "$dir/stability.test" -test.run '^$' -test.benchtime 1x -test.count "${2:-3}" \
	-test.bench 'IntegrateSparse_N1e5_T1000$'
uptime
