#!/usr/bin/env bash
# scale_lab_barrier: the multi-host paths of issue 19, functional checks only (speed: scripts/perf/lab_hosts.sh).
#  - `bench lab up 3 --base 127.0.31.254` puts its servers on 127.0.31.254, 127.0.31.255 and 127.0.32.0 (the
#    hosts file says so and each answers `lab status`); a --base outside 127.0.0.0/8 is a usage error (exit 2);
#  - a 2-run suite over the lab: both runs done, every job file carries the start barrier (exec_prerun), every
#    host has a start offset, the first host's is 0; the target check runs as one fio client (no check-*.fio
#    job file is left in the run directories) and the runs store 3 host rows plus the aggregate each.
# Servers listen on 127.0.31.254-127.0.32.0 only (issue 19's range); `lab down` in the trap stops them.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
command -v fio >/dev/null || { echo "SKIP: no fio"; exit 77; }
. "$BENCH_SRC/tests/lib/common.sh"
PORT=$((20000 + RANDOM % 12000))
LAB="$T/lab"
cleanup_hooks+=("\"\$BENCH\" lab down --dir \"\$LAB\" >/dev/null 2>&1")

"$BENCH" lab up 2 --dir "$LAB" --base 10.1.2.3 --port "$PORT" >"$T/bad.out" 2>&1
expect_eq "--base outside 127.0.0.0/8: exit" "$?" 2
grep -q "127.0.0.0/8" "$T/bad.out" && ok "the message names the range" || fail "message: $(cat "$T/bad.out")"

"$BENCH" lab up 3 --dir "$LAB" --base 127.0.31.254 --port "$PORT" --size 4m >"$T/up.out" 2>&1 ||
	{ cat "$T/up.out"; fail "lab up 3 --base"; finish; }
expect_eq "addresses in the hosts file" "$(grep -o '127\.[0-9.]*' "$LAB/hosts" | tr '\n' ' ')" \
	"127.0.31.254 127.0.31.255 127.0.32.0 "
"$BENCH" lab status --dir "$LAB" --port "$PORT" >"$T/st.out" 2>&1
expect_eq "lab status: exit" "$?" 0
expect_eq "servers up" "$(grep -c ' up ' "$T/st.out")" 3

printf '[a]\nioengine=null\nrw=randread\nbs=4k\nsize=4m\ntime_based\nruntime=1\nramp_time=1\nrate_iops=500\n' >"$T/a.fio"
printf '[b]\nioengine=null\nrw=randwrite\nbs=4k\nsize=4m\ntime_based\nruntime=1\nramp_time=1\nrate_iops=500\n' >"$T/b.fio"
"$BENCH" run "$T/a.fio" "$T/b.fio" --hosts "$LAB/hosts" --db "$T/r.db" -q >"$T/r.out" 2>"$T/r.err"
expect_eq "2-run suite over 3 hosts: exit ($(head -c 300 "$T/r.err"))" "$?" 0
expect_eq "statuses" "$(q "$T/r.db" "SELECT group_concat(status, ',') FROM (SELECT status FROM run ORDER BY seq)")" "done,done"
expect_eq "job files with the start barrier" \
	"$(q "$T/r.db" "SELECT count(*) FROM artifact WHERE name LIKE 'jobfile.%' AND CAST(content AS TEXT) LIKE '%exec_prerun=sh -c%'")" 6
expect_eq "host rows per run" "$(q "$T/r.db" "SELECT group_concat(n, ',') FROM (SELECT count(*) AS n FROM run_host WHERE host <> '*' GROUP BY run_id)")" "3,3"
expect_eq "aggregates" "$(q "$T/r.db" "SELECT count(*) FROM result WHERE host = '*' AND ddir = 'total'")" 2
expect_eq "hosts with a start offset" "$(q "$T/r.db" "SELECT count(start_offset_ms) FROM run_host WHERE host <> '*'")" 6
expect_eq "earliest offset per run" "$(q "$T/r.db" "SELECT group_concat(m, ',') FROM (SELECT min(start_offset_ms) AS m FROM run_host WHERE host <> '*' GROUP BY run_id)")" "0.0,0.0"
echo "start-offset spread per run (ms): $(q "$T/r.db" "SELECT group_concat(s, ' ') FROM (SELECT max(start_offset_ms) - min(start_offset_ms) AS s FROM run_host WHERE host <> '*' GROUP BY run_id)")"
finish
