#!/usr/bin/env bash
# hosts_multihost: `bench run --hosts` on a 4-host loopback lab (issue 4, acceptance 1, 2 and 5).
#  1. a quick 2-run suite: each run has 4 per-host results and one aggregate ('*'); aggregate IOs, bytes, IOPS
#     = sums of the hosts'; aggregate bins = per-host bins summed; aggregate p99 and p99.9 = the percentiles
#     recomputed here (python3, exact rational arithmetic emulating fio's long double threshold) from the
#     stored per-host bins; aggregate IOs and mean latency agree with fio's own "All clients" entry.
#  5. per-host start offsets stored (run_host.start_offset_ms, first host 0) and shown by `bench report -v`
#     (text) and equal in `bench report -v --format json`; the spread is printed. Each host row holds the
#     server's own host name (run_host.hostname, from its PROBE reply: this machine's, in a loopback lab).
#  2. one lab server killed (SIGKILL to its process group) mid-run: the run is 'partial', its error names the
#     host, the 3 others are stored; the suite goes on (the next run runs on the 3 survivors, also 'partial'),
#     exit 4; with --stop-on-host-failure the suite stops after the partial run with exit 4.
. "$BENCH_SRC/tests/lib/lab.sh"
lab_scratch multihost
needed python3 sqlite3

"$BENCH" lab up 4 --dir "$LAB" --port "$PORT" --size 16m >"$T/up.out" 2>&1 || { cat "$T/up.out"; fail "lab up 4"; }

job() { # name rw runtime [extra option lines]
	{
		printf '[%s]\nioengine=psync\nrw=%s\nbs=4k\nsize=8m\ntime_based\nruntime=%s\nramp_time=1\n' "$1" "$2" "$3"
		shift 3
		for o in "$@"; do printf '%s\n' "$o"; done
	} >"$T/$1.fio"
}
job rread randread 2 numjobs=2
job rmix randrw 2 rwmixread=70
job long randread 6
job short randread 2

# ---- 1 and 5: a quick suite over 4 hosts
"$BENCH" run "$T/rread.fio" "$T/rmix.fio" --hosts "$LAB/hosts" --db "$T/a.db" -q >"$T/a.out" 2>"$T/a.err"
rc=$?
[ $rc = 0 ] || { cat "$T/a.out" "$T/a.err"; fail "quick suite over 4 hosts: exit $rc"; }

python3 - "$T/a.db" <<'EOF' || fail "aggregate checks"
import sqlite3, sys, json
from fractions import Fraction as F

def ld(x):
    """x rounded to an x87 long double (64-bit significand, nearest even)."""
    if x == 0:
        return F(0)
    s = -1 if x < 0 else 1
    x = abs(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if F(2) ** e > x:
        e -= 1
    scale = F(2) ** (63 - e)
    m = x * scale
    q, r = divmod(m.numerator, m.denominator)
    r2 = F(r, m.denominator)
    if r2 > F(1, 2) or (r2 == F(1, 2) and q % 2):
        q += 1
    return s * F(q) / scale

def fio_pct(bins, p):
    """fio stat.c calc_clat_percentiles: first bucket where sum >= (long double)p / 100.0 * N"""
    n = sum(c for _, c in bins)
    thr = ld(ld(F(p) / 100) * n)
    cum = 0
    for v, c in bins:
        cum += c
        if cum >= thr:
            return v
    return bins[-1][0]

db = sqlite3.connect(sys.argv[1])
runs = db.execute("select id, name, status from run order by seq").fetchall()
assert len(runs) == 2, runs
for run_id, name, status in runs:
    assert status == 'done', (name, status)
    hosts = [h for (h,) in db.execute("select distinct host from result where run_id=? order by host", (run_id,))]
    assert hosts == ['*', 'lab1', 'lab2', 'lab3', 'lab4'], hosts
    rh = db.execute("select count(*) from run_host where run_id=? and host like 'lab%' and error is null", (run_id,)).fetchone()[0]
    assert rh == 4, rh
    for ddir in ('read', 'write', 'total'):
        rows = db.execute("select id, host, ios, bytes, iops, bw_bytes, pct_kind from result where run_id=? and ddir=?",
                          (run_id, ddir)).fetchall()
        if not rows:
            continue
        agg = [r for r in rows if r[1] == '*']
        per = [r for r in rows if r[1] != '*']
        assert len(agg) == 1 and len(per) == 4, (name, ddir, rows)
        a = agg[0]
        assert a[2] == sum(r[2] for r in per), ('ios', name, ddir)
        assert a[3] == sum(r[3] for r in per), ('bytes', name, ddir)
        assert abs(a[4] - sum(r[4] for r in per)) <= 1e-9 * a[4], ('iops', name, ddir, a[4], sum(r[4] for r in per))
        assert abs(a[5] - sum(r[5] for r in per)) <= 1e-9 * a[5], ('bw', name, ddir)
        # per-host bins summed, independently
        summed = {}
        for r in per:
            for v, c in db.execute("select value_ns, count from result_bin where result_id=?", (r[0],)):
                summed[v] = summed.get(v, 0) + c
        bins = sorted(summed.items())
        stored = db.execute("select value_ns, count from result_bin where result_id=? order by value_ns", (a[0],)).fetchall()
        assert stored == bins, ('bins', name, ddir)
        assert sum(c for _, c in bins) == a[2], ('bins vs ios', name, ddir)
        pcts = dict(db.execute("select pct, value_ns from result_pct where result_id=?", (a[0],)).fetchall())
        for p in (99.0, 99.9):
            assert p in pcts, (name, ddir, sorted(pcts))
            want = fio_pct(bins, p)
            assert pcts[p] == want, ('pct', name, ddir, p, pcts[p], want)
        print("run %-5s %-5s hosts 4  IOPS %10.1f = sum %10.1f   p99 %8d ns  p99.9 %8d ns (recomputed: equal)"
              % (name.split('/')[-1][:5], ddir, a[4], sum(r[4] for r in per), pcts[99.0], pcts[99.9]))
    # fio's own "All clients" entry (no percentiles in 3.33): IOs and mean latency agree
    raw = db.execute("select content from artifact where run_id=? and name='fio-output.json'", (run_id,)).fetchone()
    assert raw, "no raw output artifact"
    text = raw[0].decode() if isinstance(raw[0], bytes) else raw[0]
    doc = json.loads(text[text.index('{'):])
    allc = [c for c in doc['client_stats'] if c['jobname'] == 'All clients']
    assert allc, "no All clients entry"
    for ddir in ('read', 'write'):
        ac = allc[0][ddir]
        if not ac['total_ios']:
            continue
        ios, kind = db.execute("select ios, pct_kind from result where run_id=? and host='*' and ddir=?", (run_id, ddir)).fetchone()
        assert ios == ac['total_ios'], ('All clients ios', ios, ac['total_ios'])
        mean, sd = db.execute("select clat_mean_ns, clat_stddev_ns from result where run_id=? and host='*' and ddir=?", (run_id, ddir)).fetchone()
        assert abs(mean - ac['clat_ns']['mean']) <= 1e-6 * mean, ('mean vs All clients', mean, ac['clat_ns']['mean'])
        assert abs(sd - ac['clat_ns']['stddev']) <= 1e-6 * sd, ('stddev vs All clients', sd, ac['clat_ns']['stddev'])
print("aggregate: exact")
EOF

# 5. start offsets
offs=$(sqlite3 "$T/a.db" "select group_concat(host || '=' || start_offset_ms, ' ') from run_host where run_id=(select min(id) from run) and host like 'lab%' order by host")
echo "start offsets (ms), run 1: $offs"
n=$(sqlite3 "$T/a.db" "select count(*) from run_host where host like 'lab%' and start_offset_ms is not null and start_offset_ms >= 0")
[ "$n" = 8 ] || fail "start offsets stored for $n of 8 host runs"
z=$(sqlite3 "$T/a.db" "select count(*) from (select run_id, min(start_offset_ms) m from run_host where host like 'lab%' group by run_id) where m = 0")
[ "$z" = 2 ] || fail "the first host of each run must have offset 0"
spread=$(sqlite3 "$T/a.db" "select group_concat(s, ' ') from (select max(start_offset_ms) - min(start_offset_ms) s from run_host where host like 'lab%' group by run_id)")
echo "start offset spread per run (ms): $spread"
# host names: the servers' own (their PROBE reply), not fio's JSON hostname (the --client address): every
# loopback server runs here, so each of the 8 host rows holds this machine's name; the aggregate row has none
me=$(uname -n)
n=$(sqlite3 "$T/a.db" "select count(*) from run_host where host like 'lab%' and hostname = '$me'")
[ "$n" = 8 ] || fail "run_host.hostname is '$me' in $n of 8 host runs: $(sqlite3 "$T/a.db" "select host, hostname from run_host")"
n=$(sqlite3 "$T/a.db" "select count(*) from run_host where host = '*' and hostname is null")
[ "$n" = 2 ] || fail "the aggregate rows: $n of 2 without a host name"
echo "host names: all 8 host runs ran on '$me'"
"$BENCH" report -v --db "$T/a.db" >"$T/rep.txt" 2>&1 || { cat "$T/rep.txt"; fail "bench report -v"; }
for h in lab1 lab2 lab3 lab4; do
	o=$(sqlite3 "$T/a.db" "select printf('%.1f', start_offset_ms) from run_host where host='$h' and run_id=(select min(id) from run)")
	grep -E "(^|[^a-z0-9])$h([^0-9].*)?[^0-9.]$o([^0-9]|$)" "$T/rep.txt" >/dev/null ||
		{ cat "$T/rep.txt"; fail "bench report -v does not show $h with offset $o"; }
done
"$BENCH" report -v --format json --db "$T/a.db" >"$T/rep.json" 2>&1 || fail "bench report -v --format json"
python3 - "$T/a.db" "$T/rep.json" <<'EOF' || fail "report json offsets"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
want = {(h, o) for h, o in db.execute("select host, start_offset_ms from run_host where host like 'lab%'")}
text = open(sys.argv[2]).read()
got = set()
def walk(x):
    if isinstance(x, dict):
        if 'start_offset_ms' in x and 'host' in x and str(x['host']).startswith('lab'):
            got.add((x['host'], x['start_offset_ms']))
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.loads(text))
assert {h for h, _ in want} <= {h for h, _ in got}, (want, got)
for h, o in got:
    assert any(h == wh and abs(o - wo) < 1e-9 for wh, wo in want), (h, o)
print("report -v json: %d host offsets match the store" % len(got))
EOF

# ---- 2. a host lost mid-run; the suite goes on (default)
kill_lab3_midrun() { # db
	for _ in $(seq 200); do
		[ "$(sqlite3 "$1" "select count(*) from run where status='running'" 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	sleep 4
	kill -9 -- "-$(cat "$LAB/host3/fio.pid")"
}
# run_losing_lab3 NAME WHAT [OPTION...]: long.fio and short.fio on the lab into $T/NAME.db (output
# $T/NAME.out and .err) while lab3 is killed mid-run; bench must exit 4
run_losing_lab3() {
	local name=$1 what=$2 run rc
	shift 2
	"$BENCH" run "$T/long.fio" "$T/short.fio" --hosts "$LAB/hosts" --db "$T/$name.db" -q "$@" \
		>"$T/$name.out" 2>"$T/$name.err" &
	run=$!
	kill_lab3_midrun "$T/$name.db"
	wait $run
	rc=$?
	[ $rc = 4 ] || { cat "$T/$name.out" "$T/$name.err"; fail "$what: exit $rc, want 4"; }
}
run_losing_lab3 b "suite with a lost host"
st=$(sqlite3 "$T/b.db" "select group_concat(status, ',') from (select status from run order by seq)")
[ "$st" = "partial,partial" ] || { cat "$T/b.err"; fail "statuses '$st', want partial,partial (the suite goes on)"; }
err1=$(sqlite3 "$T/b.db" "select error from run where seq=1")
echo "$err1" | grep -q "lab3" || fail "run 1 error does not name lab3: $err1"
echo "lost host, run 1: $err1"
h=$(sqlite3 "$T/b.db" "select group_concat(host, ',') from (select distinct host from result where run_id=(select id from run where seq=1) order by host)")
[ "$h" = "*,lab1,lab2,lab4" ] || fail "run 1 stored hosts '$h', want *,lab1,lab2,lab4"
sqlite3 "$T/b.db" "select error from run_host where host='lab3' and run_id=(select id from run where seq=1)" | grep -q "lab3" ||
	fail "no run_host error for lab3"
n=$(sqlite3 "$T/b.db" "select count(*) from result where run_id=(select id from run where seq=1) and host<>'*' and ios>0 and ddir='read'")
[ "$n" = 3 ] || fail "run 1: $n surviving hosts with IOs, want 3"
h2=$(sqlite3 "$T/b.db" "select group_concat(host, ',') from (select distinct host from result where run_id=(select id from run where seq=2) order by host)")
[ "$h2" = "*,lab1,lab2,lab4" ] || fail "run 2 (after the loss) stored hosts '$h2', want *,lab1,lab2,lab4"
echo "suite went on: run 2 on $h2, $(sqlite3 "$T/b.db" "select error from run where seq=2")"

# ---- 2b. the same with --stop-on-host-failure: stops after the partial run
"$BENCH" lab down --dir "$LAB" >/dev/null 2>&1
"$BENCH" lab up 4 --dir "$LAB" --port "$PORT" --size 16m >/dev/null 2>&1 || fail "lab up 4 (again)"
run_losing_lab3 c --stop-on-host-failure --stop-on-host-failure
st=$(sqlite3 "$T/c.db" "select status from run where seq=1")
[ "$st" = partial ] || fail "--stop-on-host-failure: run 1 '$st', want partial"
n=$(sqlite3 "$T/c.db" "select count(*) from run where seq=2 and status='done'")
[ "$n" = 0 ] || fail "--stop-on-host-failure: run 2 ran"
grep -q "lab3\|stop" "$T/c.err" || fail "--stop-on-host-failure: no message: $(cat "$T/c.err")"
echo "hosts_multihost: ok"
