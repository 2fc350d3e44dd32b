#!/bin/bash
# log_ingest: how fast bench ingests fio log files (issue 6, acceptance 5; issue 19, acceptance 3: >= 40 million
# lines/s on one core). Not a test: a measurement.
#
# Generates a per-IO completion-latency log in fio 3.33's 5-column format (time ms, latency ns, ddir, bs,
# prio) of LINES lines (default 10 million, 70% reads, ~100k IOs per second of log time), then measures
# `bench import` of it end to end (parse, 1 s interval aggregation, latency histogram and percentiles, storing
# in a fresh SQLite file) and, in the same run, the time fio's own fiologparser.py (shipped gzipped in
# /usr/share/doc/fio) takes to summarise a 1-million-line slice in the older 4-column format it reads.
#
# usage: scripts/perf/log_ingest.sh [BENCH_BINARY] [LINES] [SLICE_LINES]
# Prints wall time, CPU time, lines/s and peak memory of each. Needs awk, python3, GNU time (apt-get install time).
set -euo pipefail
. "$(dirname "$0")/machine.sh"
BENCH=${1:-${BENCH:-$(dirname "$0")/../../build/bench}}
LINES=${2:-10000000}
SLICE=${3:-1000000}
[ -x "$BENCH" ] || { echo "log_ingest: no bench binary at '$BENCH' (pass it as the first argument)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "log_ingest: GNU time is missing: apt-get install time" >&2; exit 2; }
GZ=/usr/share/doc/fio/fiologparser.py.gz
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
perf_machine

echo "generating a ${LINES}-line per-IO latency log (fio 3.33, 5 columns) ..."
awk -v n="$LINES" 'BEGIN { srand(42); t = 0
	for (i = 0; i < n; i++) {
		if (i % 100 == 0) t++
		printf "%d, %d, %d, %d, 0\n", t, 20000 + int(rand() * rand() * 2000000), (i % 10 < 7) ? 0 : 1, 4096
	} }' >"$T/job_clat.1.log"
bytes=$(stat -c %s "$T/job_clat.1.log")
cat "$T/job_clat.1.log" >/dev/null # in the page cache, as a log fio just wrote

best=""
for rep in 1 2 3; do
	rm -f "$T"/b.db*
	/usr/bin/time -f "%e %U %S %M" -o "$T/time" "$BENCH" import --db "$T/b.db" "$T/job_clat.1.log" >/dev/null
	read -r wall usr sys rss <"$T/time"
	printf 'bench import, run %d: %s s wall, %s s user + %s s sys, peak RSS %s KiB\n' "$rep" "$wall" "$usr" "$sys" "$rss"
	if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
		best=$wall; best_cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { print u + s }'); best_rss=$rss
	fi
done
samples=$(sqlite3 "$T/b.db" "SELECT count(*) FROM sample")
ios=$(sqlite3 "$T/b.db" "SELECT ios FROM result WHERE host = '*' AND ddir = 'total'")
[ "$ios" = "$LINES" ] || { echo "log_ingest: bench stored $ios IOs for $LINES lines" >&2; exit 1; }

echo "fiologparser.py on a ${SLICE}-line slice (4 columns) ..."
zcat "$GZ" >"$T/fiologparser.py"
head -n "$SLICE" "$T/job_clat.1.log" | cut -d, -f1-4 >"$T/slice_clat.log"
/usr/bin/time -f "%e %U %S %M" -o "$T/time" python3 "$T/fiologparser.py" "$T/slice_clat.log" >"$T/flp.out"
read -r fwall fusr fsys frss <"$T/time"

awk -v lines="$LINES" -v bytes="$bytes" -v wall="$best" -v cpu="$best_cpu" -v rss="$best_rss" \
    -v samples="$samples" -v slice="$SLICE" -v fwall="$fwall" -v fcpu="$fusr" -v frss="$frss" -v out="$(cat "$T/flp.out")" 'BEGIN {
	printf "\n== bench import (best of 3): %d lines, %.0f MB, %d samples stored\n", lines, bytes / 1e6, samples
	printf "   wall %.3f s -> %.1f million lines/s (%.0f MB/s); CPU %.3f s -> %.1f million lines/s per core; peak RSS %.1f MiB\n",
		wall, lines / wall / 1e6, bytes / wall / 1e6, cpu, lines / cpu / 1e6, rss / 1024
	printf "== fiologparser.py: %d lines in %.2f s wall -> %.0f lines/s (peak RSS %.0f MiB; its summary: %s)\n",
		slice, fwall, slice / fwall, frss / 1024, out
	printf "== bench is %.0fx faster per line than fiologparser.py\n", (lines / wall) / (slice / fwall)
	printf "== %.1f million lines/s per core [target >= 40: %s]\n", lines / cpu / 1e6, (lines / cpu / 1e6 >= 40) ? "meets" : "MISSES"
}'
