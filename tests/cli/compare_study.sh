#!/bin/bash
# compare_study: issue 29 acceptance 2 on a fixed database shaped like the built-in study (12 configurations:
# stack = software-level, software mdadm|lvm|zfs, level raid0|raid5, transport nvmeof|iser; 2 workloads, a run
# each). `report --by stack` never folds the transports (every row's runs share one transport, the split named);
# `--compare software=mdadm,lvm:zfs --by level,transport` prints the article's 4 blocks, every workload matched;
# without --by the labels that change with software (stack, config) are compared away and the same 4 blocks come.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/s.db
"$PY3" - <<'PY' | schema_db "$DB"
print("INSERT INTO suite(id,name,source,created_at) VALUES (1,'nvmeof-vs-iser-study','run','2026-12-01T00:00:00Z');")
print("INSERT INTO suite_label VALUES (1,'suite','nvmeof-vs-iser-study');")
rid = 0
for sw, levels in (('mdadm', ('raid0', 'raid5')), ('lvm', ('raid0', 'raid5')), ('zfs', ('stripe', 'raidz'))):
    for lv in levels:
        level = {'stripe': 'raid0', 'raidz': 'raid5'}.get(lv, lv)
        for tr in ('nvmeof', 'iser'):
            for name, bs, rd, rnd in (('fio-4k-70rd', 4096, 70, 100), ('fio-256k-0rd', 262144, 0, 0)):
                rid += 1
                iops = 10000 + rid * 100
                print(f"INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,"
                      f"read_pct,random_pct) VALUES ({rid},1,{rid},1,'{name}','sim','done','2026-12-01T00:00:00Z',"
                      f"'fio',{bs},{rd},{rnd});")
                for k, v in (('stack', f'{sw}-{lv}'), ('software', sw), ('level', level), ('transport', tr),
                             ('config', f'{sw}-{lv}-{tr}')):
                    print(f"INSERT INTO run_label VALUES ({rid},'{k}','{v}');")
                print(f"INSERT INTO result(run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes,lat_mean_ns) VALUES "
                      f"({rid},'*','total',{iops * 60},{iops * 60 * bs},60000,{iops},{iops * bs},1000000);")
PY

"$BENCH" report --db "$DB" --by stack --format json >"$T/by.json" 2>"$T/err" || fail "--by stack: $(cat "$T/err")"
"$PY3" - "$T/by.json" "$DB" <<'PY' || fail "--by stack folds transports"
import json, sqlite3, sys
j = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
rows = [r for g in j['groups'] for r in g['rows']]
assert len(rows) == 24, len(rows)      # 6 stacks x 2 workloads x 2 transports
for r in rows:
    ts = {db.execute("SELECT value FROM run_label WHERE run_id = ? AND key = 'transport'", (i,)).fetchone()[0]
          for i in r['run_ids']}
    assert len(ts) == 1, (r['workload'], ts)
assert j['split'] == ['config', 'transport'] or j['split'] == ['transport', 'config'], j['split']
print(f"--by stack: {len(rows)} rows, each of one transport")
PY
"$BENCH" report --db "$DB" --by stack >"$T/by.txt" || fail "--by stack text"
grep -q '^Rows split by labels config, transport:\|^Rows split by labels transport, config:' "$T/by.txt" ||
	fail "no line naming the labels that split: $(tail -5 "$T/by.txt")"

for by in "--by level,transport" ""; do
	# shellcheck disable=SC2086
	"$BENCH" report --db "$DB" --compare software=mdadm,lvm:zfs $by >"$T/cmp.txt" 2>"$T/err" ||
		fail "compare software ($by): $(cat "$T/err")"
	[ "$(grep -c '^-- ' "$T/cmp.txt")" = 4 ] || fail "compare software ($by): want 4 blocks: $(cat "$T/cmp.txt")"
	for b in "level=raid0 transport=nvmeof" "level=raid0 transport=iser" "level=raid5 transport=nvmeof" \
		"level=raid5 transport=iser"; do
		grep -q -- "^-- .*${b/ /.*}" "$T/cmp.txt" || fail "compare software ($by): no block $b: $(grep '^-- ' "$T/cmp.txt")"
	done
	grep -q '^8 rows with every value, 0 rows some value lacks' "$T/cmp.txt" || fail "compare ($by): $(tail -8 "$T/cmp.txt")"
done
grep -q '^Compared with software (they change with it or one side lacks them, so they are no group key): config, stack\.' "$T/cmp.txt" ||
	fail "compared-away labels: $(tail -4 "$T/cmp.txt")"
"$BENCH" report --db "$DB" --compare software=mdadm,lvm:zfs --by level,transport --show values,ratios >"$T/vr.txt" ||
	fail "--show values,ratios"
grep -Eq '^  workload +software +IOPS +IOPS ratio' "$T/vr.txt" || fail "values and ratios side by side: $(head -5 "$T/vr.txt")"
echo "compare_study: ok"
