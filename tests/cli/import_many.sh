#!/bin/bash
# import_many: one `bench import` of many files (issue 19: read ahead by a reader thread, stored in order in
# one transaction). All files stored, one summary line per file in the order given; a bad file far past the
# read-ahead ring, or the second one given, leaves the database as it was (exit 3, one line naming it, nothing
# on stdout); killed (SIGKILL) in the middle, the database holds all of the import or none of it, never part
# of a run, and passes SQLite's integrity and foreign key checks, and the next import works.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
need sqlite3
cd "$T"
src="$BENCH_SRC/tests/fixtures/fio/json/fio-3.33_randrw-16-8_grouprep.json"
"$PY3" - "$src" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
os.makedirs("f")
for i in range(1500):
    doc["jobs"][0]["jobname"] = f"many-{i}"
    with open(f"f/r-{i:04d}.json", "w") as f:
        json.dump(doc, f)
PY
ls f/*.json >listall
head -n 300 listall >list300

counts() {
	sqlite3 t.db "SELECT (SELECT count(*) FROM suite), (SELECT count(*) FROM run), (SELECT count(*) FROM result),
		(SELECT count(*) FROM result_pct), (SELECT count(*) FROM run_host), (SELECT count(*) FROM artifact)"
}

# all files, one line each, in order
"$BENCH" import --db t.db $(cat list300) >out.txt
[ "$(wc -l <out.txt)" -eq 300 ] || fail "$(wc -l <out.txt) summary lines for 300 files"
diff <(sed 's/^imported 1 run from //' out.txt) list300 >/dev/null || fail "summary lines not in the files' order"
[ "$(sqlite3 t.db 'SELECT count(*) FROM run')" -eq 300 ] || fail "not 300 runs stored"
[ "$(sqlite3 t.db "SELECT group_concat(name) FROM (SELECT name FROM run ORDER BY id LIMIT 3)")" = "many-0,many-1,many-2" ] ||
	fail "runs not stored in the files' order"
before=$(counts)

# a bad file: the 251st of 300 (far past the 32 files read ahead), then the 2nd of 300
sed 's/"total_ios" : [0-9]*/"total_ios" : "lots"/' "$src" >bad.json
for at in 250 1; do
	{ head -n "$at" list300; echo bad.json; tail -n +$((at + 1)) list300; } >listbad
	rc=0
	"$BENCH" import --db t.db $(cat listbad) >out.txt 2>err.txt || rc=$?
	[ "$rc" -eq 3 ] || fail "bad file after $at: exit $rc, want 3"
	[ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'bad.json: .*total_ios' err.txt ||
		fail "bad file after $at: want one line naming bad.json: $(cat err.txt)"
	[ ! -s out.txt ] || fail "bad file after $at: printed to stdout"
	[ "$(counts)" = "$before" ] || fail "bad file after $at: row counts changed $before -> $(counts)"
done

# SIGKILL while storing: all or nothing
"$BENCH" import --db t.db $(cat listall) >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 500); do # until the import has written to the WAL (or ended)
	[ "$(stat -c %s t.db-wal 2>/dev/null || echo 0)" -gt 400000 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.01
done
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
[ "$(sqlite3 t.db 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after the kill"
[ -z "$(sqlite3 t.db 'PRAGMA foreign_key_check')" ] || fail "foreign_key_check after the kill"
runs=$(sqlite3 t.db 'SELECT count(*) FROM run')
case $runs in
300) echo "killed while storing: nothing of the import stored";;
1800) echo "the import ended before the kill: all of it stored";;
*) fail "after the kill: $runs runs (want 300: none of the import, or 1800: all of it)";;
esac
[ "$(sqlite3 t.db "SELECT count(*) FROM run r WHERE NOT EXISTS (SELECT 1 FROM result WHERE run_id = r.id)
	OR NOT EXISTS (SELECT 1 FROM artifact WHERE run_id = r.id) OR status <> 'done'")" -eq 0 ] ||
	fail "a run without its results or artifact after the kill"
"$BENCH" import --db t.db "$src" >/dev/null || fail "import after the kill"
echo "ok: 300 files in order, a bad file (251st, 2nd) stores nothing, SIGKILL leaves all or nothing ($runs runs)"
