#!/usr/bin/env bash
# hosts_silent: every network wait of the multi-host preflight is bounded per host (issue 18).
#  - two real `fio --server` instances and a fake fio server (python3) that answers the PROBE and then goes
#    silent: `bench hosts check` fails only the fake host, within the target check's two bounds plus slack
#    (it took 61 s before); --allow-partial exits 0 with "2 of 3 initiators ok". The bounds (5 s for the one
#    client of all hosts, then 10 s per host: FIO_TARGET_CHECK_ONE_MS, FIO_TARGET_CHECK_TIMEOUT_MS) are
#    BENCH_TEST_CHECK_MS = 3 s each here, the test-only setting, so that the test waits 6 s, not 15, per check;
#  - `bench run --hosts ... --allow-partial` runs on the two healthy servers;
#  - a SIGSTOPped real server fails its host within the probe bound (3 s) plus slack.
# Servers listen on 127.0.70.x only; every process started here is stopped by its PID (trap).
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
command -v fio >/dev/null || { echo "SKIP: no fio"; exit 77; }
. "$BENCH_SRC/tests/lib/common.sh"
export BENCH_TEST_CHECK_MS=3000
PORT=$((20000 + RANDOM % 12000))
stop_all() { for p in $(cat "$T/pids" 2>/dev/null); do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done; }
cleanup_hooks+=("stop_all")

for i in 1 2 4; do
	fio --server=127.0.70.$i,$PORT >"$T/server$i.log" 2>&1 &
	echo $! >>"$T/pids"
	truncate -s 8M "$T/target$i.dat"
done
cat >"$T/silent.py" <<'PY'
import sys, threading
from fio_stub import PROBE, listen, read_command, send_probe_reply
# After the PROBE reply this server reads and never answers again.
def serve(c):
    try:
        ver, op, tag = read_command(c)
        if op == PROBE:
            send_probe_reply(c, ver, tag, b'silenthost', sys.argv[3])
        while c.recv(65536):
            pass
    except Exception:
        pass
s = listen(sys.argv[1], int(sys.argv[2]), 16)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
PYTHONPATH="$BENCH_SRC/tests/lib" python3 "$T/silent.py" 127.0.70.3 "$PORT" "$(fio --version)" >"$T/silent.out" 2>&1 &
echo $! >>"$T/pids"
for _ in $(seq 50); do grep -q listening "$T/silent.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
# (workdir=: bench accepts a target on a host it cannot probe only below the directory declared for its files)
printf 'h1 127.0.70.1:%s target=%s workdir=%s\nh2 127.0.70.2:%s target=%s workdir=%s\nquiet 127.0.70.3:%s target=%s workdir=%s\n' \
	"$PORT" "$T/target1.dat" "$T" "$PORT" "$T/target2.dat" "$T" "$PORT" "$T/target3.dat" "$T" >"$T/hosts"

start=$(date +%s)
"$BENCH" hosts check --hosts "$T/hosts" >"$T/c.out" 2>"$T/c.err"
rc=$? took=$(($(date +%s) - start))
expect_eq "silent server: exit" "$rc" 4
if grep -q "quiet" "$T/c.err" && ! grep -q "h1 (\|h2 (" "$T/c.err"; then ok "only the silent host failed"
else fail "message: $(cat "$T/c.err")"; fi
[ "$(grep -c '^h[12] .* ok$' "$T/c.out")" = 2 ] && ok "h1 and h2 ok" || fail "table: $(cat "$T/c.out")"
[ "$took" -lt 12 ] && ok "silent server noticed in $took s (bounds 2 x 3 s)" || fail "silent server took $took s"

"$BENCH" hosts check --hosts "$T/hosts" --allow-partial >"$T/p.out" 2>"$T/p.err"
expect_eq "--allow-partial: exit" "$?" 0
grep -q "2 of 3 initiators ok" "$T/p.out" && ok "2 of 3 ok" || fail "summary: $(cat "$T/p.out")"

printf '[quick]\nioengine=psync\nrw=randread\nbs=4k\nsize=4m\ntime_based\nruntime=2\n' >"$T/quick.fio"
start=$(date +%s)
"$BENCH" run "$T/quick.fio" --hosts "$T/hosts" --allow-partial --db "$T/r.db" -q >"$T/r.out" 2>"$T/r.err"
rc=$? took=$(($(date +%s) - start))
hosts=$(q "$T/r.db" "SELECT group_concat(host, ',') FROM (SELECT DISTINCT host FROM result WHERE host != '*' ORDER BY host)")
expect_eq "run --allow-partial: hosts with results (exit $rc, $took s, $(head -c 300 "$T/r.err"))" "$hosts" \
	"h1,h2"
expect_eq "run --allow-partial: the run is partial" "$(q "$T/r.db" "SELECT status FROM run")" partial
[ "$took" -lt 30 ] && ok "run took $took s (not the run's whole deadline)" || fail "run took $took s"

# a stopped server: the third PID is the fio server on 127.0.70.4
kill -STOP "$(sed -n 3p "$T/pids")"
printf 'h1 127.0.70.1:%s target=%s workdir=%s\nstopped 127.0.70.4:%s target=%s workdir=%s\n' "$PORT" \
	"$T/target1.dat" "$T" "$PORT" "$T/target4.dat" "$T" >"$T/hosts.stopped"
start=$(date +%s)
"$BENCH" hosts check --hosts "$T/hosts.stopped" >"$T/s.out" 2>"$T/s.err"
rc=$? took=$(($(date +%s) - start))
expect_eq "stopped server: exit" "$rc" 4
grep -q "stopped" "$T/s.err" && ok "the stopped host is named" || fail "message: $(cat "$T/s.err")"
[ "$took" -lt 10 ] && ok "stopped server noticed in $took s" || fail "stopped server took $took s"
finish
