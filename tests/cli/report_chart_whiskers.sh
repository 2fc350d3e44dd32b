#!/bin/bash
# report_chart_whiskers: the bar charts draw an error bar (whisker) from the min to the max of repeated runs
# that differ, none for a figure of one run, and the title says what the whiskers are (docs/charts.md).
# Fixed inputs (SQL), gnuplot draws the charts.
. "$BENCH_SRC/tests/lib/failfast.sh"
command -v gnuplot >/dev/null || { echo "report_chart_whiskers: no gnuplot: nothing to draw (skipped)"; exit 77; }
DB=$T/w.db
{
	echo "INSERT INTO suite(id,name,source,created_at) VALUES (1,'s','run','2026-11-30T00:00:00Z');"
	id=0
	for cfg in a b; do
		for w in w1 w3; do
			n=3; [ $w = w3 ] && n=1
			for rep in $(seq $n); do
				id=$((id + 1)); iops=$((1000 + rep * 50)); [ $cfg = b ] && iops=$((iops * 2))
				echo "INSERT INTO run(id,suite_id,seq,repetition,name,engine,status,started_at,tool,bs_bytes,read_pct,random_pct,runtime_s)
 VALUES ($id,1,$id,$rep,'$w','fio','done','2026-11-30T00:00:0${rep}Z','fio',$((4096 * ${w#w})),0,100,60);"
				echo "INSERT INTO run_label VALUES ($id,'config','$cfg');"
				echo "INSERT INTO run_host(run_id,host,fio_version,start_offset_ms,usr_cpu_pct,sys_cpu_pct) VALUES ($id,'*','fio-3.33',0,5,5);"
				echo "INSERT INTO result(run_id,host,ddir,ios,bytes,runtime_ms,iops,bw_bytes) VALUES
 ($id,'*','total',$((iops * 60)),$((iops * 60 * 4096)),60000,$iops,$((iops * 4096)));"
			done
		done
	done
} | schema_db "$DB"
"$BENCH" report --db "$DB" --compare config=b:a --charts "$T/ch" >/dev/null 2>"$T/err" || fail "charts: $(cat "$T/err")"
"$PY3" - "$T/ch" <<'PY' || fail "whiskers"
import glob, sys
d = sys.argv[1]
gp = open(glob.glob(d + '/a-*-w1.gp')[0]).read()
assert '(whiskers: min-max of the repeated runs)' in gp and 'with vectors nohead' in gp, 'w1: no whiskers'
# a-01-w1.dat: x, then per series (b, a) value "label" colour lo hi label-height
row = open(glob.glob(d + '/a-*-w1.dat')[0]).read().split('\n')[0].split()
assert row[1] == '2200' and row[4:7] == ['2100', '2300', '2300'], row
assert row[7] == '1100' and row[10:13] == ['1050', '1150', '1150'], row
gp3 = open(glob.glob(d + '/a-*-w3.gp')[0]).read()
assert 'whiskers' not in gp3 and 'vectors' not in gp3, 'w3 (one run) has a whisker'
print('report_chart_whiskers: w1 whiskers 2100-2300 and 1050-1150, w3 (n=1) none')
PY
echo "ok"
