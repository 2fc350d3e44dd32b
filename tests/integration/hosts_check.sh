#!/usr/bin/env bash
# hosts_check: `bench hosts check` against real fio servers on loopback addresses (issue 4, acceptance 3 and 4).
#  - all servers fine: exit 0, one table row per host with fio-3.33.
#  - role=target hosts probed and shown (version, host name), never failing the check, nor counted.
#  - one address where nothing listens: exit 4, the error names that host; --allow-partial: exit 0, row says so.
#  - a missing target: exit 4 naming host and target.
#  - a server of another fio version: a stub written here (python3) that speaks fio's client/server protocol
#    just far enough to answer PROBE as "fio-3.99". The stub is first shown to be taken for a fio server by
#    fio's OWN client (`fio --client` prints the probe reply: "fio=fio-3.99"), then `bench hosts check` must
#    exit 4 naming the host and both versions.
#  - bench run --hosts with an unreachable host refuses before any load; --allow-partial runs the others
#    and marks the run partial (only once `bench run --hosts` is in this build: checked with --help).
. "$BENCH_SRC/tests/lib/lab.sh"
lab_scratch hosts-check
STUB_PID= TGT_PID=
cleanup() {
	[ -n "$STUB_PID" ] && kill "$STUB_PID" 2>/dev/null
	[ -n "$TGT_PID" ] && kill "$TGT_PID" 2>/dev/null
	"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT

"$BENCH" lab up 2 --dir "$LAB" --port "$PORT" --size 8m >"$T/up.out" 2>&1 || { cat "$T/up.out"; fail "lab up 2"; }

# 1. all fine
"$BENCH" hosts check --hosts "$LAB/hosts" >"$T/ok.out" 2>&1 || { cat "$T/ok.out"; fail "check of a good lab did not exit 0"; }
[ "$(grep -c '^lab[0-9] .* ok$' "$T/ok.out")" = 2 ] || { cat "$T/ok.out"; fail "expected 2 ok rows"; }
grep -q "lab1 .*127.0.0.11:$PORT .*fio-3.33" "$T/ok.out" || { cat "$T/ok.out"; fail "row for lab1 lacks address or version"; }

# 1b. role=target hosts are probed too (shown with name, version, RTT), never failing the check: one whose
# server answers (a fio server of this test's own on 127.0.0.17), one where nothing listens
fio --server=127.0.0.17,"$PORT" --daemonize="$T/tgt.pid" >"$T/tgtsrv.out" 2>&1 || fail "fio server on 127.0.0.17"
for _ in $(seq 50); do [ -s "$T/tgt.pid" ] && break; sleep 0.1; done
TGT_PID=$(cat "$T/tgt.pid" 2>/dev/null)
cp "$LAB/hosts" "$T/hosts.tgt"
echo "tgt 127.0.0.17:$PORT role=target" >>"$T/hosts.tgt"
echo "tgtdead 127.0.0.19:$PORT role=target" >>"$T/hosts.tgt"
"$BENCH" hosts check --hosts "$T/hosts.tgt" --no-targets >"$T/tgt.out" 2>&1 ||
	{ cat "$T/tgt.out"; fail "a target host without a fio server failed the check"; }
cat "$T/tgt.out"
grep -q "^tgt .*127.0.0.17:$PORT .*target .*fio-3.33 .*$(uname -n) .*ok (not checked: role=target)$" "$T/tgt.out" ||
	fail "the target's row lacks its version, name or status"
grep -q "^tgtdead .*target .* -: 127.0.0.19:$PORT: cannot reach the fio server: connection refused" "$T/tgt.out" ||
	fail "the silent target's row does not say why"
grep -q "2 of 2 initiators ok" "$T/tgt.out" || fail "targets counted as initiators"

# 2. an address where nothing listens (127.0.0.19: no lab server there)
cp "$LAB/hosts" "$T/hosts.dead"
# (workdir=: bench accepts a path on a host it cannot probe only below the directory declared for its files)
echo "ghost 127.0.0.19:$PORT target=$T/ghost.dat workdir=$T" >>"$T/hosts.dead"
"$BENCH" hosts check --hosts "$T/hosts.dead" >"$T/dead.out" 2>"$T/dead.err"
rc=$?
[ $rc = 4 ] || { cat "$T/dead.out" "$T/dead.err"; fail "unreachable host: exit $rc, want 4"; }
[ "$(wc -l <"$T/dead.err")" = 1 ] || fail "error is not one line: $(cat "$T/dead.err")"
grep -q "^bench: error: .*ghost (127.0.0.19:$PORT: cannot reach the fio server: connection refused" "$T/dead.err" || fail "error does not name ghost: $(cat "$T/dead.err")"
grep -q "^ghost .*UNREACHABLE" "$T/dead.out" || fail "table row for ghost: $(cat "$T/dead.out")"
"$BENCH" hosts check --hosts "$T/hosts.dead" --allow-partial --no-targets >"$T/dead2.out" 2>&1 || fail "--allow-partial with 2 of 3 fine must exit 0"
grep -q "2 of 3 initiators ok" "$T/dead2.out" || fail "summary: $(cat "$T/dead2.out")"

# 3. a target that does not exist on a host
sed "s#$LAB/host2/target.dat#$LAB/host2/nope.dat#" "$LAB/hosts" >"$T/hosts.notarget"
"$BENCH" hosts check --hosts "$T/hosts.notarget" >"$T/nt.out" 2>"$T/nt.err"
rc=$?
[ $rc = 4 ] || fail "missing target: exit $rc, want 4"
grep -q "lab2 .*target '$LAB/host2/nope.dat' missing or unreadable" "$T/nt.err" || fail "missing target message: $(cat "$T/nt.err")"

# 4. version mismatch: a stub fio server that answers PROBE as fio-3.99
cat >"$T/stub.py" <<'EOF'
import sys
from fio_stub import PROBE, listen, read_command, send_probe_reply
addr, port, version = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = listen(addr, port, 8)
while True:
    c, _ = s.accept()
    try:
        ver, op, tag = read_command(c, check_crc=True)
        if op == PROBE:
            send_probe_reply(c, ver, tag, b'stubhost', version)
            # stay connected a moment (fio's client reads the reply before it sees the close), then hang up:
            # the stub cannot run jobs
            c.settimeout(1.0)
            while c.recv(4096):
                pass
    except Exception:
        pass
    c.close()
EOF
PYTHONPATH="$BENCH_SRC/tests/lib" python3 "$T/stub.py" 127.0.0.18 "$PORT" fio-3.99 >"$T/stub.out" 2>&1 &
STUB_PID=$!
for _ in $(seq 50); do grep -q listening "$T/stub.out" && break; sleep 0.1; done
grep -q listening "$T/stub.out" || fail "stub did not start: $(cat "$T/stub.out")"
# fio's own client takes the stub for a fio server of version 3.99
printf '[x]\nioengine=null\nsize=1m\n' >"$T/x.fio"
timeout 20 fio --client=127.0.0.18,"$PORT" "$T/x.fio" >"$T/fioclient.out" 2>&1
grep -q "hostname=stubhost, .*fio=fio-3.99" "$T/fioclient.out" || fail "fio's client does not see the stub as fio-3.99: $(cat "$T/fioclient.out")"
# and the real servers as fio-3.33 (what bench's probe must agree with)
timeout 20 fio --client=127.0.0.11,"$PORT" "$T/x.fio" >"$T/fioclient2.out" 2>&1
grep -q "fio=fio-3.33" "$T/fioclient2.out" || fail "fio's client on a lab server: $(cat "$T/fioclient2.out")"
cp "$LAB/hosts" "$T/hosts.stub"
echo "old 127.0.0.18:$PORT target=/tmp/whatever" >>"$T/hosts.stub"
"$BENCH" hosts check --hosts "$T/hosts.stub" --no-targets >"$T/v.out" 2>"$T/v.err"
rc=$?
[ $rc = 4 ] || { cat "$T/v.out" "$T/v.err"; fail "version mismatch: exit $rc, want 4"; }
grep -q "old (fio server runs 'fio-3.99', this host runs 'fio-3.33')" "$T/v.err" || fail "version message: $(cat "$T/v.err")"
grep -q "^old .*fio-3.99 .*VERSION" "$T/v.out" || fail "version row: $(cat "$T/v.out")"
echo "version mismatch caught: $(cat "$T/v.err")"

# 5. bench run --hosts refuses before any load / --allow-partial (when this build has --hosts)
if "$BENCH" run --help | grep -q -- '--hosts FILE'; then
	cat >"$T/quick.fio" <<'EOF'
[quick]
ioengine=psync
rw=randread
bs=4k
size=4m
time_based
runtime=2
EOF
	"$BENCH" run "$T/quick.fio" --hosts "$T/hosts.dead" --db "$T/refuse.db" -q >"$T/r1.out" 2>"$T/r1.err"
	rc=$?
	if grep -q "not available in this build" "$T/r1.err"; then
		echo "NOTE: bench run --hosts not in this build yet; run part skipped" >&2
	else
		[ $rc = 4 ] || { cat "$T/r1.out" "$T/r1.err"; fail "run with an unreachable host: exit $rc, want 4"; }
		grep -q "ghost" "$T/r1.err" || fail "refusal does not name ghost: $(cat "$T/r1.err")"
		n=$(sqlite3 "$T/refuse.db" "select count(*) from result" 2>/dev/null || echo 0)
		[ "$n" = 0 ] || fail "a refused run stored $n results"
		"$BENCH" run "$T/quick.fio" --hosts "$T/hosts.dead" --allow-partial --db "$T/partial.db" -q >"$T/r2.out" 2>"$T/r2.err"
		rc=$?
		[ $rc = 4 ] || { cat "$T/r2.out" "$T/r2.err"; fail "--allow-partial run: exit $rc, want 4 (partial)"; }
		st=$(sqlite3 "$T/partial.db" "select status from run")
		[ "$st" = partial ] || fail "--allow-partial run status '$st', want partial"
		hosts=$(sqlite3 "$T/partial.db" "select group_concat(host, ',') from (select distinct host from result order by host)")
		[ "$hosts" = "*,lab1,lab2" ] || fail "--allow-partial stored hosts '$hosts', want *,lab1,lab2"
		sqlite3 "$T/partial.db" "select error from run_host where host='ghost'" | grep -q "ghost" || fail "no error row for ghost"
		echo "allow-partial: status=$st hosts=$hosts"
	fi
fi
echo "hosts_check: ok"
