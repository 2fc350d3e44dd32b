#!/bin/bash
# report_chart_trust: the chart defects of issue 29 over fixed inputs (the published dataset, with samples and
# histogram bins written with sqlite3). Time charts: one per run with samples for all 30 such runs (no cap of
# 24), none for a run with CPU samples only, one x range for every panel of a run, the partial last window left
# out. CDF: --alias honoured, one colour per run (read solid, write dashed). Ratio grid: a colour legend, the
# title centred on the picture, metrics with no ratio (unmeasured or the same everywhere) shown as n/a and said
# in the title. p99: a bar chart of read and write p99 where p99 is stored, none of empty panels where not.
. "$BENCH_SRC/tests/lib/failfast.sh"
need gnuplot "apt-get install gnuplot-nox"
DB=$T/d.db
import_example "$DB"
sqlite3 "$DB" <<'SQL' || fail "insert samples"
INSERT INTO sample(run_id,host,metric,t_ms,value)
  WITH RECURSIVE t(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM t WHERE i < 9), r(id) AS (SELECT 1 UNION ALL SELECT id+1 FROM r WHERE id < 30)
  SELECT r.id, 'h1', m, i*1000, CASE m WHEN 'iops.write' THEN 1000+i ELSE 50 END
  FROM t, r, (SELECT 'iops.write' AS m UNION ALL SELECT 'cpu.util_pct');
-- the partial last window: 300 ms after the one before, a tenth of the IOs
INSERT INTO sample(run_id,host,metric,t_ms,value) SELECT id, 'h1', 'iops.write', 9300, 100 FROM run WHERE id <= 30;
INSERT INTO sample(run_id,host,metric,t_ms,value)
  WITH RECURSIVE t(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM t WHERE i < 9) SELECT 31, 'h1', 'cpu.util_pct', i*1000, 40 FROM t;
INSERT INTO result_bin SELECT id, 100000, 50 FROM result WHERE host='*' AND ddir='write' AND run_id IN (1, 10, 64);
INSERT INTO result_bin SELECT id, 2000000, 5 FROM result WHERE host='*' AND ddir='write' AND run_id IN (1, 10, 64);
SQL
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --alias transport=nvmeof:NVMe-oF \
	--charts "$T/ch" >/dev/null 2>"$T/err" || fail "charts: $(cat "$T/err")"
"$PY3" - "$T/ch" <<'PY' || fail "charts"
import glob, os, re, sys
d = sys.argv[1]
# time charts: all 30 runs with IOPS samples, not the CPU-only run 31
time = sorted(glob.glob(d + '/e-*-run-*-time.svg'))
assert len(time) == 30, len(time)
assert not glob.glob(d + '/e-*-run-31-time.*'), 'a chart of one flat CPU line'
gp = open(glob.glob(d + '/e-*-run-1-time.gp')[0]).read()
assert gp.count('set xrange') == gp.count('set xrange [0.000:9.300]\nset multiplot layout') == gp.count('set multiplot layout') == 2, 'one x range'
dat = open(glob.glob(d + '/e-*-run-1-time.dat')[0]).read()
assert '9.000 ' not in dat and '8.000 1008' in dat, 'the partial last window is drawn'
assert 'cfg.' not in gp
# CDF: aliases, one colour per run, write dashed
f = open(glob.glob(d + '/f-*.gp')[0]).read()
lines = re.findall(r"with steps lw 1.5 lc rgb '(#[0-9a-f]{6})' dt (\d) title '([^']*)'", f.split('set terminal')[1])
assert len(lines) == 3, lines
assert len({c for c, _, _ in lines}) == 3 and all(dt == '2' for _, dt, _ in lines), lines
assert any('NVMe-oF' in t for _, _, t in lines) and not any('transport=nvmeof' in t for _, _, t in lines), lines
# ratio grid: centred title, colour legend, n/a for the metrics without a ratio
c = open(glob.glob(d + '/c-*-zfs-raidz.gp')[0]).read()
assert re.search(r"set label 1 'stack=[^']*: ratio to iser' at screen 0.5, screen [\d.]+ center", c), 'title not centred'
assert 'set title' not in c.split('set terminal')[1]
for w in ("'worse'", "'better'", "'>2x'", "'<5%'", "'n/a, -'"):
    assert w in c, ('legend lacks', w)
assert 'no ratio of read p99, write p99' in c, 'no note of the metrics without a ratio'
cdat = open(glob.glob(d + '/c-*-zfs-raidz.dat')[0]).read()
assert re.search(r'^4 \d+ "n/a"$', cdat, re.M) and not re.search(r'^4 \d+ "1\.000"$', cdat, re.M), 'read p99 drawn'
assert re.search(r'^0 \d+ "\d\.\d{3}"$', cdat, re.M), 'IOPS ratios missing'
# no p99 in the CSV (the bins above give runs 1, 10 and 64 theirs): no chart of empty panels for zfs-raidz
assert len(glob.glob(d + '/d-*-zfs-raidz.svg')) == 1, 'zfs-raidz: a p99 chart of empty panels'
assert [x for x in glob.glob(d + '/d-*-mdadm-raid0.svg') if 'p99 latency per workload' in open(x).read()], 'p99'
print('report_chart_trust: %d time charts, 3 CDF lines, ratio legend' % len(time))
PY
# p99 bar chart where p99 is stored (fio's JSON)
FIX=$BENCH_SRC/tests/fixtures/fio/json/fio-3.33_12jobs_12groups.json
for t in a b; do
	"$BENCH" import --again --db "$T/p.db" --label "transport=$t" "$FIX" >/dev/null 2>"$T/err" || fail "import: $(cat "$T/err")"
done
"$BENCH" report --db "$T/p.db" --by transport --charts "$T/p" >/dev/null 2>"$T/err" || fail "p99 charts: $(cat "$T/err")"
grep -l 'p99 latency per workload' "$T"/p/d-*.svg >"$T/p99" || fail "no p99 bar chart"
grep -q '99th percentile (ms)' "$(head -1 "$T/p99")" || fail "p99 chart axis title"
echo "report_chart_trust: ok ($(wc -l <"$T/p99") p99 charts)"
