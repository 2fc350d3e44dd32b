#!/bin/bash
# plan_vdbench: issue 3 acceptance 2 (parameter files). Every parameter file in tests/fixtures/vdbench/params
# plans with the run count of vdbench's for-loop semantics, and `bench plan -v` shows each run's fio
# translation; file-system (fsd/fwd) and replay files are refused with exit 3 and a reason. The expected counts
# follow vdbench's rules (docs/vdbench-facts.md), not bench's output: forxfersize=(4k-512k,d) is 4k..512k
# doubling = 8 runs; iorate=curve is a max run plus the 6 default curve points = 7; abbreviations
# (io=curve,forx=(1k-64k,d)) is 7 sizes x 7 = 49; forthreads=(1,4,16) x forxfersize=(4k,64k) = 3 x 2 = 6;
# two-rds has two rds (rd=default is not a run); every other raw file one run.
set -euo pipefail
. "$BENCH_SRC/tests/lib/failfast.sh"
P="$BENCH_SRC/tests/fixtures/vdbench/params"
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

H=vdb-8vmdk-100ws-4k-100rdpct-100randompct-8threads
expect_runs $H 1
for f in random-read random-write random-rw seq-read seq-write seq-rw skew-distribution multi-host \
	multi-host-wildcard; do
	expect_runs raw/$f 1
done
expect_runs raw/two-rds 2
expect_runs raw/forthreads 6
expect_runs raw/abbreviations 49
for f in random-read-xfersizes seq-write-xfersizes; do expect_runs raw/$f 8; done
for f in random-rw-curve seq-read-curve; do expect_runs raw/$f 7; done
expect_refused raw/replay "replay"
for f in "$P"/filesys/*; do
	expect_refused "filesys/$(basename "$f")" "file-system"
done

# every file of the fixture directory is covered above (SOURCES.md is not a parameter file)
covered=$(find "$P" -type f ! -name SOURCES.md | wc -l)
[ "$covered" -eq 21 ] || { echo "FAIL: $covered parameter files in the fixtures, the test knows 21" >&2; fail=1; }

# the documented translation of the HCIbench file
"$BENCH" plan -v "$P/$H" >"$T/h"
for l in 'rw=randread' 'bs=4k' 'iodepth=8' 'direct=1' 'size=100%' 'runtime=300' 'ramp_time=60'; do
	grep -qx "$l" "$T/h" || { echo "FAIL hcibench file: no '$l' in the translation" >&2; fail=1; }
done
grep -q "^   1  $H " "$T/h" || { echo "FAIL: HCIbench name" >&2; fail=1; }
# the prose lines that do not start with '*' are reported with file:line and skipped
"$BENCH" plan "$P/raw/abbreviations" >/dev/null 2>"$T/w"
[ "$(grep -c 'raw/abbreviations:[678]: line is not' "$T/w")" -eq 3 ] || { echo "FAIL: prose lines: $(cat "$T/w")" >&2; fail=1; }
# abbreviations' 49 runs: 7 transfer sizes 1k..64k, each a max run then 6 curve points
"$BENCH" plan "$P/raw/abbreviations" --format json >"$T/e4.json" 2>/dev/null
python3 - "$T/e4.json" <<'PY' || fail=1
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
sizes = [r["bs"] for r in runs]
want = [s for s in ["1k", "2k", "4k", "8k", "16k", "32k", "64k"] for _ in range(7)]
assert sizes == want, sizes
names = [r["name"] for r in runs[:7]]
assert names[1:] == ["run1_(%d%%)" % p for p in (10, 50, 70, 80, 90, 100)], names
PY
# forthreads: written first, so the outer loop (vdbench nests for-parameters in the order written)
"$BENCH" plan "$P/raw/forthreads" --format json >"$T/ft.json" 2>/dev/null
python3 - "$T/ft.json" <<'PY' || fail=1
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
got = [(r["iodepth"], r["bs"]) for r in runs]
assert got == [(1, "4k"), (1, "64k"), (4, "4k"), (4, "64k"), (16, "4k"), (16, "64k")], got
PY
exit $fail
