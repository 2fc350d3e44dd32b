#!/usr/bin/env bash
# lab_updown: `bench lab up N | status | down` with real fio servers (issue 4, acceptance 6).
# After every `down` the test looks for what could be left: processes whose command line mentions the lab
# directory, sockets (any state but TIME-WAIT, from /proc/net/tcp) on the lab port of 127.0.0.0/8, files.
# Cases: a normal up/down; bench killed with -9 in the middle of `lab up`; a server whose pid file is gone;
# bench killed with -9 in the middle of `bench run --hosts` on the lab (when this build has --hosts).
. "$BENCH_SRC/tests/lib/lab.sh"
lab_scratch lab

lab_procs() { ps -eo args= | grep -F -- "--daemonize=$LAB/" | grep -cv grep; }
lab_sockets() {
	# local address 127.x.x.x:PORT (hex, little endian address), state not TIME_WAIT (06)
	awk -v p="$(printf '%04X' "$PORT")" 'NR > 1 { split($2, a, ":"); if (a[2] == p && substr(a[1], 7, 2) == "7F" && $4 != "06") n++ } END { print n + 0 }' /proc/net/tcp
}
check_clean() {
	local what=$1 n s
	for _ in $(seq 40); do
		n=$(lab_procs)
		s=$(lab_sockets)
		[ "$n" = 0 ] && [ "$s" = 0 ] && break
		sleep 0.1
	done
	[ "$n" = 0 ] || { ps -eo pid,args | grep -F -- "$LAB/" | grep -v grep; fail "$what: $n lab processes left"; }
	[ "$s" = 0 ] || fail "$what: $s sockets on port $PORT left"
	[ ! -e "$LAB" ] || { find "$LAB"; fail "$what: $LAB left behind"; }
	echo "$what: no process, socket or file left"
}

# 1. up, status, down
"$BENCH" lab up 4 --dir "$LAB" --port "$PORT" --size 8m >"$T/up.out" 2>&1 || { cat "$T/up.out"; fail "lab up 4"; }
[ "$(lab_sockets)" -ge 4 ] || fail "expected 4 listening sockets, found $(lab_sockets)"
for i in 1 2 3 4; do
	[ -s "$LAB/host$i/fio.pid" ] || fail "no pid file for host$i"
	[ -f "$LAB/host$i/target.dat" ] || fail "no target file for host$i"
	grep -q "^lab$i 127.0.0.1$i:$PORT" "$LAB/hosts" || fail "hosts file lacks lab$i: $(cat "$LAB/hosts")"
	grep -q "target=$LAB/host$i/target.dat" "$LAB/hosts" || fail "hosts file lacks lab$i's target"
done
"$BENCH" lab status --dir "$LAB" >"$T/status.out" 2>&1 || { cat "$T/status.out"; fail "lab status"; }
[ "$(grep -c ' up  *fio-3.33$' "$T/status.out")" = 4 ] || fail "status: $(cat "$T/status.out")"
"$BENCH" lab up 2 --dir "$LAB" --port "$PORT" >"$T/again.out" 2>&1
rc=$?
[ $rc = 4 ] || fail "second 'lab up' in the same dir: exit $rc, want 4"
grep -q "already up" "$T/again.out" || fail "second up: $(cat "$T/again.out")"
"$BENCH" lab down --dir "$LAB" >"$T/down.out" 2>&1 || { cat "$T/down.out"; fail "lab down"; }
grep -q "^lab down: 4 host directories removed, 4 fio servers stopped, " "$T/down.out" || fail "down's count: $(cat "$T/down.out")"
check_clean "up/down"
"$BENCH" lab status --dir "$LAB" >"$T/st2.out" 2>&1 || fail "status without a lab must exit 0"
grep -q "no lab" "$T/st2.out" || fail "status without a lab: $(cat "$T/st2.out")"

# 2. bench killed with -9 while `lab up` is starting servers
"$BENCH" lab up 6 --dir "$LAB" --port "$PORT" --size 16m >"$T/up9.out" 2>&1 &
UP=$!
for _ in $(seq 100); do [ -s "$LAB/host2/fio.pid" ] && break; sleep 0.05; done
kill -9 $UP
wait $UP 2>/dev/null
n=$(lab_procs)
[ "$n" -ge 1 ] || fail "kill -9 during up left no server: the case tests nothing"
[ ! -e "$LAB/hosts" ] || fail "an interrupted 'lab up' must not have written the hosts file"
echo "lab up killed with -9: $n servers were running"
"$BENCH" lab down --dir "$LAB" >"$T/down9.out" 2>&1 || { cat "$T/down9.out"; fail "lab down after kill -9"; }
check_clean "kill -9 during up"

# 3. a server whose pid file is gone
"$BENCH" lab up 2 --dir "$LAB" --port "$PORT" --size 8m >/dev/null 2>&1 || fail "lab up 2"
rm -f "$LAB/host1/fio.pid"
"$BENCH" lab status --dir "$LAB" >"$T/st3.out" 2>&1
[ $? = 4 ] || fail "status with a server without pid file must exit 4: $(cat "$T/st3.out")"
"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1 || fail "lab down without a pid file"
check_clean "pid file removed"

# 4. bench run on the lab killed with -9 mid-run (once `bench run --hosts` is in this build)
cat >"$T/long.fio" <<'EOF'
[long]
ioengine=psync
rw=randread
bs=4k
size=8m
time_based
runtime=20
EOF
"$BENCH" lab up 2 --dir "$LAB" --port "$PORT" --size 8m >/dev/null 2>&1 || fail "lab up 2"
"$BENCH" run "$T/long.fio" --hosts "$LAB/hosts" --db "$T/k.db" -q >"$T/run.out" 2>&1 &
RUN=$!
sleep 3
if kill -0 $RUN 2>/dev/null; then
	kill -9 $RUN
	wait $RUN 2>/dev/null
	"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1 || fail "lab down after bench run was killed"
	check_clean "bench run killed with -9"
	# the orphaned fio client loses its servers and ends
	for _ in $(seq 50); do pgrep -f -- "--client=127.0.0.11,$PORT" >/dev/null || break; sleep 0.1; done
	pgrep -f -- "--client=127.0.0.11,$PORT" >/dev/null && fail "the fio client of the killed run is still there"
else
	grep -q "not available in this build" "$T/run.out" || { cat "$T/run.out"; fail "bench run --hosts ended early"; }
	echo "NOTE: bench run --hosts not in this build yet; case 4 skipped" >&2
	"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1
	check_clean "lab down"
fi
echo "lab_updown: ok"
