#!/bin/bash
# report_html_publish: the HTML report of issue 17. One file with nothing loaded from outside; a table of
# contents whose every link has its target; charts in a responsive grid (CSS grid, cell width from the
# charts); a table per configuration (label config=) with its hosts, fio versions, kernel, the runs' own
# dates (fio's timestamp, not the import time) and the artifacts stored with it; a three-way comparison
# with every value (aliased) and the one CPU % definition with its source.
. "$BENCH_SRC/tests/lib/failfast.sh"
need gnuplot
DB=$T/d.db
FIX=$BENCH_SRC/tests/fixtures/fio/json/fio-3.33_12jobs_12groups.json
for t in rdma tcp iscsi; do
	"$BENCH" import --again --db "$DB" --label "transport=$t" --label "config=cfg-$t" --label kernel=6.1.0-18-amd64 \
		--label config.nic=cx6 "$FIX" >/dev/null 2>"$T/err" || fail "import $t: $(cat "$T/err")"
done
"$BENCH" report --db "$DB" --compare transport=rdma,tcp:iscsi --alias transport=rdma:NVMe-oF/RDMA \
	--alias transport=tcp:NVMe/TCP --title 'Three fabrics' --html "$T/r.html" >/dev/null 2>"$T/err" ||
	fail "report: $(cat "$T/err")"
"$PY3" - "$T/r.html" "$FIX" <<'PY' || fail "html"
import datetime, json, re, sys
t = open(sys.argv[1], encoding='utf-8').read()
raw = open(sys.argv[2], encoding='utf-8').read()
fio_ts = int(re.search(r'"timestamp" *: *(\d+)', raw).group(1))
# nothing from outside: no src=, no external href, no @import/url(http
assert not re.search(r'\bsrc\s*=', t), 'src='
assert not re.search(r'href\s*=\s*["\'](?!#)', t), 'an external href'
assert '@import' not in t and 'url(http' not in t
scripts = re.findall(r'(?is)<script\b([^>]*)>(.*?)</script>', t)
assert len(scripts) == 1 and scripts[0][0] == '' and t.lower().count('<script') == 1, 'not one bare <script>'
assert not re.search(r'(?i)&lt;|&amp;|</|Three fabrics', scripts[0][1]), 'user text in the script'
assert '<title>Three fabrics</title>' in t and '<h1>Three fabrics</h1>' in t
# every contents link has its target
ids = set(re.findall(r'\bid="([^"]+)"', t))
links = re.findall(r'href="#([^"]+)"', t)
assert links and all(l in ids for l in links), [l for l in links if l not in ids]
# responsive grid of charts
assert 'display:grid' in t and 'auto-fill' in t and re.search(r'class="grid" style="--cell:\d+px"', t)
assert t.count('<figure') >= 4, t.count('<figure')
# per configuration: three rows, each with its host, fio version, kernel, config label and artifacts
cfg = t[t.index('id="configs"'):]
cfg = cfg[:cfg.index('</table>')]
rows = re.findall(r'<tr><td><code>(cfg-[a-z]+)</code></td>(.*?)</tr>', cfg, re.S)
assert sorted(r[0] for r in rows) == ['cfg-iscsi', 'cfg-rdma', 'cfg-tcp'], rows
for name, row in rows:
    assert 'fio-3.33' in row and '6.1.0-18-amd64' in row and 'config.nic=cx6' in row, (name, row)
    assert 'fio-output.json' in row, (name, 'artifact')
    start = re.search(r'(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) to', row).group(1)
    when = datetime.datetime.strptime(start[:19], '%Y-%m-%dT%H:%M:%S').replace(tzinfo=datetime.timezone.utc)
    assert abs(when.timestamp() - fio_ts) < 600, (name, start, fio_ts)  # fio's time, not the import's
# three-way comparison with aliases, and the CPU definition with its source
cmp = t[t.index('id="ratio"'):t.index('id="results"')]
assert 'NVMe-oF/RDMA' in cmp and 'NVMe/TCP' in cmp and 'iscsi' in cmp
assert cmp.count('<td>NVMe/TCP</td>') >= 12, cmp.count('<td>NVMe/TCP</td>')
assert 'CPU % is the busy share of all cores' in t and 'Source: fio&#39;s own usr+sys' in t
print('report_html_publish: %d links, %d figures, 3 configurations' % (len(links), t.count('<figure')))
PY
echo "report_html_publish: ok"
