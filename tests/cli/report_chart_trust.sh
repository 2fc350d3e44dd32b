#!/bin/bash
# report_chart_trust: the chart defects of issue 29 over fixed inputs (the published dataset, with samples and
# histogram bins written with sqlite3). Time charts: one per run with samples for all 32 such runs (no cap of
# 24), none for a run with CPU samples only, one x range for every panel of a run, the partial last window left
# out: off the grid, a job's IOPS series ending a window early, and fio's partial window at a job's end (no
# spike of the mean latency at the last point), said on the chart. CDF: --alias honoured, one colour per run
# (read solid, write dashed), the key below the plot naming only what differs (shared labels once, in the
# title). Ratio grid: a colour legend (whole, also with short names), the title centred on the picture, metrics
# with no ratio (unmeasured or the same everywhere) shown as n/a and said in the title. p99: a bar chart of read
# and write p99 where p99 is stored, none of empty panels where not. Bar charts: categories name what differs.
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
-- fio's partial window at a job's end (finalize_logs): run 32's job j2 logs its last IOs 3 ms after its last
-- whole window, at 30x the latency; run 33's job j1 logs no IOPS for the last window (the sum would dip)
INSERT INTO sample(run_id,host,job,metric,t_ms,value,window_ms,source)
  WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM t WHERE i < 5), r(id) AS (SELECT 32 UNION ALL SELECT 33),
  j(job) AS (SELECT 'j1' UNION ALL SELECT 'j2')
  SELECT r.id, 'h1', j.job, m, i*1000, CASE m WHEN 'iops.read' THEN 5000 ELSE 300000 END, 1000, 'fio-log'
  FROM t, r, j, (SELECT 'iops.read' AS m UNION ALL SELECT 'lat_ns.read')
  WHERE NOT (r.id = 33 AND j.job = 'j1' AND m = 'iops.read' AND i = 5);
INSERT INTO sample(run_id,host,job,metric,t_ms,value,window_ms,source) VALUES
  (32,'h1','j2','lat_ns.read',5003,9000000,1000,'fio-log'), (33,'h1','j2','lat_ns.read',5003,9000000,1000,'fio-log');
-- a label every run shares (said once, never in a line or category name) and one that follows from others
INSERT INTO run_label SELECT id, 'site', 'lab-a' FROM run;
INSERT INTO run_label SELECT run_id, 'config', group_concat(value, '-') FROM
  (SELECT run_id, value FROM run_label WHERE key IN ('stack', 'transport') ORDER BY run_id, key) GROUP BY run_id;
INSERT INTO result_bin SELECT id, 100000, 50 FROM result WHERE host='*' AND ddir='write' AND run_id IN (1, 10, 64);
INSERT INTO result_bin SELECT id, 2000000, 5 FROM result WHERE host='*' AND ddir='write' AND run_id IN (1, 10, 64);
SQL
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --alias transport=nvmeof:NVMe-oF \
	--charts "$T/ch" >/dev/null 2>"$T/err" || fail "charts: $(cat "$T/err")"
"$PY3" - "$T/ch" <<'PY' || fail "charts"
import glob, os, re, sys
d = sys.argv[1]
# time charts: all 32 runs with IOPS samples, not the CPU-only run 31
time = sorted(glob.glob(d + '/e-*-run-*-time.svg'))
assert len(time) == 32, len(time)
# fio's partial window at a job's end is left out (no spike of the mean latency at the last point), and said
def blocks(run):
    dat = open(glob.glob(d + '/e-*-run-%d-time.dat' % run)[0]).read()
    return [[l.split() for l in b.strip().split('\n')] for b in dat.split('\n\n\n')]
gp32 = open(glob.glob(d + '/e-*-run-32-time.gp')[0]).read()
lat = blocks(32)[1]
assert [p[0] for p in lat] == ['1.000', '2.000', '3.000', '4.000', '5.000'], lat
assert all(abs(float(p[1]) - 300) < 1e-6 for p in lat), ('the last point spikes', lat)
assert "partial window at the end of 1 series" in gp32 and "sprintf('%c', 10)" in gp32, 'not said on the chart'
# a job whose IOPS series ends a window early: that last window is left out of every panel (no dip of the sum)
b33 = blocks(33)
assert all(p[0] != '5.000' for b in b33 for p in b), b33
assert "the partial last window (from 5.000 s) is left out" in open(glob.glob(d + '/e-*-run-33-time.gp')[0]).read()
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
# the key names only what differs: not the label all lines share (said once, as the title's second line), not
# stack (config decides it); transport stays (aliased); the key below the plot, the picture taller for it
assert not any('site=' in t or 'stack=' in t for _, _, t in lines) and all('config=' in t for _, _, t in lines), lines
fs = f.split('set terminal')[1]
assert re.search(r"set title '[^']*' \. sprintf\('%c', 10\) \. '\(site=lab-a\)'", fs), 'shared labels not in the title'
assert 'set key below' in fs and int(re.search(r'size (\d+),(\d+)', fs).group(2)) > 520, 'key inside the plot'
# ratio grid: "worse" (5 characters, about 7 px each) and the grey box of the legend inside the picture
for c in glob.glob(d + '/c-*.gp'):
    body = open(c).read().split('set terminal')[1]
    w = int(re.search(r'size (\d+),', body).group(1))
    x = float(re.search(r"set label 20 'worse' at screen ([\d.]+),", body).group(1))
    assert x * w >= 5 * 7 + 4, ('"worse" is cut', c, x * w)
    assert all(float(e) <= 1.0 for e in re.findall(r'to screen ([\d.]+), screen', body)), ('legend cut', c)
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
# ratio grid of short workload names (randread-4k): its colour legend whole, "worse" not cut at the left edge
"$BENCH" report --db "$T/p.db" --compare transport=a:b --charts "$T/pc" >/dev/null 2>"$T/err" || fail "short: $(cat "$T/err")"
"$PY3" - "$T"/pc/c-*.gp <<'PY' || fail "ratio legend of short names"
import re, sys
body = open(sys.argv[1]).read().split('set terminal')[1]
w = int(re.search(r'size (\d+),', body).group(1))
x = float(re.search(r"set label 20 'worse' at screen ([\d.]+),", body).group(1))
assert x * w >= 5 * 7 + 4, ('"worse" is cut at the left edge', x * w, w)
assert all(float(e) <= 1.0 for e in re.findall(r'to screen ([\d.]+), screen', body)), 'legend cut at the right'
PY
# bar charts without a comparison: categories name only what differs between the groups (config decides stack
# and transport; site is the same everywhere: said once in the title, in no category)
"$BENCH" report --db "$DB" --charts "$T/raw" >/dev/null 2>"$T/err" || fail "raw charts: $(cat "$T/err")"
"$PY3" - "$T/raw" <<'PY' || fail "bar categories"
import glob, re, sys
a = [open(x).read().split('set terminal')[1] for x in sorted(glob.glob(sys.argv[1] + '/a-*.gp'))]
assert a, 'no per-workload bar chart'
for body in a:
    title = re.search(r"set multiplot title '([^']*)'", body).group(1)
    assert title.endswith('by config (site=lab-a)'), title
    tics = ' '.join(re.findall(r'set xtics[^\n]*', body))
    assert 'lab-a' not in tics and 'mdadm-raid0-nvmeof' in tics.replace('\\n', '').replace('-\n', '-'), tics[:300]
print('bar categories: %d charts by config, site said once' % len(a))
PY
echo "report_chart_trust: ok ($(wc -l <"$T/p99") p99 charts)"
