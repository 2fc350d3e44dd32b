#!/bin/bash
# report_cpu: `bench report -v` shows the CPU and disk figures the collectors store (tables cpu and disk):
# the cluster figure per role (host '*'), util %, cores and source per host, CPU microseconds per IO, the
# devices with their reads and writes, and the IO amplification (device IOs of the target hosts / front-end
# IOs; only where the devices measured are the ones the workload drove, the targets': a run without a target
# host lists its device IOs but has no amplification). The default table gets a target CPU % column only when the
# selected runs have target-role cpu rows. The expected figures are computed here with python3 from the
# stored shares, cores, runtime and IO counts, not copied from bench.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/c.db
schema_db "$DB" <<'SQL'
INSERT INTO suite(id,name,source,created_at) VALUES (1,'raid','run','2026-11-30T00:00:00Z');
INSERT INTO suite_label VALUES (1,'stack','mdadm-raid5');
-- run 1: initiator ini1 (2 cores) and target tgt1 (8 cores, RAID5 over 4 NVMe members), 70 % random writes
-- run 2: one machine, no target host; run 3: failed, nothing collected
INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct,runtime_s)
 VALUES (1,1,1,1,'w1','fio','done','2026-11-30T00:00:01Z','fio',4096,30,100,10),
        (2,1,2,1,'w2','fio','done','2026-11-30T00:00:02Z','fio',8192,0,100,10),
        (3,1,3,1,'w3','fio','failed','2026-11-30T00:00:03Z','fio',8192,100,0,10);
INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,usr_cpu_pct,sys_cpu_pct) VALUES
 (1,'*','fio-3.33',0,3,4),(1,'ini1','fio-3.33',0,3,4),(2,'*','fio-3.33',0,1,1);
INSERT INTO result(id,run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes) VALUES
 (1,1,'*','total',100000,409600000,10000,10000,40960000),
 (2,1,'*','read',30000,122880000,10000,3000,12288000),
 (3,1,'*','write',70000,286720000,10000,7000,28672000),
 (4,2,'*','write',2000,16384000,10000,200,1638400);
INSERT INTO cpu(run_id,host,role,source,cores,user_pct,nice_pct,system_pct,iowait_pct,irq_pct,softirq_pct,
                steal_pct,idle_pct,util_pct,cpu_us_per_io) VALUES
 (1,'ini1','initiator','procstat',2, 20,0,15,5,0,5,0,55, 40,80),
 (1,'*','initiator','procstat',2, 20,0,15,5,0,5,0,55, 40,80),
 (1,'tgt1','target','node_exporter',8, 10,0,40,0,5,7.5,0,37.5, 62.5,500),
 (1,'*','target','node_exporter',8, 10,0,40,0,5,7.5,0,37.5, 62.5,500),
 (2,'local','initiator','procstat',2, 5,0,5,10,0,0,0,80, 10,1000),
 (2,'*','initiator','procstat',2, 5,0,5,10,0,0,0,80, 10,1000);
INSERT INTO disk(run_id,host,device,reads,writes,read_sectors,write_sectors,io_ticks_ms) VALUES
 (1,'tgt1','nvme0n1',42000,35500,336000,284000,9000),
 (1,'tgt1','nvme1n1',43000,34500,344000,276000,9100),
 (1,'tgt1','nvme2n1',42500,35000,340000,280000,9050),
 (1,'tgt1','nvme3n1',42500,35000,340000,280000,9050),
 (1,'ini1','nvme9n1',30000,70000,240000,560000,9990),
 (2,'local','sda',100,2100,800,33600,4000);
SQL

run() { "$BENCH" report --db "$DB" "$@" >"$T/out" 2>"$T/err"; echo $?; }

# The expected figures, from the database with Python's sqlite3 (definitions of issue 7 and docs/report.md).
"$PY3" - "$DB" >"$T/expect.json" <<'PY' || fail "computing the expected figures"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
exp = {}
for (run,) in db.execute("SELECT id FROM run ORDER BY id"):
    front = db.execute("SELECT ios, runtime_ms FROM result WHERE run_id=? AND host='*' AND ddir='total'",
                       (run,)).fetchone()
    if front is None:
        front = db.execute("SELECT sum(ios), max(runtime_ms) FROM result WHERE run_id=? AND host='*'",
                           (run,)).fetchone()
    ios, runtime_ms = front
    cpu = []
    for host, role, cores, u, n, s, irq, sirq, st in db.execute(
            "SELECT host, role, cores, user_pct, nice_pct, system_pct, irq_pct, softirq_pct, steal_pct "
            "FROM cpu WHERE run_id=?", (run,)):
        util = u + n + s + irq + sirq + st                       # busy share of all cores, %
        busy_s = util / 100 * cores * runtime_ms / 1000           # busy CPU seconds in the window
        cpu.append({'host': host, 'role': role, 'cores': cores, 'util': util,
                    'us_per_io': busy_s * 1e6 / ios})
    targets = {h for (h,) in db.execute("SELECT host FROM cpu WHERE run_id=? AND role='target' AND host<>'*'",
                                        (run,))}
    disks = db.execute("SELECT host, device, reads, writes FROM disk WHERE run_id=?", (run,)).fetchall()
    counted = [d for d in disks if d[0] in targets] if targets else disks
    dev_ios = sum(r + w for _, _, r, w in counted)
    exp[run] = {'front': ios, 'cpu': cpu, 'device_ios': dev_ios,
                'scope': ('target' if targets else 'all') if disks else None,
                'amp': dev_ios / ios if disks and ios and targets else None,
                'counted': sorted(d[1] for d in counted)}
json.dump(exp, sys.stdout)
PY
"$PY3" -c 'import json,sys; e=json.load(open(sys.argv[1])); assert abs(e["1"]["amp"]-3.1)<1e-12, e["1"]' \
    "$T/expect.json" || fail "test data: RAID5 amplification of run 1 should be 3.1"
"$PY3" -c 'import json,sys; e=json.load(open(sys.argv[1])); assert e["2"]["device_ios"]==2200 and e["2"]["amp"] is None, e["2"]' \
    "$T/expect.json" || fail "test data: run 2 has 2200 device IOs and no amplification (no target host)"

# ---- -v text: the CPU and disks section ----
[ "$(run -v)" = 0 ] || fail "-v exit: $(cat "$T/err")"
[ -s "$T/err" ] && fail "stderr not empty: $(cat "$T/err")"
grep -q '^== CPU and disks' "$T/out" || fail "no CPU and disks section: $(cat "$T/out")"
"$PY3" - "$T/out" "$T/expect.json" <<'PY' || fail "-v text figures: $(sed -n '/CPU and disks/,$p' "$T/out")"
import json, re, sys
text = open(sys.argv[1]).read().split('== CPU and disks', 1)[1]
exp = json.load(open(sys.argv[2]))
def table(title):
    part = text.split('-- ' + title + '\n', 1)[1]
    lines = []
    for l in part.split('\n'):
        if not l.startswith('  '):
            break
        lines.append(re.split(r' {2,}', l.strip()))
    hdr = lines[0]
    return [dict(zip(hdr, l)) for l in lines[1:]]
cpu = table('CPU')
for run, e in exp.items():
    for c in e['cpu']:
        host = '* (cluster)' if c['host'] == '*' else c['host']
        rows = [r for r in cpu if r['run'] == run and r['role'] == c['role'] and r['host'] == host]
        assert len(rows) == 1, (run, c, cpu)
        r = rows[0]
        assert r['cores'] == str(c['cores']), r
        assert r['util %'] == '%.1f' % c['util'], (r, c)
        assert r['CPU us/IO'] == '%.2f' % c['us_per_io'], (r, c)
assert [r['source'] for r in cpu if r['run'] == '1' and r['role'] == 'target'] == ['node_exporter'] * 2
assert not [r for r in cpu if r['run'] == '3'], 'run 3 has no cpu rows'
# order: per run the initiators first, the cluster row first within a role
r1 = [(r['role'], r['host']) for r in cpu if r['run'] == '1']
assert r1 == [('initiator', '* (cluster)'), ('initiator', 'ini1'), ('target', '* (cluster)'), ('target', 'tgt1')], r1
disks = table('Disks')
d1 = {r['device']: r for r in disks if r['run'] == '1'}
assert sorted(k for k, r in d1.items() if r['counted'] == 'yes') == exp['1']['counted'], d1
assert d1['nvme9n1']['role'] == 'initiator' and d1['nvme9n1']['counted'] == 'no'
assert d1['nvme1n1']['reads'] == '43000' and d1['nvme1n1']['writes'] == '34500' and d1['nvme1n1']['role'] == 'target'
amp = {r['run']: r for r in table('IO amplification')}
assert set(amp) == {'1', '2'}, amp
for run in ('1', '2'):
    e = exp[run]
    assert amp[run]['front-end IOs'] == str(e['front']), amp[run]
    assert amp[run]['device IOs'] == str(e['device_ios']), amp[run]
    assert amp[run]['IO amplification'] == ('%.2f' % e['amp'] if e['amp'] is not None else '-'), (amp[run], e)
assert exp['2']['amp'] is None and amp['2']['IO amplification'] == '-', 'run 2 (no target host): no amplification'
assert amp['1']['devices of'] == 'target hosts' and amp['2']['devices of'] == 'all hosts (no target)', amp
print('text: run 1 target util %s, CPU us/IO %s, amplification %s; run 2 amplification %s' % (
    [r for r in cpu if r['run'] == '1' and r['role'] == 'target'][0]['util %'],
    [r for r in cpu if r['run'] == '1' and r['role'] == 'target'][0]['CPU us/IO'],
    amp['1']['IO amplification'], amp['2']['IO amplification']))
PY

# ---- -v json ----
[ "$(run -v --format json)" = 0 ] || fail "-v json exit: $(cat "$T/err")"
"$PY3" - "$T/out" "$T/expect.json" <<'PY' || fail "-v json figures"
import json, sys
d = json.load(open(sys.argv[1]))
exp = json.load(open(sys.argv[2]))
runs = {str(r['id']): r for r in d['runs']}
for run, e in exp.items():
    cd = runs[run]['cpu_disks']
    for c in e['cpu']:
        x = [y for y in cd['cpu'] if y['host'] == c['host'] and y['role'] == c['role']]
        assert len(x) == 1, (run, c, cd['cpu'])
        x = x[0]
        assert x['cores'] == c['cores'] and abs(x['util_pct'] - c['util']) < 1e-9, (x, c)
        assert abs(x['cpu_us_per_io'] - c['us_per_io']) < 1e-9, (x, c)
    assert cd['front_end_ios'] == e['front'] and cd['device_ios'] == e['device_ios'], (cd, e)
    assert cd['devices_of'] == e['scope'], (cd['devices_of'], e['scope'])
    if e['amp'] is None:
        assert cd['io_amplification'] is None
    else:
        assert abs(cd['io_amplification'] - e['amp']) < 1e-12, (cd['io_amplification'], e['amp'])
    assert sorted(x['device'] for x in cd['disks'] if x['counted']) == e['counted']
t = [x for x in runs['1']['cpu_disks']['cpu'] if x['host'] == '*' and x['role'] == 'target'][0]
assert t['system_pct'] == 40 and t['idle_pct'] == 37.5 and t['source'] == 'node_exporter', t
assert runs['3']['cpu_disks']['cpu'] == [] and runs['3']['cpu_disks']['io_amplification'] is None
# the default table of the same output: target CPU % next to CPU %
rows = {r['workload']: r for g in d['groups'] for r in g['rows']}
assert rows['w1']['target_cpu_pct']['median'] == 62.5 and rows['w1']['cpu_pct']['median'] == 40, rows['w1']
assert rows['w2']['target_cpu_pct']['n'] == 0, rows['w2']
print('json: run 1 amplification %r, run 2 %r' % (runs['1']['cpu_disks']['io_amplification'],
                                                  runs['2']['cpu_disks']['io_amplification']))
PY

# ---- -v markdown: same section, escaped ----
[ "$(run -v --format markdown)" = 0 ] || fail "-v markdown exit"
grep -q '^## CPU and disks' "$T/out" || fail "markdown section heading"
grep -qF '| 1 | target | \* (cluster) | node\_exporter | 8 | 62.5 | 500.00 |' "$T/out" ||
    fail "markdown cluster row: $(grep -A8 'CPU and disks' "$T/out")"

# ---- default table: target CPU column only when there are target cpu rows ----
[ "$(run)" = 0 ] || fail "text exit"
grep -q 'CPU and disks' "$T/out" && fail "the CPU and disks section without -v"
grep -Eq '^  workload +runs +IOPS +MiB/s +CPU % +target CPU % +read lat ms' "$T/out" ||
    fail "no target CPU % column after CPU %: $(cat "$T/out")"
grep -Eq '^  w1 +1 +10000 +39\.1 +40\.0 +62\.5 ' "$T/out" || fail "w1 row with target CPU 62.5: $(cat "$T/out")"
[ "$(run --format csv)" = 0 ] || fail "csv exit"
"$PY3" - "$T/out" <<'PY' || fail "csv target_cpu_pct: $(cat "$T/out")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
hdr = list(rows[0].keys())
assert hdr[hdr.index('cpu_pct_max') + 1:hdr.index('cpu_pct_max') + 4] == \
    ['target_cpu_pct', 'target_cpu_pct_min', 'target_cpu_pct_max'], hdr
w1 = [r for r in rows if r['workload'] == 'w1'][0]
assert float(w1['target_cpu_pct']) == 62.5, w1
assert [r for r in rows if r['workload'] == 'w2'][0]['target_cpu_pct'] == ''
PY
# run 2 alone has no target-role cpu rows: the table is the one without the column
[ "$(run --where name=w2)" = 0 ] || fail "--where exit"
grep -q 'target CPU' "$T/out" && fail "target CPU column without target rows: $(cat "$T/out")"
grep -Eq '^  workload +runs +IOPS +MiB/s +CPU % +read lat ms' "$T/out" || fail "plain header: $(cat "$T/out")"
[ "$(run --where name=w2 --format csv)" = 0 ] || fail "--where csv exit"
head -1 "$T/out" | grep -q target && fail "csv target columns without target rows"
[ "$(run --where name=w2 --format json)" = 0 ] || fail "--where json exit"
grep -q target_cpu_pct "$T/out" && fail "json target_cpu_pct without target rows"

# a database without any cpu or disk rows: -v says so
sqlite3 "$DB" "DELETE FROM cpu; DELETE FROM disk;" || fail "delete"
[ "$(run -v)" = 0 ] || fail "-v exit without cpu rows"
grep -q 'No CPU or disk figures are stored for these runs.' "$T/out" || fail "empty section: $(cat "$T/out")"
grep -q 'target CPU' "$T/out" && fail "target CPU column after the cpu rows are gone"
echo "ok"
