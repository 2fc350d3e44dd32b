#!/bin/bash
# report_compare: issue 6 acceptance 1. Imports the published dataset with `bench import --csv`, asks for
# the NVMe-oF / iSER ratio table per stack as CSV and recomputes every ratio from the dataset itself:
# 54 matched rows (6 stacks x 9 workloads), IOPS, read/write latency and CPU ratios equal nvmeof/iser to
# 1e-9 relative, zfs-stripe-nochecksum listed as unmatched (only iser). Also: the text, markdown and json
# forms agree, --match name pairs the same rows, --where narrows, and colour appears only when asked.
. "$BENCH_SRC/tests/lib/failfast.sh"
CSV=$EXAMPLE_CSV
DB=$T/d.db
"$BENCH" import --db "$DB" --csv "$CSV" >"$T/imp" 2>&1 || fail "import: $(cat "$T/imp")"
grep -q 'imported 117 runs' "$T/imp" || fail "import summary: $(cat "$T/imp")"

"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --format csv >"$T/cmp.csv" 2>"$T/err" ||
	fail "report: $(cat "$T/err")"
"$PY3" - "$CSV" "$T/cmp.csv" <<'PY' || fail "ratios differ from the dataset"
import csv, sys
data = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
out = list(csv.DictReader(open(sys.argv[2], newline='', encoding='utf-8')))
src = {(r['transport'], r['stack'], r['workload']): r for r in data}
matched = [r for r in out if r['status'] == 'matched']
unmatched = [r for r in out if r['status'] == 'unmatched']
assert len(matched) == 54, len(matched)
assert len({r['stack'] for r in matched}) == 6
assert len(unmatched) == 9, unmatched
assert {r['stack'] for r in unmatched} == {'zfs-stripe-nochecksum'}, unmatched
assert {r['only'] for r in unmatched} == {'transport=iser'}
def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))
checked = 0
for r in matched:
    a = src[('nvmeof', r['stack'], r['workload'])]
    b = src[('iser', r['stack'], r['workload'])]
    for col, out_col in (('iops', 'iops_ratio'), ('read_lat_ms', 'read_lat_ms_ratio'),
                         ('write_lat_ms', 'write_lat_ms_ratio'), ('cpu_pct', 'cpu_pct_ratio')):
        if a[col] == '' or b[col] == '':
            assert r[out_col] == '', (r['stack'], r['workload'], out_col, r[out_col])
            continue
        want = float(a[col]) / float(b[col])
        got = float(r[out_col])
        assert close(got, want), (r['stack'], r['workload'], col, got, want)
        checked += 1
    assert float(r['iops_a']) == float(a['iops']) and float(r['iops_b']) == float(b['iops'])
    assert r['tool'] == a['tool'] and r['bs'] == a['bs'] and r['read_pct'] == a['rdpct'] and r['random_pct'] == a['randpct']
assert checked >= 54 * 3, checked
print("report_compare: %d matched rows, %d ratios checked, %d unmatched (%s)" % (
    len(matched), checked, len(unmatched), unmatched[0]['stack']))
PY

# JSON: same counts, colour classes by direction
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --format json >"$T/cmp.json" || fail "json"
"$PY3" - "$T/cmp.json" <<'PY' || fail "json content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['matched'] == 54 and d['unmatched_b'] == 9 and d['unmatched_a'] == 0
for g in d['groups']:
    for r in g['rows']:
        if r['status'] != 'matched':
            continue
        for k, hb in (('iops', True), ('read_lat_ms', False), ('write_lat_ms', False), ('cpu_pct', False)):
            x = r['ratio'][k]
            if x is None:
                continue
            good = x >= 1 if hb else x <= 1
            assert r['class'][k].startswith('good' if good else 'bad'), (k, x, r['class'][k])
PY

# --match name gives the same pairs on this dataset (names restate the identity)
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --match name --format csv >"$T/name.csv" || fail "match name"
[ "$(grep -c ',matched,' "$T/name.csv")" = 54 ] || fail "--match name: $(grep -c ',matched,' "$T/name.csv")"

# --where narrows to one stack; text has no ANSI colour when not on a terminal, and has it with --color=always
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --where stack=zfs-raidz >"$T/t.txt" || fail "text"
grep -q 'stack=zfs-raidz' "$T/t.txt" && ! grep -q 'mdadm' "$T/t.txt" || fail "--where stack=zfs-raidz"
grep -q $'\033\[' "$T/t.txt" && fail "ANSI colour in a pipe"
grep -q '9 matched rows' "$T/t.txt" || fail "text summary: $(tail -3 "$T/t.txt")"
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --color=always >"$T/c.txt" || fail "color"
grep -q $'\033\[32m' "$T/c.txt" && grep -q $'\033\[33m\|\033\[1;33m' "$T/c.txt" || fail "--color=always has green and brown"
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --format markdown >"$T/m.md" || fail "markdown"
[ "$(grep -c '^| vdb-\|^| fio-' "$T/m.md")" = 63 ] || fail "markdown rows: $(grep -c '^| vdb-\|^| fio-' "$T/m.md")"

# a side that does not exist: exit 3, one line
"$BENCH" report --db "$DB" --compare transport=nvmeof:rdma >/dev/null 2>"$T/err"; rc=$?
[ $rc = 3 ] || fail "missing side exit $rc"
grep -q "no done runs with transport=rdma" "$T/err" || fail "missing side message: $(cat "$T/err")"
# the raw table of the import: 13 groups (7 iser + 6 nvmeof stacks), 117 rows
"$BENCH" report --db "$DB" --format csv >"$T/raw.csv" || fail "raw"
[ "$(($(wc -l < "$T/raw.csv") - 1))" = 117 ] || fail "raw rows"
echo "report_compare: ok"
