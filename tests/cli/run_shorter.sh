#!/usr/bin/env bash
# run_shorter (issue 28): --runtime, --ramp, --size, --iodepth, --numjobs on plan and run replace every run's own
# value without renaming it. A suite run in full (runtime 3) and with `--runtime 2 --ramp 1`: the same run names,
# the stored job files say runtime=2 and ramp_time=1, and a gate between them is INVALID naming runtime (exit 3).
# plan and run print the estimated wall time first (run) and last (plan); a bad value names the option, not a
# suite line (exit 3). Real fio, 2-3 s runs.
. "$BENCH_SRC/tests/lib/common.sh"
command -v fio >/dev/null || { echo "SKIP: needs fio"; exit 77; }
write_lines s.suite '[suite]' 'name = short' '' '[workload rr]' rw=randread bs=4k iodepth=4 size=16m runtime=3 \
	ramp_time=0 '[workload sw]' rw=write bs=64k iodepth=2 size=16m runtime=3 ramp_time=0

"$BENCH" plan s.suite --runtime 2 --ramp 1 --target t.dat >plan.txt 2>err.txt
expect_eq "plan: exit" "$?" 0
grep -qE '^ +1 +rr .* 1s +2s ' plan.txt && ok "plan shows ramp 1s, runtime 2s" || fail "plan: $(cat plan.txt)"
grep -q '^2 runs, estimated wall time 0:' plan.txt && ok "plan says the estimated time" || fail "plan estimate: $(cat plan.txt)"

"$BENCH" run s.suite --db d.db --target t.dat -q || fail "full-length run"
"$BENCH" run s.suite --db d.db --target t.dat --runtime 2 --ramp 1 >run.txt 2>&1 || fail "short run: $(cat run.txt)"
expect_eq "run's first line" "$(head -1 run.txt)" "2 runs, estimated wall time 0:$(sed -n 's/.*estimated wall time 0:\([0-9]*\).*/\1/p' plan.txt)"
expect_eq "names of the full runs" "$(q d.db "SELECT group_concat(name) FROM run WHERE suite_id = 1")" "rr,sw"
expect_eq "names of the short runs" "$(q d.db "SELECT group_concat(name) FROM run WHERE suite_id = 2")" "rr,sw"
job=$(q d.db "SELECT CAST(content AS TEXT) FROM artifact a JOIN run r ON r.id = a.run_id WHERE r.suite_id = 2 AND r.name = 'rr' AND a.name = 'jobfile'")
case $job in
*"runtime=2"*"ramp_time=1"* | *"ramp_time=1"*"runtime=2"*) ok "stored job file: runtime=2, ramp_time=1" ;;
*) fail "stored job file: $job" ;;
esac
"$BENCH" gate --db d.db --baseline suite_id=1 --candidate suite_id=2 >gate.txt 2>gate.err
expect_eq "gate full vs short: exit" "$?" 3
grep -q '^INVALID  rr .*not like for like: .*runtime: baseline 3, candidate 2' gate.txt && ok "gate INVALID naming runtime" ||
	fail "gate: $(cat gate.txt)"

before=$(sha256sum <d.db)
for bad in "--runtime 3x" "--ramp -1" "--size abc" "--iodepth 0" "--numjobs x"; do
	# shellcheck disable=SC2086
	"$BENCH" run s.suite --db d.db --target t.dat $bad >out.txt 2>err.txt
	expect_eq "run $bad: exit" "$?" 3
	opt=${bad%% *}
	if grep -q "^bench: error: $opt " err.txt && ! grep -q 's.suite:' err.txt; then ok "$bad: names the option"
	else fail "$bad: $(cat err.txt)"; fi
done
expect_eq "database unchanged by the refusals" "$(sha256sum <d.db)" "$before"
finish
