#!/bin/bash
# lab_hosts: what a multi-host run costs on top of its load, at 16, 64 and 128 loopback fio servers (issue 19,
# acceptance 1). Not a test: a measurement.
#
# For each host count N: `bench lab up N` (addresses from BASE, default 127.0.30.1), then one `bench run` of
# one null-engine workload at a low rate (ramp 1 s + runtime 5 s, rate_iops=200 per host), timed:
#   - per-run overhead = wall of the run - (ramp + runtime); measured twice: a suite of 1 run (includes the
#     suite's once-only preflight) and the extra wall of a suite of 2 runs over 1 (what each further run costs);
#   - start-offset spread = max - min of run_host.start_offset_ms (bench's own per-host record) per run;
#   - bench's own peak RSS (VmHWM of the bench process, sampled from /proc, not of its fio client);
#   - the rows stored: N host rows and one aggregate ('*') per run.
# Targets: overhead <= 3 s at 128 hosts, spread <= 50 ms, RSS flat in N.
# Also: how busy the whole machine was while the plain fio client ran, and fio's CPU per host. Every lab server
# runs on this machine: once their own CPU demand passes the cores there are, the wall figures measure the
# machine (docs/perf.md "Why the lab cannot show the 128-host target on 2 cores").
#
# usage: scripts/perf/lab_hosts.sh [BENCH_BINARY] [COUNTS] [BASE] [PORT]   e.g. lab_hosts.sh build/bench "16 64 128"
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/machine.sh"
BENCH=${1:-${BENCH:-$HERE/../../build/bench}}
COUNTS=${2:-16 64 128}
BASE=${3:-127.0.30.1}
PORT=${4:-8765}
RAMP=1
RUNTIME=5
[ -x "$BENCH" ] || { echo "lab_hosts: no bench binary at '$BENCH' (pass it as the first argument)" >&2; exit 2; }
BENCH=$(cd "$(dirname "$BENCH")" && pwd)/$(basename "$BENCH")
T=$(mktemp -d)
trap '"$BENCH" lab down --dir "$T/lab" >/dev/null 2>&1; rm -rf "$T"' EXIT
cd "$T"
perf_machine
printf '[w]\nioengine=null\nrw=randread\nbs=4k\nsize=16m\ntime_based\nramp_time=%s\nruntime=%s\nrate_iops=200\n' \
	"$RAMP" "$RUNTIME" >w.fio
printf '[w]\nioengine=null\nrw=randwrite\nbs=4k\nsize=16m\ntime_based\nramp_time=%s\nruntime=%s\nrate_iops=200\n' \
	"$RAMP" "$RUNTIME" >w2.fio

# run_timed DB JOBFILES...: runs bench, prints "wall_s hwm_kib" (HWM of bench itself, polled from /proc)
run_timed() {
	local db=$1 t0 t1 pid hwm=0 h
	shift
	t0=$(date +%s.%N)
	"$BENCH" run "$@" --hosts lab/hosts --db "$db" -q >run.out 2>run.err &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		h=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
		[ -n "$h" ] && [ "$h" -gt "$hwm" ] && hwm=$h
		sleep 0.05
	done
	wait "$pid" || { cat run.out run.err >&2; echo "lab_hosts: bench run failed" >&2; exit 1; }
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" -v h="$hwm" 'BEGIN { printf "%.2f %d\n", b - a, h }'
}

for n in $COUNTS; do
	rm -rf lab ./*.db*
	"$BENCH" lab up "$n" --dir lab --base "$BASE" --port "$PORT" --size 1m >up.out 2>&1 || { cat up.out >&2; exit 1; }
	read -r w1 rss1 < <(run_timed one.db w.fio)
	read -r w2 rss2 < <(run_timed two.db w.fio w2.fio)
	hosts=$(sqlite3 one.db "SELECT count(*) FROM run_host WHERE host <> '*'")
	aggs=$(sqlite3 one.db "SELECT count(*) FROM result WHERE host = '*' AND ddir = 'total'")
	spread=$(sqlite3 two.db "SELECT printf('%.1f', max(s)) FROM (SELECT max(start_offset_ms) - min(start_offset_ms) AS s
		FROM run_host WHERE host <> '*' GROUP BY run_id)")
	per_run=$(sqlite3 two.db "SELECT group_concat(s, ' / ') FROM (SELECT printf('%.0f', max(start_offset_ms) - min(start_offset_ms)) AS s
		FROM run_host WHERE host <> '*' GROUP BY run_id ORDER BY run_id)")
	known=$(sqlite3 two.db "SELECT count(start_offset_ms) FROM run_host WHERE host <> '*'")
	# fio's own share: the same job files (without the barrier) run by one plain fio client, no bench
	args=()
	for i in $(seq 1 "$n"); do
		sqlite3 one.db "SELECT content FROM artifact WHERE name = 'jobfile.lab$i'" | grep -v '^exec_prerun=' >"plain$i.fio"
		args+=("--client=$(sed -n "s/^lab$i \([0-9.]*\):\([0-9]*\).*/\1,\2/p" lab/hosts)" "plain$i.fio")
	done
	f0=$(date +%s.%N)
	c0=$(perf_cpu_ticks)
	fio "${args[@]}" --output-format=json+ --output=plain.json >/dev/null 2>&1 || true
	c1=$(perf_cpu_ticks)
	fw=$(awk -v a="$f0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
	busy=$(perf_busy_pct "$c0" "$c1" "$fw")
	per_host=$(awk -v c="$(perf_cpu_s "$c0" "$c1")" -v n="$n" 'BEGIN { printf "%.0f", 1000 * c / n }')
	"$BENCH" lab down --dir lab >/dev/null
	ov1=$(awk -v w="$w1" -v l=$((RAMP + RUNTIME)) 'BEGIN { printf "%.2f", w - l }')
	ovn=$(awk -v a="$w1" -v b="$w2" -v l=$((RAMP + RUNTIME)) 'BEGIN { printf "%.2f", b - a - l }')
	printf '%4d hosts: 1-run suite %.2f s wall -> overhead %s s (incl. preflight); each further run: overhead %s s [target <= 3 s at 128: %s]\n' \
		"$n" "$w1" "$ov1" "$ovn" "$(perf_verdict "$ovn" '<=' 3)"
	printf '            start-offset spread %s ms (runs 1 / 2 of the 2-run suite: %s ms; the barrier learns from run 1; %s of %d host offsets known) [target <= 50 ms: %s]; bench peak RSS %.1f MiB (1 run) %.1f MiB (2 runs); stored: %s host rows, %s aggregate\n' \
		"${spread:-NA}" "$per_run" "$known" $((2 * n)) "$(perf_verdict "${spread:-1e9}" '<=' 50)" \
		"$(awk -v k="$rss1" 'BEGIN { print k / 1024 }')" "$(awk -v k="$rss2" 'BEGIN { print k / 1024 }')" "$hosts" "$aggs"
	printf '            plain fio client, same %d job files, no bench: %s s wall -> fio'"'"'s own overhead %s s of the per-run overhead\n' \
		"$n" "$fw" "$(awk -v w="$fw" -v l=$((RAMP + RUNTIME)) 'BEGIN { printf "%.2f", w - l }')"
	printf '            while it ran the machine was %s%% busy (all %d cores): %s ms of CPU per host for one %d s job%s\n' \
		"$busy" "$(nproc)" "$per_host" $((RAMP + RUNTIME)) \
		"$(awk -v b="$busy" 'BEGIN { if (b >= 90) printf "; the servers share this machine'"'"'s CPUs, so the figures above show the machine, not bench" }')"
done
