#!/bin/bash
# html_study_page: the HTML page of a study, as the built-in sim study and a real configuration study give it
# (issue 29), over fixed inputs (SQL, no fio):
#  - groups: a label that only names the workload (vdbench.rd, vdbench.wd: the same on every run of a vdbench
#    workload, absent on the fio ones) splits no group, in the page and in `bench report` alike (2 configurations,
#    2 groups, not 4); the labels of the situation (config, stack) still do;
#  - disk IO: a table of each run's device IOs counted only over the devices it names (its configuration's
#    members cfg.dev.NAME.*, or its /dev target), never the system disk or another process's loop device; runs
#    that name none have no row (one line says how many);
#  - "Suites and setup" lists no cfg.* fact (the configuration's facts are shown once, in its collapsible
#    section with its record), and the per-configuration table links to them.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/s.db
{
	echo "INSERT INTO suite(id,name,source,created_at) VALUES (1,'study','run','2026-11-30T00:00:00Z');"
	id=0
	for cfg in raid0 raid5; do
		for w in fio-w vdb-w; do
			id=$((id + 1))
			bs=4096
			[ $w = vdb-w ] && bs=8192
			echo "INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct,runtime_s)
 VALUES ($id,1,$id,1,'$w','fio','done','2026-11-30T00:00:0${id}Z','fio',$bs,0,100,60);"
			echo "INSERT INTO run_label VALUES ($id,'config','$cfg'),($id,'stack','md-$cfg'),($id,'suite','study'),
 ($id,'cfg.kernel','6.1.0'),($id,'cfg.cpus','8'),($id,'cfg.mem_kib','16000000'),
 ($id,'cfg.dev.loop7.size_bytes','1073741824'),($id,'cfg.dev.loop8.size_bytes','1073741824');"
			[ $w = vdb-w ] && echo "INSERT INTO run_label VALUES ($id,'vdbench.rd','run1'),($id,'vdbench.wd','wd1');"
			echo "INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,usr_cpu_pct,sys_cpu_pct) VALUES ($id,'*','fio-3.33',0,3,4);"
			echo "INSERT INTO result(run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes) VALUES
 ($id,'*','total',10000,40960000,60000,166,681000);"
			echo "INSERT INTO cpu(run_id,host,role,source,cores,user_pct,nice_pct,system_pct,iowait_pct,irq_pct,softirq_pct,
 steal_pct,idle_pct,util_pct,cpu_us_per_io) VALUES ($id,'local','initiator','procstat',2,5,0,5,10,0,0,0,80,10,1000);"
			echo "INSERT INTO disk(run_id,host,device,reads,writes,read_sectors,write_sectors,io_ticks_ms) VALUES
 ($id,'local','loop7',5000,10000,0,0,1),($id,'local','loop8',5000,10000,0,0,1),($id,'local','sda',7,900,0,0,1),
 ($id,'local','loop0',0,4000,0,0,1);"
		done
	done
	# run 5: a plain run that names no device (no members, no /dev target)
	echo "INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct,runtime_s)
 VALUES (5,1,5,1,'fio-w','fio','done','2026-11-30T00:00:09Z','fio',4096,0,100,60);"
	echo "INSERT INTO run_label VALUES (5,'config','plain'),(5,'stack','none'),(5,'suite','study');"
	echo "INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,usr_cpu_pct,sys_cpu_pct) VALUES (5,'*','fio-3.33',0,3,4);"
	echo "INSERT INTO result(run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes) VALUES (5,'*','total',10000,40960000,60000,166,681000);"
	echo "INSERT INTO disk(run_id,host,device,reads,writes,read_sectors,write_sectors,io_ticks_ms) VALUES
 (5,'local','sda',7,900,0,0,1),(5,'local','loop0',0,4000,0,0,1);"
} | schema_db "$DB"

"$BENCH" report --db "$DB" --html "$T/r.html" >"$T/out" 2>"$T/err" || fail "report --html: $(cat "$T/err")"
"$PY3" - "$T/r.html" "$T/out" <<'PY' || fail "html study page"
import re, sys
t = open(sys.argv[1], encoding='utf-8').read()
text = open(sys.argv[2], encoding='utf-8').read()
# groups: by configuration only, never by vdbench.rd/wd (text and HTML alike)
heads = [l for l in text.split('\n') if l.startswith('-- ')]
assert len(heads) == 3 and not any('vdbench' in h for h in heads), heads
assert '5 runs, 3 groups' in t, re.search(r'\d+ runs, \d+ groups', t).group(0)
res = t[t.index('id="results"'):t.index('id="runs"')]
assert 'vdbench.rd' not in res, 'a group split by vdbench.rd'
# disk IO: counted over loop7 and loop8 only (30000 IOs, amplification 3.00); run 5 names none: no total
disks = t[t.index('<h2 id="disks">'):]
disks = disks[:disks.index('</table>')]
rows = {int(m.group(1)): m.group(2) for m in re.finditer(r'<tr><td class="n">(\d+)</td>(.*?)</tr>', disks, re.S)}
assert sorted(rows) == [1, 2, 3, 4], sorted(rows)
for i in (1, 2, 3, 4):
    cells = re.findall(r'<td[^>]*>(.*?)</td>', rows[i], re.S)
    assert 'loop7' in cells[2] and 'loop8' in cells[2] and 'sda' not in cells[2] and 'loop0' not in cells[2], cells
    assert cells[3] == '30000' and cells[5] == '3.00', cells
    assert 'sda' in cells[6] and 'loop0' in cells[6], cells
assert '1 run with disk rows names no device' in t, 'run 5 (no device named) not said'
assert 'href="#disks"' in t
# Suites and setup: no cfg.* fact listed there; each configuration's facts once, in its section
meta = t[t.index('id="meta"'):t.index('id="configs"')]
assert 'cfg.' not in meta.replace('<code>cfg.*</code>', ''), re.findall(r'cfg\.[a-z_.0-9]+', meta)
for cfg in ('raid0', 'raid5'):
    m = re.search(r'<details class="record" id="(cfg\d+)"><summary>configuration <code>%s</code>.*?</details>' % cfg, t, re.S)
    assert m, ('no section of', cfg)
    sec = m.group(0)
    assert 'cfg.cpus' in sec and '16000000' in sec and 'cfg.dev.loop7.size_bytes' in sec, sec
    assert 'href="#%s"' % m.group(1) in t, 'the table does not link to the facts'
assert t.count('cfg.mem_kib') == 2, t.count('cfg.mem_kib')  # once per configuration
print('html_study_page: 3 groups (no vdbench.rd split), disk IO of the named devices, cfg facts once each')
PY
echo "html_study_page: ok"
