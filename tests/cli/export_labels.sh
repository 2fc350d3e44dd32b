#!/usr/bin/env bash
# export_labels (issue 26, defects 1 and 2): what `bench export` writes for labels and names users gave.
#   - label keys that become one name once written (a.b, a_b, a-b -> OpenMetrics label a_b; run and label_run
#     -> InfluxDB tag label_run) are refused with exit 3 and one line naming both keys, for a file and for a
#     Pushgateway push (refused before anything is sent), and the database is left as it was;
#   - labels, suite and workload names holding invalid UTF-8 (\xff\xfe, a cut-short sequence) come out as valid
#     UTF-8 (U+FFFD) in every export format (csv, csv --samples, json, influx, openmetrics, --histogram) and
#     every report format;
#   - an option of one use of export given to the other (--histogram with --format, --format with --ddir): exit 2.
. "$BENCH_SRC/tests/lib/common.sh"
GOOD=$BENCH_SRC/tests/data/import-good.json

valid_utf8() { python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$1" 2>/dev/null; }
counts() { q "$1" "SELECT (SELECT count(*) FROM run) || '|' || (SELECT count(*) FROM run_label) || '|' ||
	(SELECT count(*) FROM suite_label)"; }

# ---- 1. collisions -------------------------------------------------------------------------------------
"$BENCH" import --db c.db --label a.b=1 --label a_b=2 --label a-b=3 "$GOOD" >/dev/null || fail "import c.db"
before=$(counts c.db)
rc=0; "$BENCH" export --db c.db --format openmetrics >out.txt 2>err.txt || rc=$?
expect_eq "openmetrics export of a.b, a_b, a-b: exit" "$rc" 3
expect_eq "openmetrics export of a.b, a_b, a-b: stderr lines" "$(wc -l <err.txt)" 1
grep -q "labels 'a-b' and 'a.b' would both be written as OpenMetrics label a_b" err.txt &&
	ok "the error names both labels and the name: $(cat err.txt)" || fail "error: $(cat err.txt)"
[ ! -s out.txt ] && ok "nothing written on stdout" || fail "stdout: $(head -c 200 out.txt)"
rc=0; "$BENCH" export --db c.db --format openmetrics -o om.txt 2>err.txt || rc=$?
expect_eq "openmetrics export to a file: exit" "$rc" 3
[ ! -e om.txt ] && ok "no file written" || fail "om.txt written"
# The push path renders the same text: refused before any connection (a dead port would give exit 4).
rc=0; "$BENCH" export --db c.db --format openmetrics --push http://127.0.0.1:9/ --retries 0 >out.txt 2>err.txt ||
	rc=$?
expect_eq "pushgateway push of colliding labels: exit" "$rc" 3
grep -q "would both be written as OpenMetrics label a_b" err.txt && ok "push refused for the collision" ||
	fail "push: $(cat err.txt)"
# InfluxDB escapes instead of sanitising: a.b, a_b, a-b stay apart there; json and csv too.
for f in influx json csv; do
	rc=0; "$BENCH" export --db c.db --format $f >/dev/null 2>err.txt || rc=$?
	expect_eq "$f export of a.b, a_b, a-b (distinct there): exit" "$rc" 0
done
expect_eq "c.db rows after the refused exports" "$(counts c.db)" "$before"

# A label keyed like a fixed tag is written label_KEY: a label label_run as well is a collision.
"$BENCH" import --db f.db --label run=x --label label_run=y "$GOOD" >/dev/null || fail "import f.db"
for f in influx openmetrics; do
	rc=0; "$BENCH" export --db f.db --format $f >/dev/null 2>err.txt || rc=$?
	expect_eq "$f export of labels run and label_run: exit" "$rc" 3
	grep -q "labels 'label_run' and 'run' would both be written as" err.txt && ok "$f: $(cat err.txt)" ||
		fail "$f: $(cat err.txt)"
done
# No collision: one label each, all exports work.
"$BENCH" import --db ok.db --label a.b=1 --label c_d=2 "$GOOD" >/dev/null || fail "import ok.db"
for f in influx openmetrics json csv; do
	rc=0; "$BENCH" export --db ok.db --format $f >out.$f 2>err.txt || rc=$?
	expect_eq "$f export without collisions: exit" "$rc" 0
done
grep -q 'a_b="1",c_d="2"' out.openmetrics && ok "openmetrics labels a_b and c_d" || fail "$(grep -m1 bench_iops out.openmetrics)"

# ---- 2. invalid UTF-8 ------------------------------------------------------------------------------------
bad=$'n\xff\xfeame\xe2\x82'                        # two bytes that start nothing, then a cut-short sequence
sed "s/\"j0\"/\"j$(printf '\xff\xfe')0$(printf '\xe2\x82')\"/" "$GOOD" >"$bad.json"
"$BENCH" import --db u.db --label $'k=v\xff\xfe\xe2\x82' --label $'x=\xe2\x82' "$bad.json" >/dev/null ||
	fail "import u.db"
q u.db "INSERT INTO run_label SELECT id, 'ke' || x'fffe' || 'y', 'z' || x'e282' FROM run" # a key too
q u.db "INSERT INTO sample (run_id, host, metric, t_ms, value) SELECT id, 'h' || x'ff', 'iops' || x'e2', 0, 1 FROM run"
[ "$(q u.db "SELECT count(*) FROM run WHERE name = 'j' || x'fffe' || '0' || x'e282'")" = 1 ] &&
	ok "a workload name with invalid bytes is stored" || fail "no run named j\\xff\\xfe0\\xe2\\x82"
for args in "csv" "csv --samples" "json" "influx" "openmetrics"; do
	rc=0; "$BENCH" export --db u.db --format $args >out.txt 2>err.txt || rc=$?
	expect_eq "export --format $args: exit" "$rc" 0
	valid_utf8 out.txt && ok "export --format $args: valid UTF-8" || fail "export --format $args: invalid UTF-8"
	grep -q $'\xef\xbf\xbd' out.txt && ok "export --format $args: U+FFFD for the bad bytes" ||
		fail "export --format $args: no U+FFFD"
done
"$BENCH" export --db u.db --format openmetrics | grep -q $'k="v\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"' &&
	ok "openmetrics: v\\xff\\xfe\\xe2\\x82 is v + four U+FFFD" || fail "openmetrics value: $("$BENCH" export \
	--db u.db --format openmetrics | grep -m1 bench_iops)"
run=$(q u.db "SELECT id FROM run WHERE name LIKE 'j%0%' ORDER BY id LIMIT 1")
rc=0; "$BENCH" export --db u.db --histogram "$run" >out.txt 2>err.txt || rc=$?
expect_eq "export --histogram of the run with the bad name: exit" "$rc" 0
valid_utf8 out.txt && ok "export --histogram: valid UTF-8" || fail "export --histogram: invalid UTF-8"
# the two uses of export take their own options only (one command file parses both): a usage error, no output
cp u.db u0.db
rc=0; "$BENCH" export --db u.db --histogram "$run" --format csv >out.txt 2>err.txt || rc=$?
expect_eq "export --histogram with --format: exit" "$rc" 2
grep -q "^bench: error: export: --histogram RUN writes one run's histogram: --format" err.txt &&
	ok "export --histogram --format: says why" || fail "export --histogram --format: $(cat err.txt)"
[ ! -s out.txt ] && ok "export --histogram --format: nothing written" || fail "export --histogram --format wrote"
rc=0; "$BENCH" export --db u.db --format csv --ddir read >out.txt 2>err.txt || rc=$?
expect_eq "export --format with --ddir: exit" "$rc" 2
grep -q "^bench: error: export: --ddir goes with --histogram RUN only" err.txt &&
	ok "export --format --ddir: says why" || fail "export --format --ddir: $(cat err.txt)"
cmp -s u.db u0.db && ok "refused exports: database unchanged" || fail "refused exports changed the database"
for f in text csv json markdown html; do
	rc=0; "$BENCH" report --db u.db --format $f >out.txt 2>err.txt || rc=$?
	expect_eq "report --format $f: exit" "$rc" 0
	valid_utf8 out.txt && ok "report --format $f: valid UTF-8" || fail "report --format $f: invalid UTF-8"
done
finish
