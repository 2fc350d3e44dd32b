#!/bin/bash
# report_html_spread: the HTML page shows what the text outputs show (issue 29): every figure with its n and
# spread (min-max for 3 repetitions), the n=1 and short marks with their notes, "~" on a ratio cell within
# noise, "n/a" for a metric that is the same in every run (CPU 100 %), the labels compared away (stack with
# config) and the configuration record's facts that differ (cfg.kernel) under the ratio table; --explain puts
# the explain section in the page, and `--format json --explain` is one JSON document with an "explain" member.
# The page carries exactly one bare <script>. Fixed inputs (SQL), no fio.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/s.db
{
	echo "INSERT INTO suite(id,name,source,created_at) VALUES (1,'study','run','2026-11-30T00:00:00Z');"
	id=0
	# config a (stack x, kernel 6.1) and b (stack y, kernel 6.6): w1 3 runs each, within noise (overlapping);
	# w2 3 runs each, apart; w3 one run each, 10 s (n=1, short); CPU 100 % everywhere
	for cfg in a b; do
		stack=x kern=6.1
		[ $cfg = b ] && stack=y kern=6.6
		for w in w1 w2 w3; do
			n=3 rt=60
			[ $w = w3 ] && n=1 rt=10
			for rep in $(seq $n); do
				id=$((id + 1))
				case $cfg$w in
				aw1) iops=$((1000 + rep * 50)) ;; bw1) iops=$((1020 + rep * 50)) ;;
				aw2) iops=$((2000 + rep * 10)) ;; bw2) iops=$((1000 + rep * 10)) ;;
				*) iops=500 ;;
				esac
				echo "INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct,runtime_s)
 VALUES ($id,1,$id,$rep,'$w','fio','done','2026-11-30T00:00:0${rep}Z','fio',$((4096 * ${w#w})),0,100,$rt);"
				echo "INSERT INTO run_label VALUES ($id,'config','$cfg'),($id,'stack','$stack'),($id,'cfg.kernel','$kern');"
				echo "INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,usr_cpu_pct,sys_cpu_pct) VALUES ($id,'*','fio-3.33',0,50,50);"
				echo "INSERT INTO result(run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes) VALUES
 ($id,'*','total',$((iops * rt)),$((iops * rt * 4096)),$((rt * 1000)),$iops,$((iops * 4096)));"
			done
		done
	done
} | schema_db "$DB"

"$BENCH" report --db "$DB" --compare config=b:a --html "$T/r.html" 2>"$T/err" >/dev/null ||
	fail "report --html: $(cat "$T/err")"
"$BENCH" report --db "$DB" --compare config=b:a --format html --explain >"$T/x.html" 2>"$T/err" ||
	fail "report --format html --explain: $(cat "$T/err")"
"$BENCH" report --db "$DB" --compare config=b:a --format json --explain >"$T/x.json" 2>"$T/err" ||
	fail "report --format json --explain: $(cat "$T/err")"
"$PY3" - "$T/r.html" "$T/x.html" "$T/x.json" <<'PY' || fail "html content"
import json, re, sys
t = open(sys.argv[1], encoding='utf-8').read()
x = open(sys.argv[2], encoding='utf-8').read()
for page in (t, x):
    s = re.findall(r'(?is)<script\b([^>]*)>(.*?)</script>', page)
    assert len(s) == 1 and s[0][0] == '' and page.lower().count('<script') == 1, 'not one bare <script>'
    assert not re.search(r'(?i)&lt;|</|w1|cfg\.kernel', s[0][1]), 'user text in the script'
# ratio rows: workload cell, then IOPS ... CPU
rows = {}
for m in re.finditer(r'(?s)<tr class="matched"><td class="w">(.*?)</td>(.*?)</tr>', t.split('id="results"')[0]):
    name = re.sub(r'<[^>]+>', '', m.group(1))
    rows[name.split(' ')[0]] = (name, re.findall(r'(?s)<td class="([^"]*)"[^>]*>(.*?)</td>', m.group(2)))
assert set(rows) == {'w1', 'w2', 'w3'}, rows.keys()
iops = {w: rows[w][1][0] for w in rows}
assert iops['w1'][1].endswith('~') and 'noise' in iops['w1'][0], ('w1 within noise', iops['w1'])
assert '~' not in iops['w2'][1] and 'noise' not in iops['w2'][0] and abs(float(iops['w2'][1]) - 0.5) < 0.01, iops['w2']
assert '~' not in iops['w3'][1], ('n=1 is never within noise', iops['w3'])
assert rows['w3'][0].endswith('(n=1 short)') and '(' not in rows['w1'][0], (rows['w3'][0], rows['w1'][0])
cpu = {w: rows[w][1][-1] for w in rows}
assert all(c[1] == 'n/a' and 'good' not in c[0] and 'bad' not in c[0] for c in cpu.values()), cpu
# notes under the ratio table: "~", the marks, stack compared away, cfg.kernel differs (6.6 for b, 6.1 for a)
ratio = t.split('id="ratio"')[1].split('id="results"')[0]
for needle in ('within noise', 'n=1: one run, no spread', 'short: measured for less than 30 s',
               'Compared with <code>config</code>', '<code>stack</code>', 'what differs'):
    assert needle in ratio, needle
assert re.search(r'<tr><td><code>cfg\.kernel</code></td><td>6\.6</td><td>6\.1</td></tr>', ratio), 'cfg diff row'
# results: every figure has its n; 3 repetitions that differ show min-max
res = t.split('id="results"')[1].split('id="runs"')[0]
assert re.search(r'1100<br><span class="spread">1050–1150 n=3</span>', res), 'a-side w1: median, min-max, n'
assert 'n=1</span>' in res and res.count('n=3</span>') >= 4, 'n on every figure'
# --explain: the section in the page; JSON: one document with the report and its "explain" member
assert '<section class="explain">' in x and 'href="#explain"' in x and '<section class="explain">' not in t
d = json.loads(open(sys.argv[3]).read())
assert 'explain' in d and isinstance(d['explain'], list) and len(d) > 1, list(d)
print('report_html_spread: %d ratio rows, noise/n/a/marks/away/cfg checked, explain in html and json' % len(rows))
PY
echo "ok"
