#!/usr/bin/env bash
# Acceptance (foundation 3): kill -9 of `bench run` in the middle of a run leaves a sound database, the
# interrupted run is not 'done', and `bench run --resume` completes the suite with no duplicates.
# Also: SIGINT marks the running run 'aborted', stops fio and exits 130.
. "$BENCH_SRC/tests/lib/common.sh"
# Work directories of this test's runs go under $T, so that only our own fio processes are counted.
export TMPDIR=$T

cat > suite.fio <<'JOB'
[global]
; the jobs one after another, one run each (without stonewall fio runs them together)
stonewall
ioengine=psync
rw=randread
bs=4k
size=8m
runtime=3
time_based
[one]
[two]
[three]
[four]
JOB

"$BENCH" run suite.fio --target t.dat --db k.db -q &
pid=$!
# Wait until the second run is running (the first is done), then kill -9 mid-run.
wait_one k.db "SELECT count(*) FROM run WHERE seq = 2 AND status = 'running'"
sleep 1
kill -9 $pid
wait $pid 2>/dev/null
sleep 0.5
expect_eq "integrity_check after kill -9" "$(q k.db 'PRAGMA integrity_check')" ok
expect_eq "interrupted run is not done" "$(q k.db "SELECT status FROM run WHERE seq = 2")" running
expect_eq "first run done before the kill" "$(q k.db "SELECT status FROM run WHERE seq = 1")" done
fio_gone
expect_eq "fio processes left 3 s after kill -9 of bench" "$(fio_left)" 0

"$BENCH" run suite.fio --target t.dat --db k.db --resume -q
expect_eq "resume exit code" "$?" 0
expect_eq "done runs = planned runs" "$(q k.db "SELECT count(*) FROM run WHERE status = 'done'")" \
  "$(q k.db "SELECT planned_runs FROM suite")"
expect_eq "one suite" "$(q k.db "SELECT count(*) FROM suite")" 1
expect_eq "no duplicate runs" "$(q k.db "SELECT count(*) FROM (SELECT seq, repetition FROM run GROUP BY 1, 2 HAVING count(*) > 1)")" 0
expect_eq "runs in the database" "$(q k.db "SELECT count(*) FROM run")" 4
expect_eq "run 1 was not run again" "$(q k.db "SELECT count(*) FROM run WHERE seq = 1 AND id = 1")" 1

# SIGINT: the running run becomes 'aborted', fio stops, exit 130.
"$BENCH" run suite.fio --target t.dat --db i.db -q &
pid=$!
wait_one i.db "SELECT count(*) FROM run WHERE status = 'running'"
sleep 1
kill -INT $pid
wait $pid
expect_eq "exit code after SIGINT" "$?" 130
expect_eq "interrupted run is aborted" "$(q i.db "SELECT status FROM run ORDER BY id DESC LIMIT 1")" aborted
expect_eq "no further runs after SIGINT" "$(q i.db "SELECT count(*) FROM run")" 1
expect_eq "fio processes left after SIGINT" "$(fio_left)" 0
finish
