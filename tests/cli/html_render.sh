#!/bin/bash
# html_render: the HTML page prints to a clean PDF (issue 29, acceptance 5). Two configurations with record steps
# run for 1 s on fio's null engine; headless chromium prints the page to PDF; the PDF's
# text holds both records (printed open) and the last column heading of every table on the page (no table cut at
# the right edge), and pdftoppm renders every page. Exit 77 when chromium, pdftotext or pdftoppm is missing.
. "$BENCH_SRC/tests/lib/failfast.sh"
CHROME=$(command -v chromium || command -v chromium-browser) || { echo "SKIP: chromium is not installed"; exit 77; }
for p in pdftotext pdftoppm pdfinfo; do
	command -v $p >/dev/null || { echo "SKIP: $p is not installed (poppler-utils)"; exit 77; }
done
cat >"$T/c.suite" <<'SUITE'
[suite]
name = render
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
chrome() { timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile" \
	"$@" "file://$T/r.html" >/dev/null 2>&1; }
chrome --print-to-pdf="$T/r.pdf" || fail "chromium print-to-pdf"
pages=$(pdfinfo "$T/r.pdf" | awk '/^Pages:/ {print $2}')
[ "${pages:-0}" -ge 1 ] || fail "PDF has no page"
pdftoppm -png -r 30 "$T/r.pdf" "$T/page" || fail "pdftoppm"
[ "$(ls "$T"/page*.png | wc -l)" = "$pages" ] || fail "pdftoppm rendered $(ls "$T"/page*.png | wc -l) of $pages pages"
pdftotext "$T/r.pdf" "$T/r.txt" || fail "pdftotext"
"$PY3" - "$T/r.html" "$T/r.txt" "$pages" <<'PY' || fail "pdf"
import html, re, sys
page = open(sys.argv[1], encoding='utf-8').read()
text = re.sub(r'\s+', '', open(sys.argv[2], encoding='utf-8').read())
for want in ('btrfs filesystem show: Label: none <alpha> devices 4', 'mdadm --detail: Raid Level : raid5 & chunk 512K'):
    assert re.sub(r'\s+', '', want) in text, ('record not printed', want)
tables = re.findall(r'<table[^>]*>.*?</table>', page, re.S)
assert len(tables) >= 4, len(tables)
for tb in tables:
    last = re.findall(r'<th[^>]*>(.*?)</th>', tb, re.S)[-1]
    last = re.sub(r'\s+', '', html.unescape(re.sub(r'<[^>]+>', '', last)))
    assert last in text, ('a table is cut: its last column', last, 'is not in the PDF')
print('html_render: %s pages, %d tables whole, both records printed' % (sys.argv[3], len(tables)))
PY
echo "html_render: ok"
