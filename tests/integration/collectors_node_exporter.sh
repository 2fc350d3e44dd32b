#!/bin/bash
# Acceptance 2 of issue 7: a real prometheus-node-exporter (the Debian package's binary, started here on a free
# 127.0.0.1 port, not as a service) is scraped by bench's node_exporter collector while a CPU burner pinned to
# core 0 runs; the measured utilisation must rise by about 50 points on a 2-core machine (by 100/ncores in
# general) and agree with /proc/stat read directly. The measuring is done by test_live_exporter in
# tests/unit/test_node_exporter.c; this script provides the exporter.
set -u
fail() { echo "collectors_node_exporter: FAIL: $*" >&2; exit 1; }

EXPORTER=${BENCH_NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
DRIVER=${BENCH_BUILD:?BENCH_BUILD not set}/tests/test_node_exporter
[ -x "$EXPORTER" ] || fail "$EXPORTER not found: install the Debian package prometheus-node-exporter"
[ -x "$DRIVER" ] || fail "$DRIVER not built (cmocka missing?)"
command -v taskset >/dev/null || fail "taskset not found (util-linux)"
[ "$(nproc)" -eq 2 ] || echo "collectors_node_exporter: note: $(nproc) cores; the test expects a rise of about 50 points as on 2 cores" >&2

work=$(mktemp -d) || fail "mktemp"
pid=
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
	rm -rf "$work"
}
trap cleanup EXIT

ready=
for attempt in 1 2 3 4 5 6 7 8 9 10; do
	port=$((20000 + RANDOM % 40000))
	"$EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.cpu \
		--collector.diskstats >"$work/exporter.log" 2>&1 &
	pid=$!
	for i in $(seq 30); do
		if ! kill -0 "$pid" 2>/dev/null; then break; fi          # could not bind: try another port
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then ready=1; break; fi
		sleep 0.1
	done
	[ -n "$ready" ] && break
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
done
[ -n "$ready" ] || fail "node_exporter did not start: $(tail -3 "$work/exporter.log")"
echo "collectors_node_exporter: node_exporter pid $pid on 127.0.0.1:$port"

rc=0
BENCH_EXPORTER_URL="http://127.0.0.1:$port/metrics" BENCH_TEST_FILTER=test_live_exporter "$DRIVER" >"$work/live.out" 2>&1 ||
	rc=$?
cat "$work/live.out"
[ "$rc" -eq 0 ] || fail "live measurement failed (see above)"
if grep -q '^\[  SKIPPED \]' "$work/live.out"; then
	echo "collectors_node_exporter: the machine never had a quiet moment: the utilisation rise was not measured: skipped"
	exit 77
fi
echo "collectors_node_exporter: ok"
