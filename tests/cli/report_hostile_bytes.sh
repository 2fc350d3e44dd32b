#!/usr/bin/env bash
# report_hostile_bytes: labels and workload names holding invalid UTF-8 (a stray 0xff, an overlong form, a
# surrogate), "]]>", ESC sequences (colour, a terminal title), a C1 CSI, markup and a formula behind a number
# (-1+cmd|' /C calc'!A0) are imported from a CSV and rendered in every format; each output is checked with a
# real parser (python3): JSON (json, strict UTF-8), CSV (csv: no cell starts with a formula lead unless
# neutralised with '), HTML (strict UTF-8), text and Markdown (UTF-8, no ESC/CSI), SVG charts
# (xml.etree: well-formed) and the gate's JUnit XML (xml.etree). Issue 18.
set -u
: "${BENCH:?}" "${BENCH_SRC:?}"
. "$BENCH_SRC/tests/lib/common.sh"
PY3=/usr/bin/python3; [ -x "$PY3" ] || PY3=python3

"$PY3" - <<'PY' || fail "writing the CSV"
EVIL = b'x\xff\xfe\xc0\xaf\xed\xa0\x80 ]]> \x1b[31m\x1b]0;pwn\x07 \xc2\x9b1m \x9b2J <b>&amp; "q" \'s \r=1'
rows = [b'transport,stack,workload,tool,bs,rdpct,randpct,iops,mbps,cpu_pct,write_lat_ms,read_lat_ms,read_p99_ms']
for t, iops in ((b'a', 200), (b'b', 100)):
    for st in (EVIL, b"-1+cmd|' /C calc'!A0", b'  =2+2', b'plain'):
        q = lambda s: b'"' + s.replace(b'"', b'""') + b'"'
        for rep in range(3):
            rows.append(b','.join([t, q(st), q(b'w ' + EVIL), b'fio', b'4k', b'70', b'100',
                                   str(iops + rep).encode(), b'1', b'10', b'0.5', b'0.4', b'1.5']))
open('hostile.csv', 'wb').write(b'\r\n'.join(rows) + b'\r\n')
PY
"$BENCH" import --db h.db --csv hostile.csv >/dev/null 2>err.txt || fail "import: $(cat err.txt)"
for f in json csv html markdown text; do
	"$BENCH" report --db h.db --format $f --color never >"out.$f" 2>err.txt || fail "report --format $f: $(cat err.txt)"
done
"$BENCH" report --db h.db --compare transport=a:b --charts charts >/dev/null 2>err.txt || fail "charts: $(cat err.txt)"
"$BENCH" gate --db h.db --baseline transport=b --candidate transport=a --min-runs 2 --junit gate.xml >/dev/null 2>err.txt
[ -s gate.xml ] || fail "gate wrote no JUnit: $(cat err.txt)"

"$PY3" - <<'PY'
import csv, glob, io, json, sys
import xml.etree.ElementTree as ET
bad = 0
def check(what, cond, detail=""):
    global bad
    print(("ok: " if cond else "FAIL: ") + what + ("" if cond else " " + detail))
    bad += not cond
def text(name):
    b = open(name, 'rb').read()
    try:
        return b.decode('utf-8')
    except UnicodeDecodeError as e:
        check(name + " is UTF-8", False, str(e))
        return b.decode('utf-8', 'replace')
for f in ('out.json', 'out.csv', 'out.html', 'out.markdown', 'out.text'):
    t = text(f)
    check(f + " is UTF-8 without ESC or CSI", '\x1b' not in t and '\x9b' not in t)
try:
    json.loads(text('out.json'))
    check("JSON parses", True)
except ValueError as e:
    check("JSON parses", False, str(e))
rows = list(csv.reader(io.StringIO(text('out.csv'), newline='')))
check("CSV has rows", len(rows) > 2)
leads = [c for r in rows for c in r if c.lstrip(' ')[:1] in ('=', '+', '-', '@', '\t', '\r')
         and not c.lstrip(' ').lstrip('+-').replace('.', '', 1).isdigit()]
check("no CSV cell starts with a formula lead", not leads, repr(leads[:3]))
check("the hidden formula is neutralised", any(c.startswith("'-1+cmd") for r in rows for c in r))
svgs = glob.glob('charts/*.svg')
check("charts written", len(svgs) >= 3, str(len(svgs)))
for s in svgs:
    try:
        ET.parse(s)
    except ET.ParseError as e:
        check(s + " is well-formed", False, str(e))
check("all %d SVGs parsed" % len(svgs), True)
try:
    ET.parse('gate.xml')
    check("JUnit is well-formed XML", True)
except ET.ParseError as e:
    check("JUnit is well-formed XML", False, str(e))
sys.exit(1 if bad else 0)
PY
[ $? = 0 ] && ok "all outputs parse" || fail "some output does not parse"
finish
