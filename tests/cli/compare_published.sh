#!/bin/bash
# compare_published: issue 29 acceptance 4 on fixed inputs. The published CSV (examples/) imported beside runs of
# the sim engine named as the built-in study names them (labels stack, transport, plus software, level, config):
# `--compare engine=sim:import --match name --map examples/nvmeof-vs-iser-100g.map` is one command that prints a
# matched row for every workload on both sides (8 of the 9: the 8k fio workload differs between the article's
# job list and its table, and stays 'only'); a bad map line is exit 3 with file:line. The vdbench runs carry
# vdbench.rd/vdbench.wd as the study's do (profiles/vdbench_translate.c), labels the CSV never has: they are on
# the compared side, not group keys (else the 5 vdbench workloads of each configuration were 'only').
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/p.db
MAP=$BENCH_SRC/examples/nvmeof-vs-iser-100g.map
"$PY3" - "$BENCH_SRC/profiles/library/nvmeof-vs-iser.suite" <<'PY' | schema_db "$DB"
import re, sys
names = re.findall(r'^\[(?:workload|vdbench) (\S+)\]', open(sys.argv[1]).read(), re.M)
assert len(names) == 9, names
print("INSERT INTO suite(id,name,source,created_at) VALUES (1,'nvmeof-vs-iser-study','run','2026-12-01T00:00:00Z');")
rid = 0
for stack in ('mdadm-raid0', 'zfs-raidz'):
    for tr in ('nvmeof', 'iser'):
        for n in names:
            rid += 1
            print(f"INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool) VALUES "
                  f"({rid},1,{rid},1,'{n}','sim','done','2026-12-01T00:00:00Z','{n[:3].replace('vdb', 'vdbench')}');")
            vdb = (('vdbench.rd', 'run1'), ('vdbench.wd', 'wd1')) if n.startswith('vdb') else ()
            for k, v in (('stack', stack), ('transport', tr), ('software', stack.split('-')[0]),
                         ('config', f'{stack}-{tr}')) + vdb:
                print(f"INSERT INTO run_label VALUES ({rid},'{k}','{v}');")
            print(f"INSERT INTO result(run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes,lat_mean_ns) VALUES "
                  f"({rid},'*','total',6000000,24576000000,60000,100000,409600000,1000000);")
PY
import_example "$DB"
"$BENCH" report --db "$DB" --compare engine=sim:import --match name --map "$MAP" >"$T/out" 2>"$T/err" ||
	fail "compare engine=sim:import: $(cat "$T/err")"
# 4 configurations (2 stacks x 2 transports) x 8 workloads on both sides
grep -q '^32 matched rows' "$T/out" || fail "want 32 matched rows: $(tail -12 "$T/out")"
for s in "stack=mdadm-raid0 transport=nvmeof" "stack=zfs-raidz transport=iser"; do
	n=$(awk -v h="$s" 'index($0, "-- ") == 1 { on = index($0, h) > 0; next } on && /^  (fio|vdb)-/ && !/only/ { n++ } END { print n + 0 }' "$T/out")
	[ "$n" = 8 ] || fail "$s: want 8 matched workloads, got $n: $(cat "$T/out")"
done
grep -q '8k-50rdpct.*only engine=sim' "$T/out" || fail "the 8k 50 % read workload not listed as only sim"
echo "published vs sim: $(grep '^32 matched' "$T/out")"
# a bad map: one line, exit 3, file:line
printf '# pairs\nfoo = bar\nbaz\n' >"$T/bad.map"
"$BENCH" report --db "$DB" --compare engine=sim:import --match name --map "$T/bad.map" >/dev/null 2>"$T/err"
[ $? = 3 ] || fail "bad map: want exit 3"
grep -q "^bench: error: $T/bad.map:3: want 'NAME = NAME'" "$T/err" || fail "bad map message: $(cat "$T/err")"
"$BENCH" report --db "$DB" --map "$MAP" >/dev/null 2>&1
[ $? = 2 ] || fail "--map without --match name: want exit 2"
echo "compare_published: ok"
