#!/bin/bash
# Measures what bench's CPU and disk collectors cost (issue 7, acceptance 5; target: under 0.5% of one core at
# a 1 s interval). A collection session runs for SECONDS (default 30) with the procstat collector, then with
# the node_exporter collector against a real prometheus-node-exporter started here on a free 127.0.0.1 port;
# the CPU time of the measuring process (all its threads, getrusage) is divided by the wall time. The
# exporter's own CPU time over the same window (on a real target host it runs there) is printed too.
#
# usage: scripts/perf/collector_overhead.sh [SECONDS]     (BENCH_BUILD: build directory, default ./build)
set -u
SECONDS_RUN=${1:-30}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BENCH_BUILD:-$ROOT/build}
DRIVER=$BUILD/tests/test_node_exporter
EXPORTER=${BENCH_NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
[ -x "$DRIVER" ] || { echo "collector_overhead: $DRIVER not built: cmake --build $BUILD" >&2; exit 1; }

pid=
cleanup() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi; }
trap cleanup EXIT
url=
if [ -x "$EXPORTER" ]; then
	for attempt in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 40000))
		"$EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.cpu \
			--collector.diskstats >/dev/null 2>&1 &
		pid=$!
		for i in $(seq 30); do
			kill -0 "$pid" 2>/dev/null || break
			if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then url="http://127.0.0.1:$port/metrics"; break; fi
			sleep 0.1
		done
		[ -n "$url" ] && break
		kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
	done
fi
[ -n "$url" ] || echo "collector_overhead: no node_exporter: measuring procstat only" >&2

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
[ -n "$pid" ] && e0=$(ticks "$pid")
BENCH_OVERHEAD_S=$SECONDS_RUN BENCH_EXPORTER_URL=$url BENCH_TEST_FILTER=test_overhead "$DRIVER" 2>&1 |
	grep -E "collector|FAIL|ERROR"
rc=${PIPESTATUS[0]}
if [ -n "$pid" ]; then
	e1=$(ticks "$pid")
	awk -v t=$((e1 - e0)) -v hz="$hz" -v s="$SECONDS_RUN" 'BEGIN {
		printf "node_exporter itself (the scraped host'"'"'s side, cpu+diskstats collectors only): %.3f%% of one core over ~%d s\n",
			100 * t / hz / s, s }'
fi
[ "$rc" -eq 0 ] && echo "collector_overhead: within target (< 0.5% of one core)" || echo "collector_overhead: ABOVE TARGET or failed"
exit "$rc"
