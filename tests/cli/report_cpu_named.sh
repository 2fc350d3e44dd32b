#!/bin/bash
# report_cpu_named: `bench report -v` counts a run's disk IOs only over the devices it names (issue 29,
# report/cpuview.h cpuview_count_named): the configuration's members (labels cfg.dev.NAME.*), not the system
# disk, another process's swap loop or the md device stacked on the members; then the amplification is given.
# A run that names no device keeps the old rule (every device counted, no amplification). Text and JSON.
. "$BENCH_SRC/tests/lib/failfast.sh"
DB=$T/n.db
schema_db "$DB" <<'SQL'
INSERT INTO suite(id,name,source,created_at) VALUES (1,'btrfs','run','2026-11-30T00:00:00Z');
-- run 1: raid5 over loop7/loop8/loop9 (named by its cfg.dev.* facts); run 2: names no device
INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct,runtime_s)
 VALUES (1,1,1,1,'w1','fio','done','2026-11-30T00:00:01Z','fio',4096,0,100,60),
        (2,1,2,1,'w1','fio','done','2026-11-30T00:00:02Z','fio',4096,0,100,60);
INSERT INTO run_label VALUES (1,'config','raid5'),(1,'cfg.dev.loop7.size_bytes','1073741824'),
 (1,'cfg.dev.loop8.size_bytes','1073741824'),(1,'cfg.dev.loop9.size_bytes','2147483648'),(2,'config','plain');
INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,usr_cpu_pct,sys_cpu_pct) VALUES
 (1,'*','fio-3.33',0,3,4),(2,'*','fio-3.33',0,3,4);
INSERT INTO result(id,run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes) VALUES
 (1,1,'*','total',10000,40960000,60000,166,681000),(2,2,'*','total',10000,40960000,60000,166,681000);
INSERT INTO cpu(run_id,host,role,source,cores,user_pct,nice_pct,system_pct,iowait_pct,irq_pct,softirq_pct,
                steal_pct,idle_pct,util_pct,cpu_us_per_io) VALUES
 (1,'local','initiator','procstat',2, 5,0,5,10,0,0,0,80, 10,1000),(1,'*','initiator','procstat',2, 5,0,5,10,0,0,0,80, 10,1000),
 (2,'local','initiator','procstat',2, 5,0,5,10,0,0,0,80, 10,1000),(2,'*','initiator','procstat',2, 5,0,5,10,0,0,0,80, 10,1000);
INSERT INTO disk(run_id,host,device,reads,writes,read_sectors,write_sectors,io_ticks_ms) VALUES
 (1,'local','loop7',5000,10000,0,0,1),(1,'local','loop8',5000,10000,0,0,1),(1,'local','loop9',5000,10000,0,0,1),
 (1,'local','sda',7,900,0,0,1),(1,'local','loop0',0,4000,0,0,1),(1,'local','md0',0,10000,0,0,1),
 (2,'local','sda',7,900,0,0,1),(2,'local','loop0',0,4000,0,0,1);
SQL
"$BENCH" report --db "$DB" -v >"$T/out" 2>"$T/err" || fail "-v: $(cat "$T/err")"
"$BENCH" report --db "$DB" -v --format json >"$T/out.json" 2>"$T/err" || fail "-v json: $(cat "$T/err")"
"$PY3" - "$T/out" "$T/out.json" <<'PY' || fail "named devices: $(sed -n '/-- Disks/,$p' "$T/out")"
import json, re, sys
text = open(sys.argv[1]).read().split('== CPU and disks', 1)[1]
def table(title):
    part = text.split('-- ' + title + '\n', 1)[1]
    lines = []
    for l in part.split('\n'):
        if not l.startswith('  '):
            break
        lines.append(re.split(r' {2,}', l.strip()))
    return [dict(zip(lines[0], l)) for l in lines[1:]]
disks = table('Disks')
counted = sorted(r['device'] for r in disks if r['run'] == '1' and r['counted'] == 'yes')
assert counted == ['loop7', 'loop8', 'loop9'], counted
assert sorted(r['device'] for r in disks if r['run'] == '2' and r['counted'] == 'yes') == ['loop0', 'sda']
amp = {r['run']: r for r in table('IO amplification')}
assert amp['1']['device IOs'] == '45000' and amp['1']['IO amplification'] == '4.50', amp['1']
assert amp['2']['device IOs'] == '4907' and amp['2']['IO amplification'] == '-', amp['2']
t = open(sys.argv[2]).read()
assert '"devices_of":"named"' in t and '"device_ios":45000' in t and '"device_ios":4907' in t, t[:300]
print('report_cpu_named: run 1 counts %s (45000 IOs, 4.50x), run 2 names none (4907, no amplification)' % counted)
PY
echo "ok"
