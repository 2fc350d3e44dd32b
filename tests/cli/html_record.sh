#!/bin/bash
# html_record: the HTML page shows what each configuration is (issue 29). Two configurations run for 1 s each on
# fio's null engine, each with a record step; the page then holds each configuration's record text (escaped, in a
# collapsible <details>, with the cfg.* facts once), the kernel from the stored cfg.kernel (not "unknown"), a link
# from the "configuration labels" column to those facts, a print stylesheet (A4, rows and charts never split,
# records opened), and nothing
# loaded from outside; bench's own script, when the page carries it, is one inline element with no source.
. "$BENCH_SRC/tests/lib/failfast.sh"
cat >"$T/c.suite" <<'SUITE'
[suite]
name = recs
[config alpha]
setup = true
record = echo 'btrfs filesystem show: Label: none <alpha> devices 4'
teardown = true
[config beta]
setup = true
record = sh -c 'echo "mdadm --detail: Raid Level : raid5 & chunk 512K"'
teardown = true
[workload r]
rw=randread
bs=4k
ioengine=null
size=16m
runtime=1
time_based
SUITE
"$BENCH" run "$T/c.suite" --target "$T/t.dat" --db "$T/r.db" -q >/dev/null 2>"$T/err" || fail "run: $(cat "$T/err")"
"$BENCH" report --db "$T/r.db" --html "$T/r.html" >/dev/null 2>"$T/err" || fail "report: $(cat "$T/err")"
kernel=$(sqlite3 "$T/r.db" "SELECT value FROM run_label WHERE key = 'cfg.kernel' LIMIT 1")
[ -n "$kernel" ] || fail "no cfg.kernel stored"
"$PY3" - "$T/r.html" "$kernel" <<'PY' || fail "html"
import re, sys
t = open(sys.argv[1], encoding='utf-8').read()
kernel = sys.argv[2]
# each configuration's record text, escaped, inside a <details> that names it
for name, text in (('alpha', 'btrfs filesystem show: Label: none &lt;alpha&gt; devices 4'),
                   ('beta', 'mdadm --detail: Raid Level : raid5 &amp; chunk 512K')):
    m = re.search(r'<details class="record" id="(cfg\d+)"><summary>configuration <code>%s</code>.*?</details>' % name,
                  t, re.S)
    assert m, ('no record of', name)
    assert text in m.group(0), (name, m.group(0))
    assert 'cfg.kernel = ' + kernel in m.group(0), (name, 'the record\'s facts')
    assert '<code>cfg.cpus</code>' in m.group(0) and '<code>cfg.mem_kib</code>' in m.group(0), (name, 'facts')
assert '<alpha>' not in t, 'record text not escaped'
# per configuration: the kernel from cfg.kernel, a link to the configuration's facts (not the facts again)
cfg = t[t.index('id="configs"'):]
cfg = cfg[:cfg.index('</table>')]
rows = re.findall(r'<tr><td><code>(alpha|beta)</code></td>(.*?)</tr>', cfg, re.S)
assert sorted(r[0] for r in rows) == ['alpha', 'beta'], rows
for name, row in rows:
    cells = re.findall(r'<td[^>]*>(.*?)</td>', row, re.S)
    assert kernel in cells[5] and 'unknown' not in cells[5], (name, 'kernel', cells[5])
    assert re.search(r'<a href="#cfg\d+">\d+ facts</a>', cells[6]), (name, 'labels', cells[6])
    assert 'cfg.' not in cells[6], (name, 'facts twice')
# the print stylesheet
css = t[t.index('<style>'):t.index('</style>')]
pr = css[css.index('@media print'):]
for want in ('@page{size:A4', 'break-inside:avoid', 'thead{display:table-header-group}', 'details::details-content'):
    assert want in pr, ('print stylesheet lacks', want)
assert re.search(r'table,tr,figure[^{]*\{break-inside:avoid', pr), 'tables, rows and charts may split (a table that fits a page is kept on one)'
# nothing from outside; a script only as bench's own inline one
assert not re.search(r'\bsrc\s*=', t), 'src='
assert not re.search(r'href\s*=\s*["\'](?!#)', t), 'an external href'
assert '@import' not in t and 'url(http' not in t and 'http://' not in t and 'https://' not in t
scripts = re.findall(r'<script[^>]*>', t, re.I)
assert scripts in ([], ['<script>']), scripts
if scripts:
    js = t[t.index('<script>'):t.index('</script>')]
    assert 'aria-sort' in js and "getElementById('filter')" in js and 'id="filter"' in t
print('html_record: 2 records, kernel %s, print stylesheet, %d script' % (kernel, len(scripts)))
PY
echo "html_record: ok"
