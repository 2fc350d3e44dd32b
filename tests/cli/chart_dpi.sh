#!/bin/bash
# chart_dpi: issue 27 ("One chart writer"). `--dpi 300` makes every chart kind's PNG the same picture at 300
# dpi: width and height (read from the PNG's IHDR bytes) 300/96 times those of the default, for each kind
# bench draws: (a) per-workload bars, (b) side-by-side bars, (c) the ratio grid, (d) latency bars, (e) the
# time series and the latency heat map, (f) the latency CDF, (g) latency vs IOPS of curves, and the trend
# chart of `bench trend`. The database is made from imports only (the published CSV, a fio JSON with
# histogram bins and fio logs from tests/fixtures attached to its run, a CSV of curve points, a CSV history),
# so no live fio is needed. Also: one file of report/ writes `set terminal`, the label value that colours a
# bar colours the curve of the same configuration, and a --dpi out of range is a usage error (exit 2) for
# both commands.
. "$BENCH_SRC/tests/lib/failfast.sh"
need gnuplot "apt-get install gnuplot-nox"
FX=$BENCH_SRC/tests/fixtures/fio
cd "$T"

# ---- the databases -------------------------------------------------------------------------------------
import_example d.db
"$BENCH" import --db d.db "$FX/json/fio-3.33_jsonplus_randread_bins.json" >/dev/null || fail "import fio JSON"
run=$(sqlite3 d.db "SELECT max(id) FROM run")
"$BENCH" import --db d.db --run "$run" "$FX"/logs/fio-3.33_randrw70_avg500_{iops,bw,lat}.1.log \
	"$FX/logs/fio-3.33_randrw70_hist1000_clat_hist.1.log" >/dev/null || fail "import fio logs into run $run"
[ "$(sqlite3 d.db "SELECT count(*) FROM sample WHERE run_id = $run AND bucket_lo_ns IS NOT NULL")" -gt 0 ] ||
	fail "no histogram samples for the heat map"

{
	echo 'workload,tool,bs,rdpct,randpct,stack,curve_pct,iops,read_lat_ms,read_p99_ms'
	for s in raid0:100000 raid5:60000; do
		st=${s%%:*} max=${s#*:}
		echo "rr-4k,fio,4k,100,100,$st,max,$max,1.0,4.0"
		for p in 20:0.1:0.2 50:0.12:0.25 80:0.2:0.5 100:0.9:3.0; do
			IFS=: read -r pct lat p99 <<<"$p"
			echo "rr-4k,fio,4k,100,100,$st,$pct,$((max * pct / 100)),$lat,$p99"
		done
	done
} >curve.csv
"$BENCH" import --db c.db --csv curve.csv >/dev/null || fail "import curve points"

{
	echo 'workload,tool,bs,rdpct,randpct,git_seq,iops'
	for i in $(seq 1 20); do echo "rr-4k,fio,4k,100,100,$i,$((i > 10 ? 8000 + i : 10000 + i))"; done
} >trend.csv
"$BENCH" import --db t.db --csv trend.csv >/dev/null || fail "import the trend history"

# ---- every chart kind at the default resolution and at --dpi 300 ----------------------------------------
charts() { # charts DIR [OPTIONS...]: every kind into DIR
	local dir=$1
	shift
	"$BENCH" report --db d.db --compare transport=nvmeof:iser --by stack --charts "$dir/r" "$@" >/dev/null \
		2>"$dir.err" || fail "report --charts $*: $(cat "$dir.err")"
	"$BENCH" report --db c.db --charts "$dir/c" "$@" >/dev/null 2>"$dir.err" ||
		fail "report (curves) --charts $*: $(cat "$dir.err")"
	"$BENCH" trend --db t.db --sort git_seq --chart "$dir/t" "$@" >/dev/null 2>"$dir.err"
	[ $? = 1 ] || fail "trend --chart $* (a drop at build 11: exit 1): $(cat "$dir.err")"
}
mkdir screen print
charts screen
charts print --dpi 300

"$PY3" - <<'PY' || fail "--dpi 300 does not scale every chart kind's PNG"
import glob, os, re, struct
def size(p):
    b = open(p, 'rb').read(24)
    assert b[:8] == b'\x89PNG\r\n\x1a\n' and b[12:16] == b'IHDR', (p, 'not a PNG')
    return struct.unpack('>II', b[16:24])
def kind(stem):
    if stem.startswith('trend-'):
        return 'trend'
    if stem.startswith('e-'):
        return 'e heat map' if stem.endswith('-heatmap') else 'e time series'
    return stem[0]
want = {'a', 'b', 'c', 'd', 'e time series', 'e heat map', 'f', 'g', 'trend'}
seen = {}
for p in sorted(glob.glob('screen/*/*.png')):
    rel = os.path.relpath(p, 'screen')
    w, h = size(p)
    pw, ph = size(os.path.join('print', rel))
    k = kind(os.path.basename(p)[:-4])
    assert abs(pw - w * 300 / 96) <= 1 and abs(ph - h * 300 / 96) <= 1, (rel, k, (w, h), (pw, ph))
    seen.setdefault(k, []).append((rel, w, h, pw, ph))
assert set(seen) == want, ('kinds drawn', sorted(seen), 'wanted', sorted(want))
for k in sorted(seen):
    rel, w, h, pw, ph = seen[k][0]
    print('%-14s %3d charts, e.g. %-45s %4dx%-4d -> %4dx%-4d' % (k, len(seen[k]), rel, w, h, pw, ph))
# the same picture: the SVG (resolution-free) is the same at both resolutions
for p in glob.glob('screen/*/*.svg'):
    assert open(p, 'rb').read() == open(p.replace('screen/', 'print/', 1), 'rb').read(), (p, 'SVG changed')
PY

# ---- one writer of terminals; one colour per label value across kinds ------------------------------------
[ "$(grep -rl --include='*.c' 'set terminal' "$BENCH_SRC"/report | xargs -n1 basename)" = chart_gnuplot.c ] ||
	fail "'set terminal' written by: $(grep -rl --include='*.c' 'set terminal' "$BENCH_SRC"/report)"
"$PY3" - <<'PY' || fail "a configuration's curve is not in its bars' colour"
import glob, re
# bars: category i of a-01 is stack raid0 then raid5, its colour the column after the label (decimal RGB)
bars = [int(re.findall(r'"[^"]*" (\d+)', l)[0]) for l in open(glob.glob('screen/c/a-01-*.dat')[0]) if l.strip()][:2]
gp = open(glob.glob('screen/c/g-*p99*.gp')[0]).read().split('set terminal')[1]
curves = dict((t, int(c, 16)) for c, t in re.findall(r"lc rgb '#([0-9a-f]{6})' title '(stack=raid\d)'", gp))
assert curves == {'stack=raid0': bars[0], 'stack=raid5': bars[1]}, (bars, curves)
PY

# ---- a bad --dpi: usage error, nothing drawn --------------------------------------------------------------
for v in 5 1201 300x ''; do
	"$BENCH" report --db d.db --dpi "$v" --charts bad >/dev/null 2>err; rc=$?
	[ $rc = 2 ] && grep -q "^bench: error: report: --dpi wants a resolution of 50 to 1200, got '$v'" err ||
		fail "report --dpi '$v': exit $rc, $(cat err)"
	"$BENCH" trend --db t.db --dpi "$v" --chart bad >/dev/null 2>err; rc=$?
	[ $rc = 2 ] && grep -q "^bench: error: trend: --dpi wants a resolution of 50 to 1200, got '$v'" err ||
		fail "trend --dpi '$v': exit $rc, $(cat err)"
done
[ ! -e bad ] || fail "a refused --dpi made the chart directory"
echo "chart_dpi: ok"
