#!/bin/bash
# report_escape: issue 6 acceptance 4. A label value and a workload name holding ", ', a newline,
# <script>alert(1)</script>, system("touch bench-pwned"), backquotes, @macro, % and | come out escaped in
# every format: text (no line break, no control character), CSV (RFC 4180 round trip), JSON (round trip, no
# raw <), Markdown (no raw tag, table intact), HTML (no script element, balanced), gnuplot scripts (user text
# only inside single-quoted strings); rendering the charts (all six kinds) creates no file bench-pwned.
. "$BENCH_SRC/tests/lib/failfast.sh"
need gnuplot
mkdir "$T/work" "$T/tmp"
cd "$T/work" || fail "cd"
export TMPDIR=$T/tmp
"$PY3" - "$T" <<'PY' || fail "writing the CSV"
import csv, sys
EVIL = 'q"d\'s\nl<script>alert(1)</script> system("touch bench-pwned") `touch bench-pwned` @x %s | * _ \\ ,'
NAME = 'w`touch bench-pwned`"\'<script>alert(1)</script>%d|x\nsystem("touch bench-pwned")'
with open(sys.argv[1] + '/evil.csv', 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['transport', 'stack', 'workload', 'tool', 'bs', 'rdpct', 'randpct', 'iops', 'mbps', 'cpu_pct',
                'write_lat_ms', 'read_lat_ms', 'read_p99_ms'])
    for t, iops in (('a', 200), ('b', 100)):
        for st in (EVIL, 'plain'):
            w.writerow([t, st, NAME, 'fio', '4k', 70, 100, iops, iops / 256, 10, 0.5, 0.4, 1.5])
            w.writerow([t, st, 'normal', 'fio', '8k', 0, 0, iops * 2, iops / 128, 12, 0.6, '', ''])
open(sys.argv[1] + '/evil.txt', 'w').write(EVIL)
open(sys.argv[1] + '/name.txt', 'w').write(NAME)
PY
DB=$T/e.db
"$BENCH" import --db "$DB" --csv "$T/evil.csv" >/dev/null 2>"$T/err" || fail "import: $(cat "$T/err")"
# samples (per host named like the label) and bins, for charts (e) and (f)
"$PY3" - "$DB" "$T/evil.txt" <<'PY' || fail "samples"
import sqlite3, sys
EVIL = open(sys.argv[2]).read()
db = sqlite3.connect(sys.argv[1])
for host in (EVIL, '*'):
    for i in range(10):
        db.execute("INSERT INTO sample(run_id, host, metric, t_ms, value) VALUES (1, ?, 'iops.read', ?, ?)", (host, i * 1000, 100 + i))
for rid, in db.execute("SELECT id FROM result WHERE host='*' AND ddir='read' AND run_id IN (1, 5)").fetchall():
    db.execute("INSERT INTO result_bin VALUES (?, 300000, 90), (?, 900000, 10)", (rid, rid))
db.commit()
PY

R() { "$BENCH" report --db "$DB" "$@" 2>"$T/err"; }
check_text() {  # file: the label never spans lines, no control characters but ANSI colour from bench
	"$PY3" - "$1" "$T/evil.txt" <<'PY' || fail "text escaping in $1"
import re, sys
t = open(sys.argv[1], encoding='utf-8').read()
t = re.sub(r'\x1b\[[0-9;]*m', '', t)
assert not re.search(r'[\x00-\x08\x0b-\x1f\x7f]', t), 'control character'
evil = open(sys.argv[2]).read()
first, second = evil.split('\n')
lines = [l for l in t.split('\n') if first in l]
assert lines, 'label missing'
assert all(second in l for l in lines), 'label broken over lines'
PY
}
R --by stack > "$T/raw.txt" || fail "text: $(cat "$T/err")"; check_text "$T/raw.txt"
R --by stack -v > "$T/rawv.txt" || fail "text -v"; check_text "$T/rawv.txt"
R --compare transport=a:b --by stack --color=always > "$T/cmp.txt" || fail "compare text"; check_text "$T/cmp.txt"

for what in raw cmp; do
	args=(--by stack); [ $what = cmp ] && args=(--compare transport=a:b --by stack)
	R "${args[@]}" --format csv > "$T/$what.csv" || fail "csv $what"
	R "${args[@]}" --format json -v > "$T/$what.json" || fail "json $what"
	R "${args[@]}" --format markdown > "$T/$what.md" || fail "markdown $what"
	"$PY3" - "$T/$what.csv" "$T/$what.json" "$T/$what.md" "$T/evil.txt" "$T/name.txt" <<'PY' || fail "csv/json/markdown escaping ($what)"
import csv, json, re, sys
evil, name = open(sys.argv[4]).read(), open(sys.argv[5]).read()
rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
assert {r['stack'] for r in rows} == {evil, 'plain'}, {r['stack'] for r in rows}
# --by stack splits the transports (never folded): the name then carries " (transport=a)"
named = lambda ws: any(w == name or w.startswith(name + ' (transport=') for w in ws)
assert named({r['workload'] for r in rows})
jt = open(sys.argv[2], encoding='utf-8').read()
assert '<' not in jt and '>' not in jt, 'raw < or > in JSON'
j = json.loads(jt)
stacks = {g['labels']['stack'] for g in j['groups']}
assert evil in stacks, stacks
names = {r['workload'] for g in j['groups'] for r in g['rows']}
assert named(names)
md = open(sys.argv[3], encoding='utf-8').read()
assert '<script' not in md.lower(), 'raw tag in markdown'
assert '&lt;script&gt;' in md
for l in md.split('\n'):
    if l.startswith('|'):
        cells = re.split(r'(?<!\\)\|', l)
        assert len(cells) in (10, 11, 12), (len(cells), l)   # 8 to 10 columns (the note column)
    assert not l.startswith('l<') and 'alert(1)' not in l or '&lt;' in l
PY
done

# HTML with every chart kind inline, and the charts themselves
R --compare transport=a:b --by stack --html "$T/r.html" --charts "$T/ch" >/dev/null || fail "html/charts: $(cat "$T/err")"
"$PY3" - "$T/r.html" "$T/ch" <<'PY' || fail "html or gnuplot escaping"
import os, re, sys
from html.parser import HTMLParser
t = open(sys.argv[1], encoding='utf-8').read()
scripts = re.findall(r'(?is)<script\b([^>]*)>(.*?)</script>', t)
assert len(scripts) == 1 and scripts[0][0] == '' and t.lower().count('<script') == 1, 'not one bare <script>'
assert not re.search(r'(?i)&lt;|&amp;|</|alert|pwned|system\(|`', scripts[0][1]), 'user text in the script'
assert '&lt;script&gt;alert(1)&lt;/script&gt;' in t
VOID = {'br', 'meta', 'hr', 'img', 'input', 'link', 'wbr'}
class P(HTMLParser):
    stack, err = [], []
    def handle_starttag(self, tag, a):
        if any(k.startswith('on') for k, v in a): self.err.append(tag)
        if tag not in VOID: self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in VOID: return
        if not self.stack or self.stack.pop() != tag: self.err.append('/' + tag)
p = P(); p.feed(t); p.close()
assert not p.err and not p.stack, (p.err[:3], p.stack[:3])
kinds = set()
for d in sys.argv[2:]:
    for f in os.listdir(d):
        kinds.add(f[0])
        if not f.endswith('.gp'):
            continue
        for line in open(os.path.join(d, f), encoding='utf-8'):
            # drop single-quoted strings ('' is a quote inside one); what is left is gnuplot syntax
            outside = re.sub(r"'(?:[^']|'')*'", "''", line)
            assert "'" not in outside.replace("''", ''), (f, line)
            for bad in ('system', '`', 'touch', '<script', '@x', '"'):
                assert bad not in outside, (f, bad, line)
assert set('abcdef') <= kinds, kinds
PY
[ -z "$(find "$T" /tmp "$HOME" -maxdepth 3 -name 'bench-pwned*' 2>/dev/null)" ] || fail "bench-pwned was created"
[ -z "$(ls -A "$T/tmp")" ] || fail "temporary files left"
echo "report_escape: ok"
