#!/bin/sh
# Compiles factor.c (in this folder) against SuiteSparse's CHOLMOD into a
# temporary directory and runs it on an edge file written by the Go
# benchmarks (internal/graphtest.WriteForSciPy): the CHOLMOD peer of the
# table "exact" in docs/benchmarks.md. Arguments go to the program.
#
# usage: docs/bench/cholmod/cholmod.sh [-count N] [-ordering amd|metis|nesdis|auto] FILE.edges
# Needs a C compiler ($CC, else cc) and CHOLMOD's header and library:
# Debian and Ubuntu package libsuitesparse-dev.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
inc=
for d in /usr/include/suitesparse /usr/local/include/suitesparse /usr/include /usr/local/include; do
	if [ -f "$d/cholmod.h" ]; then
		inc=$d
		break
	fi
done
if [ -z "$inc" ]; then
	echo "cholmod.sh: cholmod.h not found: install SuiteSparse's development files (Debian, Ubuntu: apt-get install libsuitesparse-dev)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! "$cc" -O2 -I"$inc" -o "$tmp/factor" "$here/factor.c" -lcholmod -lm; then
	echo "cholmod.sh: building factor.c failed: needs a C compiler and libcholmod (Debian, Ubuntu: apt-get install libsuitesparse-dev)" >&2
	exit 2
fi
"$tmp/factor" "$@"
