#!/usr/bin/env bash
# hosts_rtt: what `bench hosts check` says of each fio server is true (issue 31, "per-host truth").
#  - RTT_MS is the network round trip to the fio server: the kernel's measure (TCP_INFO tcpi_rtt) of the probe
#    connection's handshake. Issue 31 wants it under 5 ms "without fio's idle timer in it": asserted for each of
#    4 loopback servers in each of 3 checks (a figure over 5 ms is a skip, said, exit 77, only when the
#    1-minute load average is above the number of cores). The figure of the fio exchange itself, PROBE_MS
#    (connection to the end of the PROBE reply), holds the fio server's fork of its connection process (about
#    5 ms here) but never its 1 s idle timer (server.c handle_connection: poll(0), then
#    fio_sem_down_timeout(1000)): under 500 ms always, and never below RTT_MS (it holds two round trips).
#    Before, RTT_MS was that exchange (4.5-7.4 ms here) and hosts of a loopback lab showed 1005-1013 ms now
#    and then.
#  - the cause of a lost host, by name: a killed server (its process group gone) is "connection refused" and
#    not called a fio of another protocol; a listener that reads the probe and hangs up "closed the
#    connection", one that resets "connection reset", one that says nothing "no fio probe reply within 1000 ms".
#  - the SERVER column is the server's own host name (fio's PROBE reply), in full.
# Servers listen on 127.0.41.1-127.0.41.4, stubs on 127.0.41.20-22; everything is stopped on exit.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
command -v fio >/dev/null || { echo "SKIP: no fio"; exit 77; }
. "$BENCH_SRC/tests/lib/common.sh"
PORT=$((20000 + RANDOM % 12000))
LAB="$T/lab"
STUBS=()
cleanup_hooks+=("\"\$BENCH\" lab down --dir \"\$LAB\" >/dev/null 2>&1" 'for p in "${STUBS[@]}"; do kill "$p" 2>/dev/null; done')

"$BENCH" lab up 4 --dir "$LAB" --base 127.0.41.1 --port "$PORT" --size 1m >"$T/up.out" 2>&1 ||
	{ cat "$T/up.out"; fail "lab up 4"; finish; }

for i in 1 2 3; do
	"$BENCH" hosts check --no-targets --hosts "$LAB/hosts" >"$T/c$i.out" 2>&1 || { cat "$T/c$i.out"; fail "check $i: exit"; }
done
cat "$T/c1.out"
# columns: HOST ADDRESS ROLE FIO SERVER CPUS BITS RTT_MS PROBE_MS STATUS
expect_eq "header" "$(head -1 "$T/c1.out" | awk '{print $8, $9, $10}')" "RTT_MS PROBE_MS STATUS"
rows=$(awk '/^lab/ && $NF == "ok" {print $1, $8, $9}' "$T"/c[123].out)
expect_eq "rows ok in 3 checks" "$(echo "$rows" | wc -l)" 12
expect_eq "PROBE_MS of 500 ms or more (fio's idle timer)" "$(echo "$rows" | awk '$3 >= 500' | wc -l)" 0
expect_eq "RTT_MS of 0 or over PROBE_MS" "$(echo "$rows" | awk '$2 <= 0 || $2 > $3' | wc -l)" 0
rtts=$(echo "$rows" | awk '{printf "%s=%s ", $1, $2}')
over=$(echo "$rows" | awk '$2 >= 5' | wc -l)
load=$(cut -d' ' -f1 /proc/loadavg)
if [ "$over" = 0 ]; then
	ok "every RTT_MS under 5 ms ($rtts; PROBE_MS $(echo "$rows" | sort -k3,3n | awk 'NR == 1 {a = $3} END {print a "-" $3}') ms)"
elif awk -v l="$load" -v n="$(nproc)" 'BEGIN {exit !(l > n)}'; then
	skip "$over RTT_MS over 5 ms ($rtts), with the machine busy (load $load on $(nproc) cores)"
else
	fail "$over RTT_MS over 5 ms ($rtts) with load $load on $(nproc) cores"
fi
expect_eq "server host name in full" "$(awk '$1 == "lab1" {print $5}' "$T/c1.out")" "$(hostname | cut -c1-64)"

# a killed server: its process group gone, nothing listens
kill -9 -- -"$(cat "$LAB/host3/fio.pid")"
sleep 0.3
"$BENCH" hosts check --no-targets --hosts "$LAB/hosts" >"$T/k.out" 2>"$T/k.err"
expect_eq "killed server: exit" "$?" 4
grep -q "^lab3 .*UNREACHABLE: 127.0.41.3:$PORT: cannot reach the fio server: connection refused" "$T/k.out" &&
	ok "killed server: connection refused" || fail "killed server row: $(cat "$T/k.out")"
grep -q "another client/server protocol" "$T/k.out" "$T/k.err" && fail "killed server called another protocol" ||
	ok "killed server not called another protocol"

# listeners that close, reset, or say nothing
cat >"$T/stub.py" <<'EOF'
import socket, struct, sys, time
from fio_stub import listen, read_command
addr, port, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = listen(addr, port, 8)
while True:
    c, _ = s.accept()
    if how == 'reset':
        time.sleep(0.1)
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
        c.close()
    elif how == 'close':
        # reads the probe, then hangs up (FIN): what a fio of another protocol version does; closing with the
        # probe unread would send a reset instead
        read_command(c)
        c.close()
    else:
        time.sleep(5)
        c.close()
EOF
n=20
for how in close reset silent; do
	PYTHONPATH="$BENCH_SRC/tests/lib" python3 "$T/stub.py" 127.0.41.$n "$PORT" $how >"$T/stub-$how.out" 2>&1 &
	STUBS+=($!)
	for _ in $(seq 50); do grep -q listening "$T/stub-$how.out" && break; sleep 0.1; done
	echo "$how 127.0.41.$n:$PORT" >>"$T/hosts.stubs"
	n=$((n + 1))
done
"$BENCH" hosts check --no-targets --timeout 1s --hosts "$T/hosts.stubs" >"$T/s.out" 2>"$T/s.err"
expect_eq "stubs: exit" "$?" 4
cat "$T/s.out"
grep -q "^close .*: the server closed the connection before its fio probe reply" "$T/s.out" &&
	ok "closing listener: closed" || fail "closing listener row"
grep -q "^reset .*: connection reset by the server before its fio probe reply" "$T/s.out" &&
	ok "resetting listener: reset" || fail "resetting listener row"
grep -q "^silent .*: no fio probe reply within 1000 ms" "$T/s.out" &&
	ok "silent listener: timed out" || fail "silent listener row"
finish
