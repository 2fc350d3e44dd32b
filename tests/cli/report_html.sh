#!/bin/bash
# report_html: issue 6 acceptance 3. `bench report --html FILE` on the imported dataset writes ONE file that
# loads nothing from elsewhere (no external src, href, url() or @import, no script), parses in python's
# html.parser with every tag balanced, holds the table of contents, the metadata, all 54 matched ratio rows
# (and the 9 unmatched ones) with colour classes that agree with the direction of each metric, and the
# charts inline as SVG. The temporary chart directory is removed afterwards.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/d.db
import_example "$DB"
mkdir "$T/tmp"
TMPDIR=$T/tmp "$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --html "$T/r.html" \
	>/dev/null 2>"$T/err" || fail "html: $(cat "$T/err")"
[ "$(cat "$T/err")" = "bench: wrote the HTML report to $T/r.html (27 charts)" ] || fail "stderr: $(cat "$T/err")"
[ -z "$(ls -A "$T/tmp")" ] || fail "temporary chart files left: $(ls -A "$T/tmp")"
[ "$(ls "$T" | grep -v '^tmp$\|^d.db\|^r.html$\|^err$')" = "" ] || fail "extra files: $(ls "$T")"

"$PY3" - "$T/r.html" "$EXAMPLE_CSV" <<'PY' || fail "html content"
import csv, re, sys
from html.parser import HTMLParser
text = open(sys.argv[1], encoding='utf-8').read()

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}
class Strict(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.rows, self.svgs = [], [], [], 0
        self.refs = []
        self.cur = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ('src', 'href', 'xlink:href', 'action', 'poster', 'srcset', 'data'):
            if k in a:
                self.refs.append((tag, k, a[k]))
        if 'style' in a and ('url(' in a['style'] or '@import' in a['style']):
            self.errors.append('style with url()/@import: %r' % a['style'])
        if tag == 'script' and attrs:
            self.errors.append('a script element with attributes')
        if tag == 'iframe' or tag == 'object' or tag == 'link':
            self.errors.append('active or external element <%s>' % tag)
        if any(k.startswith('on') for k in a):
            self.errors.append('event handler on <%s>' % tag)
        if tag == 'svg':
            self.svgs += 1
        if tag == 'tr' and a.get('class') in ('matched', 'unmatched'):
            self.cur = {'class': a['class'], 'cells': []}
            self.rows.append(self.cur)
        if tag == 'td' and self.cur is not None:
            self.cur['cells'].append({'class': a.get('class', ''), 'text': ''})
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        for k in ('src', 'href', 'xlink:href'):
            if k in a:
                self.refs.append((tag, k, a[k]))
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append('unbalanced </%s> at %s, open: %s' % (tag, self.getpos(), self.stack[-3:]))
            return
        self.stack.pop()
        if tag == 'tr':
            self.cur = None
    def handle_data(self, data):
        if self.cur is not None and self.cur['cells']:
            self.cur['cells'][-1]['text'] += data

p = Strict()
p.feed(text)
p.close()
assert not p.errors, p.errors[:5]
assert not p.stack, ('unclosed', p.stack[-5:])
assert text.startswith('<!DOCTYPE html>')
# nothing external: every reference is a fragment of this page
bad = [r for r in p.refs if not r[2].startswith('#')]
assert not bad, bad[:5]
for m in re.finditer(r'url\(\s*([^)]*)\)', text):
    assert m.group(1).strip('\'" ').startswith('#'), m.group(0)
assert '@import' not in text
assert not re.search(r'(?i)https?://|//[a-z0-9.-]+\.[a-z]{2,}/', text), re.search(r'(?i)https?://\S*', text)
scripts = re.findall(r'(?is)<script\b([^>]*)>(.*?)</script>', text)
assert len(scripts) == 1 and scripts[0][0] == '' and text.lower().count('<script') == 1, 'not one bare <script>'
assert not re.search(r'(?i)&lt;|&amp;|</|stack=|randread|nvmeof', scripts[0][1]), 'user text in the script'
# structure: TOC, metadata, ratio section, charts inline
for needle in ('<nav>', 'id="meta"', 'id="ratio"', 'id="results"', 'id="charts"', 'id="runs"',
               'href="#r1"', 'label <code>stack</code>', 'nvmeof-vs-iser-100g.csv'):
    assert needle in text, needle
assert p.svgs >= 27, p.svgs
# the ratio rows
data = list(csv.DictReader(open(sys.argv[2], newline='', encoding='utf-8')))
src = {(r['transport'], r['stack'], r['workload']): r for r in data}
matched = [r for r in p.rows if r['class'] == 'matched']
unmatched = [r for r in p.rows if r['class'] == 'unmatched']
assert len(matched) == 54, len(matched)
assert len(unmatched) == 9 and all('only iser' in r['cells'][0]['text'] for r in unmatched)
cols = ['iops', 'mbps', 'read_lat_ms', 'write_lat_ms', None, None, 'cpu_pct']
higher = [True, True, False, False, False, False, False]
ngood = nbad = 0
for r in matched:
    cells = r['cells']
    assert len(cells) == 8, cells
    name = cells[0]['text'].strip()
    # the published CSV has one run per workload: every row carries the n=1 mark (as text and Markdown do)
    assert name.endswith(' (n=1)'), name
    name = name[:-len(' (n=1)')]
    stacks = {k[1] for k in src if k[2] == name}
    for i, col in enumerate(cols):
        c = cells[i + 1]
        if c['text'].strip() in ('-', 'n/a'):
            assert not re.search(r'good|bad', c['class']), c
            continue
        assert '~' not in c['text'], ('within noise with n=1', c)
        x = float(c['text'])
        m = re.fullmatch(r'r (good|bad)([0-3])', c['class'])
        assert m, c
        good = x >= 1 if higher[i] else x <= 1
        assert m.group(1) == ('good' if good else 'bad'), (name, i, x, c['class'])
        ngood += good
        nbad += not good
        if col in ('iops', 'cpu_pct', 'read_lat_ms', 'write_lat_ms'):
            # the printed ratio is one of nvmeof/iser for this workload (3 decimals)
            vals = [float(src[('nvmeof', s, name)][col]) / float(src[('iser', s, name)][col]) for s in stacks
                    if ('nvmeof', s, name) in src and src[('nvmeof', s, name)][col]]
            assert any(abs(round(v, 3) - x) < 1e-9 for v in vals), (name, col, x)
assert 'n=1: one run, no spread' in text, 'the n=1 note'
print('report_html: %d matched rows (%d green, %d brown cells), %d unmatched, %d inline SVG charts, %d bytes' % (
    len(matched), ngood, nbad, len(unmatched), p.svgs, len(text)))
PY

# --format html (no charts) is a page too, on stdout
"$BENCH" report --db "$DB" --format html > "$T/p.html" || fail "--format html"
grep -q '<h2 id="results">' "$T/p.html" && ! grep -q '<svg' "$T/p.html" || fail "--format html content"
# without gnuplot: the page is written without charts, with a warning, exit 0
env PATH=/nonexistent "$BENCH" report --db "$DB" --html "$T/n.html" >/dev/null 2>"$T/err" || fail "html without gnuplot"
grep -q 'warning: the HTML report has no charts: gnuplot is not installed' "$T/err" || fail "warning: $(cat "$T/err")"
grep -q '<h2 id="results">' "$T/n.html" || fail "page without charts"
echo "report_html: ok"
