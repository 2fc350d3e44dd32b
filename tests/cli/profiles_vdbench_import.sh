#!/bin/bash
# profiles_vdbench_import: issue 3 acceptance 2 (outputs). Every output directory in
# tests/fixtures/vdbench/outputs imports with `bench import DIR`; for each run the stored rate (total
# IOPS), MB/s (bandwidth / 2^20), mean/max/stddev response time (ms) and CPU (user, kernel, util = user +
# kernel) equal the flatfile's avg_ row. The avg_ rows are read here with awk by header name, independently of
# bench. Also: runs are told apart (for-loop labels, the automatic SD_format run flagged), n/a is missing
# (no CPU row when vdbench had none), and a directory without a flatfile is refused with exit 3.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
O="$BENCH_SRC/tests/fixtures/vdbench/outputs"
cd "$T"

for d in "$O"/*/; do
	d=${d%/}
	name=$(basename "$d")
	rm -f t.db
	"$BENCH" import --db t.db "$d" >/dev/null || fail "$name: import exited $?"
	# the avg_ rows by header name: Run rate MB/sec resp resp_max resp_std cpu_user cpu_kernel
	awk '
		/^[*<]/ || NF == 0 { next }
		!hdr && /^[ \t]/ { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
		hdr && $(c["Interval"]) ~ /^avg_/ {
			u = ("cpu_user" in c) ? $(c["cpu_user"]) : "n/a"; k = ("cpu_kernel" in c) ? $(c["cpu_kernel"]) : "n/a"
			print $(c["Run"]), $(c["rate"]), $(c["MB/sec"]), $(c["resp"]), $(c["resp_max"]), $(c["resp_std"]), u, k
		}' "$d/flatfile.html" >want.txt
	n=$(wc -l <want.txt)
	[ "$n" -gt 0 ] || fail "$name: no avg_ rows found by the test itself"
	sqlite3 -separator ' ' t.db "
		SELECT r.name, t.iops, t.bw_bytes / 1048576.0, t.lat_mean_ns / 1e6, t.lat_max_ns / 1e6,
		       t.lat_stddev_ns / 1e6,
		       coalesce((SELECT user_pct FROM cpu c WHERE c.run_id = r.id), 'n/a'),
		       coalesce((SELECT system_pct FROM cpu c WHERE c.run_id = r.id), 'n/a'),
		       coalesce((SELECT util_pct FROM cpu c WHERE c.run_id = r.id), 'n/a')
		FROM run r JOIN result t ON t.run_id = r.id AND t.host = '*' AND t.ddir = 'total' ORDER BY r.id" >got.txt
	[ "$(wc -l <got.txt)" -eq "$n" ] || fail "$name: $(wc -l <got.txt) runs stored, $n avg_ rows"
	paste -d' ' want.txt got.txt | awk -v name="$name" '
		function near(a, b) { if (a == "n/a" || b == "n/a") return a == b; d = a - b; if (d < 0) d = -d;
			return d <= 1e-9 * (a < 0 ? -a : a) + 1e-9 }
		{
			# want: run rate mb resp max std user kernel | got: run iops mb resp max std user system util
			if ($1 != $9) { print "FAIL " name ": run " NR " is " $9 ", avg_ row says " $1; bad = 1 }
			for (i = 2; i <= 6; i++) if (!near($i, $(i + 8))) { print "FAIL " name " " $1 ": column " i " stored " $(i + 8) ", avg_ row " $i; bad = 1 }
			if (!near($7, $15) || !near($8, $16)) { print "FAIL " name " " $1 ": cpu " $15 "/" $16 " vs " $7 "/" $8; bad = 1 }
			if ($7 != "n/a" && !near($7 + $8, $17)) { print "FAIL " name " " $1 ": util " $17 " != user+kernel"; bad = 1 }
			if ($7 == "n/a" && $17 != "n/a") { print "FAIL " name " " $1 ": a CPU row without CPU data"; bad = 1 }
		}
		END { exit bad }' >&2 || fail "$name: stored values differ from the avg_ rows"
	echo "$name: $n runs equal their avg_ rows"
done

# for-loop runs and format runs are told apart by labels. The expected figures follow from the fixtures'
# totals.html/logfile.html (vdbench writes "For loops: threads=4" for an rd with threads=4, "None" for none):
# two-host-raw-50401: rd1..rd3, each "For loops: threads=4", vdbench50401, CPU on the avg_ rows;
# single-host-quicktest-50407: SD_format ("threads=2 iorate=max") and rd1 ("None"), vdbench50407, CPU n/a.
rm -f t.db
"$BENCH" import --db t.db "$O/two-host-raw-50401" "$O/single-host-quicktest-50407" >/dev/null
[ "$(sqlite3 t.db "SELECT count(*) FROM run_label WHERE key='vdbench.forloops' AND value='threads=4'")" -eq 3 ] ||
	fail "for-loop labels"
[ "$(sqlite3 t.db "SELECT count(*) FROM run_label WHERE key='vdbench.forloops' AND value='threads=2 iorate=max'")" -eq 1 ] ||
	fail "the SD_format run's for-loop label"
[ "$(sqlite3 t.db "SELECT r.name FROM run r JOIN run_label l ON l.run_id=r.id WHERE l.key='vdbench.format'")" == SD_format ] ||
	fail "the SD_format run is not flagged"
[ "$(sqlite3 t.db "SELECT count(*) FROM run_label WHERE key='vdbench.version' AND value='vdbench50407'")" -eq 2 ] ||
	fail "version labels"
[ "$(sqlite3 t.db "SELECT count(*) FROM run_label WHERE key='vdbench.version' AND value='vdbench50401'")" -eq 3 ] ||
	fail "version labels (5.04.01)"
[ "$(sqlite3 t.db "SELECT group_concat(value, ' ') FROM (SELECT value FROM run_label WHERE key='vdbench.iorate' ORDER BY run_id)")" == "200 2000 max max 100" ] ||
	fail "iorate labels (reqrate 9999988 is max)"
[ "$(sqlite3 t.db "SELECT count(*) FROM cpu")" -eq 3 ] || fail "CPU rows: only the 5.04.01 runs have CPU data"

# a directory that is not a vdbench output: exit 3, one line, nothing stored
mkdir notvdb
before=$(sqlite3 t.db "SELECT count(*) FROM run")
rc=0; "$BENCH" import --db t.db notvdb >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 3 ] && [ "$(wc -l <err.txt)" -eq 1 ] || fail "plain directory: exit $rc $(cat err.txt)"
mkdir broken; printf '<pre>\n* comment\n         tod Run Interval rate\n' >broken/flatfile.html
rc=0; "$BENCH" import --db t.db broken >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 3 ] && grep -q "flatfile.html:3:" err.txt || fail "flatfile without MB/sec: exit $rc $(cat err.txt)"
[ "$(sqlite3 t.db "SELECT count(*) FROM run")" -eq "$before" ] || fail "a refused import stored runs"
echo "profiles_vdbench_import: ok"
