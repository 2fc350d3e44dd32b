#!/bin/bash
# report_table: `bench report` raw-data table on a database written with sqlite3 (schema.sql): label groups,
# repetitions folded into median (min-max), partial runs marked, failed runs only with -v (with their error),
# per-host rows with fio version and start offset, p99 from result_pct or from histogram bins, CPU from the
# collector's cluster figure before fio's own; text, csv, json and markdown; errors and exit codes.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/r.db
schema_db "$DB" <<'SQL'
INSERT INTO suite(id,name,source,created_at) VALUES (1,'s1','run','2026-11-30T00:00:00Z');
INSERT INTO suite_label VALUES (1,'stack','raid5');
-- w1: three repetitions in group transport=x
INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct)
 VALUES (1,1,1,1,'w1','fio','done','2026-11-30T00:00:01Z','fio',4096,70,100),
        (2,1,1,2,'w1','fio','done','2026-11-30T00:00:02Z','fio',4096,70,100),
        (3,1,1,3,'w1','fio','done','2026-11-30T00:00:03Z','fio',4096,70,100),
        (4,1,2,1,'w2','fio','partial','2026-11-30T00:00:04Z','fio',8192,0,0),
        (5,1,3,1,'w3','fio','failed','2026-11-30T00:00:05Z','fio',8192,100,0),
        (6,1,1,1,'w1','fio','done','2026-11-30T00:00:06Z','fio',4096,70,100);
UPDATE run SET error='fio exited with status 1: bad target' WHERE id=5;
INSERT INTO run_label VALUES (1,'transport','x'),(2,'transport','x'),(3,'transport','x'),(4,'transport','x'),
 (5,'transport','x'),(6,'transport','y');
INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,usr_cpu_pct,sys_cpu_pct) VALUES
 (1,'*','fio-3.33',0,1,1),(1,'h1','fio-3.33',0,1,1),(1,'h2','fio-3.33',12.5,1,1),
 (2,'*','fio-3.33',0,3,2),(3,'*','fio-3.33',0,4,4),(4,'*','fio-3.33',0,1,0),(6,'*','fio-3.33',0,10,5);
INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,error_code,error) VALUES (4,'h2','fio-3.33',3,5,'host h2 lost');
-- result rows: total/read/write of '*'; iops 100, 300, 200 for the repetitions
INSERT INTO result(id,run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes,lat_mean_ns,clat_mean_ns) VALUES
 (1,1,'*','total',1,1,1,100,1048576,NULL,NULL),(2,1,'*','read',1,1,1,70,734003.2,1000000,900000),
 (3,1,'*','write',1,1,1,30,314572.8,NULL,3000000),
 (4,2,'*','total',1,1,1,300,3145728,NULL,NULL),(5,2,'*','read',1,1,1,210,1,2000000,NULL),
 (6,3,'*','total',1,1,1,200,2097152,NULL,NULL),(7,3,'*','read',1,1,1,140,1,1500000,NULL),
 (8,4,'*','write',1,1,1,50,52428800,4000000,NULL),
 (9,6,'*','total',1,1,1,400,4194304,NULL,NULL),
 (10,1,'h1','read',1,1,1,35,367001.6,1000000,NULL),(11,1,'h2','read',1,1,1,35,367001.6,1000000,NULL);
INSERT INTO result_pct VALUES (2,99.0,2000000),(2,99.9,9000000),(5,99.0,4000000),(7,99.0,3000000);
INSERT INTO result_bin VALUES (3,1000,98),(3,5000000,2);
INSERT INTO cpu(run_id,host,role,source,util_pct) VALUES (1,'*','initiator','procstat',12.5),(1,'*','initiator','fio',2);
SQL

run() { "$BENCH" report --db "$DB" "$@" >"$T/out" 2>"$T/err"; echo $?; }

[ "$(run)" = 0 ] || fail "text exit: $(cat "$T/err")"
grep -q '^== \|^-- ' "$T/out" || fail "no group heading"
grep -q 'stack=raid5 transport=x' "$T/out" || fail "group title (suite label inherited): $(cat "$T/out")"
grep -q 'stack=raid5 transport=y' "$T/out" || fail "second group"
grep -E '^  w1 +3 +200 \(100-300\)' "$T/out" >/dev/null || fail "median (min-max) of three repetitions: $(cat "$T/out")"
grep -q 'w2 (partial)' "$T/out" || fail "partial run not marked"
grep -q 'w3' "$T/out" && fail "failed run in the table without -v"
[ -s "$T/err" ] && fail "stderr not empty: $(cat "$T/err")"

[ "$(run -v)" = 0 ] || fail "-v exit"
grep -q 'failed.*w3.*fio exited with status 1: bad target' "$T/out" || fail "-v lists failed run with error: $(cat "$T/out")"
grep -E '^  1 +h2 +fio-3.33 +12.5' "$T/out" >/dev/null || fail "-v host row with fio version and start offset"
grep -q 'host h2 lost' "$T/out" || fail "-v host error"

[ "$(run --format csv)" = 0 ] || fail "csv exit"
"$PY3" - "$T/out" <<'PY' || fail "csv content"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
by = {(r['transport'], r['workload']): r for r in rows}
assert len(rows) == 3, rows
w1 = by[('x', 'w1')]
assert w1['stack'] == 'raid5' and w1['runs'] == '3'
assert float(w1['iops']) == 200 and float(w1['iops_min']) == 100 and float(w1['iops_max']) == 300, w1
assert float(w1['mbps']) == 2, w1['mbps']
# read mean latency: lat_mean (1, 2, 1.5 ms) -> median 1.5
assert float(w1['read_lat_ms']) == 1.5, w1['read_lat_ms']
# write latency falls back to clat_mean when lat_mean is NULL: 3 ms, one run
assert float(w1['write_lat_ms']) == 3.0
# read p99 from result_pct: 2, 4, 3 ms -> 3; write p99 of run 1 from bins: 5 ms
assert float(w1['read_p99_ms']) == 3.0 and float(w1['read_p99_ms_min']) == 2.0
assert float(w1['write_p99_ms']) == 5.0, w1['write_p99_ms']
# CPU: procstat cluster 12.5 (run 1), fio usr+sys 5 (run 2), 8 (run 3) -> 8 (5-12.5)
assert float(w1['cpu_pct']) == 8 and float(w1['cpu_pct_min']) == 5 and float(w1['cpu_pct_max']) == 12.5, w1
w2 = by[('x', 'w2')]
assert w2['partial'] == '1' and float(w2['iops']) == 50 and float(w2['mbps']) == 50
assert by[('y', 'w1')]['iops'] == '400' and float(by[('y', 'w1')]['cpu_pct']) == 15
PY

[ "$(run --format json -v)" = 0 ] || fail "json exit"
"$PY3" - "$T/out" <<'PY' || fail "json content"
import json, sys
d = json.load(open(sys.argv[1]))
g = d['groups'][0]
assert g['labels'] == {'stack': 'raid5', 'transport': 'x'}, g['labels']
assert g['rows'][0]['iops']['median'] == 200 and g['rows'][0]['run_ids'] == [1, 2, 3]
assert g['rows'][0]['read_lat_ms']['n'] == 3
st = {r['id']: r['status'] for r in d['runs']}
assert st[5] == 'failed' and [r for r in d['runs'] if r['id'] == 5][0]['error'].startswith('fio exited')
h = [x for x in d['runs'][0]['hosts'] if x['host'] == 'h2'][0]
assert h['fio_version'] == 'fio-3.33' and h['start_offset_ms'] == 12.5
PY

[ "$(run --format markdown)" = 0 ] || fail "markdown exit"
grep -q '^| workload | runs | IOPS |' "$T/out" || fail "markdown header: $(head -5 "$T/out")"
grep -q '^| --- | ---: |' "$T/out" || fail "markdown alignment row"

[ "$(run --where transport=y --format csv)" = 0 ] || fail "where exit"
[ "$(grep -c . "$T/out")" = 2 ] || fail "--where transport=y keeps one row: $(cat "$T/out")"
[ "$(run --where bs=8k --format csv)" = 0 ] || fail "where bs"
grep -q ',w2,' "$T/out" && [ "$(grep -c . "$T/out")" = 2 ] || fail "--where bs=8k: $(cat "$T/out")"
[ "$(run --by stack --format csv)" = 0 ] || fail "--by exit"
# never folded (issue 29): the transports stay apart in rows named by the label that split them
"$PY3" - "$T/out" <<'PY' || fail "--by stack folds both transports"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
assert list(rows[0].keys())[0] == 'stack' and 'transport' not in rows[0]
x = [r for r in rows if r['workload'] == 'w1 (transport=x)'][0]
y = [r for r in rows if r['workload'] == 'w1 (transport=y)'][0]
assert x['runs'] == '3' and float(x['iops']) == 200, x
assert y['runs'] == '1' and float(y['iops']) == 400 and y['single'] == '1', y
assert x['iops_n'] == '3' and float(x['iops_lo']) == 100 and float(x['iops_hi']) == 300, x
PY
[ "$(run --by stack)" = 0 ] || fail "--by text exit"
grep -q "^Rows split by label transport:" "$T/out" || fail "--by: no line naming the label that split: $(cat "$T/out")"

# errors: exit codes and one line on stderr
[ "$(run --format xml)" = 2 ] || fail "bad format exit"
[ "$(wc -l < "$T/err")" = 1 ] || fail "one line: $(cat "$T/err")"
[ "$(run --where nokey)" = 2 ] || fail "bad --where exit"
[ "$(run --compare transport=x)" = 2 ] || fail "bad --compare exit"
[ "$("$BENCH" report --db "$T/none.db" >/dev/null 2>"$T/err"; echo $?)" = 5 ] || fail "missing db exit"
grep -q "none.db" "$T/err" || fail "missing db message names it"
[ -e "$T/none.db" ] && fail "report created a database"
[ "$("$BENCH" report --help >"$T/out"; echo $?)" = 0 ] || fail "--help exit"
grep -q -- '--compare' "$T/out" || fail "--help text"
# read-only: the file is unchanged by a report
SUM=$(md5sum < "$DB"); run >/dev/null; [ "$SUM" = "$(md5sum < "$DB")" ] || fail "report changed the database"
echo "report_table: ok"
