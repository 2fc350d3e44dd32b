#!/bin/bash
# report_table_baseline: member baselines (`bench baseline`: runs labelled phase=baseline, docs/explain.md) are
# the explain model's input, not a configuration's result: the raw table and the comparison leave them out of
# their rows (report/table.c, rep_baseline_left), and `--where phase=baseline` (a selection of baselines only)
# shows them. A database written with sqlite3 (schema.sql): 2 baselines of w1 on loop1/loop2 (engine fio), w1 on
# raid0 with engine fio and with engine sim (one run each).
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/b.db
schema_db "$DB" <<'SQL'
INSERT INTO suite(id,name,source,created_at) VALUES (1,'s1','run','2026-12-05T00:00:00Z');
INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct)
 VALUES (1,1,1,1,'w1','fio','done','2026-12-05T00:00:01Z','fio',4096,0,100),
        (2,1,1,1,'w1','fio','done','2026-12-05T00:00:02Z','fio',4096,0,100),
        (3,1,1,1,'w1','fio','done','2026-12-05T00:00:03Z','fio',4096,0,100),
        (4,1,1,1,'w1','sim','done','2026-12-05T00:00:04Z','fio',4096,0,100);
INSERT INTO run_label VALUES (1,'phase','baseline'),(1,'baseline.member','loop1'),
 (2,'phase','baseline'),(2,'baseline.member','loop2'),(3,'config','raid0'),(4,'config','raid0');
INSERT INTO run_host(run_id,host,fio_version) VALUES (1,'*','fio-3.33'),(2,'*','fio-3.33'),(3,'*','fio-3.33'),
 (4,'*','fio-3.33');
INSERT INTO result(id,run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes) VALUES
 (1,1,'*','total',1,1,60000,1111,1),(2,2,'*','total',1,1,60000,2222,1),(3,3,'*','total',1,1,60000,3333,1),
 (4,4,'*','total',1,1,60000,4444,1);
SQL

run() { "$BENCH" report --db "$DB" "$@" >"$T/out" 2>"$T/err"; echo $?; }

# the raw table: the configuration's row (median of 3333 and 4444), not the baselines'
[ "$(run)" = 0 ] || fail "report: $(cat "$T/err")"
grep -q 3888 "$T/out" || fail "the measured runs are missing: $(cat "$T/out")"
grep -v '^2 baseline runs left out' "$T/out" | grep -qE '1111|2222|phase=baseline|loop1' &&
	fail "a baseline run is a row: $(cat "$T/out")"
grep -q '^2 baseline runs left out: bench report --where phase=baseline$' "$T/out" ||
	fail "no count line for the baselines left out: $(cat "$T/out")"
[ "$(run --format json)" = 0 ] || fail "json: $(cat "$T/err")"
rows=$("$PY3" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(g["rows"]) for g in d["groups"]))' "$T/out") ||
	fail "json: $(cat "$T/out")"
[ "$rows" = 1 ] || fail "json rows: want 1 (raid0), got $rows"

# a selection of baselines only shows them
[ "$(run --where phase=baseline)" = 0 ] || fail "--where phase=baseline: $(cat "$T/err")"
grep -q 1111 "$T/out" && grep -q 2222 "$T/out" || fail "--where phase=baseline: the baselines are missing: $(cat "$T/out")"

# the comparison of a field the baselines share (engine): one matched row, the baselines on neither side
[ "$(run --compare engine=sim:fio --format json)" = 0 ] || fail "compare: $(cat "$T/err")"
"$PY3" - "$T/out" <<'PY' || fail "compare json: $(cat "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
text = json.dumps(d)
assert '1111' not in text and '2222' not in text, 'a baseline in the comparison'
assert d['matched'] == 1, d['matched']
PY
echo "report_table_baseline: ok"
