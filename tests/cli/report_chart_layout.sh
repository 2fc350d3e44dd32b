#!/bin/bash
# report_chart_layout: issue 17 acceptance 4 (automated part) and the publication charts. For bar charts of
# 1, 9, 24 and 120 workloads with long names, and for every bar chart of the published dataset
# compared with aliases, no two texts under the x axis (tick labels, axis title, legend table of short
# names, caption) overlap and none leaves the picture: boxes from the SVG text positions, font size and
# anchor (0.6 em a character, 1 em a line, rotations applied). Also: axis titles with units, a value label
# on every bar, log axis exactly when a panel spans more than 20x (or --log on/off), aliases in the legend,
# one colour per label value in every chart, series in the order given, --dpi 300 PNGs 3.125 times the
# SVG's size, and a title and caption on the charts.
. "$BENCH_SRC/tests/lib/failfast.sh"
need gnuplot

cat >"$T/overlap.py" <<'PY'
import glob, html, os, re, sys
TEXT = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)(?: rotate\((-?[\d.]+)\))?"[^>]*?'
                  r'font-size="([\d.]+)"[^>]*?text-anchor="(\w+)"[^>]*>\s*<text>(.*?)</text>', re.S)
SIZE = re.compile(r'<svg[^>]*viewBox="0 0 ([\d.]+) ([\d.]+)"')
def boxes(svg):
    out = []
    for x, y, rot, fs, anchor, t in TEXT.findall(svg):
        x, y, fs, t = float(x), float(y), float(fs), html.unescape(t)
        if not t.strip():
            continue
        w = 0.6 * fs * len(t)
        x0 = {'start': 0, 'middle': -w / 2, 'end': -w}[anchor]
        corners = [(x0, -0.8 * fs), (x0 + w, -0.8 * fs), (x0, 0.2 * fs), (x0 + w, 0.2 * fs)]
        r = float(rot or 0) % 360
        if r == 270:    # rotate(-90): text upwards
            corners = [(dy, -dx) for dx, dy in corners]
        elif r == 90:
            corners = [(-dy, dx) for dx, dy in corners]
        elif r != 0:
            raise AssertionError('unexpected rotation %s' % r)
        xs = [x + c[0] for c in corners]
        ys = [y + c[1] for c in corners]
        out.append((min(xs), min(ys), max(xs), max(ys), t, r, anchor, y))
    return out
def check(path, min_ticks):
    svg = open(path, encoding='utf-8').read()
    W, H = map(float, SIZE.search(svg).groups())
    b = boxes(svg)
    axis = max(y for (_, _, _, _, _, r, a, y) in b if r == 0 and a == 'end')  # the lowest y tick label
    under = [x for x in b if x[7] > axis + 2]
    assert len(under) >= min_ticks, (path, len(under), min_ticks)
    for x in under:
        assert x[0] >= -0.5 and x[2] <= W + 0.5 and x[3] <= H + 0.5, (path, 'outside the picture', x, W, H)
    for i in range(len(under)):
        for j in range(i + 1, len(under)):
            a, c = under[i], under[j]
            if a[0] < c[2] and c[0] < a[2] and a[1] < c[3] and c[1] < a[3]:
                raise AssertionError((path, 'overlap', a[4], c[4]))
    return len(under)
if __name__ == '__main__':
    n = check(sys.argv[1], int(sys.argv[2]))
    print(n)
PY

# ---- raw-table charts (b, d) at many workload counts ----
"$PY3" - "$T" <<'PY' || fail "datasets"
import csv, sys
for n in (1, 9, 24, 120):
    with open('%s/n%d.csv' % (sys.argv[1], n), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['stack', 'workload', 'tool', 'bs', 'rdpct', 'randpct', 'iops', 'mbps', 'read_lat_ms', 'write_lat_ms'])
        for i in range(n):
            name = 'fio-8vmdk-100ws-%dk-%drdpct-100randompct-4threads-50compress-50dedupe' % (4 * (1 + i // 101), i % 101)
            w.writerow(['raid', name, 'fio', '%dk' % (4 * (1 + i // 101)), i % 101, 100, 1000 + 5000 * i,
                        4 + i, 0.2 + 0.01 * i, 0.3 + 0.02 * i])
PY
for n in 1 9 24 120; do
	"$BENCH" import --db "$T/n$n.db" --csv "$T/n$n.csv" >/dev/null 2>"$T/err" || fail "import n=$n: $(cat "$T/err")"
	for names in full short; do
		rm -rf "$T/ch"
		"$BENCH" report --db "$T/n$n.db" --charts "$T/ch" --names $names >/dev/null 2>"$T/err" ||
			fail "charts n=$n: $(cat "$T/err")"
		for f in "$T"/ch/b-*.svg "$T"/ch/d-*.svg; do
			got=$("$PY3" "$T/overlap.py" "$f" "$((2 * n))") || fail "n=$n --names $names: $(basename "$f")"
		done
	done
	echo "n=$n: no overlap ($got texts under the axis)"
done

# ---- the published dataset, compared, with aliases, title, caption, 300 dpi ----
DB=$T/a.db
import_example "$DB"
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --alias transport=nvmeof:NVMe-oF \
	--alias transport=iser:iSER --title 'Article' --caption '100 GbE, medians' --dpi 300 --charts "$T/art" \
	>/dev/null 2>"$T/err" || fail "article charts: $(cat "$T/err")"
for f in "$T"/art/[abd]-*.svg; do
	"$PY3" "$T/overlap.py" "$f" 2 >/dev/null || fail "article chart $(basename "$f")"
done
"$PY3" - "$T/art" <<'PY' || fail "article charts content"
import glob, os, re, struct, sys
d = sys.argv[1]
svgs = sorted(glob.glob(d + '/[abd]-*.svg'))
assert len(svgs) == 9 + 6 * 2, len(svgs)  # a: 9 workloads; b, d (mean; no p99 in the CSV): 6 stacks
colours = {}
for f in svgs:
    t = open(f, encoding='utf-8').read()
    stem = f[:-4]
    assert 'NVMe-oF' in t and 'iSER' in t, (f, 'aliases in the legend')
    assert '>nvmeof<' not in t and '>iser<' not in t, (f, 'a raw value shown')
    assert t.find('NVMe-oF') < t.find('iSER'), (f, 'series order as given')
    assert 'Article: ' in t and '100 GbE, medians' in t, (f, 'title and caption')
    k = os.path.basename(f)[0]
    want = (('IOPS (IO/s)', 'bandwidth (MiB/s)') if k in 'ab' else
            ('read latency, 99th percentile (ms)', 'write latency, 99th percentile (ms)') if 'p99 latency per' in t else
            ('read latency, mean (ms)', 'write latency, mean (ms)'))
    for w in want:
        assert w in t, (f, 'axis title', w)
    # one value label per bar: the data file's label column of every known value is in the SVG
    dat = open(stem + '.dat').read()
    vals = re.findall(r' ([-\d.e+]+) "([^"]*)" (\d+)', dat)
    for v, lab, rgb in vals:
        if lab:
            assert '>%s<' % lab in t, (f, 'value label', lab)
    # colours: series 1 (nvmeof) and 2 (iser) have the same colour in every chart
    for line in dat.splitlines():
        m = re.findall(r'"[^"]*" (\d+)', line)
        if len(m) == 2:
            colours.setdefault('nvmeof', set()).add(m[0])
            colours.setdefault('iser', set()).add(m[1])
    # log axis exactly where a panel's values span more than 20x
    blocks = [b for b in dat.split('\n\n\n') if b.strip()]
    for i, b in enumerate(blocks):
        vs = [float(v) for v, _, _ in re.findall(r' ([-\d.e+]+) "([^"]*)" (\d+)', b) if v != 'NaN' and float(v) > 0]
        span = max(vs) / min(vs)
        gp = open(stem + '.gp').read().split('set terminal')[1]
        logs = re.findall(r"set ylabel '[^']*?(, log scale)?'", gp)
        assert bool(logs[i]) == (span > 20), (f, i, span, logs)
assert len(colours['nvmeof']) == 1 and len(colours['iser']) == 1 and colours['nvmeof'] != colours['iser'], colours
def png_size(p):
    b = open(p, 'rb').read(24)
    return struct.unpack('>II', b[16:24])
for f in svgs[:4]:
    t = open(f, encoding='utf-8').read()
    W, H = map(float, re.search(r'<svg[^>]*viewBox="0 0 ([\d.]+) ([\d.]+)"', t).groups())
    pw, ph = png_size(f[:-4] + '.png')
    assert abs(pw - W * 300 / 96) <= 1 and abs(ph - H * 300 / 96) <= 1, (f, pw, ph, W, H)
print('article charts: %d checked' % len(svgs))
PY

# --log on / off
rm -rf "$T/lg"
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --where stack=mdadm-raid0 --log off --charts "$T/lg" >/dev/null 2>&1 || fail "--log off"
! grep -q 'log scale' "$T"/lg/*.gp || fail "--log off drew a log axis"
rm -rf "$T/lg"
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --where stack=mdadm-raid0 --log on --charts "$T/lg" >/dev/null 2>&1 || fail "--log on"
[ "$(grep -h "set ylabel" "$T"/lg/b-*.gp | grep -vc 'log scale')" = 0 ] || fail "--log on left a linear axis"
"$BENCH" report --db "$DB" --log sometimes >/dev/null 2>&1; [ $? = 2 ] || fail "--log sometimes accepted"
"$BENCH" report --db "$DB" --dpi 5 >/dev/null 2>&1; [ $? = 2 ] || fail "--dpi 5 accepted"
# a title wider than the picture wraps onto a second line, never cut at both ends
long="NVMe-oF vs iSER over 100G with a title far longer than a chart is wide, as a study's own titles get"
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --where stack=mdadm-raid0 --title "$long" \
	--charts "$T/tt" >/dev/null 2>&1 || fail "--title long"
n=$(grep -h "^set multiplot title" "$T"/tt/*.gp | grep -c "\.NL\.")
[ "$n" -gt 0 ] || fail "a long chart title is not wrapped: $(grep -h '^set multiplot title' "$T"/tt/*.gp | head -1)"
echo "report_chart_layout: ok"
