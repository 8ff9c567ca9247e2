#!/bin/sh
# Runs the benchmarks listed in docs/bench/rows.conf and regenerates the
# tables of docs/benchmarks.md: everything between a pair of marker
# comments <!-- bench:AREA --> and <!-- /bench:AREA --> is rewritten, the
# prose around them stays. Each row's benchmark runs in its own process
# of the package's test binary; the wall time per operation is the
# benchmark's ns/op, the CPU time its own cpu-s/op or cpu-ns/op metric
# where it reports one, else (marked †) the wall time per operation times
# the process's CPU time over its wall time (GNU time), which assumes the
# setup uses the cores as the timed code does. A row
# with a peer tool runs the benchmark and the peer alternately, -rounds
# times, so that both meet the same phases of a shared host, and reports
# the ratio of the medians. Rows that are not run keep their line.
#
# usage: docs/bench/run.sh [-quick] [-only REGEX] [-rounds N] [-o FILE] [-n] [-conf FILE]
#   -quick      only the rows marked quick, at -benchtime 1x -count 1, one
#               round, no warm-up; prints the tables and writes no file
#               unless -o is given
#   -only RE    only the rows whose label matches the extended regex RE
#   -rounds N   rounds of benchmark and peer for rows with a peer [3]
#   -o FILE     the file whose tables are regenerated [docs/benchmarks.md]
#   -n          print the tables, write nothing
#   -conf FILE  the row list [docs/bench/rows.conf]
# Needs Go and /usr/bin/time (GNU time); the peers need python3-scipy, and
# CHOLMOD's a C compiler and libsuitesparse-dev (docs/bench/cholmod).
# Run it on an idle machine: the full list takes about half an hour and
# several rows hold 1–2 GB.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
conf=$root/docs/bench/rows.conf
quick=0
only=
rounds=
out=
dry=0
while [ $# -gt 0 ]; do
	case $1 in
	-quick) quick=1 ;;
	-only) only=$2; shift ;;
	-rounds) rounds=$2; shift ;;
	-o) out=$2; shift ;;
	-n) dry=1 ;;
	-conf) conf=$2; shift ;;
	-h | -help | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$rounds" ]; then
	rounds=3
	[ "$quick" = 1 ] && rounds=1
fi
if [ -z "$out" ] && [ "$quick" = 0 ]; then
	out=$root/docs/benchmarks.md
fi
[ "$dry" = 1 ] && out=
if [ -n "$out" ] && [ ! -f "$out" ]; then
	echo "run.sh: $out does not exist" >&2
	exit 2
fi
if [ ! -x /usr/bin/time ]; then
	echo "run.sh: needs GNU time at /usr/bin/time" >&2
	exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/bin" "$work/data"
tab=$(printf '\t')

# The row list as tab-separated fields, '-' for an empty one.
awk -F'|' -v conf="$conf" '
	/^[ \t]*(#|$)/ { next }
	{
		if (NF != 10) { printf "%s:%d: %d fields, want 10\n", conf, NR, NF > "/dev/stderr"; bad = 1; next }
		line = ""
		for (i = 1; i <= NF; i++) {
			f = $i; gsub(/^[ \t]+|[ \t]+$/, "", f)
			if (f == "") f = "-"
			line = line (i > 1 ? "\t" : "") f
		}
		if ($1 !~ /^[ \t]*(graphs|exact|anycast|coded|nomadic|command)[ \t]*$/) { printf "%s:%d: unknown area\n", conf, NR > "/dev/stderr"; bad = 1 }
		label = $2; gsub(/^[ \t]+|[ \t]+$/, "", label)
		if (label in seen) { printf "%s:%d: label repeated\n", conf, NR > "/dev/stderr"; bad = 1 }
		seen[label] = 1
		print line
	}
	END { exit bad }' "$conf" >"$work/rows.tsv"

opt() { # opt NAME OPTIONS: the value of NAME=v, 1 for a bare NAME, else empty
	for o in $2; do
		case $o in
		"$1"=*) echo "${o#*=}"; return ;;
		"$1") echo 1; return ;;
		esac
	done
}

# stats WHAT TARGET METRICS: one markdown table row from $work/go and
# $work/peer (see the awk program for their lines).
stats() {
	awk -v what="$1" -v target="$2" -v metrics="$3" -v peerlabel="$4" '
	function sortv(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
	function median(a, n) { sortv(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	function num(v) { return v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : v >= 1 ? sprintf("%.2f", v) : sprintf("%.2g", v) }
	function scale(s) { return s < 1e-6 ? 1e9 : s < 1e-3 ? 1e6 : s < 1 ? 1e3 : 1 }
	function unit(s) { return s < 1e-6 ? " ns" : s < 1e-3 ? " µs" : s < 1 ? " ms" : " s" }
	function dur(s) { return (s < 1e-6 ? sprintf("%.3g", s * 1e9) : num(s * scale(s))) unit(s) }
	function sup(e,   d, r, i) { split("⁰ ¹ ² ³ ⁴ ⁵ ⁶ ⁷ ⁸ ⁹", d, " "); r = ""; if (e < 0) { r = "⁻"; e = -e }
		e = sprintf("%d", e); for (i = 1; i <= length(e); i++) r = r d[substr(e, i, 1) + 1]; return r }
	function val(v,   e, m) {
		if (v < 0) return "−" val(-v)
		if (v == int(v) && v < 1e5 && v > -1e5) return sprintf("%d", v)
		if (v != 0 && (v >= 1e5 || v < 1e-3)) { e = int(log(v) / log(10)); if (10 ^ e > v) e--; m = v / 10 ^ e; return sprintf("%.2g", m) "·10" sup(e) }
		return sprintf("%.3g", v)
	}
	$1 == "B" {
		names[$2] = 1
		for (i = 4; i < NF; i += 2) {
			u = $(i + 1); v = $i
			if (u == "ns/op") wall[++nw] = v / 1e9
			else if (u == "cpu-s/op") cpu[++nc] = v
			else if (u == "cpu-ns/op") cpu[++nc] = v / 1e9
			else { nm[u]++; m[u, nm[u]] = v }
		}
	}
	$1 == "P" { ops += $2; pcpu += $3; if ($4 > rss) rss = $4; pwall += $5 }
	$1 == "E" { err = err (err ? "; " : "") substr($0, 3) }
	$1 == "W" { pw[++npw] = $2 }
	$1 == "C" { pc[++npc] = $2 }
	END {
		nn = 0; for (k in names) nn++
		if (err != "" || nn != 1 || nw == 0) {
			if (err == "") err = nn ? "the pattern selected " nn " benchmarks" : "no result"
			printf "| %s | %s | not measured: %s | | | | |\n", what, target, err
			exit
		}
		w = median(wall, nw); cell = dur(w)
		if (nw > 1) cell = cell " (" num(wall[1] * scale(w)) "–" num(wall[nw] * scale(w)) unit(w) ", " nw " runs)"
		else cell = cell " (1 run)"
		n = split(metrics, ms, ",")
		for (i = 1; i <= n; i++) {
			u = ms[i]; if (!(u in nm)) continue
			delete a; for (j = 1; j <= nm[u]; j++) a[j] = m[u, j]
			cell = cell "; " u " " val(median(a, nm[u]))
		}
		if (nc) c = dur(median(cpu, nc)); else if (pwall > 0) c = dur(w * pcpu / pwall) " †"; else c = "—"
		r = rss ? sprintf("%.0f MiB", rss / 1024) : "—"
		p = "—"; ratio = "—"
		if (peerlabel != "-") {
			if (npw) {
				pm = median(pw, npw)
				p = peerlabel " " dur(pm)
				if (npc) p = p " (CPU " dur(median(pc, npc)) ", " npw (npw > 1 ? " runs)" : " run)")
				else p = p " (" npw (npw > 1 ? " runs)" : " run)")
				ratio = w / pm; ratio = sprintf(ratio < 0.1 ? "%.2g ×" : "%.2f ×", ratio)
			} else p = peerlabel ": not run"
		}
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", what, target, cell, c, r, p, ratio
	}' "$work/go" "$work/peer"
}

# runrow: runs one row (fields in the shell variables of the loop) and
# appends its table line to $work/results.
runrow() {
	warm=$(opt warm "$opts")
	tags=$(opt tags "$opts")
	metrics=$(opt metrics "$opts")
	warm=${warm:-0}
	if [ "$quick" = 1 ]; then
		bt=1x
		count=1
		warm=0
	fi
	: >"$work/go"
	: >"$work/peer"
	bin=$work/bin/$(printf '%s_%s' "$pkg" "$tags" | tr -c 'A-Za-z0-9\n' '_').test
	if [ ! -x "$bin" ]; then
		echo "run.sh: building $pkg${tags:+ (tags $tags)}" >&2
		if ! (cd "$root" && go test -c -o "$bin" ${tags:+-tags "$tags"} "$pkg") </dev/null >"$work/build" 2>&1; then
			cat "$work/build" >&2
			echo "E build of $pkg failed" >>"$work/go"
		fi
	fi
	n=1
	[ "$peer" != - ] && n=$rounds
	r=0
	while [ -x "$bin" ] && [ "$r" -lt "$n" ]; do
		r=$((r + 1))
		echo "run.sh: $what: round $r of $n" >&2
		if (cd "$root/$pkg" && LOADLAB_SCIPY_DIR=$work/data /usr/bin/time -f 'rusage %e %U %S %M' -o "$work/time" \
			"$bin" -test.run '^$' -test.bench "$bench" -test.benchtime "$bt" -test.count $((warm + count))) \
			</dev/null >"$work/out" 2>&1; then
			grep '^Benchmark' "$work/out" >&2 || true
			awk -v w="$warm" '/^Benchmark.*ns\/op/ { ops += $2; if (n++ >= w) print "B", $0 } END { printf "ops %d\n", ops }' \
				"$work/out" >"$work/parsed"
			grep '^B ' "$work/parsed" >>"$work/go" || true
			awk -v ops="$(awk '/^ops/ { print $2 }' "$work/parsed")" \
				'/^rusage/ { printf "P %d %s %s %s\n", ops, $3 + $4, $5, $2 }' "$work/time" >>"$work/go"
		else
			tail -20 "$work/out" >&2
			echo "E the benchmark failed" >>"$work/go"
			break
		fi
		[ "$peer" = - ] && continue
		if (cd "$root" && DIR=$work/data COUNT=$((warm + count)) sh -c "$cmd") </dev/null >"$work/out" 2>&1; then
			grep 'wall=' "$work/out" >&2 || true
			awk -v w="$warm" '/wall=/ && n++ >= w {
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^wall=/) { v = $i; sub(/^wall=/, "", v); sub(/s$/, "", v); print "W", v }
					if ($i ~ /^cpu=/) { v = $i; sub(/^cpu=/, "", v); sub(/s$/, "", v); print "C", v }
				}
			}' "$work/out" >>"$work/peer"
		else
			tail -5 "$work/out" >&2
			echo "run.sh: $what: the peer failed; its cells stay empty" >&2
		fi
	done
	line=$(stats "$what" "$target" "$metrics" "$peer")
	printf '%s\t%s\t%s\n' "$area" "$what" "$line" >>"$work/results"
}

: >"$work/results"
while IFS=$tab read -r area what target pkg bench bt count opts peer cmd <&3; do
	[ "$opts" = - ] && opts=
	if [ "$quick" = 1 ] && [ -z "$(opt quick "$opts")" ]; then
		continue
	fi
	if [ -n "$only" ] && ! printf '%s\n' "$what" | grep -Eq -- "$only"; then
		continue
	fi
	runrow
done 3<"$work/rows.tsv"

if [ ! -s "$work/results" ]; then
	echo "run.sh: no row selected" >&2
	exit 1
fi

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit (with local changes)"
fi
cpuname=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
mode="full run"
[ "$quick" = 1 ] && mode="quick run (-benchtime 1x, one run: not for comparison)"
caption="Rows last regenerated on $(date -u +%Y-%m-%d) by \`docs/bench/run.sh\`, $mode, at commit $commit, $(go env GOVERSION), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs${cpuname:+ ($cpuname)}."

# tables FILE [only]: FILE with its marked blocks rewritten from the
# results; with "only", just the blocks of the areas run.
tables() {
	awk -F'\t' -v caption="$caption" -v only="${2:-}" '
	FILENAME == ARGV[1] { order[$1] = order[$1] $2 "\n"; target[$2] = $3; next }
	FILENAME == ARGV[2] { res[$2] = $3; ran[$1]++; next }
	function cell1(line,   c) { c = line; sub(/^\|[ ]*/, "", c); sub(/[ ]*\|.*$/, "", c); return c }
	function block(area,   n, labels, i, s, l) {
		n = split(order[area], labels, "\n") - 1
		s = caption " " ran[area] " of " n " rows run then; the others keep their earlier values.\n\n"
		s = s "| what | target | wall per op | CPU per op | peak RSS | peer tool | ratio |\n|---|---|---|---|---|---|---|\n"
		for (i = 1; i <= n; i++) {
			l = labels[i]
			if (l in res) s = s res[l] "\n"
			else if (l in old) s = s old[l] "\n"
			else s = s "| " l " | " target[l] " | not measured yet | | | | |\n"
		}
		return s
	}
	{
		if (match($0, /^<!-- bench:[a-z]+ -->$/)) { area = substr($0, 12, RLENGTH - 15); inside = 1; held = $0 "\n"; next }
		if (inside && $0 == "<!-- /bench:" area " -->") {
			inside = 0
			if (only) next
			if (area in ran) printf "<!-- bench:%s -->\n%s%s\n", area, block(area), $0
			else printf "%s%s\n", held, $0
			next
		}
		if (inside) { held = held $0 "\n"; if ($0 ~ /^\| /) old[cell1($0)] = $0; next }
		if (!only) print
	}
	END {
		if (!only) exit
		na = split("graphs exact anycast coded nomadic command", areas, " ")
		for (i = 1; i <= na; i++)
			if (areas[i] in ran) printf "<!-- bench:%s -->\n%s<!-- /bench:%s -->\n\n", areas[i], block(areas[i]), areas[i]
	}' "$work/rows.tsv" "$work/results" "$1"
}

if [ -n "$out" ]; then
	tables "$out" >"$work/new.md"
	cp "$work/new.md" "$out"
	echo "run.sh: tables of $out regenerated" >&2
	# the blocks of the areas run, for the terminal
	awk '/^<!-- bench:/ { on = 1 } on { print } /^<!-- \/bench:/ { on = 0; print "" }' "$out"
else
	tables "$root/docs/benchmarks.md" only
fi
