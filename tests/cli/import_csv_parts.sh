#!/bin/bash
# import_csv_parts: a CSV table of more rows than one part (import/csv_import.c reads 1,000 runs at a time, so
# that memory stays flat whatever the table's size) is stored as one suite, its planned_runs the whole table,
# seq 1..N in the rows' order, every row once, one summary line; the same rows as the table's first part read
# alone; with the command's label on every run. A bad row in the third part, or a row with too many fields
# there, leaves the database as it was (exit 3, one line naming file:line, nothing on stdout).
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
need sqlite3
cd "$T"
"$PY3" - <<'PY'
rows = 2500
with open("big.csv", "w") as f:
    f.write("workload,bs,rdpct,iodepth,repetition,stack,read_iops,write_iops,read_lat_us\n")
    for i in range(rows):
        f.write(f"w{i % 7},4k,70,{1 + i % 4},{1 + i // 7},s{i % 3},{1000 + i}.5,{i % 100},{50 + i % 13}\n")
        if i == 1200:
            f.write(",,,,,,,,\n") # a blank row between parts: skipped, as anywhere
with open("first.csv", "w") as f: # the rows of the first part alone
    for n, line in enumerate(open("big.csv")):
        if n <= 1000:
            f.write(line)
PY

"$BENCH" import --db t.db --csv big.csv --label lab=x >out.txt
[ "$(cat out.txt)" = "imported 2500 runs from big.csv" ] || fail "summary: $(cat out.txt)"
[ "$(sqlite3 t.db "SELECT count(*), planned_runs FROM suite")" = "1|2500" ] ||
	fail "suites: $(sqlite3 t.db "SELECT count(*), planned_runs FROM suite")"
[ "$(sqlite3 t.db "SELECT count(*), count(DISTINCT seq), min(seq), max(seq), count(DISTINCT suite_id) FROM run")" = \
	"2500|2500|1|2500|1" ] || fail "runs: $(sqlite3 t.db "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM run")"
# every row once, in order: the read IOPS of seq k is 999.5 + k
[ "$(sqlite3 t.db "SELECT count(*) FROM run r JOIN result x ON x.run_id = r.id AND x.ddir = 'read' AND x.host = '*'
	WHERE x.iops = 999.5 + r.seq")" -eq 2500 ] || fail "rows not stored once each in their order"
[ "$(sqlite3 t.db "SELECT count(*) FROM run_label WHERE key = 'lab' AND value = 'x'")" -eq 2500 ] ||
	fail "the command's label is not on every run"
[ "$(sqlite3 t.db "SELECT count(*) FROM artifact WHERE name = 'csv-row'")" -eq 2500 ] || fail "csv-row artifacts"

# the first part is what the first 1,000 rows give alone
"$BENCH" import --db first.db --csv first.csv --label lab=x >/dev/null
q="SELECT r.seq, r.name, r.spec, x.ddir, x.iops, x.lat_mean_ns FROM run r JOIN result x ON x.run_id = r.id
	WHERE r.seq <= 1000 ORDER BY r.seq, x.ddir"
[ "$(sqlite3 t.db "$q" | sed 's/big\.csv/T.csv/g' | md5sum)" = "$(sqlite3 first.db "$q" | sed 's/first\.csv/T.csv/g' | md5sum)" ] ||
	fail "the first part differs from the same rows imported alone"

counts() {
	sqlite3 t.db "SELECT (SELECT count(*) FROM suite), (SELECT count(*) FROM run), (SELECT count(*) FROM result),
		(SELECT count(*) FROM artifact), (SELECT count(*) FROM run_label)"
}
before=$(counts)
# line 2402 of big.csv: data row 2400 (one blank line before it), in the third part
sed '2402s/,[0-9]*\.5,/,lots,/' big.csv >bad.csv
sed '2402s/$/,extra/' big.csv >wide.csv
for f in bad wide; do
	rc=0
	"$BENCH" import --db t.db --csv $f.csv >out.txt 2>err.txt || rc=$?
	[ "$rc" -eq 3 ] || fail "$f.csv: exit $rc, want 3"
	[ "$(wc -l <err.txt)" -eq 1 ] && grep -q "$f.csv:2402:" err.txt || fail "$f.csv: want one line naming $f.csv:2402: $(cat err.txt)"
	[ ! -s out.txt ] || fail "$f.csv: printed to stdout"
	[ "$(counts)" = "$before" ] || fail "$f.csv: row counts changed $before -> $(counts)"
done
echo "ok: 2500 rows in 3 parts, one suite, seq 1..2500; a bad row in part 3 stores nothing"
