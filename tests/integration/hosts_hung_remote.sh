#!/usr/bin/env bash
# hosts_hung_remote: a hung host whose fio server is NOT on this machine costs only its own results (issue 31,
# part 5). A 4-host loopback lab; lab3's server is made to look remote (BENCH_TEST_REMOTE=its address: bench
# then cannot see or stop its processes, as with a real remote host). One run (runtime 4 s); lab3's server
# (its process group) is SIGSTOPped 1.5 s into the load and SIGCONTed STOP_S (12) s later, past the host's own
# bound (BENCH_TEST_HANG_MS=3000 after the run time). Before the fix bench told fio's client to QUIT and
# stopped it: a client waiting for lab3 wrote no results at all, so the run held host rows with reasons but no
# results. Now bench closes fio's client's connection to lab3 (`ss -K`, SOCK_DESTROY) and fio's client
# finishes with the others. Checked:
#  - the run is stored 'partial' with results for lab1, lab2, lab4 and the aggregate '*', none for lab3;
#  - lab3's run_host.error says it hung and that its connection was closed (ss -K);
#  - the run took at most runtime + the hang bound + 9 s (the bound is generous for a busy machine).
# Needs root (SOCK_DESTROY needs CAP_NET_ADMIN) and ss; about 30 s; runs alone (RUN_SERIAL).
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
for p in fio sqlite3 ss; do command -v $p >/dev/null || { echo "SKIP: $p is needed"; exit 77; }; done
[ "$(id -u)" = 0 ] || { echo "SKIP: closing another process's socket (ss -K) needs root"; exit 77; }
. "$BENCH_SRC/tests/lib/common.sh"
export BENCH_TEST_HANG_MS=3000
STOP_S=12
RUN_BOUND_S=$((BENCH_TEST_HANG_MS / 1000 + 9))
PORT=$((20000 + RANDOM % 12000))
BASE=127.0.$((100 + RANDOM % 100)).1
LAB="$T/lab"
cont3() { [ -n "${S3:-}" ] && kill -CONT -- "-$S3" 2>/dev/null; }
lab_down() { cont3; "$BENCH" lab down --dir "$LAB" >/dev/null 2>&1; }
cleanup_hooks+=("lab_down")

"$BENCH" lab up 4 --dir "$LAB" --port "$PORT" --size 16m --base "$BASE" >"$T/up.out" 2>&1 ||
	{ cat "$T/up.out"; fail "lab up 4"; finish; }
S3=$(cat "$LAB/host3/fio.pid")
A3=$(awk '$1 == "lab3" {print $2}' "$LAB/hosts"); A3=${A3%%:*}
export BENCH_TEST_REMOTE=$A3
printf '[r1]\nioengine=psync\nrw=randread\nbs=4k\nsize=8m\ntime_based\nruntime=4\n' >"$T/r1.fio"

lab3_job() { ps -eo pid=,sid=,args= | awk -v s="$S3" -v a="--server=$A3," 'index($0, a) && $1 == $2 && $1 != s {print $1}'; }

"$BENCH" run "$T/r1.fio" --hosts "$LAB/hosts" --db "$T/h.db" >"$T/run.out" 2>"$T/run.err" &
BPID=$!
end=$((SECONDS + 120))
while [ $SECONDS -lt $end ] && kill -0 "$BPID" 2>/dev/null; do
	grep -q 'r1: running' "$T/run.err" && [ -n "$(lab3_job)" ] && break
	sleep 0.1
done
[ -n "$(lab3_job)" ] || { kill "$BPID" 2>/dev/null; wait "$BPID"; fail "lab3's job never started: $(cat "$T/run.err")"; finish; }
sleep 1.5
kill -STOP -- "-$S3"
end=$((SECONDS + STOP_S))
while [ $SECONDS -lt $end ] && kill -0 "$BPID" 2>/dev/null; do sleep 0.2; done
cont3
wait "$BPID"
rc=$?
sed 's/^/  /' "$T/run.err"

q() { sqlite3 -batch -noheader "$T/h.db" "$1"; }
row=$(q "SELECT id || '|' || status || '|' || CAST(ROUND((julianday(finished_at) - julianday(started_at)) * 86400) AS INT) FROM run WHERE name = 'r1'")
IFS='|' read -r id status took <<<"$row"
[ -n "$id" ] || { fail "run r1 not stored"; finish; }
expect_eq "r1 status" "$status" partial
expect_eq "exit code" "$rc" 4
expect_eq "hosts with results" \
	"$(q "SELECT group_concat(host, ',') FROM (SELECT DISTINCT host FROM result WHERE run_id = $id ORDER BY host)")" "*,lab1,lab2,lab4"
why=$(q "SELECT error FROM run_host WHERE run_id = $id AND host = 'lab3'")
echo "lab3: $why"
case "$why" in
*hung*"connection with it was closed (ss -K)"*) ok "lab3 failed as hung, its connection closed" ;;
*) fail "lab3's reason: '$why'" ;;
esac
[ "$took" -le $((4 + RUN_BOUND_S)) ] && ok "r1 took $took s (bound: runtime 4 s + $RUN_BOUND_S s)" ||
	fail "r1 took $took s: more than runtime 4 s + $RUN_BOUND_S s"
finish
