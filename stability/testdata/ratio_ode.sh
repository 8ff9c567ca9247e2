#!/bin/sh
# The ratio of issue 13's dense target: BenchmarkIntegrateDense_N1000_T1000
# against SciPy's solve_ivp RK45 on the same instance (scipy_ode.py), in
# alternating blocks, so that a busy phase of the shared host falls on
# both programs instead of on one of two long blocks. Each block runs
# each program in a fresh process for warm + runs runs and drops the
# first warm: a fresh process's first runs are slower (on the Go side
# its first run maps every page it touches, and the next few record
# their trajectories in fresh pages until the first garbage collection;
# SciPy starts its threads). Prints every counted time in ms, then the
# median of each and their ratio. Needs python3-scipy.
# usage: stability/testdata/ratio_ode.sh [blocks [runs [warm]]]   (from the module root)
set -e
blocks=${1:-5}
runs=${2:-5}
warm=${3:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/stability.test" ./stability/
uptime
for b in $(seq "$blocks"); do
	LOADLAB_SCIPY_DIR=$dir "$dir/stability.test" -test.run '^$' -test.benchtime 1x \
		-test.count $((warm + runs)) -test.bench 'IntegrateDense_N1000_T1000$' |
		awk -v w="$warm" '/ns\/op/ && n++ >= w { print "go", $3 / 1e6 }'
	/usr/bin/python3 stability/testdata/scipy_ode.py "$dir" dense1000 --count $((warm + runs)) |
		awk -v w="$warm" '/^dense1000/ && n++ >= w { sub("wall=", "", $3); sub("s", "", $3); print "scipy", $3 * 1000 }'
done | tee "$dir/times"
uptime
med() { awk -v k="$1" '$1 == k { print $2 }' "$dir/times" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
g=$(med go)
p=$(med scipy)
echo "median go $g ms, scipy $p ms, ratio $(echo "$g $p" | awk '{ printf "%.3f", $1 / $2 }')"
