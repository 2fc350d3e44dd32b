#!/bin/bash
# compare_default: issue 29 acceptance 1-3 on fixed inputs. A btrfs-like study (config=raid0|raid5 with
# stack=btrfs-raid0|btrfs-raid5 that changes with it, and the configuration record's cfg.* labels, one of them
# different): `--compare config=raid5:raid0` and `--compare stack=btrfs-raid5:btrfs-raid0` each give one
# matched row per workload, the labels that change with the key and the cfg.* facts shown under the table, never
# as group keys; a run field (engine) is a compare key too; a compare that matches nothing exits 3 naming the
# label that kept the sides apart and the command that matches; n and the interval of three repetitions in
# text, CSV, JSON and Markdown, ratios within noise marked "~", a single short run marked n=1 short; a real
# `run --repeat 3 --quick` (null engine) shows n = 3, a spread and the short mark in every format.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/b.db
# runs 1-4: raid0 (w4k x3 repetitions, r64k x1), runs 5-8: raid5 alike; IOPS: raid0 w4k 1000,1100,1200,
# raid5 w4k 400,500,450; r64k 900 vs 800. Every run 60 s except r64k (3 s: short).
{
cat <<'SQL'
INSERT INTO suite(id,name,source,created_at) VALUES (1,'btrfs-study','run','2026-12-01T00:00:00Z');
SQL
id=0
for cfg in raid0 raid5; do
	for w in "w4k 4096 0 100" "w4k 4096 0 100" "w4k 4096 0 100" "r64k 65536 100 0"; do
		set -- $w
		id=$((id + 1))
		case "$cfg.$id" in raid0.1) i=1000;; raid0.2) i=1100;; raid0.3) i=1200;; raid0.4) i=900;;
			raid5.5) i=400;; raid5.6) i=500;; raid5.7) i=450;; raid5.8) i=800;; esac
		rt=60000; [ "$1" = r64k ] && rt=3000
		echo "INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct) VALUES ($id,1,$id,1,'$1','fio','done','2026-12-01T00:00:0${id}Z','fio',$2,$3,$4);"
		echo "INSERT INTO run_label VALUES ($id,'config','$cfg'),($id,'stack','btrfs-$cfg'),($id,'cfg.kernel','6.1.0'),($id,'cfg.members.size_bytes','$([ $cfg = raid0 ] && echo 268435456 || echo 536870912)');"
		echo "INSERT INTO result(run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes,lat_mean_ns) VALUES ($id,'*','total',$((i * 60)),$((i * 60 * $2)),$rt,$i,$((i * $2)),1000000);"
	done
done
} | schema_db "$DB"

run() { "$BENCH" report --db "$DB" "$@" >"$T/out" 2>"$T/err"; echo $?; }

# ---- acceptance 1: compare configurations by default
for c in config=raid5:raid0 stack=btrfs-raid5:btrfs-raid0; do
	[ "$(run --compare "$c")" = 0 ] || fail "--compare $c: exit, $(cat "$T/err")"
	grep -q '^0 matched' "$T/out" && fail "--compare $c matched nothing: $(cat "$T/out")"
	grep -q '^2 matched rows, 0 only' "$T/out" || fail "--compare $c: want 2 matched rows: $(cat "$T/out")"
	grep -q 'cfg\.' <(grep '^-- \|^== ' "$T/out") && fail "--compare $c: cfg.* in a group heading: $(cat "$T/out")"
	wr=$(awk '$1 == "w4k" { print $2 }' "$T/out")
	awk -v r="$wr" 'BEGIN { exit !(r + 0 > 0 && r + 0 < 1) }' || fail "--compare $c: w4k ratio '$wr'"
	grep -q "^Configuration record, same on every side: cfg.kernel=6.1.0" "$T/out" || fail "no same cfg line"
	grep -q "^Configuration record differs: cfg.members.size_bytes: raid5=536870912, raid0=268435456\|^Configuration record differs: cfg.members.size_bytes: btrfs-raid5=536870912, btrfs-raid0=268435456" "$T/out" ||
		fail "--compare $c: no cfg difference line: $(cat "$T/out")"
done
run --compare config=raid5:raid0 >/dev/null
grep -q "^Compared with config (they change with it or one side lacks them, so they are no group key): stack\." "$T/out" ||
	fail "stack not named as on the compared side: $(cat "$T/out")"
echo "acceptance 1 (fixed inputs): $(grep '^  w4k' "$T/out")"
# a run field as the key
sqlite3 "$DB" "UPDATE run SET engine = 'sim' WHERE id > 4"
[ "$(run --compare engine=sim:fio)" = 0 ] || fail "--compare engine=sim:fio: $(cat "$T/err")"
grep -q '^2 matched rows' "$T/out" || fail "--compare engine: $(cat "$T/out")"
sqlite3 "$DB" "UPDATE run SET engine = 'fio'"

# ---- acceptance 2: a compare that matches nothing exits 3 and says why
[ "$(run --compare config=raid5:raid0 --by stack)" = 3 ] || fail "no match: want exit 3, $(cat "$T/out" "$T/err")"
[ "$(wc -l <"$T/err")" = 1 ] || fail "no match: one line: $(cat "$T/err")"
grep -q "^bench: error: --compare config=raid5:raid0 matched no workload on both sides: the label 'stack' (raid5=btrfs-raid5; raid0=btrfs-raid0) kept them apart; to compare across it: bench report --db $DB --compare config=raid5:raid0 --by tool" "$T/err" ||
	fail "no match message: $(cat "$T/err")"
cmd=$(sed 's/.*to compare across it: bench report //' "$T/err")
# shellcheck disable=SC2086
"$BENCH" report $cmd >/dev/null || fail "the command the message gives does not match: $cmd"

# ---- acceptance 3: n and the interval in every format; single and short runs marked
[ "$(run --compare config=raid5:raid0 --show values,ratios)" = 0 ] || fail "values,ratios"
grep -Eq '^  w4k +raid5 +450 \(400-500\)' "$T/out" || fail "text: median (min-max) of n=3: $(cat "$T/out")"
grep -Eq '^  r64k .*n=1 short' "$T/out" || fail "text: r64k not marked n=1 short: $(cat "$T/out")"
[ "$(run --where config=raid0)" = 0 ] || fail "raw text"
grep -Eq '^  w4k +3 +1100 \(1000-1200\)' "$T/out" || fail "raw text: runs 3 and (min-max): $(cat "$T/out")"
grep -Eq '^  r64k +1 .* n=1 short$' "$T/out" || fail "raw text: r64k marks: $(cat "$T/out")"
[ "$(run --where config=raid0 --format markdown)" = 0 ] || fail "markdown"
grep -Eq '^\| w4k \| 3 \| 1100 \(1000-1200\) \|' "$T/out" || fail "markdown n and spread: $(cat "$T/out")"
grep -Eq '^\| r64k \| 1 \|.*\| n=1 short \|$' "$T/out" || fail "markdown marks: $(cat "$T/out")"
[ "$(run --where config=raid0 --format csv)" = 0 ] || fail "csv"
cp "$T/out" "$T/raw.csv"
[ "$(run --where config=raid0 --format json)" = 0 ] || fail "json"
cp "$T/out" "$T/raw.json"
[ "$(run --compare config=raid5:raid0 --format json)" = 0 ] || fail "cmp json"
cp "$T/out" "$T/cmp.json"
[ "$(run --compare config=raid5:raid0 --format csv)" = 0 ] || fail "cmp csv"
cp "$T/out" "$T/cmp.csv"
"$PY3" - "$T" <<'PY' || fail "csv/json n and interval"
import csv, json, sys
t = sys.argv[1]
rows = {r['workload']: r for r in csv.DictReader(open(t + '/raw.csv', newline=''))}
w, r = rows['w4k'], rows['r64k']
assert w['iops_n'] == '3' and float(w['iops_lo']) == 1000 and float(w['iops_hi']) == 1200, w
assert w['single'] == '0' and w['short'] == '0' and r['single'] == '1' and r['short'] == '1', r
j = json.load(open(t + '/raw.json'))
row = {x['workload']: x for g in j['groups'] for x in g['rows']}
c = row['w4k']['iops']
assert c['n'] == 3 and c['lo'] == 1000 and c['hi'] == 1200 and c['conf_pct'] == 75.0, c
assert row['r64k']['single'] is True and row['r64k']['short'] is True
assert j['split'] == []
cj = json.load(open(t + '/cmp.json'))
assert cj['away'] == ['stack'], cj['away']
assert cj['cfg']['raid5']['cfg.members.size_bytes'] == '536870912', cj['cfg']
crow = {x['workload']: x for g in cj['groups'] for x in g['rows']}
# raid5 400..500 / raid0 1000..1200: apart; r64k n=1: unknown
assert crow['w4k']['noise']['iops'] is False and crow['r64k']['noise']['iops'] is None, crow['w4k']['noise']
assert crow['w4k']['a']['iops']['n'] == 3 and crow['w4k']['a']['iops']['lo'] == 400
cc = {x['workload']: x for x in csv.DictReader(open(t + '/cmp.csv', newline=''))}
assert cc['w4k']['iops_n_a'] == '3' and cc['w4k']['iops_noise'] == '0' and cc['r64k']['iops_noise'] == ''
assert cc['r64k']['single'] == '1' and cc['r64k']['short'] == '1'
PY
# within noise: raid5 w4k made 1000,1100,1200 like raid0 (intervals overlap 1)
sqlite3 "$DB" "UPDATE result SET iops = iops + 600 WHERE run_id IN (5, 6, 7) AND host = '*'; UPDATE result SET iops = 1100 WHERE run_id = 6"
[ "$(run --compare config=raid5:raid0)" = 0 ] || fail "noise compare"
grep -Eq '^  w4k +[0-9]\.[0-9]+~ ' "$T/out" || fail "ratio within noise not marked '~': $(cat "$T/out")"
grep -q '^~ within noise' "$T/out" || fail "no line saying what ~ means"
# ---- acceptance 3 with real runs: --repeat 3 of a --quick null-engine job: n = 3, a spread, marked short
null_job "$T/j.fio" w rw=randread bs=4k
"$BENCH" run --db "$T/r.db" --repeat 3 --quick --runtime 1s --no-collectors -q "$T/j.fio" 2>"$T/err" ||
	fail "run --repeat 3: $(cat "$T/err")"
"$BENCH" report --db "$T/r.db" >"$T/rt.txt"
grep -Eq '^  w +3 +[0-9]+ \([0-9]+-[0-9]+\) .* short$' "$T/rt.txt" || fail "repeat 3 text: $(cat "$T/rt.txt")"
"$BENCH" report --db "$T/r.db" --format markdown >"$T/rt.md"
grep -Eq '^\| w \| 3 \| [0-9]+ \([0-9]+-[0-9]+\) \|.*\| short \|$' "$T/rt.md" || fail "repeat 3 markdown: $(cat "$T/rt.md")"
"$BENCH" report --db "$T/r.db" --format csv >"$T/rt.csv"
"$BENCH" report --db "$T/r.db" --format json >"$T/rt.json"
"$PY3" - "$T/rt.csv" "$T/rt.json" <<'PY' || fail "repeat 3 csv/json"
import csv, json, sys
r = list(csv.DictReader(open(sys.argv[1], newline='')))[0]
assert r['runs'] == '3' and r['iops_n'] == '3' and float(r['iops_lo']) <= float(r['iops']) <= float(r['iops_hi']), r
assert r['short'] == '1' and r['single'] == '0', r
c = json.load(open(sys.argv[2]))['groups'][0]['rows'][0]
assert c['iops']['n'] == 3 and c['iops']['lo'] <= c['iops']['median'] <= c['iops']['hi'] and c['short'] is True, c
print(f"--repeat 3: n = {c['iops']['n']}, IOPS {c['iops']['median']:.0f} [{c['iops']['lo']:.0f}-{c['iops']['hi']:.0f}] ({c['iops']['conf_pct']} %), short")
PY
echo "compare_default: ok"
