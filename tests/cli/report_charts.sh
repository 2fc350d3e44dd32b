#!/bin/bash
# report_charts: issue 6 acceptance 2. `bench report --charts DIR` on the imported dataset writes charts
# (a) per workload, (b) per stack A vs B, (c) ratio table, (d) mean latency (the CSV has no p99: no p99 chart) as PNG and SVG for all 6 compared
# stacks, every gnuplot call exiting 0 (bench exits 4 otherwise). Then (e) time series and (f) latency CDFs
# from samples and histogram bins written with sqlite3, the raw-table charts without --compare, and a clear
# error (exit 4) when gnuplot is not installed.
. "$BENCH_SRC/tests/lib/failfast.sh"
need gnuplot "apt-get install gnuplot-nox"
DB=$T/d.db
import_example "$DB"

"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --charts "$T/ch" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 0 ] || fail "charts exit $rc: $(cat "$T/err")"
grep -q "wrote 27 charts" "$T/err" || fail "summary: $(cat "$T/err")"
# every image is a real PNG or SVG; (a)-(d) for each of the 6 compared stacks; titles and colours
"$PY3" - "$T/ch" <<'PY' || fail "charts of the comparison"
import os, re, sys
d = sys.argv[1]
files = sorted(os.listdir(d))
def check(f):
    b = open(os.path.join(d, f), 'rb').read()
    if f.endswith('.png'):
        assert b[:8] == b'\x89PNG\r\n\x1a\n' and len(b) > 10000, f
    else:
        t = b.decode()
        assert '<svg' in t and '</svg>' in t and ('<path' in t or '<rect' in t), f
    return b.decode('latin-1')
stacks = ['mdadm-raid0', 'mdadm-raid5', 'lvm-raid0', 'lvm-raid5', 'zfs-stripe', 'zfs-raidz']
for st in stacks:
    for k in 'bcd':
        for ext in ('png', 'svg'):
            m = [f for f in files if re.fullmatch(r'%s-\d+-%s\.%s' % (k, st, ext), f)]
            assert len(m) == 1, (k, st, ext, m)  # d: mean latency (no p99 in the CSV: no p99 chart)
            for f in m:
                t = check(f)
                if ext == 'svg':
                    assert 'stack=' + st in t, (f, 'title')
assert not [f for f in files if 'nochecksum' in f], 'a stack with one side only has no A-vs-B chart'
a = [f for f in files if f.startswith('a-') and f.endswith('.png')]
assert len(a) == 9, a
for f in files:
    if f.startswith('a-') and f[-4:] in ('.png', '.svg'):
        check(f)
a1 = check([f for f in files if f.startswith('a-01-') and f.endswith('.svg')][0])
for st in ('mdadm-raid0', 'zfs-raidz', 'zfs-stripe-nochecksum'):
    assert st in a1, ('(a) x axis lacks', st)
c = check([f for f in files if re.fullmatch(r'c-\d+-mdadm-raid0\.svg', f)][0])
assert re.search(r'rgb\( *90, *174, *97\)|rgb\( *27, *120, *55\)|rgb\(166, *219, *160\)', c), '(c) no green'
assert re.search(r'rgb\(191, *129, *45\)|rgb\(140, *81, *10\)|rgb\(223, *194, *125\)', c), '(c) no brown'
assert '1.583' in c, '(c) ratio 450770.63/284723.17'
print('charts checked:', len(files))
PY

# (e) time series and (f) CDF from samples and bins of runs written with sqlite3
sqlite3 "$DB" <<'SQL' || fail "insert samples"
INSERT INTO sample(run_id,host,metric,t_ms,value)
  WITH RECURSIVE t(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM t WHERE i < 29)
  SELECT 1, h, m, i*1000, CASE m WHEN 'iops.write' THEN 1000+i*10 WHEN 'bw_bytes.write' THEN 4096000+i ELSE 150000+i*100 END
  FROM t, (SELECT 'h1' AS h UNION ALL SELECT 'h2' UNION ALL SELECT '*'),
          (SELECT 'iops.write' AS m UNION ALL SELECT 'bw_bytes.write' UNION ALL SELECT 'lat_ns.write'
           UNION ALL SELECT 'cpu.util_pct');
INSERT INTO result_bin SELECT id, 100000, 50 FROM result WHERE host='*' AND ddir='write' AND run_id IN (1, 10, 19);
INSERT INTO result_bin SELECT id, 170000, 45 FROM result WHERE host='*' AND ddir='write' AND run_id IN (1, 10, 19);
INSERT INTO result_bin SELECT id, 2000000, 5 FROM result WHERE host='*' AND ddir='write' AND run_id IN (1, 10, 19);
SQL
"$BENCH" report --db "$DB" --where name=vdb-2vmdk-100ws-4k-0rdpct-100randompct-4threads --by transport --charts "$T/raw" >/dev/null 2>"$T/err" || fail "raw charts: $(cat "$T/err")"
ls "$T"/raw/e-*.png >/dev/null 2>&1 || fail "no time-series chart"
[ "$(ls "$T"/raw/e-*.png | wc -l)" = 1 ] || fail "time series: one run has samples"
E=$(ls "$T"/raw/e-*.svg)
# issue 13: legends are hosts and "all hosts" (computed by core/series.h, the stored '*' rows are not drawn
# twice), units in axis titles, never a metric name with _ns
for s in '>h1<' '>h2<' '>all hosts<' 'IOPS' 'MiB/s' 'mean latency (us)' 'CPU (%)' 'time since the end of ramp (s)'; do
	grep -q "$s" "$E" || fail "time series lacks '$s'"
done
grep -q '_ns' "$E" && fail "time series names a metric in ns"
D=$(ls "$T"/raw/e-*time.dat)
"$PY3" - "$D" <<'PY' || fail "all hosts IOPS is not the sum of the hosts'"
import sys
blocks = [b for b in open(sys.argv[1]).read().split("\n\n\n")]
iops = [dict(tuple(map(float, l.split())) for l in b.strip().splitlines()) for b in blocks[:3]]
h1, h2, allh = iops
assert len(allh) == 30 and all(abs(allh[t] - h1[t] - h2[t]) < 1e-6 for t in allh), (h1, h2, allh)
PY
F=$(ls "$T"/raw/f-*.svg)
[ "$(echo "$F" | wc -l)" = 1 ] || fail "one CDF chart (one workload name): $F"
[ "$(grep -o 'run [0-9]* stack=[^<]*write' "$F" | sort -u | wc -l)" = 3 ] ||
	fail "CDF overlays 3 runs: $(grep -o 'run [0-9]*[^<]*write' "$F" | sort -u)"
for k in a b d; do ls "$T"/raw/$k-*.png >/dev/null 2>&1 || fail "raw-table charts ($k)"; done
ls "$T"/raw/c-* >/dev/null 2>&1 && fail "(c) needs --compare"
"$PY3" - "$T/raw" <<'PY' || fail "raw charts are not images"
import os, sys
for f in os.listdir(sys.argv[1]):
    b = open(os.path.join(sys.argv[1], f), 'rb').read()
    if f.endswith('.png'):
        assert b[:8] == b'\x89PNG\r\n\x1a\n' and len(b) > 5000, f
    elif f.endswith('.svg'):
        assert b'</svg>' in b, f
PY

# gnuplot missing: exit 4 and one clear line
env PATH=/nonexistent "$BENCH" report --db "$DB" --charts "$T/x" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 4 ] || fail "missing gnuplot exit $rc"
grep -q 'gnuplot is not installed' "$T/err" && [ "$(wc -l < "$T/err")" = 1 ] || fail "missing gnuplot message: $(cat "$T/err")"
# --charts on a file that is not a directory
: > "$T/file"
"$BENCH" report --db "$DB" --charts "$T/file" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 3 ] || fail "--charts FILE exit $rc"
echo "report_charts: ok"
