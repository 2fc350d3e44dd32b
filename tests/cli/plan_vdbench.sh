#!/bin/bash
# plan_vdbench: issue 3 acceptance 2 (parameter files). Every parameter file in
# $BENCH_SHARED/fixtures/vdbench/params plans with the run count of vdbench's for-loop semantics, and
# `bench plan -v` shows each run's fio translation; file-system (fsd/fwd) and replay files are refused with
# exit 3 and a reason. The expected counts below follow reference/vdbench.md: forxfersize=(4k-512k,d) is
# 4k..512k doubling = 8 runs; iorate=curve is a max run plus 6 default curve points = 7; example4
# (io=curve,forx=(1k-64k,d)) is 7 sizes x 7 = 49; example3 has two rds; every other raw file one run.
set -euo pipefail
: "${BENCH:?}" "${BENCH_SHARED:?}"
P="$BENCH_SHARED/fixtures/vdbench/params"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

expect_runs() { # FILE N
	local f=$1 n=$2 rc=0
	"$BENCH" plan -v "$P/$f" >"$T/out" 2>"$T/err" || rc=$?
	if [ "$rc" -ne 0 ]; then echo "FAIL $f: exit $rc: $(cat "$T/err")" >&2; fail=1; return; fi
	local got; got=$(grep -E '^[0-9]+ runs?, estimated wall time' "$T/out" | cut -d' ' -f1)
	if [ "$got" != "$n" ]; then echo "FAIL $f: $got runs, want $n" >&2; fail=1; return; fi
	# -v: one fio job per run, each with its rw= and bs/bssplit/bsrange and a filename
	local jobs; jobs=$(grep -c '^# run [0-9]*:' "$T/out")
	local rws; rws=$(grep -c '^rw=' "$T/out")
	local bss; bss=$(grep -cE '^(bs|bssplit|bsrange)=' "$T/out")
	if [ "$jobs" != "$n" ] || [ "$rws" != "$n" ] || [ "$bss" != "$n" ] || ! grep -q '^filename=' "$T/out"; then
		echo "FAIL $f: -v shows $jobs jobs, $rws rw=, $bss bs= lines for $n runs" >&2; fail=1; return
	fi
	echo "$f: $got runs"
}

expect_refused() { # FILE WORD
	local f=$1 word=$2 rc=0
	"$BENCH" plan "$P/$f" >"$T/out" 2>"$T/err" || rc=$?
	local lines; lines=$(wc -l <"$T/err")
	if [ "$rc" -ne 3 ] || [ "$lines" -ne 1 ] || ! grep -q "$word" "$T/err" || ! grep -qE "$f:[0-9]+:" "$T/err"; then
		echo "FAIL $f: exit $rc, want 3 with one line naming file:line and '$word': $(cat "$T/err")" >&2; fail=1
		return
	fi
	echo "$f: refused: $(cat "$T/err")"
}

expect_runs hcibench-vdb-8vmdk-100ws-4k-100rdpct-100randompct-8threads 1
E=oracle-50407-examples
expect_runs $E/example1 1
expect_runs $E/example2 1
expect_runs $E/example3 2
expect_runs $E/example4 49
expect_runs $E/example5 1
expect_refused $E/example6 "replay"
expect_refused $E/example7 "file-system"
for f in random_read random_write random_rw seq_read seq_write seq_rw tpcc multi_host; do
	expect_runs $E/raw/$f 1
done
for f in random_read random_write random_rw seq_read seq_write seq_rw; do
	expect_runs $E/raw/${f}_xfersizes 8
	expect_runs $E/raw/${f}_curve 7
done
for f in "$P"/$E/filesys/*; do
	expect_refused "$E/filesys/$(basename "$f")" "file-system"
done

# every file of the fixture directory is covered above (readme.txt is not a parameter file)
covered=$(find "$P" -type f ! -name readme.txt | wc -l)
[ "$covered" -eq 37 ] || { echo "FAIL: $covered parameter files in the fixtures, the test knows 37" >&2; fail=1; }

# the documented translation of the HCIbench file
"$BENCH" plan -v "$P/hcibench-vdb-8vmdk-100ws-4k-100rdpct-100randompct-8threads" >"$T/h"
for l in 'rw=randread' 'bs=4k' 'iodepth=8' 'direct=1' 'size=100%' 'runtime=300' 'ramp_time=60'; do
	grep -qx "$l" "$T/h" || { echo "FAIL hcibench file: no '$l' in the translation" >&2; fail=1; }
done
grep -q '^   1  vdb-8vmdk-100ws-4k-100rdpct-100randompct-8threads ' "$T/h" || { echo "FAIL: HCIbench name" >&2; fail=1; }
# example4's 49 runs: 7 transfer sizes 1k..64k, each a max run then 6 curve points
"$BENCH" plan "$P/$E/example4" --format json >"$T/e4.json" 2>/dev/null
python3 - "$T/e4.json" <<'PY' || fail=1
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
sizes = [r["bs"] for r in runs]
want = [s for s in ["1k", "2k", "4k", "8k", "16k", "32k", "64k"] for _ in range(7)]
assert sizes == want, sizes
names = [r["name"] for r in runs[:7]]
assert names[1:] == ["run1_(%d%%)" % p for p in (10, 50, 70, 80, 90, 100)], names
PY
exit $fail
