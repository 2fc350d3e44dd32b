#!/usr/bin/env bash
# import_client_logs (issue 31, acceptance 4): logs fio's client writes for each server are named NAME.HOST
# (client.c handle_job_log: "fio_iops.1.log.10.0.0.11"). Imported, each is the metric of NAME (iops, not a
# latency) on host HOST (not localhost); the logs of two hosts attached to one run (--run ID) are kept per host:
# two hosts' series with their own values, and importing one host's log again replaces only that host's
# series. A HOST of '*' (bench's name for all hosts together) is refused with exit 3, the database unchanged.
# The log files are written here with fixed content (averaged logs, log_avg_msec=1000).
. "$BENCH_SRC/tests/lib/common.sh"

printf '1000, 500, 0, 0\n2000, 520, 0, 0\n2000, 90, 1, 0\n' >fio_iops.1.log.10.0.0.11
printf '1000, 700, 0, 0\n2000, 710, 0, 0\n' >fio_iops.1.log.10.0.0.12
printf '1000, 81000, 0, 0\n2000, 83000, 0, 0\n' >fio_clat.1.log.10.0.0.12
series() { # series DB RUN: host|job|metric|t_ms|value|window_ms of the run's samples, in order
	q "$1" "SELECT host, job, metric, t_ms, value, window_ms FROM sample WHERE run_id = $2
		ORDER BY host, metric, t_ms"
}

rc=0; "$BENCH" import --db t.db fio_iops.1.log.10.0.0.11 >out.txt 2>err.txt || rc=$?
expect_eq "import of host .11's iops log: exit" "$rc" 0
run=$(q t.db "SELECT max(id) FROM run")
rc=0; "$BENCH" import --db t.db --run "$run" fio_iops.1.log.10.0.0.12 fio_clat.1.log.10.0.0.12 >out.txt 2>err.txt ||
	rc=$?
expect_eq "import --run of host .12's iops and clat logs: exit" "$rc" 0
expect_eq "runs in the database" "$(q t.db 'SELECT count(*) FROM run')" 1
want="10.0.0.11|fio.1|iops.read|1000|500.0|1000
10.0.0.11|fio.1|iops.read|2000|520.0|1000
10.0.0.11|fio.1|iops.write|2000|90.0|1000
10.0.0.12|fio.1|clat_ns.read|1000|81000.0|1000
10.0.0.12|fio.1|clat_ns.read|2000|83000.0|1000
10.0.0.12|fio.1|iops.read|1000|700.0|1000
10.0.0.12|fio.1|iops.read|2000|710.0|1000"
got=$(series t.db "$run")
expect_eq "the run's series: two hosts, the metric of each name, the values of each file" "$got" "$want"
expect_eq "samples on localhost or as a latency of the iops logs" \
	"$(q t.db "SELECT count(*) FROM sample WHERE host = 'localhost' OR (metric LIKE 'lat%' AND job = 'fio.1')")" 0

# host .12's iops log again: its series replaced (same rows), host .11's and the clat series untouched
"$BENCH" import --db t.db --run "$run" fio_iops.1.log.10.0.0.12 >/dev/null 2>err.txt || fail "re-import: $(cat err.txt)"
expect_eq "series after importing host .12's iops log again" "$(series t.db "$run")" "$want"

# a log of its own (no --run): a run whose results and series are the host's
printf '1000, 64, 0, 0\n' >solo_iops.2.log.lab1
"$BENCH" import --db t.db solo_iops.2.log.lab1 >/dev/null 2>err.txt || fail "import solo: $(cat err.txt)"
solo=$(q t.db "SELECT max(id) FROM run")
expect_eq "a client log imported as a run: its series" "$(series t.db "$solo")" "lab1|solo.2|iops.read|1000|64.0|1000"

# HOST '*': refused, nothing stored
printf '1000, 1, 0, 0\n' >'bad_iops.1.log.*'
cp t.db t0.db
rc=0; "$BENCH" import --db t.db 'bad_iops.1.log.*' >out.txt 2>err.txt || rc=$?
expect_eq "import of a log named for host '*': exit" "$rc" 3
grep -q "^bench: error: bad_iops.1.log.\*: the host after '.log.' is '\*'" err.txt &&
	ok "host '*': one line says why" || fail "host '*': $(cat err.txt)"
cmp -s t.db t0.db && ok "host '*': database unchanged" || fail "host '*': the database changed"
finish
