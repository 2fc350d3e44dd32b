#!/bin/bash
# report_hostile_alias: issue 17 acceptance 5. Aliases (--alias and a suite label alias.KEY), a title and a
# caption holding ", ', a newline, <script>, gnuplot system("touch ...") and backquotes come out escaped in
# every output that shows them: the HTML page (no script element, no raw tag, balanced, the alias text
# present as text), the gnuplot scripts (user text only inside single-quoted strings), the SVGs and the
# inlined SVGs; rendering creates no file; text, CSV and JSON still parse.
. "$BENCH_SRC/tests/lib/failfast.sh"
need gnuplot
mkdir "$T/work"
cd "$T/work" || fail "cd"
EVIL=$'N"v\'e<script>alert(1)</script>\nsystem("touch alias-pwned") `touch alias-pwned` %s @x'
TITLE=$'T<script>alert(2)</script>"\nsystem("touch title-pwned")`touch title-pwned`'
CAPTION=$'C</figcaption><script>alert(3)</script>\'"\nsystem("touch caption-pwned")'
DB=$T/d.db
"$BENCH" import --db "$DB" --csv "$EXAMPLE_CSV" \
	--label "alias.stack=zfs-raidz:S<script>x</script>\"'\`touch suite-pwned\`" >/dev/null 2>"$T/err" ||
	fail "import: $(cat "$T/err")"
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --alias "transport=nvmeof:$EVIL" \
	--title "$TITLE" --caption "$CAPTION" --charts "$T/ch" --html "$T/r.html" --format json >"$T/r.json" \
	2>"$T/err" || fail "report: $(cat "$T/err")"
"$PY3" -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/r.json" || fail "json does not parse"
printf '%s' "$EVIL" >"$T/evil.txt"
"$PY3" - "$T/r.html" "$T/ch" "$T/evil.txt" <<'PY' || fail "escaping"
import html, html.parser, os, re, sys
t = open(sys.argv[1], encoding='utf-8').read()
evil = open(sys.argv[3], encoding='utf-8').read()
scripts = re.findall(r'(?is)<script\b([^>]*)>(.*?)</script>', t)
assert len(scripts) == 1 and scripts[0][0] == '' and t.lower().count('<script') == 1, 'not one bare <script>'
assert not re.search(r'(?i)&lt;|&amp;|</|alert|pwned|system\(|`', scripts[0][1]), 'user text in the script'
assert '</figcaption><script' not in t
# the alias is shown (escaped) and the suite alias too
assert evil.split('\n')[0] in html.unescape(t), 'alias missing'  # shown as text (no raw tag: above)
assert 'S&lt;script&gt;x&lt;/script&gt;' in t, 'suite alias missing'
assert 'T&lt;script&gt;alert(2)&lt;/script&gt;' in t.split('</title>')[0], 'title not escaped in <title>'
VOID = {'meta', 'br', 'hr', 'img', 'input', 'link', 'path', 'rect', 'circle', 'line', 'polygon', 'polyline',
        'use', 'stop', 'image'}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []; self.err = []
    def handle_starttag(self, tag, a):
        if tag not in VOID: self.stack.append(tag)
    def handle_startendtag(self, tag, a): pass
    def handle_endtag(self, tag):
        if tag in VOID: return
        if not self.stack or self.stack.pop() != tag: self.err.append('/' + tag)
p = P(); p.feed(t); p.close()
assert not p.err and not p.stack, (p.err[:3], p.stack[:3])
n = 0
for f in os.listdir(sys.argv[2]):
    path = os.path.join(sys.argv[2], f)
    if f.endswith('.svg'):
        s = open(path, encoding='utf-8').read()
        assert '<script' not in s.lower(), (f, 'script in an SVG')
    if not f.endswith('.gp'):
        continue
    for line in open(path, encoding='utf-8'):
        outside = re.sub(r"'(?:[^']|'')*'", "''", line)
        assert "'" not in outside.replace("''", ''), (f, line)
        for bad in ('system', '`', 'touch', '<script', '@x', '"'):
            assert bad not in outside, (f, bad, line)
        n += 1
assert n > 1000, n
print('report_hostile_alias: %d script lines checked' % n)
PY
PWNED=$(find "$T" /tmp -maxdepth 3 \( -name alias-pwned -o -name title-pwned -o -name caption-pwned -o -name suite-pwned \) 2>/dev/null)
[ -z "$PWNED" ] || fail "a command ran: $PWNED"
# text and markdown: no control character, the title never breaks a line
"$BENCH" report --db "$DB" --compare transport=nvmeof:iser --by stack --alias "transport=nvmeof:$EVIL" \
	--format markdown >"$T/r.md" || fail "markdown"
! grep -qi '<script' "$T/r.md" || fail "raw tag in markdown"
"$BENCH" report --db "$DB" --alias "bad alias" >/dev/null 2>&1; [ $? = 2 ] || fail "a bad --alias accepted"
echo "report_hostile_alias: ok"
