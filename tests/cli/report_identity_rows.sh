#!/bin/bash
# report_identity_rows: rows of different workload identities are never folded into one median (issue 12,
# acceptance 2). `bench report --by` prints one row per distinct configuration, named by what differs:
#  1. two fio jobs of one name, one with rate_iops=15000 and one without, run by bench with ioengine=null:
#     two rows, "same (rate_iops=-)" and "same (rate_iops=15000)"; rate_iops=15k and rate_iops=15360 (fio
#     reads k as 1024) are one workload: one row of two runs;
#  2. a vdbench parameter file with a for-loop (forthreads=(1,2) x iorate=(500,1000)) run with --engine sim:
#     four runs named rd1, four rows;
#  3. a vdbench 5.04.07 output directory of a for-loop (threads=(1,2) x xfersize=(4k,8k), written here in
#     vdbench's flatfile/totals layout) imported: four rows, not one "rd1  4 runs  median (min-max)".
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
need fio
cd "$T"

# ---- 1. one name, two rate_iops ----------------------------------------------------------------------
job() { local f=$1; shift; null_job "$f" same rw=randread "$@"; } # file, then option lines
job plain.fio
job capped.fio rate_iops=15000
job k.fio rate_iops=15k
job exact.fio rate_iops=15360
"$BENCH" run --db r.db --label cfg=a --no-collectors -q plain.fio capped.fio k.fio exact.fio
out=$("$BENCH" report --db r.db --by cfg)
echo "$out"
rows=$(grep -c '^  same' <<<"$out" || true)
[ "$rows" -eq 3 ] || fail "want 3 rows of 'same' (no cap, 15000, 15360), got $rows"
grep -Eq '^  same \(rate_iops=-\) +1 ' <<<"$out" || fail "no row for the uncapped run"
grep -Eq '^  same \(rate_iops=15000\) +1 ' <<<"$out" || fail "no row for rate_iops=15000"
grep -Eq '^  same \(rate_iops=15360\) +2 ' <<<"$out" || fail "rate_iops=15k and 15360 are not one row of 2 runs"
# the capped run really ran capped: its IOPS differ from the uncapped one (no median over both)
python3 - r.db <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT json_extract(r.spec, '$.workload.opts'), x.iops FROM run r JOIN result x ON "
                  "x.run_id = r.id AND x.host = '*' AND x.ddir = 'read' ORDER BY r.id").fetchall()
plain, capped = rows[0][1], rows[1][1]
if not (capped < 16000 < plain):
    sys.exit(f"FAIL: uncapped {plain} IOPS, capped at 15000: {capped} IOPS")
print(f"uncapped {plain:.0f} IOPS, rate_iops=15000 {capped:.0f} IOPS: separate rows")
PY

# ---- 2. a vdbench for-loop file run with the sim engine -------------------------------------------------
rd1_rows() { # rd1_rows DB WHAT PATTERN ROW...: `report --by cfg` has 4 lines PATTERN, a row of 1 run for each ROW
	local db=$1 what=$2 pattern=$3 out rows want
	shift 3
	out=$("$BENCH" report --db "$db" --by cfg)
	echo "$out"
	rows=$(grep -c "$pattern" <<<"$out" || true)
	[ "$rows" -eq 4 ] || fail "$what: want 4 rows of rd1, got $rows"
	for want in "$@"; do
		grep -Eq "^  rd1 \($want\) +1 " <<<"$out" || fail "$what: no row 'rd1 ($want)' of 1 run"
	done
}
cat >loop.vdb <<EOF
sd=sd1,lun=$T/vd.dat,size=16m,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=rd1,wd=wd1,iorate=(500,1000),elapsed=1,interval=1,forthreads=(1,2)
EOF
"$BENCH" run --db s.db --engine sim --label cfg=loop --no-collectors -q loop.vdb
rd1_rows s.db "vdbench for-loop run" '^  rd1 (' \
	'iodepth=1 rate_iops=500' 'iodepth=1 rate_iops=1000' 'iodepth=2 rate_iops=500' 'iodepth=2 rate_iops=1000'

# ---- 3. a vdbench for-loop output directory imported ------------------------------------------------------
mkdir out
python3 - out <<'PY'
import sys, os
d = sys.argv[1]
hdr = ("         tod               timestamp Run Interval reqrate rate MB/sec bytes/io read% resp read_resp "
       "write_resp resp_max read_max write_max resp_std read_std write_std xfersize threads rdpct rhpct whpct "
       "seekpct lunsize version compratio dedupratio queue_depth cpu_used cpu_user cpu_kernel cpu_wait cpu_idle")
flat = ["<title>Vdbench output/flatfile.html</title><pre>", "* written for the test in vdbench 5.04.07's layout", hdr]
totals = ["<title>Vdbench output/totals.html</title><pre>"]
sec = 0
for threads in (1, 2):
    for xfer in (4096, 8192):
        rate = 11527 * threads * (4096 / xfer) * (1 if threads == 1 else 1.95)
        totals.append(f"00:00:{sec:02d}.000 Starting RD=rd1; I/O rate: Uncontrolled MAX; elapsed=3; "
                      f"For loops: threads={threads} xfersize={xfer // 1024}k")
        for i in (1, 2, 3):
            sec += 1
            flat.append(f"00:00:{sec:02d}.000 05/10/2023-00:00:{sec:02d}-UTC rd1 {i} 9999988 {rate:.1f} "
                        f"{rate * xfer / 1048576:.2f} {xfer} 70 0.1 0.09 0.12 1.0 0.9 1.0 0.05 0.04 0.06 {xfer} "
                        f"{threads} 70 0 0 100 1 1 n/a n/a {threads} 5 3 2 0 95")
        flat.append(f"00:00:{sec:02d}.000 05/10/2023-00:00:{sec:02d}-UTC rd1 avg_2-3 9999988 {rate:.1f} "
                    f"{rate * xfer / 1048576:.2f} {xfer} 70 0.1 0.09 0.12 1.0 0.9 1.0 0.05 0.04 0.06 {xfer} "
                    f"{threads} 70 0 0 100 1 1 n/a n/a {threads} 5 3 2 0 95")
open(os.path.join(d, "flatfile.html"), "w").write("\n".join(flat) + "\n")
open(os.path.join(d, "totals.html"), "w").write("\n".join(totals) + "\n")
open(os.path.join(d, "logfile.html"), "w").write("<pre>Vdbench distribution: vdbench50407\n")
PY
"$BENCH" import --db v.db --label cfg=vd out >/dev/null
[ "$(sqlite3 v.db 'SELECT count(*) FROM run')" -eq 4 ] || fail "the vdbench output did not import as 4 runs"
rd1_rows v.db "vdbench for-loop import" '^  rd1' 'bs=4096 iodepth=1' 'bs=8192 iodepth=1' 'bs=4096 iodepth=2' \
	'bs=8192 iodepth=2'
echo "report_identity_rows: ok"
